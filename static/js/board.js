// Moving by clicking or tapping the board, and confirming cube answers.
// Plain ES module; its one import follows the game in place (game_live.js). Without it the
// page's forms work as they are: this script only fills the notation box and submits the
// same form.
//
// The page embeds (id="board-data") the board from the mover's side (points[i] is the
// mover's point i + 1, positive = the mover's checkers), the dice, every legal play with
// the position it reaches ("key"), the drawing geometry and the translated texts.

import { followGame } from "./game_live.js";

const SVG = "http://www.w3.org/2000/svg";
const BAR = 25;
const OFF = 0;

function format(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}

function copyBoard(board) {
  return { points: board.points.slice(), bar: board.bar.slice(), off: board.off.slice() };
}

export function boardKey(board) {
  return [board.points, board.bar, board.off].map((part) => part.join(",")).join("|");
}

// One checker moved by one die, or null when the rules of a single step forbid it.
// Whether the whole play is legal is decided by reaching one of the legal positions.
export function applyStep(board, from, die) {
  const points = board.points;
  if (board.bar[0] > 0 && from !== BAR) return null;
  if (from === BAR ? board.bar[0] <= 0 : !(from >= 1 && from <= 24 && points[from - 1] > 0)) {
    return null;
  }
  let to = from - die;
  const next = copyBoard(board);
  let hit = false;
  if (to <= 0) {
    if (board.bar[0] > 0 || points.slice(6).some((n) => n > 0)) return null;
    if (to < 0 && points.slice(from, 6).some((n) => n > 0)) return null;
    to = OFF;
    next.off[0] += 1;
  } else {
    if (points[to - 1] <= -2) return null;
    hit = points[to - 1] === -1;
    if (hit) {
      next.points[to - 1] = 0;
      next.bar[1] += 1;
    }
    next.points[to - 1] += 1;
  }
  if (from === BAR) next.bar[0] -= 1;
  else next.points[from - 1] -= 1;
  return { board: next, to, hit };
}

function without(dice, die) {
  const rest = dice.slice();
  rest.splice(rest.indexOf(die), 1);
  return rest;
}

function sources(board) {
  if (board.bar[0] > 0) return [BAR];
  const found = [];
  for (let p = 24; p >= 1; p -= 1) if (board.points[p - 1] > 0) found.push(p);
  return found;
}

export class MoveBuilder {
  constructor(data) {
    this.start = { points: data.points, bar: data.bar, off: data.off };
    this.allDice = data.dice[0] === data.dice[1] ? Array(4).fill(data.dice[0]) : data.dice.slice();
    this.plays = new Map(data.plays.map((play) => [play.key, play]));
    this.memo = new Map();
    this.swapped = false;
    this.reset();
  }

  reset() {
    this.board = copyBoard(this.start);
    this.dice = this.allDice.slice();
    this.steps = [];
    this.history = [];
  }

  snapshot() {
    return { board: this.board, dice: this.dice, steps: this.steps.slice() };
  }

  restore(state) {
    this.board = state.board;
    this.dice = state.dice;
    this.steps = state.steps;
  }

  // Can a legal play still be reached from ``board`` with ``dice`` left?
  reachable(board, dice) {
    const key = boardKey(board);
    if (this.plays.has(key)) return true;
    if (!dice.length) return false;
    const memoKey = key + "#" + dice.join("");
    if (this.memo.has(memoKey)) return this.memo.get(memoKey);
    let found = false;
    for (const die of new Set(dice)) {
      for (const from of sources(board)) {
        const step = applyStep(board, from, die);
        if (step && this.reachable(step.board, without(dice, die))) {
          found = true;
          break;
        }
      }
      if (found) break;
    }
    this.memo.set(memoKey, found);
    return found;
  }

  // The dice left in the order a click plays them: the higher first, unless swapped.
  order() {
    const values = [...new Set(this.dice)].sort((a, b) => b - a);
    return this.swapped ? values.reverse() : values;
  }

  // The die a click on ``from`` would play (the next in order that leads somewhere legal).
  dieFor(from) {
    if (this.complete()) return null;
    for (const die of this.order()) {
      const step = applyStep(this.board, from, die);
      if (step && this.reachable(step.board, without(this.dice, die))) return die;
    }
    return null;
  }

