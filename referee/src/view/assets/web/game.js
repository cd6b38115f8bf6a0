// A game's page (referee/src/view/assets/web/game.html): at the game's end (the stream
// /game/NAME/events says `ended`), its summary (state, result, comments) is fetched again;
// its board, in the frame below, follows the game on its own (frame/live.js).
"use strict";
(function () {
  const name = document.body.dataset.game, state = document.getElementById("live-state");
  const summary = document.getElementById("summary");
  const events = new EventSource("/game/" + name + "/events");
  events.addEventListener("open", () => { state.textContent = "live"; });
  events.addEventListener("ended", async () => {
    events.close();
    state.textContent = "";
    const r = await fetch("/game/" + name + "/summary", { cache: "no-store" });
    if (r.ok) summary.innerHTML = await r.text();
  });
  events.addEventListener("error", () => { state.textContent = "reconnecting"; });
})();
