"""The constant CSS and JavaScript of the HTML report (no user data ever goes in here).

The script is static: it reads sort keys from ``data-sort`` attributes, so user content stays in
escaped HTML and can never reach script context. Its hash goes into the page's Content Security
Policy, so no other script (injected or not) can run and nothing can be loaded from the network.
"""

from __future__ import annotations

import base64
import hashlib

CSS = """
:root { --fg:#1d1f21; --muted:#5f6368; --line:#d9dce0; --bg:#ffffff; --soft:#f5f6f8;
  --decorate:#2e7d32; --keep:#3a6ea5; --reconfigure:#6a4ca5; --undecorate:#b26a00;
  --fix-first:#c0392b; --leave-eager:#6b7280; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--fg); background: var(--bg); margin: 0 auto; padding: 1.5rem 2rem 4rem; max-width: 1200px; }
h1 { font-size: 1.5rem; margin: 0 0 .2rem; } h2 { font-size: 1.15rem; margin: 2rem 0 .6rem;
  border-bottom: 1px solid var(--line); padding-bottom: .3rem; } h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
.muted { color: var(--muted); } code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.cards { display: flex; flex-wrap: wrap; gap: .6rem; margin: .8rem 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .8rem; min-width: 8.5rem; background: var(--soft); }
.card .n { font-size: 1.35rem; font-weight: 600; display: block; } .card .k { color: var(--muted); font-size: 12px; }
.verdict { display: inline-block; padding: 0 .45rem; border-radius: 9px; color: #fff; font-size: 12px; font-weight: 600; white-space: nowrap; }
.v-decorate { background: var(--decorate); } .v-keep { background: var(--keep); } .v-reconfigure { background: var(--reconfigure); }
.v-undecorate { background: var(--undecorate); } .v-fix-first { background: var(--fix-first); } .v-leave-eager { background: var(--leave-eager); }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .45rem; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th { background: var(--soft); position: sticky; top: 0; }
th button { all: unset; cursor: pointer; font-weight: 600; }
th button:focus-visible { outline: 2px solid var(--keep); }
th[aria-sort=ascending] button::after { content: " ▲"; } th[aria-sort=descending] button::after { content: " ▼"; }
.gain { color: var(--decorate); } .loss { color: var(--fix-first); }
.sev { font-weight: 600; text-transform: uppercase; font-size: 11px; }
.sev-error { color: var(--fix-first); } .sev-warning { color: var(--undecorate); } .sev-info { color: var(--keep); }
.finding { border: 1px solid var(--line); border-radius: 6px; margin: .6rem 0; padding: .5rem .8rem; }
.finding header { display: flex; gap: .6rem; align-items: baseline; flex-wrap: wrap; }
pre.src { background: var(--soft); border-radius: 4px; padding: .4rem 0; margin: .4rem 0; overflow-x: auto; }
pre.src span { display: block; padding: 0 .6rem; } pre.src span.hit { background: #fff3c4; }
pre.src .ln { color: var(--muted); display: inline-block; min-width: 3.5em; user-select: none; }
figure { margin: 1rem 0 1.6rem; } figcaption { color: var(--muted); font-size: 12.5px; }
svg.plot { max-width: 100%; height: auto; display: block; }
svg.plot * { stroke-linejoin: round; stroke-linecap: butt; }
details summary { cursor: pointer; color: var(--muted); }
table.kv { width: auto; } table.kv th { position: static; font-weight: 600; }
"""

SCRIPT = """
(function () {
  "use strict";
  function key(cell, numeric) {
    var raw = cell.getAttribute("data-sort");
    if (raw === null) { raw = cell.textContent.trim(); }
    if (raw === "") { return null; }
    if (numeric) { var n = parseFloat(raw); return isNaN(n) ? null : n; }
    return raw.toLowerCase();
  }
  function sortBy(table, th, index) {
    var numeric = th.getAttribute("data-type") === "number";
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var heads = th.parentNode.cells;
    for (var i = 0; i < heads.length; i++) { heads[i].removeAttribute("aria-sort"); }
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, i) { row.setAttribute("data-order", String(i)); });
    rows.sort(function (a, b) {
      var ka = key(a.cells[index], numeric), kb = key(b.cells[index], numeric);
      if (ka === null || kb === null) {
        if (ka === kb) { return a.getAttribute("data-order") - b.getAttribute("data-order"); }
        return ka === null ? 1 : -1;  /* missing values last, whichever the direction */
      }
      var c = ka < kb ? -1 : ka > kb ? 1 : 0;
      if (c === 0) { return a.getAttribute("data-order") - b.getAttribute("data-order"); }
      return ascending ? c : -c;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  var tables = document.querySelectorAll("table.sortable");
  Array.prototype.forEach.call(tables, function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, index) {
      var button = th.querySelector("button");
      if (button) { button.addEventListener("click", function () { sortBy(table, th, index); }); }
    });
  });
  document.documentElement.setAttribute("data-ready", "1");
})();
"""


def script_hash() -> str:
    """The CSP source expression allowing exactly ``SCRIPT``."""
    digest = hashlib.sha256(SCRIPT.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def content_security_policy() -> str:
    return f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {script_hash()}"