  // Every way to move the checker on ``from`` with one or more dice: Map to -> [dice].
  paths(from) {
    const found = new Map();
    const walk = (board, at, dice, used) => {
      for (const die of new Set(dice)) {
        const step = applyStep(board, at, die);
        if (!step) continue;
        const rest = without(dice, die);
        if (!this.reachable(step.board, rest)) continue;
        const path = used.concat([die]);
        if (!found.has(step.to) || found.get(step.to).length > path.length) found.set(step.to, path);
        if (step.to !== OFF) walk(step.board, step.to, rest, path);
      }
    };
    if (!this.complete()) walk(this.board, from, this.dice, []);
    return found;
  }

  movable() {
    return sources(this.board).filter((from) => this.dieFor(from) !== null);
  }

  // Play one checker from ``from`` by each die of ``dice`` in turn (one undo step).
  play(from, dice) {
    const before = this.snapshot();
    let at = from;
    const steps = this.steps.slice();
    for (const die of dice) {
      const step = applyStep(this.board, at, die);
      if (!step) {
        this.restore(before);
        return false;
      }
      this.board = step.board;
      this.dice = without(this.dice, die);
      steps.push({ from: at, to: step.to, die, hit: step.hit });
      at = step.to;
    }
    this.steps = steps;
    this.history.push(before);
    return true;
  }

  moveBy(from) {
    const die = this.dieFor(from);
    return die !== null && this.play(from, [die]);
  }

  moveTo(from, to) {
    const path = this.paths(from).get(to);
    return Boolean(path) && this.play(from, path);
  }

  undo() {
    const last = this.history.pop();
    if (last) this.restore(last);
  }

  // Rebuild the board from a legal play's steps (when the player types its notation).
  follow(play) {
    this.reset();
    for (const [from, to] of play.steps) {
      const die = [...new Set(this.dice)].sort((a, b) => a - b).find((d) => {
        const step = applyStep(this.board, from, d);
        return step && step.to === to;
      });
      if (die === undefined || !this.play(from, [die])) return false;
    }
    return Boolean(this.complete());
  }

  complete() {
    return this.plays.get(boardKey(this.board)) || null;
  }

  // The steps so far in notation, for the text box while the play is not complete.
  notation() {
    const play = this.complete();
    if (play) return play.notation;
    const name = (p) => (p === BAR ? "bar" : p === OFF ? "off" : String(p));
    return this.steps.map((s) => `${name(s.from)}/${name(s.to)}${s.hit ? "*" : ""}`).join(" ");
  }
}

const normalise = (text) => text.trim().toLowerCase().replace(/\s+/g, " ");

// --------------------------------------------------------------------------- the page

function drawCheckers(svg, data, board) {
  const geo = data.geometry;
  const mine = data.color;
  const theirs = mine === "white" ? "black" : "white";
  svg.querySelectorAll("g.checkers, g.js-checkers").forEach((g) => g.remove());
  svg.querySelectorAll(`g.off[data-color="${mine}"]`).forEach((g) => g.remove());
  const layer = document.createElementNS(SVG, "g");
  layer.setAttribute("class", "js-checkers");
  const add = (parent, name, attrs) => {
    const el = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    parent.appendChild(el);
    return el;
  };
  const stack = (where, [cx, cy, dy], count, owner, shown) => {
    const [fill, ink] = geo.colors[owner];
    const g = add(layer, "g", { class: "stack", "data-point": where, "data-color": owner, "data-count": count });
    const drawn = Math.min(count, shown);
    for (let k = 0; k < drawn; k += 1) {
      add(g, "circle", { cx, cy: cy + k * dy, r: geo.radius, fill, stroke: ink, "stroke-width": 1.5 });
    }
    if (count > shown) {
      const t = add(g, "text", {
        x: cx, y: cy + (drawn - 1) * dy + 6, "text-anchor": "middle", "font-size": 16,
        "font-weight": "bold", fill: ink,
      });
      t.textContent = String(count);
    }
  };
  board.points.forEach((n, i) => {
    if (n) stack(String(i + 1), geo.points[String(i + 1)], Math.abs(n), n > 0 ? mine : theirs, geo.shown);
  });
  if (board.bar[0]) stack("bar", geo.bar[0], board.bar[0], mine, geo.shown_bar);
  if (board.bar[1]) stack("bar", geo.bar[1], board.bar[1], theirs, geo.shown_bar);
  const [x, bottom, w, slab] = geo.off;
  const [fill, ink] = geo.colors[mine];
  const off = add(layer, "g", { class: "stack", "data-point": "off", "data-color": mine, "data-count": board.off[0] });
  for (let k = 0; k < board.off[0]; k += 1) {
    add(off, "rect", { x, y: bottom - (k + 1) * slab + 1, width: w, height: slab - 2, fill, stroke: ink });
  }
  svg.insertBefore(layer, svg.querySelector("g.last-move") || svg.querySelector("g.targets"));
}

