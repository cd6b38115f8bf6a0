// The index's and champions' pages (referee/src/view/index/): sorts a table.sortable by
// the column whose title is clicked (or pressed Enter on), numbers as numbers, again to
// reverse; filters the match list (table#matches) by a part of a champion's name and to
// the matches with a fault. The rows are the page's own: nothing is drawn from data, so
// the page works, unsorted, without this script.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);

  function sortable(table) {
    const body = table.tBodies[0];
    const heads = [...table.tHead.rows[0].cells];
    heads.forEach((th, col) => {
      if (th.dataset.sort === "no") return;
      th.classList.add("sort");
      th.tabIndex = 0;
      th.title = "Sort by " + th.textContent;
      const go = () => sortBy(col, th);
      th.addEventListener("click", go);
      th.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    });
    function sortBy(col, th) {
      const up = th.getAttribute("aria-sort") !== "ascending";
      heads.forEach((h) => h.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      const numeric = th.dataset.type === "n";
      const sign = up ? 1 : -1;
      const keyed = [...body.rows].map((row, i) => {
        const cell = row.cells[col];
        const v = cell ? (cell.dataset.v ?? cell.textContent) : "";
        const n = Number(v);
        return [numeric ? (v === "" || Number.isNaN(n) ? -Infinity : n) : v.toLowerCase(), i, row];
      });
      keyed.sort((a, b) => (a[0] < b[0] ? -sign : a[0] > b[0] ? sign : a[1] - b[1]));
      const rows = document.createDocumentFragment();
      keyed.forEach((k) => rows.append(k[2]));
      body.append(rows);
    }
  }
  document.querySelectorAll("table.sortable").forEach(sortable);

  const list = $("matches"), filter = $("filter"), faultsOnly = $("faults-only"), shown = $("shown");
  if (list && filter) {
    const rows = [...list.tBodies[0].rows];
    const apply = () => {
      const q = filter.value.trim().toLowerCase();
      let n = 0;
      for (const row of rows) {
        const keep = (!q || row.dataset.names.includes(q)) && (!faultsOnly.checked || row.dataset.fault === "1");
        row.hidden = !keep;
        if (keep) n++;
      }
      shown.textContent = n + " of " + rows.length + " matches";
    };
    filter.addEventListener("input", apply);
    faultsOnly.addEventListener("change", apply);
    apply();
  }
  window.indexReadyMs = performance.now();
  document.documentElement.dataset.ready = "1";
})();
