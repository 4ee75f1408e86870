// The game page follows its game in place (issue 28): when the game changes (a roll, a
// move, a cube action, an offer, a chouette's vote or answer) the page fetches itself
// and swaps in its content, the moved checkers gliding from their old points to the new;
// a message in its chat swaps in the chat alone, so a move being built is kept. The
// events come from the page's socket (live_page.js), or from its poll of the game's ply
// while the socket is down. No reload: what was typed, the focus and the scroll stay.
import { animateMoves, checkerPlaces, fetchPage, swapIn } from "./refresh.js";

const CHATS = ["messages", "team-chat", "table-chat"];

// ``ready()`` sets the new content up (the board's clicks, the dialogs), as at page load.
export function followGame(ready) {
  const marker = () => document.getElementById("live-game");
  if (!marker()) return;
  const gameId = marker().dataset.game;
  let running = null;
  let again = null; // "all" or "chat": what to fetch once the running fetch is done

  const update = (what) => {
    if (again !== "all") again = what;
    if (running) return;
    running = (async () => {
      while (again) {
        const scope = again;
        again = null;
        if (!marker()) break; // the game is over: nothing more to follow
        const doc = await fetchPage(location.pathname);
        if (!doc) continue;
        if (scope === "chat") {
          swapIn(doc, CHATS);
          continue;
        }
        const before = checkerPlaces(document.querySelector("#board svg"));
        // The header's badges too: the page's own request has marked its notices read.
        swapIn(doc, ["main", "nav-dashboard", "nav-notifications"]);
        ready();
        const moved = animateMoves(before, document.querySelector("#board svg"));
        const root = document.documentElement;
        root.dataset.liveUpdates = String(Number(root.dataset.liveUpdates || 0) + 1);
        root.dataset.liveMoved = String(moved);
      }
      running = null;
    })();
  };

  document.addEventListener("live", ({ detail: event }) => {
    const live = marker();
    if (!live) return;
    if (event.kind === "game" && String(event.id) === gameId) {
      if (String(event.ply) !== live.dataset.gamePly) update("all");
    } else if (event.kind === "chouette" || event.kind === "resync") {
      update("all");
    } else if (event.kind === "poll") {
      if (String(event.ply) !== live.dataset.ply) update("all");
      // How many answers changed nothing: the next poll is already due once this is set.
      else live.dataset.polls = String(Number(live.dataset.polls || 0) + 1);
    } else if (event.kind === "chat" && String(event.game) === gameId) {
      update("chat");
    } else if (event.kind === "chouette_chat") {
      update("chat");
    }
  });
}