function setUp() {
  const source = document.getElementById("board-data");
  const figure = document.getElementById("board");
  const form = document.getElementById("move-form");
  if (!source || !figure || !form) return;
  const data = JSON.parse(source.textContent);
  const svg = figure.querySelector("svg");
  // The board now holds buttons (its points): a group with its description, not an image
  // (an img with focusable children is axe's "nested-interactive").
  svg.setAttribute("role", "group");
  const panel = document.getElementById("move-panel");
  const status = document.getElementById("move-status");
  const diceLeft = document.getElementById("dice-left");
  const undo = document.getElementById("move-undo");
  const submit = document.getElementById("move-submit");
  const input = form.querySelector("[name=play]");
  const confirmBox = document.getElementById("move-confirm");
  const confirmText = document.getElementById("move-confirm-text");
  const text = data.text;
  const builder = new MoveBuilder(data);
  const byNotation = new Map(data.plays.map((play) => [normalise(play.notation), play]));
  // The board's words for the bar and off (the notation help's too) read as the notation's.
  const local = new Map([[text.bar.toLowerCase(), "bar"], [text.off.toLowerCase(), "off"]]);
  const canonical = (value) => normalise(value).replace(/\p{L}+/gu, (word) => local.get(word) || word);
  let typed = false; // the board follows the text box: do not rewrite what was typed
  let sending = false;

  const name = (target) => (target === BAR ? text.bar : target === OFF ? text.off : String(target));
  const targets = new Map(
    [...svg.querySelectorAll(".target")].map((el) => [Number(el.dataset.target), el]),
  );

  const send = (confirmed) => {
    const play = builder.complete();
    if (!play || sending) return;
    sending = true;
    input.value = play.notation;
    form.querySelector("[name=confirm]").value = confirmed ? "on" : "";
    figure.dataset.sending = "true";
    form.submit();
  };

  function wouldComplete(from) {
    const before = builder.snapshot();
    const history = builder.history.length;
    const done = builder.moveBy(from) && Boolean(builder.complete());
    builder.restore(before);
    builder.history.length = history;
    return done;
  }

  function render(dests = new Map()) {
    const wasTyped = typed;
    const hadFocus = svg.contains(document.activeElement);
    typed = false;
    drawCheckers(svg, data, builder.board);
    const play = builder.complete();
    const movable = new Set(play ? [] : builder.movable());
    for (const [target, el] of targets) {
      const canPick = movable.has(target);
      const isDest = dests.has(target);
      el.classList.toggle("movable", canPick);
      el.classList.toggle("dest", isDest);
      el.dataset.completes = canPick && wouldComplete(target) ? "true" : "false";
      if (canPick) {
        el.setAttribute("tabindex", "-1");
        el.setAttribute("role", "button");
        const count = target === BAR ? builder.board.bar[0] : Math.max(builder.board.points[target - 1] || 0, 0);
        const label = target === BAR ? name(target) : format(text.point, { point: target });
        el.setAttribute("aria-label", `${label}, ${format(text.mine, { count })}: ${format(text.by, { die: builder.dieFor(target) })}`);
      } else {
        ["tabindex", "role", "aria-label"].forEach((a) => el.removeAttribute(a));
      }
    }
    settleFocus(hadFocus);
    // The dice: used ones are struck through; the next one to play comes first.
    diceLeft.replaceChildren();
    const used = builder.steps.map((s) => s.die);
    const order = builder.order();
    const chips = [];
    const left = used.slice();
    for (const die of builder.allDice) {
      const i = left.indexOf(die);
      const isUsed = i >= 0;
      if (isUsed) left.splice(i, 1);
      chips.push({ die, isUsed });
    }
    chips.sort((a, b) => (a.isUsed - b.isUsed) || (order.indexOf(a.die) - order.indexOf(b.die)));
    const swap = document.createElement("button");
    swap.type = "button";
    swap.className = "dice-swap";
    swap.id = "dice-swap";
    swap.title = text.swap;
    swap.setAttribute("aria-label", `${text.swap}: ${order.join(", ")}`);
    swap.disabled = order.length < 2;
    for (const { die, isUsed } of chips) {
      const chip = document.createElement("span");
      chip.className = "die-chip" + (isUsed ? " used" : "") + (!isUsed && die === order[0] ? " next" : "");
      chip.textContent = String(die);
      swap.appendChild(chip);
    }
    swap.addEventListener("click", swapDice);
    diceLeft.appendChild(swap);
    const svgDice = [...svg.querySelectorAll("g.die")];
    const double = builder.allDice.length === 4;
    const leftSvg = used.slice();
    svgDice.forEach((g, k) => {
      let isUsed;
      if (double) isUsed = used.length >= 2 * (k + 1);
      else {
        const i = leftSvg.indexOf(Number(g.dataset.value));
        isUsed = i >= 0;
        if (isUsed) leftSvg.splice(i, 1);
      }
      g.classList.toggle("used", isUsed);
      g.classList.toggle("clickable", order.length > 1);
    });
    if (!wasTyped) input.value = builder.notation();
    // Played by hand: sent at the last die, or confirmed first; typed: sent with Submit.
    const auto = play && builder.steps.length > 0 && !wasTyped;
    if (play && (wasTyped || !builder.steps.length)) status.textContent = format(text.typed, { play: play.notation });
    else if (play) status.textContent = format(data.confirm ? text.done : text.sending, { play: play.notation });
    else if (builder.steps.length) status.textContent = format(text.next, { die: order[0] });
    else status.textContent = format(text.pick, { die: order[0] });
    undo.disabled = builder.steps.length === 0;
    confirmBox.hidden = !(auto && data.confirm);
    undo.hidden = !confirmBox.hidden; // the confirmation has its own Undo
    if (auto && data.confirm) confirmText.textContent = format(text.confirm, { play: play.notation });
    if (auto && !data.confirm) send(false);
  }

  function swapDice() {
    builder.swapped = !builder.swapped;
    render();
  }

  function afterMove() {
    const hadFocus = svg.contains(document.activeElement);
    render();
    if (builder.complete() && data.confirm && hadFocus) document.getElementById("move-confirm-yes").focus();
  }

  // The board is one tab stop (issue 26): of the checkers that can move, the one in focus
  // holds tabindex 0 and the others -1; the arrow keys move between them (left and right
  // in reading order, up and down to the other row), Enter or Space plays the next die.
  // After a move the focus stays on the board: on the same checker while it can move,
  // else on the farthest back one that can, else on the board itself.
  let current = null;
  svg.setAttribute("tabindex", "-1");
  function settleFocus(hadFocus) {
    const movable = [...targets.keys()].filter((t) => targets.get(t).classList.contains("movable"));
    if (!movable.includes(current)) current = movable.length ? Math.max(...movable) : null;
    for (const [t, el] of targets) if (el.hasAttribute("role")) el.setAttribute("tabindex", t === current ? "0" : "-1");
    if (hadFocus) (current === null ? svg : targets.get(current)).focus();
  }
  const centre = (el) => {
    const box = el.getBBox();
    return { x: box.x + box.width / 2, top: box.y + box.height / 2 < svg.viewBox.baseVal.height / 2 };
  };
  function arrowTo(key) {
    const order = [...targets.entries()]
      .filter(([, el]) => el.classList.contains("movable"))
      .map(([t, el]) => ({ t, ...centre(el) }))
      .sort((a, b) => (b.top - a.top) || (a.x - b.x));
    if (!order.length) return null;
    const i = Math.max(0, order.findIndex((o) => o.t === current));
    if (key === "ArrowRight") return order[(i + 1) % order.length].t;
    if (key === "ArrowLeft") return order[(i - 1 + order.length) % order.length].t;
    if (key === "Home") return order[0].t;
    if (key === "End") return order[order.length - 1].t;
    const other = order.filter((o) => o.top !== order[i].top);
    if (!other.length) return order[i].t;
    return other.reduce((a, b) => (Math.abs(b.x - order[i].x) < Math.abs(a.x - order[i].x) ? b : a)).t;
  }
  svg.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (!["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
    const next = arrowTo(event.key);
    if (next === null) return;
    event.preventDefault();
    usingKeyboard();
    current = next;
    settleFocus(true);
  });
  focusBoard = () => {
    settleFocus(false);
    (current === null ? svg : targets.get(current)).focus();
  };

  // A click plays the next die; a double-click bears off (undoing what its clicks did).
  let clickMark = null;
  function clicked(target) {
    const now = Date.now();
    if (!clickMark || now - clickMark.at > 500) clickMark = { at: now, target, state: builder.snapshot(), history: builder.history.length };
    if (builder.moveBy(target)) afterMove();
    else status.textContent = text.nowhere;
  }
  function doubleClicked(target) {
    if (!clickMark || clickMark.target !== target) return;
    const now = builder.snapshot();
    const history = builder.history.slice();
    builder.restore(clickMark.state);
    builder.history.length = clickMark.history;
    clickMark = null;
    if (builder.moveTo(target, OFF)) return afterMove();
    builder.restore(now);
    builder.history = history;
  }

  for (const [target, el] of targets) {
    el.addEventListener("click", () => {
      if (dragged) {
        dragged = false;
        return;
      }
      if (el.classList.contains("movable")) clicked(target);
    });
    el.addEventListener("dblclick", () => doubleClicked(target));
    el.addEventListener("keydown", (event) => {
      if ((event.key === "Enter" || event.key === " ") && el.hasAttribute("tabindex")) {
        event.preventDefault();
        usingKeyboard();
        current = target;
        clicked(target);
      }
    });
  }
  svg.querySelectorAll("g.die").forEach((g) => g.addEventListener("click", swapDice));

  // Drag and drop: a checker onto any point it can reach with one die or more.
  let drag = null;
  let dragged = false;
  const toSvg = (event) => {
    const pt = svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  };
  const targetAt = (event) => {
    const hit = document.elementsFromPoint(event.clientX, event.clientY).find((el) => el.classList && el.classList.contains("target"));
    return hit ? Number(hit.dataset.target) : null;
  };
  svg.addEventListener("pointerdown", (event) => {
    const el = event.target.closest && event.target.closest(".target.movable");
    if (!el || event.button > 0) return;
    drag = { from: Number(el.dataset.target), x: event.clientX, y: event.clientY, ghost: null, paths: null };
  });
  svg.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
      drag.paths = builder.paths(drag.from);
      const [fill, ink] = data.geometry.colors[data.color];
      drag.ghost = document.createElementNS(SVG, "circle");
      for (const [k, v] of Object.entries({ r: data.geometry.radius, fill, stroke: ink, "stroke-width": 2, class: "drag-checker" })) drag.ghost.setAttribute(k, v);
      svg.appendChild(drag.ghost);
      render(drag.paths);
      svg.setPointerCapture && event.pointerId !== undefined && svg.setPointerCapture(event.pointerId);
    }
    const p = toSvg(event);
    drag.ghost.setAttribute("cx", p.x);
    drag.ghost.setAttribute("cy", p.y);
    event.preventDefault();
  });
  const endDrag = (event) => {
    if (!drag) return;
    const { from, ghost, paths } = drag;
    drag = null;
    if (!ghost) return;
    ghost.remove();
    dragged = true;
    setTimeout(() => { dragged = false; }, 0);
    const to = event.type === "pointerup" ? targetAt(event) : null;
    if (to !== null && to !== from && paths.has(to) && builder.moveTo(from, to)) return afterMove();
    render();
  };
  svg.addEventListener("pointerup", endDrag);
  svg.addEventListener("pointercancel", endDrag);

  // The text box: what is typed moves the board when it names a legal play.
  input.addEventListener("input", () => {
    const play = byNotation.get(canonical(input.value));
    if (play) {
      builder.follow(play);
      typed = true;
      render();
    } else if (!input.value.trim() && builder.steps.length) {
      builder.reset();
      typed = true;
      render();
    }
  });
  form.addEventListener("submit", () => {
    const play = byNotation.get(canonical(input.value));
    if (play) input.value = play.notation;
    if (data.confirm && play) form.querySelector("[name=confirm]").value = "on";
  });
  undo.addEventListener("click", () => {
    builder.undo();
    render();
  });
  document.getElementById("move-confirm-yes").addEventListener("click", () => send(true));
  document.getElementById("move-confirm-no").addEventListener("click", () => {
    builder.undo();
    render();
    undo.focus();
  });
  panel.hidden = false;
  figure.classList.add("ready");
  document.querySelectorAll("form.swap-dice").forEach((f) => { f.hidden = true; });
  const shown = byNotation.get(canonical(input.value));
  if (shown) builder.follow(shown);
  typed = Boolean(input.value.trim());
  render();
  if (keyboardInUse()) focusBoard();
}

