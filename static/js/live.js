// The page's live connection (issue 28): one socket to /ws/live/ that follows the public
// groups the page shows (a game, a chouette, a tournament, the lobby) and, for a signed-in
// player, their own. Each event says only what changed; the page fetches the rest.
//
// A page whose socket cannot connect (a proxy without WebSockets, the server restarting,
// Redis down) polls instead and says nothing; it tries the socket again now and then, and
// when it is back the poll stops and the page catches up once. A hidden tab closes its
// socket and stops its poll: it costs the server nothing until it shows again.
import { pollOnce, pollWhileVisible } from "./poll.js";

const RETRY_SECONDS = [2, 5, 10, 30, 60];

// follow({ groups, onEvent, poll }) -> { stop() }
//   groups:  names to follow ("game.12", "chouette.3", "lobby")
//   onEvent: called with each event ({kind, ...}), and with {kind: "resync"} whenever
//            events may have been missed (the socket came back, the tab showed again)
//   poll:    optional fallback { url, seconds, onAnswer } for pollWhileVisible; it runs
//            only while the socket is down
export function follow({ groups, onEvent, poll }) {
  let socket = null;
  let attempt = 0;
  let retryTimer = null;
  let polling = null;
  let stopped = false;
  const root = document.documentElement;

  const state = (value) => {
    root.dataset.live = value; // "connecting", "open", "polling", "hidden": tests, CSS
  };

  // The poll runs from the start (a page whose socket is slow to open, or never does,
  // misses nothing) until the socket follows; it starts again when the socket fails.
  let fellBack = false;
  const startPoll = (fallback) => {
    if (fallback) {
      fellBack = true;
      state("polling");
    }
    if (!poll || polling) return;
    polling = pollWhileVisible(poll.url, poll.seconds, poll.onAnswer);
  };
  const stopPoll = () => {
    if (polling) polling.stop();
    polling = null;
  };

  const connect = () => {
    if (stopped || socket || document.visibilityState !== "visible") return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let opened = false;
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${location.host}/ws/live/`);
    } catch (error) {
      startPoll(true);
      retry();
      return;
    }
    socket = ws;
    ws.addEventListener("open", () => {
      opened = true;
      attempt = 0;
      ws.send(JSON.stringify({ follow: groups }));
    });
    ws.addEventListener("message", (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch (error) {
        return;
      }
      if (event.kind === "following") {
        const missed = fellBack || Boolean(root.dataset.liveSince);
        fellBack = false;
        stopPoll();
        state("open");
        if (missed) onEvent({ kind: "resync" });
        // What changed between the page being drawn and the socket following was pushed
        // to nobody: a page with a light poll asks it once (the game page: its ply).
        else if (poll) pollOnce(poll.url, poll.onAnswer);
        root.dataset.liveSince = String(Date.now());
        return;
      }
      onEvent(event);
    });
    ws.addEventListener("close", () => {
      // A socket closed by a hidden tab may close after the next one opened: only the
      // current one's end counts.
      if (socket !== ws) return;
      socket = null;
      if (stopped || document.visibilityState !== "visible") return;
      if (!opened) attempt += 1;
      startPoll(true);
      retry();
    });
  };

  const retry = () => {
    if (retryTimer !== null || stopped) return;
    const seconds = RETRY_SECONDS[Math.min(attempt, RETRY_SECONDS.length - 1)];
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect();
    }, seconds * 1000);
  };

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      connect();
    } else {
      clearTimeout(retryTimer);
      retryTimer = null;
      if (socket) socket.close();
      socket = null;
      state("hidden");
    }
  });

  state("connecting");
  startPoll(false);
  connect();
  return {
    stop() {
      stopped = true;
      stopPoll();
      if (socket) socket.close();
    },
  };
}
