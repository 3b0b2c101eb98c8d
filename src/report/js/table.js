// @ts-check
/* function table: rows per function, sorting, filtering, a windowed body */

/** @typedef {{f: number, calls: number, self: number, total: number,
 *             avg?: number, selfPct?: number, totalPct?: number, name?: string,
 *             allocs?: number, bytes?: number, live?: number,
 *             err?: number | null, samples?: number | null, bound?: number | null, unc?: boolean}} TableRow */
/** @type {TableRow[] | null} */
let tableRows = null;     // one row per function: {f, calls, self, total, avg, selfPct, totalPct, name}
let tableTotal = 1;
const COLS = [
  { key: 'name', label: 'Function', num: false },
  { key: 'calls', label: 'Calls', num: true, title: 'Number of calls' },
  { key: 'self', label: 'Self', num: true, title: 'Elapsed time excluding traced children' },
  { key: 'selfPct', label: 'Self %', num: true, title: 'Self time as a share of all traced thread time' },
  { key: 'total', label: 'Total', num: true, title: 'Elapsed time including traced children (recursion counted once)' },
  { key: 'totalPct', label: 'Total %', num: true, title: 'Total time as a share of all traced thread time' },
  { key: 'avg', label: 'Avg / call', num: true, title: 'Total time divided by calls' },
];
/* With heap allocations in the capture: what each function allocated itself
 * (with it on top of the stack). */
const ALLOC_COLS = [
  { key: 'allocs', label: 'Allocs', num: true, title: 'Heap allocations made by the function itself' },
  { key: 'bytes', label: 'Allocated', num: true, title: 'Heap bytes the function itself allocated' },
  { key: 'live', label: 'Live at exit', num: true, title: 'Of those, bytes never freed (leaked at exit; the garbage collector\'s allocations never count)' },
];
function tableCols() { return hasAllocs() ? COLS.concat(ALLOC_COLS) : COLS; }

function buildTableSection() {
  const sec = section('xl-functions', 'Functions', el('span', { class: 'xl-muted', id: 'fn-scope-wrap' }, ['\u2014 ', el('span', { id: 'fn-scope', text: 'all threads' })]));
  sec.appendChild(el('div', { class: 'xl-toolbar' }, [
    el('input', { type: 'search', id: 'fn-filter', placeholder: 'Filter by name or file  ( f )', 'aria-label': 'Filter functions', autocomplete: 'off', spellcheck: 'false',
      oninput: (e) => { ui.filter = e.target.value; const w = $('fn-wrap'); if (w) w.scrollTop = 0; renderTable(); } }),
    el('span', { id: 'fn-count', class: 'xl-muted' }),
  ]));
  if (timelineData) sec.appendChild(windowNote('fn-window'));
  const headRow = el('tr', null, tableCols().map((c) => el('th', { class: c.num ? 'num sortable' : 'sortable', dataset: { key: c.key }, title: c.title || null, scope: 'col', tabindex: '0', 'aria-sort': 'none' },
    [el('span', { text: c.label }), el('span', { class: 'xl-sort-ind', 'aria-hidden': 'true' })])));
  headRow.addEventListener('click', (e) => { const th = e.target.closest('th'); if (th) sortBy(th.dataset.key); });
  headRow.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { const th = e.target.closest('th'); if (th) { e.preventDefault(); sortBy(th.dataset.key); } } });
  const tbody = el('tbody', { id: 'fn-body' });
  tbody.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-copy]');
    const tr = e.target.closest('tr[data-f]');
    if (!tr) return;
    const f = +tr.dataset.f;
    if (b) { copyText(funcName(f)); return; }
    selectFunc(f, false);
  });
  tbody.addEventListener('dblclick', (e) => { const tr = e.target.closest('tr[data-f]'); if (tr) zoomToFunc(+tr.dataset.f); });
  const wrap = el('div', { class: 'xl-table-wrap', id: 'fn-wrap' }, [el('table', { class: 'xl-table', id: 'fn-table' }, [el('thead', null, headRow), tbody])]);
  let pend = false;
  wrap.addEventListener('scroll', () => { if (pend) return; pend = true; requestAnimationFrame(() => { pend = false; renderTableWindow(false); }); }, { passive: true });
  sec.appendChild(wrap);
  sec.appendChild(el('p', { class: 'xl-hint', text: 'Click a column to sort (again to reverse). Click a row to highlight the function in the flame graph; double-click or Enter zooms to its largest frame. Percentages are of summed thread time, which can exceed the run time when threads overlap.' }));
  return sec;
}

