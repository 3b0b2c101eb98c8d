// @ts-check
/* window: the flame graph and the function table recomputed from the timeline's calls inside a
 * time window ("show this window"), and the way back to the whole-run views.
 *
 * The whole run's views come from the call tree, which counts every call. A window's come from
 * the timeline, which holds the calls the capture and the report kept (every call, or the calls
 * at least some duration long: the label says which). A call counts in the window when it
 * overlaps it, once, with the part of its time inside the window; each thread's root frame spans
 * the part of the window the thread was alive in. The window's tree has the call tree's columns
 * (thread, parent, func, calls, total, self; parents first), so every view built on the call tree
 * works on it unchanged. */

/** @type {{t0: number, t1: number, label: string} | null} */
let winView = null;
/** @type {{tree: any, n: number} | null} */
let wholeTree = null;   // the whole run's call tree while a window is shown
let wholeMetric = 'time';   // the whole run's width metric while a window is shown (the address keeps it)

/* The call tree of the timeline's calls overlapping [t0, t1). */
function buildWindowTree(t0, t1) {
  const thread = [], parent = [], func = [], calls = [], total = [];
  const NF = funcs.length + 2;
  for (const ln of timelineData.lanes) {
    const th = threadByIndex.get(ln.index) || {};
    const from = Math.max(t0, isNum(th.start_ns) ? th.start_ns : ln.from != null ? ln.from : t0);
    const to = Math.min(t1, isNum(th.end_ns) && th.end_ns > 0 ? th.end_ns : ln.to != null ? ln.to : t1);
    if (!(to > from) && !ln.n) continue;
    const root = thread.length;
    thread.push(ln.index); parent.push(-1); func.push(-1); calls.push(0); total.push(Math.max(0, to - from));
    const kids = new Map();
    // calls in start order, callers before their callees (the emitter's order; sorted if not)
    let order = null;
    for (let k = 1; k < ln.n; k++) if (ln.start[k] < ln.start[k - 1] || (ln.start[k] === ln.start[k - 1] && ln.depth[k] < ln.depth[k - 1])) { order = true; break; }
    const idx = order ? Int32Array.from({ length: ln.n }, (_, i) => i).sort((x, y) => (ln.start[x] - ln.start[y]) || (ln.depth[x] - ln.depth[y])) : null;
    const stEnd = [], stDepth = [], stNode = [];
    for (let i = 0; i < ln.n; i++) {
      const k = idx ? idx[i] : i;
      const s = ln.start[k];
      if (s >= t1) break;
      const e = s + ln.dur[k];
      if (e <= t0 && !(ln.dur[k] === 0 && s >= t0)) continue;
      const d = ln.depth[k];
      // the nearest kept caller: the innermost open call that contains this one
      while (stEnd.length && !(stDepth[stDepth.length - 1] < d && e <= stEnd[stEnd.length - 1])) { stEnd.pop(); stDepth.pop(); stNode.pop(); }
      const p = stNode.length ? stNode[stNode.length - 1] : root;
      const f = ln.func[k];
      const key = p * NF + f + 1;
      let v = kids.get(key);
      if (v === undefined) {
        v = thread.length; kids.set(key, v);
        thread.push(ln.index); parent.push(p); func.push(f); calls.push(0); total.push(0);
      }
      calls[v]++;
      total[v] += Math.min(e, t1) - Math.max(s, t0);
      stEnd.push(e); stDepth.push(d); stNode.push(v);
    }
  }
  const n = thread.length;
  const tree = { thread: Int32Array.from(thread), parent: Int32Array.from(parent), func: Int32Array.from(func),
    calls: Float64Array.from(calls), total: Float64Array.from(total), self: new Float64Array(n) };
  const kidsTotal = new Float64Array(n);
  for (let i = 0; i < n; i++) if (tree.parent[i] >= 0) kidsTotal[tree.parent[i]] += tree.total[i];
  for (let i = 0; i < n; i++) tree.self[i] = Math.max(tree.total[i] - kidsTotal[i], 0);
  return { tree, n };
}

function windowLabel(t0, t1) {
  return 'From the timeline: ' + timelineKeptText() + ', ' + fmtSpan(t0, t1);
}
/* "1.20–1.85 s": both ends in the unit of the longer one. */
function fmtSpan(t0, t1) {
  const div = t1 >= 1e9 ? 1e9 : t1 >= 1e6 ? 1e6 : t1 >= 1e3 ? 1e3 : 1;
  const unit = div === 1e9 ? ' s' : div === 1e6 ? ' ms' : div === 1e3 ? ' \u00b5s' : ' ns';
  const span = (t1 - t0) / div;
  const dec = span >= 10 ? 1 : Math.min(6, 2 + Math.max(0, Math.ceil(-Math.log10(Math.max(span, 1e-6))) - 1));
  return (t0 / div).toFixed(dec) + '\u2013' + (t1 / div).toFixed(dec) + unit;
}

/* Show the views of [t0, t1) (null: the whole run again). */
function showWindow(range) {
  if (!callTree || !timelineData) return;
  const t0w = performance.now();
  if (range) {
    const [t0, t1] = range;
    if (!wholeTree) wholeTree = { tree: callTree, n: nodeCount };
    if (!winView) wholeMetric = ui.metric;   // a window shown from another keeps the whole run's
    const w = buildWindowTree(t0, t1);
    callTree = w.tree; nodeCount = w.n;
    winView = { t0, t1, label: windowLabel(t0, t1) };
  } else {
    if (!wholeTree) return;
    callTree = wholeTree.tree; nodeCount = wholeTree.n;
    wholeTree = null; winView = null;
  }
  tDepth = null;
  // a window's tree has elapsed time only (load.js): the width menu says so and waits; back on the
  // whole run, the metric the address still names (navState writes wholeMetric meanwhile)
  setMetric(range ? 'time' : readHash().metric);
  const ms = $select('fg-metric');
  if (ms) { ms.disabled = !!winView; ms.title = winView ? 'A time window\u2019s views have elapsed time only' : ''; }
  syncControls();
  buildView();
  ui.focus = resolveFocus(readHash().focus);
  ui.hover = -1;
  computeMatches();
  renderCrumbs();
  buildTableRows();
  renderDetail();
  renderWindowNotes();
  scrollFlameTop();
  schedule('flame');
  STATS.windowMs = performance.now() - t0w;
}

/* The window's label above the flame graph and the table, with the way back. */
function windowNote(id) {
  return el('div', { class: 'xl-note xl-window-note', id, hidden: true }, [
    el('span', { class: 'xl-window-label' }),
    el('button', { type: 'button', class: 'xl-btn', text: 'Back to the whole run', onclick: () => showWindow(null) }),
  ]);
}
function renderWindowNotes() {
  for (const id of ['fg-window', 'fn-window']) {
    const n = $(id);
    if (!n) continue;
    n.hidden = !winView;
    const lab = n.querySelector('.xl-window-label');
    if (lab) lab.textContent = winView ? winView.label + ' (calls overlapping the window, their time inside it).' : '';
  }
  syncWindowButton();
}
/* "Show this window" follows the time axis' zoom (a drag across a chart sets it). */
function syncWindowButton() {
  const b = $button('tl-window');
  if (!b) return;
  const tv = ui.timeView;
  b.hidden = !tv;
  b.disabled = !tv || !!(winView && winView.t0 === tv[0] && winView.t1 === tv[1]);
  b.textContent = tv ? 'Show ' + fmtSpan(tv[0], tv[1]) + ' in the flame graph and table' : 'Show this window';
}
