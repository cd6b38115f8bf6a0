// The list of games (referee/src/view/assets/web/games.html): its rows follow the server's
// changes without a reload. The stream /events says `changed`; the rows of the same filters
// are fetched again from /games/rows (made and escaped by the server's template).
"use strict";
(function () {
  const rows = document.getElementById("rows"), state = document.getElementById("live-state");
  let busy = false, again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const r = await fetch("/games/rows" + location.search, { cache: "no-store" });
      if (r.ok) rows.innerHTML = await r.text();
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }
  const events = new EventSource("/events");
  events.addEventListener("open", () => { state.textContent = "live"; refresh(); });
  events.addEventListener("changed", refresh);
  events.addEventListener("error", () => { state.textContent = "reconnecting"; });
})();
