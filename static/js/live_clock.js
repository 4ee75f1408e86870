// The game page's live clock (issue 28): counts down the turn of the player on turn,
// the delay first, then the reserve, from the seconds the server gave the page. The
// browser's monotonic clock measures the time since, so a wrong system clock changes
// nothing; the server alone decides a claim. When the clock falls, the opponent's
// claim button appears. A panel replaced in place (the page updated without a reload)
// is read again: the countdown restarts from the server's new figures.
//
// Each player but the viewer has an "away" mark, hidden while they are at the board (a
// socket of theirs open on this game's page). The game's group tells when one leaves or
// comes back ({kind: "presence", game, player, here}, dispatched by live_page.js as a
// "live" event): the mark is shown or hidden in place. A panel swapped in comes with the
// server's own reading.
let panel = null; // the panel last read: one swapped in with the page is read afresh
let start = 0;
let timeLeft = 0;
let delayLeft = 0;
let delayText = "";

const format = (ms) => {
  const whole = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
};

const tick = () => {
  panel = document.getElementById("live-clock");
  if (!panel) {
    // No clock now (the game is over); one may come with the next game swapped in.
    window.setTimeout(tick, 500);
    return;
  }
  if (panel.dataset.read !== "yes") {
    panel.dataset.read = "yes";
    start = performance.now();
    timeLeft = Number(panel.dataset.timeLeft) * 1000;
    delayLeft = Number(panel.dataset.delayLeft) * 1000;
    const delay = document.getElementById("live-clock-delay");
    delayText = delay ? delay.textContent : "";
  }
  const spent = performance.now() - start;
  const left = timeLeft - spent;
  const inDelay = delayLeft - spent;
  const delay = document.getElementById("live-clock-delay");
  const turn = document.getElementById("live-clock-turn");
  if (delay) {
    delay.hidden = inDelay <= 0;
    delay.textContent = delayText.replace(/\d+/, String(Math.max(0, Math.ceil(inDelay / 1000))));
  }
  if (turn) turn.textContent = format(inDelay > 0 ? left - inDelay : left);
  if (left <= 0) {
    for (const id of ["live-clock-fallen", "claim-time-form"]) {
      const element = document.getElementById(id);
      if (element) element.hidden = false;
    }
    panel.classList.add("fallen");
  }
  window.setTimeout(tick, 200);
};

const presence = ({ detail: event }) => {
  if (!event || event.kind !== "presence") return;
  const here = document.getElementById("live-clock");
  if (!here || here.dataset.game !== String(event.game)) return;
  for (const mark of here.querySelectorAll(".away[data-player]")) {
    if (mark.dataset.player === String(event.player)) mark.hidden = Boolean(event.here);
  }
};

if (!window.liveClockStarted) {
  window.liveClockStarted = true;
  document.addEventListener("live", presence);
  tick();
}
