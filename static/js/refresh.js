// Bringing part of a page up to date in place (issue 28): the page fetches itself, as any
// request would (its own view, its own authorization), and swaps in the parts that
// changed, by id. What the person was doing survives the swap: a message being written
// (and where the caret was), the focus, and which <details> were open.

// The page at ``url`` as a document, or null (a refusal, a network error, a redirect away).
export async function fetchPage(url) {
  try {
    const response = await fetch(url, { headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin" });
    if (!response.ok || response.redirected) return null;
    return new DOMParser().parseFromString(await response.text(), "text/html");
  } catch (error) {
    return null; // offline, the server restarting: the next event or poll tries again
  }
}

function remember(root) {
  const typed = [...root.querySelectorAll("textarea[id]")]
    .filter((el) => el.value)
    .map((el) => ({ id: el.id, value: el.value, start: el.selectionStart, end: el.selectionEnd }));
  const open = [...root.querySelectorAll("details")].map((el) => el.open);
  const active = document.activeElement;
  return { typed, open, focus: active && root.contains(active) && active.id ? active.id : null };
}

function restore(root, kept) {
  for (const { id, value, start, end } of kept.typed) {
    const el = document.getElementById(id);
    if (el && root.contains(el) && !el.value) {
      el.value = value;
      if (start !== null) el.setSelectionRange(start, end);
    }
  }
  const details = [...root.querySelectorAll("details")];
  if (details.length === kept.open.length) details.forEach((el, k) => { el.open = kept.open[k]; });
  const focus = kept.focus && document.getElementById(kept.focus);
  if (focus) focus.focus({ preventScroll: true });
}

// Module scripts of the new part that this document has not run yet (a part that appears
// only later, such as an analysis's progress): parsed nodes do not run their scripts.
function runScripts(root) {
  for (const old of root.querySelectorAll("script[type=module][src]")) {
    const script = document.createElement("script");
    script.type = "module";
    script.src = old.src;
    old.replaceWith(script);
  }
}

// Replace each element of the page with id in ``ids`` by its namesake in ``doc`` (one
// missing from ``doc`` is removed). Returns whether anything was swapped.
export function swapIn(doc, ids) {
  let swapped = false;
  for (const id of ids) {
    const old = document.getElementById(id);
    const fresh = doc.getElementById(id);
    if (!old) continue;
    const kept = remember(old);
    if (!fresh) {
      old.remove();
      swapped = true;
      continue;
    }
    const node = document.adoptNode(fresh);
    old.replaceWith(node);
    runScripts(node);
    restore(node, kept);
    swapped = true;
  }
  if (swapped && doc.title) document.title = doc.title;
  return swapped;
}

// --------------------------------------------------------------------------- the checkers

// Where each side's checkers are drawn: {"white:13": {count, spots: [[x, y, element]...]}}.
// Points are the viewer's own numbering, the same before and after (the same viewer).
export function checkerPlaces(svg) {
  const places = new Map();
  if (!svg) return places;
  const add = (group, spots) => {
    const key = `${group.dataset.color}:${group.dataset.point || "off"}`;
    const count = Number(group.dataset.count) || 0;
    if (!places.has(key)) places.set(key, { count, spots });
  };
  for (const group of svg.querySelectorAll("g.checkers, g.js-checkers g.stack")) {
    if (group.dataset.point === "off") {
      add(group, [...group.querySelectorAll("rect")].map((r) => [Number(r.getAttribute("x")) + Number(r.getAttribute("width")) / 2, Number(r.getAttribute("y")), r]));
    } else {
      add(group, [...group.querySelectorAll("circle")].map((c) => [Number(c.getAttribute("cx")), Number(c.getAttribute("cy")), c]));
    }
  }
  for (const group of svg.querySelectorAll("g.off")) {
    add(group, [...group.querySelectorAll("rect")].map((r) => [Number(r.getAttribute("x")) + Number(r.getAttribute("width")) / 2, Number(r.getAttribute("y")), r]));
  }
  return places;
}

// Slide the checkers that moved from where they were (``before``) to where they are now
// in ``svg``: each checker a side gained on a place starts from the nearest place that
// side lost one, and glides there (a CSS transition). Returns how many moved.
export function animateMoves(before, svg, milliseconds = 450) {
  if (!svg || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  const after = checkerPlaces(svg);
  const keys = new Set([...before.keys(), ...after.keys()]);
  const lost = new Map();
  const gained = new Map();
  for (const key of keys) {
    const [color] = key.split(":");
    const was = before.get(key) || { count: 0, spots: [] };
    const now = after.get(key) || { count: 0, spots: [] };
    const list = (map) => map.get(color) || map.set(color, []).get(color);
    for (let k = now.count; k < was.count && was.spots.length; k += 1) {
      list(lost).push(was.spots[Math.min(k, was.spots.length - 1)]);
    }
    for (let k = was.count; k < now.count && now.spots.length; k += 1) {
      list(gained).push(now.spots[Math.min(k, now.spots.length - 1)]);
    }
  }
  let moved = 0;
  for (const [color, targets] of gained) {
    const sources = (lost.get(color) || []).slice();
    for (const [x, y, element] of targets) {
      if (!sources.length) break;
      let best = 0;
      sources.forEach(([sx, sy], k) => {
        const [bx, by] = sources[best];
        if (Math.hypot(sx - x, sy - y) < Math.hypot(bx - x, by - y)) best = k;
      });
      const [sx, sy] = sources.splice(best, 1)[0];
      element.style.transition = "none";
      element.style.transform = `translate(${sx - x}px, ${sy - y}px)`;
      element.getBoundingClientRect(); // the start is drawn before the transition begins
      element.style.transition = `transform ${milliseconds}ms ease-in-out`;
      element.style.transform = "";
      element.classList.add("arriving");
      element.addEventListener("transitionend", () => element.classList.remove("arriving"), { once: true });
      moved += 1;
    }
  }
  return moved;
}
