// The replay page's start and layout: the game's own fit (`viewer.fit`: its board sized to
// what the window leaves) then every part's layout, again when the window, its pixel
// ratio or the header's height changes; then the step of the URL, the keys, the footer
// and the ready marker (`data-ready` on <html>).
"use strict";
(function () {
  const V = window.viewer, F = V.F, $ = V.$;

  // The header's height and the pixel ratio at the last layout.
  let laidHeader = null, laidRatio = window.devicePixelRatio || 1;
  V.layout = function () {
    laidHeader = document.querySelector("header").offsetHeight;
    laidRatio = window.devicePixelRatio || 1;
    if (V.fit) V.fit();
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
  // The header changes height when its text wraps (a long title): the board then gets
  // what is left.
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

  // The step of the URL read before the mode writes the URL.
  const first = V.fromHash() ?? 0;
  V.setSpoilerFree(location.hash.endsWith("&spoiler-free"));
  V.go(first);
  V.layout();
  $("keys").textContent = V.keysText();
  const ready = performance.now();
  // The footer's parts, those that tell the future in a `.spoiler` span of their own;
  // written again as a game still being played grows (its count of moves).
  function footer() {
    const box = $("footer");
    box.textContent = F.footer.concat(["ready in " + ready.toFixed(0) + " ms"]).join(" · ");
    for (const part of F.footer_spoiler || []) {
      const span = document.createElement("span");
      span.className = "spoiler";
      span.textContent = " · " + part;
      box.append(span);
    }
    if (F.footer_after) box.append(" · " + F.footer_after.join(" · "));
  }
  footer();
  V.onGrow.push(footer);
  window.viewerReadyMs = ready;
  document.documentElement.dataset.ready = "1";
})();
