// The replay viewer's start and layout: the board sized to what the window leaves once the
// header, the controls and the score chart are in view (a 1366x768 laptop shows all three),
// laid out again when the window, its pixel ratio or the mode changes; then the step of
// the URL, the footer (with the keys) and the ready marker.
"use strict";
(function () {
  const V = window.viewer, T = V.T, $ = V.$;
  const outer = (e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e); return r.height + parseFloat(s.marginTop) + parseFloat(s.marginBottom); };

  // The header's height and the pixel ratio at the last layout.
  let laidHeader = null, laidRatio = window.devicePixelRatio || 1;
  V.layout = function () {
    laidHeader = document.querySelector("header").offsetHeight;
    laidRatio = window.devicePixelRatio || 1;
    const H = window.innerHeight, W = document.documentElement.clientWidth;
    const presenting = document.body.classList.contains("presenting");
    const chartH = Math.round(presenting ? Math.max(150, H * 0.2) : H < 820 ? 120 : 170);
    document.documentElement.style.setProperty("--chart-h", chartH + "px");
    const wide = W > 900;
    const side = wide ? (presenting ? Math.max(380, W * 0.26) : 320) : 0;
    const fit = () => {
      const above = outer(document.querySelector("header")) + outer($("board-tools")) + 8;
      const below = outer($("heat-legend")) + outer($("controls")) + outer($("slider-wrap")) +
        chartH + 2 + 4 + 4 + 16;
      const tall = H - above - below - 2;
      const across = W - 32 - 2 - (wide ? side + 14 : 0);
      V.board.resize(Math.max(240, Math.min(tall, across)));
    };
    fit();
    fit(); // the tools above the board wrap to its width: once more with their height
    const aside = $("side");
    aside.style.maxHeight = wide ? $("board-pane").getBoundingClientRect().height + "px" : "";
    aside.style.minWidth = wide ? side + "px" : "";
    V.onLayout.forEach((f) => f());
    document.dispatchEvent(new CustomEvent("viewer:layout"));
  };
  let pending = false;
  const later = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; V.layout(); });
  };
  window.addEventListener("resize", later);
  // The header and the board's tools change height when their text wraps (a long title, a
  // monument's name): the board then gets what is left.
  const header = document.querySelector("header");
  if (window.ResizeObserver) new ResizeObserver(() => { if (header.offsetHeight !== laidHeader) later(); }).observe(header);
  // A change of pixel ratio (a window moved to another screen, the browser zoomed) fires no
  // resize everywhere: a media query on the current ratio does, where the browser reports
  // it; a check every half second catches the others (an emulated screen, for one).
  let ratio = null;
  function watchRatio() {
    if (ratio) ratio.removeEventListener("change", onRatio);
    ratio = matchMedia("(resolution: " + (window.devicePixelRatio || 1) + "dppx)");
    ratio.addEventListener("change", onRatio);
  }
  function onRatio() { watchRatio(); later(); }
  watchRatio();
  setInterval(() => { if ((window.devicePixelRatio || 1) !== laidRatio) onRatio(); }, 500);

  V.go(V.fromHash() ?? 0);
  V.layout();
  $("keys").textContent = V.keysText();
  const ready = performance.now();
  $("footer").textContent = "Seed " + T.seed + " · " + V.steps.length + " steps · " + T.requests + " requests" +
    (T.full_log ? " (full log read)" : "") + " · monument order " + T.monument_order.join(",") +
    " · first player: seat " + T.first_player + " · ready in " + ready.toFixed(0) + " ms" + (T.log_note ? " · " + T.log_note : "");
  window.viewerReadyMs = ready;
  document.documentElement.dataset.ready = "1";
})();
