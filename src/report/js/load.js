// @ts-check
/* load: parse and check the embedded exaloop.profile/1 document */

function fatal(msg) {
  XL.error = msg;
  const app = $('xl-app');
  app.textContent = '';
  append(app, el('div', { class: 'xl-fatal' }, [el('h1', { text: 'This report has no readable profile data' }), el('p', { text: msg })]));
  XL.ready = true;
  document.documentElement.dataset.xlReady = '1';
}

function load() {
  const node = $('xl-data');
  let txt = node ? node.textContent : '';
  try { profileDoc = JSON.parse(txt); } catch (e) {
    fatal('The embedded JSON could not be parsed (' + e.message + '). The report template may not have been filled in.');
    return false;
  }
  txt = null;
  if (!profileDoc || typeof profileDoc !== 'object') { fatal('The embedded data is not a JSON object.'); return false; }
  profileDoc.run = profileDoc.run || {};
  profileDoc.totals = profileDoc.totals || {};
  funcs = Array.isArray(profileDoc.functions) ? profileDoc.functions : [];
  threadList = Array.isArray(profileDoc.threads) ? profileDoc.threads : [];
  procList = Array.isArray(profileDoc.processes) ? profileDoc.processes.filter((p) => p && isNum(p.pid)) : [];
  threadList.forEach((th, i) => threadByIndex.set(isNum(th.index) ? th.index : i, th));
  const tr = profileDoc.tree;
  // The report's own emitter writes the compact form (docs/report.md):
  // parent_up is each node's distance to its parent (0 for a root),
  // self_ns is left out and the threads may come as thread_runs; the summary
  // JSON (and older reports) write parent indices, self times and threads.
  const ups = tr && Array.isArray(tr.parent_up) ? tr.parent_up : null;
  const parents = tr && (ups || (Array.isArray(tr.parent) ? tr.parent : null));
  if (parents && parents.length) {
    nodeCount = parents.length;
    const col = (a, Ty, def) => { const out = new Ty(nodeCount); if (Array.isArray(a)) for (let i = 0; i < nodeCount; i++) { const x = a[i]; out[i] = isNum(x) ? x : def; } else out.fill(def); return out; };
    callTree = {
      thread: threadColumn(tr, col), parent: col(ups ? null : tr.parent, Int32Array, -1), func: col(tr.func, Int32Array, -1),
      calls: col(tr.calls, Float64Array, 0), total: col(tr.total_ns, Float64Array, 0), self: col(tr.self_ns, Float64Array, 0),
      sampled: /** @type {any} */ (null),   // sampled frames (loadSampled), set below
    };
    if (ups) for (let i = 0; i < nodeCount; i++) { const u = ups[i]; callTree.parent[i] = isNum(u) && u > 0 ? i - u : -1; }
    for (let i = 0; i < nodeCount; i++) {
      const f = callTree.func[i];
      if (f >= funcs.length) callTree.func[i] = -1;
      if (callTree.parent[i] >= i) callTree.parent[i] = -1;   // the format promises parents first; guard anyway
      if (!threadByIndex.has(callTree.thread[i])) threadByIndex.set(callTree.thread[i], { index: callTree.thread[i], name: 'thread ' + callTree.thread[i] });
    }
    if (!Array.isArray(tr.self_ns)) {
      // self = max(total - children's totals, 0), as the analyzer computes it.
      const kids = new Float64Array(nodeCount);
      for (let i = 0; i < nodeCount; i++) { const p = callTree.parent[i]; if (p >= 0) kids[p] += callTree.total[i]; }
      for (let i = 0; i < nodeCount; i++) callTree.self[i] = Math.max(callTree.total[i] - kids[i], 0);
    }
    loadAllocs(tr);
    callTree.sampled = loadSampled(tr.sampled);
  }
  prepareMemory();
  prepareTimeline();
  const run = profileDoc.run, w = run.window || {};
  tEnd = Math.max(1, run.app_time_ns || 0, w.end_ns || 0);
  for (const th of threadList) if (isNum(th.end_ns)) tEnd = Math.max(tEnd, th.end_ns);
  if (memData && memData.n) tEnd = Math.max(tEnd, memData.t[memData.n - 1]);
  if (timelineData) tEnd = Math.max(tEnd, timelineData.maxEnd);
  for (const wa of warnings()) { if (isNum(wa.to_ns)) tEnd = Math.max(tEnd, wa.to_ns); }
  return true;
}

/* The nodes' threads: the column, or in the compact form of a tree whose threads' nodes come in
 * runs, `thread_runs` (pairs of a thread index and how many nodes in a row have it). Nodes the
 * runs do not reach are in thread 0, as a short column's are. */
function threadColumn(tr, col) {
  const runs = tr.thread_runs;
  if (Array.isArray(tr.thread) || !Array.isArray(runs)) return col(tr.thread, Int32Array, 0);
  const out = new Int32Array(nodeCount);
  for (let k = 0, i = 0; k + 1 < runs.length && i < nodeCount; k += 2) {
    const t = runs[k], n = runs[k + 1];
    if (!isNum(n) || n <= 0) continue;
    const end = Math.min(nodeCount, i + Math.floor(n));
    if (isNum(t)) out.fill(t, i, end);
    i = end;
  }
  return out;
}

