// Moving by clicking or tapping the board, and confirming cube answers.
// Plain ES module, no dependencies. Without it the page's forms work as they are:
// this script only fills the notation box and submits the same form.
//
// The page embeds (id="board-data") the board from the mover's side (points[i] is the
// mover's point i + 1, positive = the mover's checkers), the dice, every legal play with
// the position it reaches ("key"), the drawing geometry and the translated texts.

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
    this.reset();
  }

  reset() {
    this.board = copyBoard(this.start);
    this.dice = this.allDice.slice();
    this.steps = [];
    this.history = [];
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

  // Where the checker on ``from`` may go now: [{to, die, hit}], smallest die first.
  destinations(from) {
    if (this.complete()) return [];
    const found = new Map();
    for (const die of [...new Set(this.dice)].sort((a, b) => a - b)) {
      const step = applyStep(this.board, from, die);
      if (!step || found.has(step.to)) continue;
      if (this.reachable(step.board, without(this.dice, die))) {
        found.set(step.to, { to: step.to, die, hit: step.hit });
      }
    }
    return [...found.values()];
  }

  movable() {
    return sources(this.board).filter((from) => this.destinations(from).length > 0);
  }

  move(from, to) {
    const choice = this.destinations(from).find((d) => d.to === to);
    if (!choice) return false;
    const step = applyStep(this.board, from, choice.die);
    this.history.push({ board: this.board, dice: this.dice });
    this.board = step.board;
    this.dice = without(this.dice, choice.die);
    this.steps.push({ from, to, die: choice.die, hit: step.hit });
    return true;
  }

  undo() {
    const last = this.history.pop();
    if (!last) return;
    this.board = last.board;
    this.dice = last.dice;
    this.steps.pop();
  }

  complete() {
    return this.plays.get(boardKey(this.board)) || null;
  }
}

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
  svg.insertBefore(layer, svg.querySelector("g.targets"));
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
  const stepList = document.getElementById("step-list");
  const undo = document.getElementById("move-undo");
  const submit = document.getElementById("move-submit");
  const confirmBox = document.getElementById("move-confirm");
  const confirmText = document.getElementById("move-confirm-text");
  const text = data.text;
  const builder = new MoveBuilder(data);
  let selected = null;

  const name = (target) => (target === BAR ? text.bar : target === OFF ? text.off : String(target));
  const targets = new Map(
    [...svg.querySelectorAll(".target")].map((el) => [Number(el.dataset.target), el]),
  );

  function render() {
    drawCheckers(svg, data, builder.board);
    const play = builder.complete();
    const movable = new Set(play ? [] : builder.movable());
    if (selected !== null && !movable.has(selected)) selected = null;
    const dests = new Map(selected === null ? [] : builder.destinations(selected).map((d) => [d.to, d]));
    for (const [target, el] of targets) {
      const canPick = movable.has(target);
      const isDest = dests.has(target);
      el.classList.toggle("movable", canPick);
      el.classList.toggle("selected", target === selected);
      el.classList.toggle("dest", isDest);
      if (canPick || isDest) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        const count = target === BAR ? builder.board.bar[0] : target === OFF ? builder.board.off[0] : Math.max(builder.board.points[target - 1], 0);
        const label = target === BAR || target === OFF ? name(target) : format(text.point, { point: target });
        el.setAttribute("aria-label", isDest ? `${label}: ${text.go}` : `${label}, ${format(text.mine, { count })}`);
        el.setAttribute("aria-pressed", target === selected ? "true" : "false");
      } else {
        ["tabindex", "role", "aria-label", "aria-pressed"].forEach((a) => el.removeAttribute(a));
      }
    }
    // The dice: used ones are struck through, in the panel and on the board.
    diceLeft.replaceChildren();
    const used = builder.steps.map((s) => s.die);
    const left = used.slice();
    for (const die of builder.allDice) {
      const chip = document.createElement("span");
      const i = left.indexOf(die);
      const isUsed = i >= 0;
      if (isUsed) left.splice(i, 1);
      chip.className = "die-chip" + (isUsed ? " used" : "");
      chip.textContent = String(die);
      diceLeft.appendChild(chip);
    }
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
    });
    // A button for every destination of the chosen checker, for keyboards and readers.
    stepList.replaceChildren();
    for (const d of dests.values()) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary step";
      button.textContent = `${name(selected)} → ${name(d.to)}${d.hit ? "*" : ""}`;
      button.addEventListener("click", () => choose(d.to));
      stepList.appendChild(button);
    }
    if (play) status.textContent = format(text.done, { play: play.notation });
    else if (selected !== null) status.textContent = format(text.picked, { point: name(selected) });
    else status.textContent = text.pick;
    undo.disabled = builder.steps.length === 0;
    submit.disabled = !play;
    confirmBox.hidden = true;
  }

  function choose(target) {
    if (selected !== null && target !== selected && builder.move(selected, target)) {
      selected = null;
      render();
      const focusOn = submit.disabled ? [...targets.values()].find((el) => el.classList.contains("movable")) : submit;
      if (focusOn) focusOn.focus();
      return;
    }
    if (target === selected) selected = null;
    else if (builder.destinations(target).length) selected = target;
    else {
      status.textContent = text.nowhere;
      return;
    }
    render();
  }

  for (const [target, el] of targets) {
    el.addEventListener("click", () => choose(target));
    el.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        if (el.hasAttribute("tabindex")) choose(target);
      }
    });
  }
  undo.addEventListener("click", () => {
    builder.undo();
    selected = null;
    render();
  });
  const send = () => {
    const play = builder.complete();
    if (!play) return;
    form.querySelector("[name=play]").value = play.notation;
    form.querySelector("[name=confirm]").value = data.confirm ? "on" : "";
    form.submit();
  };
  submit.addEventListener("click", () => {
    const play = builder.complete();
    if (!play) return;
    if (!data.confirm) return send();
    confirmText.textContent = format(text.confirm, { play: play.notation });
    confirmBox.hidden = false;
    document.getElementById("move-confirm-yes").focus();
  });
  document.getElementById("move-confirm-yes").addEventListener("click", send);
  document.getElementById("move-confirm-no").addEventListener("click", () => {
    builder.undo();
    selected = null;
    render();
    undo.focus();
  });
  panel.hidden = false;
  figure.classList.add("ready");
  render();
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
  const forms = [...document.querySelectorAll("form.cube-answer")];
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
      textEl.textContent = form.dataset.confirm || (boardData ? format(JSON.parse(boardData.textContent).text.confirm, { play: form.querySelector("[name=play]").value }) : "");
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

setUp();
confirmForms();
