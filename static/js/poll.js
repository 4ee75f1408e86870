// A light poll of a JSON URL while the tab is visible: every `seconds`, none while the tab
// is hidden (and one at once when it shows again). `onAnswer(data)` gets each answer;
// returning true stops the poll, as does the returned handle's stop(). A failed request
// (offline, the server restarting) is tried again at the next tick.
export function pollWhileVisible(url, seconds, onAnswer) {
  let timer = null;
  let stopped = false;
  const poll = async () => {
    timer = null;
    if (stopped || document.visibilityState !== "visible") return;
    try {
      const answer = await ask(url);
      if (answer !== null && onAnswer(answer)) return;
    } catch (error) {
      // Try again at the next tick.
    }
    schedule();
  };
  const schedule = () => {
    if (!stopped && timer === null && document.visibilityState === "visible") timer = setTimeout(poll, seconds * 1000);
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") {
      clearTimeout(timer);
      timer = null;
    } else if (timer === null && !stopped) poll();
  });
  schedule();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = null;
    },
  };
}

// One answer of the same JSON URL, at once (a page whose socket has just begun to follow
// asks whether it missed anything since it was drawn). A failed request changes nothing.
export async function pollOnce(url, onAnswer) {
  try {
    const answer = await ask(url);
    if (answer !== null) onAnswer(answer);
  } catch (error) {
    // The socket's next event, or the next poll, brings the page up to date.
  }
}

// The URL's JSON answer, or null when the server answered with an error.
async function ask(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
  return response.ok ? response.json() : null;
}
