// La loi du plus riche's layout (`viewer.fit`, called by the frame's start): the board
// sized to what the window leaves once the header, the controls and the score chart are in
// view (a 1366x768 laptop shows all three), the side column as tall as the board.
"use strict";
(function () {
  const V = window.viewer, $ = V.$;
  const outer = (e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e); return r.height + parseFloat(s.marginTop) + parseFloat(s.marginBottom); };
  V.fit = function () {
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
  };
})();
