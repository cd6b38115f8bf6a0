// A tournament's page (referee/src/view/assets/web/tournament.html): its parts (state,
// members, standings, bracket, games) follow the server without a reload. The stream
// /tournament/NAME/events says `changed`; the parts are fetched again from
// /tournament/NAME/parts (made and escaped by the server's template).
"use strict";
(function () {
  const name = document.body.dataset.tournament, state = document.getElementById("live-state");
  const parts = document.getElementById("parts");
  let busy = false, again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const r = await fetch("/tournament/" + name + "/parts", { cache: "no-store" });
      if (r.ok) parts.innerHTML = await r.text();
      const all = parts.querySelector(".all-columns");
      if (all) all.checked = parts.classList.contains("all-columns");
      const start = document.getElementById("start");
      if (start && document.getElementById("state").textContent !== "open") start.hidden = true;
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }
  // Every column of the standings, or the main ones (as a tournament's index shows them).
  parts.addEventListener("change", (e) => {
    if (e.target.classList.contains("all-columns")) parts.classList.toggle("all-columns", e.target.checked);
  });
  const events = new EventSource("/tournament/" + name + "/events");
  events.addEventListener("open", () => { state.textContent = "live"; refresh(); });
  events.addEventListener("changed", refresh);
  events.addEventListener("error", () => { state.textContent = "reconnecting"; });
})();