// Cube answers (and, with the confirm preference, the one-click forced play) are
// confirmed in a dialog; without this script the form's checkbox does the same job.
function confirmForms() {
  const dialog = document.getElementById("confirm-dialog");
  if (!dialog || typeof dialog.showModal !== "function") return;
  const textEl = document.getElementById("confirm-dialog-text");
  const forced = document.getElementById("forced-form");
  const boardData = document.getElementById("board-data");
  const wantsConfirm = boardData ? JSON.parse(boardData.textContent).confirm : false;
  // Answers to a double or to an offer to resign, and the offer itself: the dialog asks.
  const forms = [...document.querySelectorAll("form.cube-answer, form.resign-offer")];
  for (const form of forms) {
    const box = form.querySelector(".confirm-box");
    const checkbox = form.querySelector("input[name=confirm]");
    box.hidden = true;
    checkbox.required = false;
  }
  if (forced && wantsConfirm) forms.push(forced);
  // A resignation says what it costs and is asked twice (without JS, the server asks).
  forms.push(...document.querySelectorAll("form.resign-form"));
  for (const form of forms) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const checkbox = form.querySelector("input[name=confirm]");
      // An offer to resign says what the chosen offer costs.
      const choice = form.querySelector("input[name=level]:checked");
      textEl.textContent = (choice && choice.dataset.confirm) || form.dataset.confirm || (boardData ? format(JSON.parse(boardData.textContent).text.confirm, { play: form.querySelector("[name=play]").value }) : "");
      dialog.returnValue = "";
      dialog.addEventListener(
        "close",
        () => {
          if (dialog.returnValue !== "yes") return;
          if (checkbox) checkbox.checked = true;
          else {
            const input = document.createElement("input");
            input.type = "hidden";
            input.name = "confirm";
            input.value = "on";
            form.appendChild(input);
          }
          form.submit();
        },
        { once: true },
      );
      dialog.showModal();
    });
  }
}

