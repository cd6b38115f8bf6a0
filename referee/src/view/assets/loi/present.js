// The replay viewer's presentation mode, for a projector: full screen when the browser
// allows it, large type, auto-play by turn at the chosen speed, and at the last step a
// banner with the champions' names, final scores and points (the referee's, from the
// timeline's result).
"use strict";
(function () {
  const V = window.viewer, T = V.T, $ = V.$, el = V.el, C = V.colour;
  let presenting = false;
  V.presenting = () => presenting;

  function present(on) {
    presenting = on === undefined ? !presenting : on;
    document.body.classList.toggle("presenting", presenting);
    $("btn-present").setAttribute("aria-pressed", String(presenting));
    if (presenting) {
      try {
        if (document.fullscreenEnabled && !document.fullscreenElement) document.documentElement.requestFullscreen().catch(() => {});
      } catch (e) { /* no full screen here: the page still fills the window */ }
      $("play-by").value = "turn";
      if (Number($("speed").value) < 1000) $("speed").value = "2000";
      if (!V.playing() && V.current < V.steps.length - 1) V.play();
    } else {
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
      V.stop();
    }
    banner(V.current);
    V.layout();
  }
  document.addEventListener("fullscreenchange", () => { if (!document.fullscreenElement && presenting) present(false); else V.layout(); });
  $("btn-present").addEventListener("click", () => present());
  V.key(["p"], "presentation", () => present());
  V.key(["Escape"], "leave it", () => { if (presenting) present(false); });

  // The result, best first: points, then final score.
  function banner(index) {
    const box = $("banner");
    // A game still being played has no result yet.
    const show = presenting && T.result !== undefined && index === V.steps.length - 1;
    box.hidden = !show;
    if (!show) return;
    box.textContent = "";
    const r = T.result, order = [0, 1, 2].sort((a, b) => r.points[b] - r.points[a] || r.final_scores[b] - r.final_scores[a]);
    const top = Math.max(...r.points), first = order.filter((s) => r.points[s] === top);
    const names = first.map((s) => T.seats[s].name);
    const title = first.length === 1 ? names[0] + " wins" : first.length === 3 ? "All three tied" : "Tied first: " + names.join(" and ");
    box.append(el("h2", { id: "banner-title" }, title));
    const list = el("ol");
    order.forEach((s) => {
      const li = el("li");
      const mark = el("span", { class: "mark" }); mark.style.background = C.seat[s];
      li.append(mark, V.LETTER[s] + " " + T.seats[s].name + " — final score " + r.final_scores[s] + " — " + r.points[s] + (r.points[s] === 1 ? " point" : " points"));
      list.append(li);
    });
    box.append(list);
  }
  V.onStep.push(banner);
})();
