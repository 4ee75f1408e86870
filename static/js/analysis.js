// The match page while its analysis is queued or running: its progress polled every ~5 s
// ("Analysing game 3 of 7"); when it is done (or failed) the page reloads to show it.
import { pollWhileVisible } from "./poll.js";

const line = document.getElementById("analysis-progress");
if (line) {
  pollWhileVisible(line.dataset.url, 5, (state) => {
    if (state.status === "done" || state.status === "failed") {
      window.location.reload();
      return true;
    }
    line.textContent = state.text;
    return false;
  });
}