function buildTableRows() {
  /** @type {TableRow[]} */
  const rows = [];
  const own = typeof ui.thread === 'number' && threadList[ui.thread] ? threadList[ui.thread].functions : null;
  if (!winView && typeof ui.thread === 'number' && own && Array.isArray(own.func)) {
    // the thread's own function table (exact even when its call tree was bounded)
    for (let i = 0; i < own.func.length; i++) rows.push({ f: own.func[i], calls: +own.calls[i] || 0, self: +own.self_ns[i] || 0, total: +own.total_ns[i] || 0 });
    tableTotal = threadList[ui.thread].total_ns || 1;
  } else if (callTree && (winView || (typeof ui.thread === 'number' && threadList.length > 1) || ui.process !== 'all')) {
    // from the call tree: one thread's or one process's part of it, or (a window's tree, window.js) all of it
    const calls = new Float64Array(funcs.length), self = new Float64Array(funcs.length), total = new Float64Array(funcs.length), seen = new Uint8Array(funcs.length);
    const T = callTree.metrics ? callTree.metrics.time : callTree;   // the flame graph's metric may be another
    let tt = 0;
    for (let n = 0; n < nodeCount; n++) {
      if (!threadIn(callTree.thread[n])) continue;
      const f = callTree.func[n];
      if (callTree.parent[n] < 0) { tt += T.total[n]; continue; }
      if (f < 0 || (funcs[f] && funcs[f].more)) continue;
      calls[f] += callTree.calls[n]; self[f] += T.self[n]; seen[f] = 1;
      let rec = false;
      for (let m = callTree.parent[n]; m >= 0; m = callTree.parent[m]) if (callTree.func[m] === f) { rec = true; break; }
      if (!rec) total[f] += T.total[n];
    }
    for (let f = 0; f < funcs.length; f++) if (seen[f]) rows.push({ f, calls: calls[f], self: self[f], total: total[f] });
    tableTotal = tt || 1;
  } else {
    // all threads: --timing=sampled's self times are estimates with their samples and bound;
    // exact timing: how far the profiler's cost per call could move each self time (cost_bound_ns)
    funcs.forEach((fn, f) => { if (!fn.more) rows.push({ f, calls: +fn.calls || 0, self: +fn.self_ns || 0, total: +fn.total_ns || 0, err: isNum(fn.self_err_ns) ? fn.self_err_ns : null, samples: isNum(fn.self_samples) ? fn.self_samples : null, bound: isNum(fn.cost_bound_ns) ? fn.cost_bound_ns : null, unc: fn.cost_uncertain === true }); });
    let tt = profileDoc.totals.thread_time_ns;
    if (!isNum(tt) || tt <= 0) { tt = 0; for (const th of threadList) tt += th.total_ns || 0; }
    tableTotal = tt || 1;
  }
  for (const r of rows) { r.avg = r.calls > 0 ? r.total / r.calls : 0; r.selfPct = r.self / tableTotal; r.totalPct = r.total / tableTotal; r.name = funcShort(r.f); }
  if (hasAllocs()) allocRows(rows);
  tableRows = rows;
  renderTable();
}

/* The allocation columns: all threads from functions[].alloc (exact, bounded
 * trees included), one thread from its call-tree nodes; none in a time window. */
