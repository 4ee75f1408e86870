// The lobby of live play (issue 28): the list of seeks is replaced in place when it
// changes, and a seek of yours that is accepted takes you to its board at once. The
// socket (/ws/live/, the lobby group and your own) says when; without it the page
// asks the server every few seconds.
const box = document.getElementById("lobby-seeks");
if (box) {
  const POLL_MS = 3000;
  const mine = () => [...box.querySelectorAll("[data-mine]")].map((row) => row.dataset.mine);
  const stamp = () => {
    const table = box.querySelector("[data-stamp]");
    return table ? table.dataset.stamp : "";
  };
  const refresh = async () => {
    const response = await fetch(box.dataset.seeksUrl, { credentials: "same-origin" });
    if (response.ok) box.innerHTML = await response.text();
  };
  const poll = async () => {
    try {
      const url = `${box.dataset.stateUrl}?seeks=${mine().join(",")}`;
      const response = await fetch(url, { credentials: "same-origin" });
      if (response.ok) {
        const state = await response.json();
        if (state.started) {
          window.location.assign(state.started);
          return;
        }
        if (state.stamp !== stamp()) await refresh();
      }
    } catch (error) {
      // offline for a moment: the next poll tries again
    }
    window.setTimeout(poll, document.hidden ? POLL_MS * 5 : POLL_MS);
  };
  try {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/live/`);
    socket.addEventListener("open", () => socket.send(JSON.stringify({ follow: ["lobby"] })));
    socket.addEventListener("message", (message) => {
      const event = JSON.parse(message.data);
      if (event.kind === "match_started" && event.url) window.location.assign(event.url);
      else if (event.kind === "lobby") refresh();
    });
  } catch (error) {
    // no socket here: the poll alone keeps the page fresh
  }
  window.setTimeout(poll, POLL_MS);
}
