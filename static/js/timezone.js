// The browser's time zone, where the site would otherwise assume UTC.
// - Sign-up: fills the hidden time_zone field, so deadlines are local from the first day.
// - Preferences: while the player still has UTC, preselects the browser's zone (when the
//   list has it) and says so; nothing is saved until they press Save.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

if (zone) {
  for (const input of document.querySelectorAll('input[type="hidden"][name="time_zone"]')) {
    if (!input.value) input.value = zone;
  }
  for (const select of document.querySelectorAll('select[data-browser-zone="suggest"]')) {
    const option = [...select.options].find((o) => o.value === zone);
    if (select.value === "UTC" && option && zone !== "UTC") {
      select.value = zone;
      const note = document.createElement("p");
      note.className = "help";
      note.textContent = select.dataset.browserZoneNote || zone;
      select.insertAdjacentElement("afterend", note);
    }
  }
}