/* Heap allocations per node (self), when the capture has them: the report's
 * compact form names the nodes that allocated in alloc_at (first index, then
 * distances), the summary JSON has dense columns. Each metric gets self and
 * total (the subtree's sum) columns; setMetric() points callTree.self/total
 * at the chosen one, so every view that reads them follows. The peak live
 * bytes of each node's path (alloc_peak) is no metric: peaks do not add up
 * along a subtree, so it has no total and never sets a frame's width; the
 * flame graph's tooltips show it (callTree.peak, flame-tree.js). */
function loadAllocs(tr) {
  callTree.metrics = { time: { self: callTree.self, total: callTree.total } };
  // no allocation on any call path (or none recorded): time is the only measure
  if (!Array.isArray(tr.alloc_calls) || !tr.alloc_calls.some((x) => isNum(x) && x > 0)) return;
  const at = Array.isArray(tr.alloc_at) ? tr.alloc_at : null;
  const perNode = (src) => {
    const self = new Float64Array(nodeCount);
    if (Array.isArray(src)) {
      let i = 0;
      for (let k = 0; k < src.length; k++) {
        if (at) i += isNum(at[k]) ? at[k] : 0; else i = k;
        if (i >= 0 && i < nodeCount && isNum(src[k])) self[i] = src[k];
      }
    }
    return self;
  };
  const cols = { allocs: tr.alloc_calls, bytes: tr.alloc_bytes, live: tr.alloc_live };
  // the totals are summed when the flame graph first shows the metric (setMetric): the allocation
  // views only read the self columns
  const tree = callTree;
  for (const [name, src] of Object.entries(cols)) {
    const self = perNode(src);
    let total = null;
    tree.metrics[name] = {
      self,
      get total() {
        if (total) return total;
        total = Float64Array.from(self);
        for (let i = total.length - 1; i > 0; i--) { const p = tree.parent[i]; if (p >= 0) total[p] += total[i]; }
        return total;
      },
    };
  }
  // reports written before the compact form carried alloc_peak have none
  if (Array.isArray(tr.alloc_peak)) callTree.peak = perNode(tr.alloc_peak);
  runHasAllocs = true;
}
/* The run's tree has allocations (a time window's tree, window.js, has only time). */
let runHasAllocs = false;
function hasAllocs() { return runHasAllocs; }
function setMetric(m) {
  if (!callTree || !callTree.metrics || !callTree.metrics[m]) m = 'time';
  ui.metric = m;
  if (callTree && callTree.metrics) { callTree.self = callTree.metrics[m].self; callTree.total = callTree.metrics[m].total; }
}
/* The sampled frames (docs/summary-json.md, tree.sampled): inlined functions and library code
 * under the traced frame they ran in, by instruction samples. A frame's parent is a call-tree node
 * (< nodeCount) or nodeCount + an earlier sampled frame; rows that break that are left out. */
function loadSampled(sm) {
  if (!sm || !Array.isArray(sm.parent)) return null;
  const n = sm.parent.length, at = (a, i) => (Array.isArray(a) ? a[i] : undefined);
  const out = { n: 0, parent: [], inlined: [], label: [], name: [], library: [], samples: [], est: [] };
  const idOf = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const p = sm.parent[i];
    let parent = -1;
    if (isNum(p) && p >= 0 && p < nodeCount) parent = p;
    else if (isNum(p) && p >= nodeCount && p - nodeCount < i && idOf[p - nodeCount] >= 0) parent = nodeCount + idOf[p - nodeCount];
    if (parent < 0) continue;
    const name = String(at(sm.name, i) ?? '??'), lib = at(sm.library, i), inl = at(sm.kind, i) === 'inlined';
    idOf[i] = out.n++;
    out.parent.push(parent); out.inlined.push(inl); out.name.push(name); out.library.push(typeof lib === 'string' ? lib : null);
    out.label.push(inl ? name : (typeof lib === 'string' ? lib + ': ' + name : name));
    out.samples.push(isNum(at(sm.samples, i)) ? at(sm.samples, i) : 0);
    out.est.push(isNum(at(sm.est_ns, i)) ? Math.max(0, at(sm.est_ns, i)) : 0);
  }
  return out.n ? out : null;
}

/* A value of the flame graph's metric, formatted. */
function fmtMetric(v) { return ui.metric === 'time' ? fmtNs(v) : ui.metric === 'allocs' ? fmtCount(v) : fmtBytes(v); }

function warnings() { return Array.isArray(profileDoc.warnings) ? profileDoc.warnings : []; }
/* Notes (facts beside the figures, not capture-quality warnings), of the given topics or, with none, all. */
function notes(/** @type {string[]} */ ...topics) {
  const all = Array.isArray(profileDoc.notes) ? profileDoc.notes : [];
  return topics.length ? all.filter((n) => topics.includes(n.topic)) : all;
}