function allocRows(rows) {
  if (winView) {   // a time window's calls come from the timeline, which has no allocations: "\u2014"
    for (const r of rows) { r.allocs = NaN; r.bytes = NaN; r.live = NaN; }
    return;
  }
  const one = typeof ui.thread === 'number' || ui.process !== 'all' ? 1 : -1;   // one thread or one process
  const M = callTree.metrics && callTree.metrics.bytes ? callTree.metrics : null, by = new Map();   // none in a time window's tree
  if (one >= 0 && M) {
    for (let n = 0; n < nodeCount; n++) {
      const f = callTree.func[n];
      if (!threadIn(callTree.thread[n]) || f < 0) continue;
      let a = by.get(f);
      if (!a) { a = { allocs: 0, bytes: 0, live: 0 }; by.set(f, a); }
      a.allocs += M.allocs.self[n]; a.bytes += M.bytes.self[n]; a.live += M.live.self[n];
    }
  }
  for (const r of rows) {
    const fa = funcs[r.f] && funcs[r.f].alloc;
    const a = one >= 0 ? by.get(r.f) : fa ? { allocs: +fa.allocs || 0, bytes: +fa.bytes || 0, live: +fa.live_bytes || 0 } : null;
    r.allocs = a ? a.allocs : 0; r.bytes = a ? a.bytes : 0; r.live = a ? a.live : 0;
  }
}

function sortBy(key) {
  if (ui.sortKey === key) ui.sortDir = -ui.sortDir;
  else { ui.sortKey = key; ui.sortDir = key === 'name' ? 1 : -1; }
  renderTable();
}

