// The index's and champions' pages (referee/src/view/index/): sorts a table.sortable by
// the column whose title is clicked (or pressed Enter on), numbers as numbers, again to
// reverse; hides the columns a person reads second until asked (input.all-columns);
// filters the match list (table#matches) by a champion (a whole name: that champion only;
// otherwise a part of a name), by two for head to head (#against; a link
// #champion=A&against=B sets both), and to the matches with a fault. The rows are the
// page's own: nothing is drawn from data, so the page works, unsorted and with every
// column, without this script.
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
      th.title = (th.title ? th.title + ". " : "") + "Click to sort by it.";
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

  document.querySelectorAll("input.all-columns").forEach((box) => {
    const table = $(box.dataset.table);
    const show = () => table.classList.toggle("few", !box.checked);
    box.addEventListener("change", show);
    show();
  });

  const list = $("matches"), filter = $("filter"), against = $("against");
  const faultsOnly = $("faults-only"), shown = $("shown");
  if (list && filter) {
    const rows = [...list.tBodies[0].rows];
    const namesOf = new Map(rows.map((row) => [row, row.dataset.names.split("\n")]));
    const every = new Set([...namesOf.values()].flat());
    const options = $("names");
    [...every].sort().forEach((name) => { const o = document.createElement("option"); o.value = name; options.append(o); });
    // A whole name is that champion only (`random` is not `c/random`); else a part.
    const finds = (field, names) => {
      const q = field ? field.value.trim().toLowerCase() : "";
      if (!q) return true;
      return every.has(q) ? names.includes(q) : names.some((n) => n.includes(q));
    };
    const apply = () => {
      let n = 0;
      for (const row of rows) {
        const names = namesOf.get(row);
        const keep = finds(filter, names) && finds(against, names) && (!faultsOnly.checked || row.dataset.fault === "1");
        row.hidden = !keep;
        if (keep) n++;
      }
      shown.textContent = n + " of " + rows.length + " matches";
    };
    // #champion=A&against=B (a cell of the pairwise matrix): those two, then the list.
    const fromHash = () => {
      if (!location.hash.startsWith("#champion=")) return;
      const q = new URLSearchParams(location.hash.slice(1));
      filter.value = q.get("champion") || "";
      if (against) against.value = q.get("against") || "";
      apply();
      $("matches-h").scrollIntoView();
    };
    filter.addEventListener("input", apply);
    if (against) against.addEventListener("input", apply);
    faultsOnly.addEventListener("change", apply);
    window.addEventListener("hashchange", fromHash);
    apply();
    fromHash();
  }
  window.indexReadyMs = performance.now();
  document.documentElement.dataset.ready = "1";
})();
