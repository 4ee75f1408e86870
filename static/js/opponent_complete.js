// Username completion in the challenge form: fills the opponent field's <datalist> from
// the challenge_opponents endpoint (its URL is the field's data-complete-url) as one
// types. Without this script the field is a plain text box, and the form works the same.
const input = document.querySelector("input[data-complete-url]");
const list = input && document.getElementById(input.getAttribute("list"));

if (input && list) {
  const answers = new Map(); // text typed -> players, so a word typed again asks nothing
  let timer = 0;
  let wanted = "";

  const show = (players) => {
    list.replaceChildren(
      ...players.map((player) => {
        const option = document.createElement("option");
        option.value = player.username;
        if (player.name !== player.username) option.label = player.name;
        return option;
      }),
    );
  };

  const ask = async (text) => {
    const url = new URL(input.dataset.completeUrl, window.location.href);
    url.searchParams.set("q", text);
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const { players } = await response.json();
      answers.set(text, players);
      if (wanted === text) show(players);
    } catch {
      // Offline or refused: the plain field still takes a typed username.
    }
  };

  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    wanted = input.value.trim();
    if (!wanted) {
      show([]);
    } else if (answers.has(wanted)) {
      show(answers.get(wanted));
    } else {
      const text = wanted;
      timer = window.setTimeout(() => ask(text), 200); // after a pause in typing
    }
  });
}