function sortedFilteredRows() {
  let rows = tableRows || [];
  const q = ui.filter.trim().toLowerCase();
  if (q) rows = rows.filter((r) => r.name.toLowerCase().indexOf(q) >= 0 || funcName(r.f).toLowerCase().indexOf(q) >= 0 || funcLoc(r.f).toLowerCase().indexOf(q) >= 0);
  else rows = rows.slice();
  const k = ui.sortKey, d = ui.sortDir;
  if (k === 'name') rows.sort((a, b) => d * (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || a.f - b.f);
  else rows.sort((a, b) => d * (a[k] - b[k]) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || a.f - b.f);
  return rows;
}

/* The table is virtual: only the rows in (and near) the visible part of its scroll box are
 * in the DOM, so thousands of functions cost nothing. Its geometry is not read before the first
 * frame is drawn (measureTableRows): reading it sooner would lay the whole page out twice. */
let tableView = [];        // sorted + filtered rows
let rowH = 44;             // #fn-table's row height in the stylesheet, until measured
let tableMeasured = false;
let tableWin = null;
function renderTable() {
  const body = $('fn-body');
  if (!body) return;
  tableView = sortedFilteredRows();
  $all(document, '#fn-table th').forEach((th) => {
    const on = th.dataset.key === ui.sortKey;
    th.setAttribute('aria-sort', on ? (ui.sortDir > 0 ? 'ascending' : 'descending') : 'none');
    th.querySelector('.xl-sort-ind').textContent = on ? (ui.sortDir > 0 ? '\u25b2' : '\u25bc') : '';
  });
  $('fn-count').textContent = fmtCount(tableView.length) + (tableView.length === 1 ? ' function' : ' functions') + (ui.filter.trim() ? ' match' : '');
  renderTableWindow(true);
}

function tableRow(r) {
  const loc = funcLoc(r.f);
  return el('tr', { class: 'xl-row' + (r.f === ui.selFunc ? ' selected' : ''), dataset: { f: String(r.f) }, 'aria-selected': r.f === ui.selFunc ? 'true' : 'false' }, [
    el('td', { class: 'xl-name-cell', dataset: { v: r.name } }, [
      el('div', { class: 'xl-fn' }, [
        el('span', { class: 'xl-swatch', style: 'background:' + frameColor(funcName(r.f)) }),
        el('span', { class: 'xl-fn-name', title: disp(funcName(r.f), 6000) }, nameSpans(r.name, 500)),
        el('button', { type: 'button', class: 'xl-copy', dataset: { copy: '1' }, title: 'Copy function name', 'aria-label': 'Copy function name', text: '\u29c9' }),
      ]),
      el('div', { class: 'xl-fn-loc', title: loc ? disp(loc, 4000) : null, text: loc ? disp(loc, 300) : '\u00a0' }),
    ]),
    el('td', { class: 'num', dataset: { v: String(r.calls) }, text: fmtCount(r.calls) }),
    selfCell(r),
    el('td', { class: 'num pct', dataset: { v: String(r.selfPct) } }, [el('span', { class: 'xl-bar', style: 'width:' + Math.min(100, r.selfPct * 100).toFixed(1) + '%' }), el('span', { class: 'xl-bar-t', text: fmtPct(r.selfPct) })]),
    el('td', { class: 'num', dataset: { v: String(r.total) }, text: fmtNs(r.total) }),
    el('td', { class: 'num pct', dataset: { v: String(r.totalPct) } }, [el('span', { class: 'xl-bar total', style: 'width:' + Math.min(100, r.totalPct * 100).toFixed(1) + '%' }), el('span', { class: 'xl-bar-t', text: fmtPct(r.totalPct) })]),
    el('td', { class: 'num', dataset: { v: String(r.avg) }, text: r.calls > 0 ? fmtNs(r.avg) : '\u2014' }),
    ...(hasAllocs() ? [
      el('td', { class: 'num', dataset: { v: String(r.allocs) }, text: fmtCount(r.allocs) }),
      el('td', { class: 'num', dataset: { v: String(r.bytes) }, text: fmtBytes(r.bytes) }),
      el('td', { class: 'num', dataset: { v: String(r.live) }, text: fmtBytes(r.live) }),
    ] : []),
  ]);
}

/* The self time: under --timing=sampled with its bound; under exact timing marked uncertain
 * (\u2248) when the profiler's cost of the calls to and from it could move it by half or more
 * and it is call-dense (functions[].cost_uncertain, the analyzer's verdict). */
function selfCell(r) {
  if (r.unc && r.bound !== null) {
    return el('td', { class: 'num xl-uncertain', dataset: { v: String(r.self) },
      title: 'Uncertain: the calls to it and the calls it makes cost the profiler up to ' + fmtNs(r.bound) + ', which can move this self time either way (see the note on call-dense functions)' },
    [el('span', { class: 'xl-unc-mark', 'aria-label': 'uncertain', text: '\u2248\u00a0' }), fmtNs(r.self)]);
  }
  return el('td', { class: 'num', dataset: { v: String(r.self) }, text: fmtNs(r.self) + (r.err !== null && r.err !== undefined ? ' \u00b1' + fmtNs(r.err) : ''),
    title: r.samples !== null && r.samples !== undefined ? 'Estimated from ' + fmtCount(r.samples) + ' position samples (\u00b1: 19 times in 20)' : null });
}

/* Render the rows around the scroll position (force: even when they are the ones in the DOM);
 * returns whether it did. Before measureTableRows, the box is at the top and the stylesheet's
 * height (.xl-table-wrap's max-height). */
function renderTableWindow(force) {
  const body = $('fn-body'), wrap = $('fn-wrap');
  if (!body || !wrap) return false;
  const n = tableView.length;
  const head = tableMeasured ? wrap.querySelector('thead') : null;
  const headH = head ? head.offsetHeight : 0;
  const viewH = tableMeasured ? Math.max(wrap.clientHeight, 400) : 560;
  const first = Math.max(0, Math.floor(((tableMeasured ? wrap.scrollTop : 0) - headH) / rowH) - 10);
  const last = Math.min(n, first + Math.ceil(viewH / rowH) + 20);
  if (!force && tableWin && tableWin[0] === first && tableWin[1] === last) return false;
  tableWin = [first, last];
  const spacer = (h) => el('tr', { class: 'xl-spacer', 'aria-hidden': 'true' }, el('td', { colspan: String(tableCols().length), style: 'height:' + h + 'px' }));
  const frag = document.createDocumentFragment();
  if (first > 0) frag.appendChild(spacer(first * rowH));
  for (let i = first; i < last; i++) frag.appendChild(tableRow(tableView[i]));
  if (last < n) frag.appendChild(spacer((n - last) * rowH));
  body.textContent = '';
  body.appendChild(frag);
  return true;
}

/* After the first frame: the rows' real height, and the rows for the box's real size. */
function measureTableRows() {
  tableMeasured = true;
  const body = $('fn-body');
  const r0 = /** @type {HTMLElement | null} */ (body ? body.querySelector('tr.xl-row') : null);
  if (r0 && r0.offsetHeight > 0 && Math.abs(r0.offsetHeight - rowH) > 0.5) { rowH = r0.offsetHeight; tableWin = null; }
  renderTableWindow(false);
}

/* The selected row's mark, on the rows in the DOM. */
function markSelectedRow() {
  $all(document, '#fn-body tr[data-f]').forEach((tr) => {
    const on = +tr.dataset.f === ui.selFunc;
    tr.classList.toggle('selected', on);
    tr.setAttribute('aria-selected', on ? 'true' : 'false');
  });
}

/* Select function f (-1: none). From the flame graph or the memory chart (fromFlame), the table
 * follows after the next paint: the frame that answers the click does not wait for the table's
 * rows to be rebuilt and laid out. */
let tableFollowPending = false;
function selectFunc(f, fromFlame) {
  ui.selFunc = f;
  if (!fromFlame) showSelectedRow(false);
  else if (!tableFollowPending) {
    tableFollowPending = true;
    requestAnimationFrame(() => setTimeout(() => { tableFollowPending = false; showSelectedRow(true); }, 0));
  }
  renderDetail();
  schedule('flame'); schedule('tl');
}

/* Scroll the table to the selected function's row and mark it (fromFlame: clearing a filter that
 * hides it). */
function showSelectedRow(fromFlame) {
  const f = ui.selFunc, wrap = $('fn-wrap');
  if (wrap && f >= 0) {
    let i = tableView.findIndex((r) => r.f === f);
    if (i < 0 && fromFlame) {
      // the row is filtered out: clear the filter
      ui.filter = ''; const fi = $input('fn-filter'); if (fi) fi.value = '';
      renderTable();
      i = tableView.findIndex((r) => r.f === f);
    }
    if (i >= 0) {
      const head = wrap.querySelector('thead'), headH = head ? head.offsetHeight : 0;
      const rt = headH + i * rowH, rb = rt + rowH;
      if (rt - headH < wrap.scrollTop) wrap.scrollTop = Math.max(0, rt - headH);
      else if (rb > wrap.scrollTop + wrap.clientHeight) wrap.scrollTop = rb - wrap.clientHeight;
    }
  }
  if (!renderTableWindow(false)) markSelectedRow();
}

function zoomToFunc(f) {
  if (!flameView) return;
  selectFunc(f, false);
  const v = largestFrameOf(f);
  if (v > 0) { navigate({ focus: vPath(v).map(vKey) }); const s = $('xl-flame'); if (s) s.scrollIntoView({ behavior: 'smooth', block: 'start' }); }
}

function renderDetail() {
  renderSource();
  const d = $('fg-detail');
  if (!d) return;
  d.textContent = '';
  const f = ui.selFunc;
  if (f < 0 || f >= funcs.length) { d.appendChild(el('span', { class: 'xl-muted', text: 'Select a frame or a table row to see its function here.' })); return; }
  const r = (tableRows || []).find((x) => x.f === f);
  append(d, [
    el('span', { class: 'xl-swatch big', style: 'background:' + SELECT() }),
    el('strong', { class: 'xl-detail-name', id: 'fg-detail-name', title: disp(funcName(f), 6000), text: disp(funcShort(f), 300) }),
    funcLoc(f) ? el('span', { class: 'xl-mono xl-muted', text: disp(funcLoc(f), 300) }) : null,
    r ? el('span', { text: fmtCount(r.calls) + (r.calls === 1 ? ' call' : ' calls') + ' \u00b7 self ' + fmtNs(r.self) + ' (' + fmtPct(r.selfPct) + ') \u00b7 total ' + fmtNs(r.total) + ' (' + fmtPct(r.totalPct) + ')' }) : null,
    el('span', { class: 'xl-grow' }),
    el('button', { type: 'button', class: 'xl-btn', id: 'fg-copy', text: 'Copy name', onclick: () => copyText(funcName(f)) }),
    el('button', { type: 'button', class: 'xl-btn', text: 'Zoom to largest frame', onclick: () => zoomToFunc(f) }),
    el('button', { type: 'button', class: 'xl-btn ghost', text: 'Clear', onclick: () => selectFunc(-1, false) }),
    funcShort(f) !== funcName(f) ? el('div', { class: 'xl-detail-full', id: 'fg-detail-full', text: disp(funcName(f), 6000) }) : null,
  ]);
}
