// A replay page of a game still being played, served by the game server's site
// (`referee serve --web`, referee/src/serve/web/): the game's stream (server-sent events,
// /game/NAME/events) says `moved`, the page fetches its frame and data so far
// (/game/NAME/board.json) and grows (viewer.grow, frame.js): the same page, the same
// drawing; at `ended` it loads the game's replay page (its record, hands shown; a query,
// since a change of the fragment alone would load nothing). The
// console and the CPU chart are the record's, shown once the game ended.
"use strict";
(function () {
  const V = window.viewer, $ = V.$;
  ["console", "cpu-wrap"].forEach((id) => { const e = $(id); if (e) e.hidden = true; });
  document.documentElement.dataset.live = "1";
  // A watcher comes to see the game as it is now: the last step.
  if (!location.hash) V.go(V.count - 1);
  const base = location.pathname.replace(/\/board$/, "");
  let busy = false, again = false;
  async function grow() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const r = await fetch(base + "/board.json", { cache: "no-store" });
      if (r.ok) {
        const j = await r.json();
        if (j.ended) ended();
        else V.grow(j.frame, j.data);
      }
    } finally {
      busy = false;
      if (again) { again = false; grow(); }
    }
  }
  const events = new EventSource(base + "/events");
  events.addEventListener("moved", grow);
  function ended() { events.close(); location.replace(base + "/board?record#last"); }
  events.addEventListener("ended", ended);
})();