// The arrow keys step through the record like its ◀ ▶ buttons (not while typing).
function stepKeys() {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const el = event.target;
    if (el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName))) return;
    if (el && el.closest && el.closest("svg.board")) return;
    const link = document.getElementById(event.key === "ArrowLeft" ? "record-prev" : event.key === "ArrowRight" ? "record-next" : "");
    if (link) {
      event.preventDefault();
      link.click();
    }
  });
}

// Keyboard play (issue 26). A player who plays by keyboard keeps the focus on the board
// from page to page (the page reloads after each action): the tab remembers it, until
// the next click or touch.
const KEYBOARD = "backgammon.keyboard";
let focusBoard = null;

function usingKeyboard() {
  try {
    sessionStorage.setItem(KEYBOARD, "1");
  } catch (error) {
    // storage refused (private mode): the focus is simply not carried to the next page
  }
}

function keyboardInUse() {
  try {
    return sessionStorage.getItem(KEYBOARD) === "1";
  } catch (error) {
    return false;
  }
}

const visible = (el) => (el && !el.disabled && el.getClientRects().length ? el : null);

// One key each, listed on the page (#keyboard-help): r rolls, c confirms the move, u undoes
// the last checker, b goes to the board. Not while typing (the move box, the chat), with a
// modifier, or while a dialog is open.
function shortcuts() {
  const keys = {
    r: () => visible(document.getElementById("roll-button")),
    c: () => visible(document.getElementById("move-confirm-yes")) || visible(document.querySelector("#pending-form button[type=submit]")),
    u: () => visible(document.getElementById("move-confirm-no")) || visible(document.getElementById("move-undo")),
  };
  document.addEventListener("pointerdown", () => {
    try {
      sessionStorage.removeItem(KEYBOARD);
    } catch (error) {
      // nothing was stored
    }
  }, true);
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const el = event.target;
    if (el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName))) return;
    if (document.querySelector("dialog[open]")) return;
    const key = event.key.toLowerCase();
    if (key === "b" && focusBoard) {
      event.preventDefault();
      usingKeyboard();
      focusBoard();
      return;
    }
    const button = keys[key] && keys[key]();
    if (!button) return;
    event.preventDefault();
    usingKeyboard();
    button.click();
    if (key === "u" && focusBoard) focusBoard(); // undone: back to the board, not the button
  });
}

// What the page's content needs, at load and each time the game's update swaps it in.
function ready() {
  focusBoard = null;
  setUp();
  confirmForms();
  const help = document.getElementById("keyboard-help");
  if (help && (focusBoard || document.getElementById("roll-button"))) help.hidden = false;
}

ready();
followGame(ready);
stepKeys();
shortcuts();
