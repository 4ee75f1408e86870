// Every page's one live connection (issue 28), loaded by base.html.
//
// A page names what it shows with data attributes, and this script does the rest:
//   data-live-follow="game.12 chouette.3"   the public groups to follow (live/groups.py)
//   data-live-refresh="chouette tournament" the kinds of event after which the element
//                                            (it has an id) is fetched again and swapped
//   data-live-poll="/games/12/ply/"          the JSON poll to fall back on while the
//                                            socket is down (every data-live-seconds)
// A signed-in player also hears what is theirs alone (a game that became theirs, a new
// notification): the header's badges are fetched again at once. Every event, the poll's
// answers (kind "poll") and the resyncs are also dispatched on the document as "live"
// events, for a page's own script (the game page's board).
import { follow } from "./live.js";
import { fetchPage, swapIn } from "./refresh.js";

const BADGES = ["nav-dashboard", "nav-notifications"];

function start() {
  const marked = [...document.querySelectorAll("[data-live-follow], [data-live-refresh], [data-live-poll]")];
  const badges = document.getElementById("nav-dashboard");
  const badgesUrl = badges && badges.dataset.badgesUrl;
  const groups = marked.flatMap((el) => (el.dataset.liveFollow || "").split(/\s+/)).filter(Boolean);
  if (!groups.length && !badges) return; // a visitor on a page that shows nothing live
  const polled = marked.find((el) => el.dataset.livePoll);

  // One fetch at a time; events that come meanwhile make one more afterwards.
  let running = null;
  let wanted = new Set();
  const refresh = (ids) => {
    ids.forEach((id) => wanted.add(id));
    if (running) return;
    running = (async () => {
      while (wanted.size) {
        const now = [...wanted];
        wanted = new Set();
        const pageIds = now.filter((id) => !BADGES.includes(id));
        if (pageIds.length) {
          const doc = await fetchPage(location.href);
          if (doc) swapIn(doc, pageIds.concat(BADGES));
        } else {
          const doc = await fetchPage(badgesUrl);
          if (doc) swapIn(doc, BADGES);
        }
      }
      running = null;
    })();
  };

  const onEvent = (event) => {
    document.dispatchEvent(new CustomEvent("live", { detail: event }));
    const ids = [...document.querySelectorAll("[data-live-refresh]")]
      .filter((el) => el.id && (event.kind === "resync" || (el.dataset.liveRefresh || "").split(/\s+/).includes(event.kind)))
      .map((el) => el.id);
    if (badges && ["turn", "notification", "resync"].includes(event.kind)) ids.push(...BADGES);
    if (ids.length) refresh(ids);
  };

  follow({
    groups,
    onEvent,
    poll: polled && {
      url: polled.dataset.livePoll,
      seconds: Number(polled.dataset.liveSeconds) || 20,
      onAnswer: (answer) => {
        onEvent({ kind: "poll", ...answer });
        return false;
      },
    },
  });
}

start();
