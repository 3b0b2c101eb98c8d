// @ts-check
/* flame view tree: the call tree seen through the UI state (thread, inverted, merged recursion) */

/* Build the tree the flame graph shows for the current thread choice, orientation and
 * recursion setting. Nodes are created parents first, so index order is a topological order.
 * V.kids(v) gives a node's children, heaviest first. The top-down tree is built eagerly (at most
 * one view node per call-tree node); the bottom-up tree can have far more nodes than the call
 * tree, so it is expanded lazily, only where the flame graph draws. */
let tDepth = null;   // depth of each call-tree node below its thread root
function buildView() {
  const t0 = performance.now();
  if (callTree && !tDepth) {
    tDepth = new Int32Array(nodeCount);
    for (let n = 0; n < nodeCount; n++) tDepth[n] = callTree.parent[n] >= 0 ? tDepth[callTree.parent[n]] + 1 : 0;
  }
  flameView = ui.inverted ? buildInverted() : buildTopDown();
  STATS.viewNodes = flameView.n;
  STATS.buildMs = performance.now() - t0;
}

function threadKeys() { return Math.max(1, ...Array.from(threadByIndex.keys()).map((k) => k + 1)); }

/* Peak live bytes of a frame (docs/report.md). A call-tree node's peak (callTree.peak, load.js) is
 * that of its own allocations on its path in its thread. A frame that counts several nodes that
 * allocated (threads merged, recursion merged, a bottom-up frame's callees) shows the largest of
 * their peaks: a lower bound of their combined peak, since their peaks may have fallen at
 * different moments (their sum is the upper bound). peakPaths counts those nodes. Null (and
 * the view's hasPeak false) without peaks: no allocations, an older report, a time window's tree. */
function peakAdder(peak, paths) {
  const PK = callTree && callTree.peak, AL = callTree && callTree.metrics && callTree.metrics.allocs;
  if (!PK || !AL) return null;
  return (v, n) => { if (AL.self[n] > 0) { if (PK[n] > peak[v]) peak[v] = PK[n]; paths[v]++; } };
}

/* The columns of a top-down view under construction, sized for the most nodes it can have (one
 * per call-tree node, thread and sampled frame, and the root), so that building it allocates
 * nothing per node. */
function viewColumns(cap, withPeak) {
  return {
    n: 0, parent: new Int32Array(cap), func: new Int32Array(cap), thr: new Int32Array(cap), sam: new Int32Array(cap).fill(-1),
    total: new Float64Array(cap), self: new Float64Array(cap), calls: new Float64Array(cap),
    peak: new Float64Array(withPeak ? cap : 1), peakPaths: new Int32Array(withPeak ? cap : 1),
  };
}

/* Children by (parent view node, key): an open-addressing hash table of view node ids, the key of
 * each view node in keyOf. A Map keyed by numbers costs several times more per lookup, and this
 * runs once per call-tree node. */
function childTable(cap, B) {
  let size = 1024;
  while (size < cap * 2) size *= 2;
  const slots = new Int32Array(size).fill(-1), keyOf = new Int32Array(cap), mask = size - 1;
  return (p, key, f, t) => {
    let h = (Math.imul(p, 0x9e3779b1) ^ Math.imul(key, 0x85ebca77)) >>> 0;
    h = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const c = slots[h];
      if (c < 0) break;
      if (B.parent[c] === p && keyOf[c] === key) return c;
      h = (h + 1) & mask;
    }
    const c = B.node(p, f, t);
    keyOf[c] = key; slots[h] = c;
    return c;
  };
}

/* The top-down view. When no two call-tree nodes can meet in one frame (one root per thread
 * frame, recursion not merged, and no node with two children of the same function, as the
 * analyzer's trees are), each call-tree node makes its own frame without looking its siblings up. */
function buildTopDown() {
  return buildTopDownWith(!ui.rec && oneRootPerTop() && kidsUnique());
}

/* Whether no call-tree node has two children of the same function (or, without one, of the same
 * thread): the key a frame's children are told apart by. Computed once per tree. */
function kidsUnique() {
  if (!callTree) return true;
  if (callTree.kidsUnique !== undefined) return callTree.kidsUnique;
  const P = callTree.parent, Fn = callTree.func, TH = callTree.thread, N = nodeCount, NTH = threadKeys();
  const count = new Int32Array(N + 1);
  for (let n = 0; n < N; n++) if (P[n] >= 0) count[P[n] + 1]++;
  for (let n = 0; n < N; n++) count[n + 1] += count[n];
  const kids = new Int32Array(N), at = count.slice(0, N);
  for (let n = 0; n < N; n++) if (P[n] >= 0) kids[at[P[n]]++] = n;
  const seen = new Int32Array(funcs.length + NTH + 3).fill(-1);
  let ok = true;
  for (let p = 0; p < N && ok; p++) {
    for (let i = count[p]; i < count[p + 1]; i++) {
      const k = kids[i], key = Fn[k] >= 0 ? Fn[k] + NTH + 2 : TH[k] + 1;
      if (seen[key] === p) { ok = false; break; }
      seen[key] = p;
    }
  }
  callTree.kidsUnique = ok;
  return ok;
}

/* Whether each frame the call tree's roots go to (the view's root, or in "separately" the thread's
 * frame) gets one root at most. */
function oneRootPerTop() {
  if (!callTree) return true;
  const P = callTree.parent, TH = callTree.thread, split = ui.thread === 'split', seen = new Set();
  let roots = 0;
  for (let n = 0; n < nodeCount; n++) {
    if (P[n] >= 0 || !threadIn(TH[n])) continue;
    if (!split) { if (++roots > 1) return false; }
    else if (seen.has(TH[n])) return false;
    else seen.add(TH[n]);
  }
  return true;
}

/* direct: every call-tree node its own frame, below the root's children (buildTopDown). */
function buildTopDownWith(direct) {
  const NTH = threadKeys();
  const sampledN = callTree && callTree.sampled && ui.metric === 'time' ? callTree.sampled.n : 0;
  const cap = nodeCount + NTH + sampledN + 2;
  const B = viewColumns(cap, !!(callTree && callTree.peak));
  const { parent, func, thr, total, self, calls } = B;
  B.node = (p, f, t) => { const v = B.n++; parent[v] = p; func[v] = f; thr[v] = t; return v; };
  const addPeak = peakAdder(B.peak, B.peakPaths);
  let lookup = null;   // the children table, made when first needed
  // f >= 0: a function; f < 0: the node of thread t
  const child = (p, f, t) => {
    if (direct && p !== 0) return B.node(p, f >= 0 ? f : -1, t);
    if (!lookup) lookup = childTable(cap, B);
    return lookup(p, f >= 0 ? f + NTH + 2 : t + 1, f >= 0 ? f : -1, t);
  };
  const sel = ui.thread, single = typeof sel === 'number';
  const root = B.node(-1, -1, single ? sel : -1);
  const threadNode = new Map();
  const threadTop = (t) => {
    if (sel !== 'split') return root;
    let v = threadNode.get(t);
    if (v === undefined) { v = child(root, -1, t); threadNode.set(t, v); }
    return v;
  };
  if (callTree) {
    const P = callTree.parent, Fn = callTree.func, TH = callTree.thread, CT = callTree.total, CS = callTree.self, CC = callTree.calls;
    const viewOf = new Int32Array(nodeCount).fill(-1);
    const everyThread = ui.process === 'all' && !single;
    for (let n = 0; n < nodeCount; n++) {
      const t = TH[n];
      if (!everyThread && !threadIn(t)) continue;
      const p = P[n];
      if (p < 0) {
        const v = threadTop(t);
        total[v] += CT[n]; self[v] += CS[n];
        if (v !== root) total[root] += CT[n];
        if (addPeak) addPeak(v, n);
        viewOf[n] = v;
        continue;
      }
      const pv = viewOf[p];
      if (pv < 0) continue;
      const f = Fn[n];
      if (ui.rec && f >= 0) {
        let a = pv;
        while (a >= 0 && func[a] !== f) a = parent[a];
        if (a >= 0) {
          // recursion: fold into the enclosing frame of the same function; frames in between
          // no longer contain this call's time
          self[a] += CS[n];
          for (let b = pv; b !== a; b = parent[b]) total[b] -= CT[n];
          if (addPeak) addPeak(a, n);
          viewOf[n] = a;
          continue;
        }
      }
      const v = child(pv, f, t);
      total[v] += CT[n]; self[v] += CS[n]; calls[v] += CC[n];
      if (addPeak) addPeak(v, n);
      viewOf[n] = v;
    }
    if (sampledN) addSampled(callTree.sampled, viewOf, B);
  }
  return finishTopDown(B, !!addPeak);
}

/* The children lists (heaviest first), depths and heights of a built top-down view. */
function finishTopDown(B, hasPeak) {
  const N = B.n, parent = B.parent.subarray(0, N), func = B.func.subarray(0, N), total = B.total.subarray(0, N);
  const kidCount = new Int32Array(N), depth = new Int32Array(N), height = new Int32Array(N);
  for (let v = 1; v < N; v++) { kidCount[parent[v]]++; depth[v] = depth[parent[v]] + 1; }
  const kidStart = new Int32Array(N + 1);
  for (let v = 0; v < N; v++) kidStart[v + 1] = kidStart[v] + kidCount[v];
  const fill = kidStart.slice(0, N), kids = new Int32Array(Math.max(0, N - 1));
  for (let v = 1; v < N; v++) kids[fill[parent[v]]++] = v;
  const cmp = (x, y) => (total[y] - total[x]) || (func[x] - func[y]);
  for (let v = 0; v < N; v++) {
    const a = kidStart[v], b = kidStart[v + 1];
    if (b - a > 12) { kids.subarray(a, b).sort(cmp); continue; }
    // most nodes have a few children: an insertion sort in place, without a comparator call
    for (let i = a + 1; i < b; i++) {
      const k = kids[i], tk = total[k], fk = func[k];
      let j = i - 1;
      while (j >= a && (total[kids[j]] < tk || (total[kids[j]] === tk && func[kids[j]] > fk))) { kids[j + 1] = kids[j]; j--; }
      kids[j + 1] = k;
    }
  }
  for (let v = N - 1; v > 0; v--) { const p = parent[v]; if (height[v] + 1 > height[p]) height[p] = height[v] + 1; }
  return {
    n: N, lazy: false, parent, func, thr: B.thr.subarray(0, N),
    total, self: B.self.subarray(0, N), calls: B.calls.subarray(0, N), depth, height,
    hasPeak, peak: hasPeak ? B.peak.subarray(0, N) : B.peak, peakPaths: hasPeak ? B.peakPaths.subarray(0, N) : B.peakPaths, sam: B.sam.subarray(0, N),
    kids: (v) => kids.subarray(kidStart[v], kidStart[v + 1]),
  };
}

/* The sampled frames (load.js) under the view nodes of their traced frames, one view node per
 * (parent view node, label): width is the estimated time (est_ns), which lies inside the traced
 * frame's self time, so the frame's exact self time stays what it is and its children now show
 * where part of it went. V.sam[v] is the sampled frame's index (its label), -1 for others. */
function addSampled(S, viewOf, V) {
  const vOf = new Int32Array(S.n).fill(-1), made = new Map(), first = V.n;
  for (let i = 0; i < S.n; i++) {
    const p = S.parent[i];
    const pv = p < nodeCount ? viewOf[p] : vOf[p - nodeCount];
    if (pv < 0) continue;   // its traced frame is not shown (another thread)
    const key = pv + '\u0000' + S.label[i] + (S.inlined[i] ? '\u0000i' : '');
    let v = made.get(key);
    if (v === undefined) { v = V.node(pv, -1, V.thr[pv]); V.sam[v] = i; made.set(key, v); }
    V.total[v] += S.est[i]; V.self[v] += S.est[i];
    vOf[i] = v;
  }
  // a nested inlined frame's time is inside the frame it is nested in
  for (let v = V.n - 1; v >= first; v--) { const p = V.parent[v]; if (p >= first) V.total[p] += V.total[v]; }
}

/* Bottom-up: the children of a frame are its callers; width is the self time of the call-tree
 * nodes ("contributors") whose reversed call path leads to the frame. Each view node keeps its
 * contributors and, for each, the call-tree node reached so far going up; expanding a node
 * groups them by the next caller. */
function buildInverted() {
  const P = callTree ? callTree.parent : new Int32Array(0), Fn = callTree ? callTree.func : new Int32Array(0), TH = callTree ? callTree.thread : new Int32Array(0);
  const sel = ui.thread, single = typeof sel === 'number';
  const X = { n: 0, lazy: true, hasPeak: false, parent: [], func: [], thr: [], total: [], self: [], calls: [], depth: [], height: [], contrib: [], at: [], kidList: [], peak: [], peakPaths: [] };
  const addPeak = peakAdder(X.peak, X.peakPaths);
  X.hasPeak = !!addPeak;
  function node(p, f, t) {
    X.parent.push(p); X.func.push(f); X.thr.push(t); X.total.push(0); X.self.push(0); X.calls.push(0); X.peak.push(0); X.peakPaths.push(0);
    X.depth.push(p >= 0 ? X.depth[p] + 1 : 0); X.height.push(0); X.contrib.push(null); X.at.push(null); X.kidList.push(null);
    return X.n++;
  }
  const root = node(-1, -1, single ? sel : -1);
  const tops = new Map();
  const byThread = new Map();
  if (callTree) {
    for (let n = 0; n < nodeCount; n++) {
      const t = TH[n];
      if (!threadIn(t)) continue;
      let top = root;
      if (sel === 'split') {
        top = tops.get(t);
        if (top === undefined) { top = node(root, -1, t); tops.set(t, top); byThread.set(top, []); }
      }
      if (P[n] < 0) {  // time outside any traced function
        X.self[top] += callTree.self[n]; X.total[top] += callTree.self[n];
        if (top !== root) { X.total[root] += callTree.self[n]; }
        if (addPeak) addPeak(top, n);
        continue;
      }
      if (!(callTree.self[n] > 0) && !(callTree.calls[n] > 0)) continue;
      (sel === 'split' ? byThread.get(top) : (byThread.get(root) || (byThread.set(root, []), byThread.get(root)))).push(n);
    }
  }
  // contributors of the top level(s): every call-tree node, currently at itself
  for (const [v, list] of byThread) {
    X.contrib[v] = Int32Array.from(list);
    X.at[v] = null;                    // null: the contributors have not been grouped yet
    let w = 0;
    for (const n of list) { w += callTree.self[n]; if (addPeak) addPeak(v, n); }
    X.total[v] += w;
    if (v !== root) X.total[root] += w;
  }
  if (sel === 'split') { X.contrib[root] = new Int32Array(0); X.kidList[root] = Array.from(tops.values()).sort((a, b) => X.total[b] - X.total[a]); }
  for (const v of byThread.keys()) { let h = 0; for (const n of X.contrib[v]) if (tDepth[n] > h) h = tDepth[n]; X.height[v] = h; }
  if (sel === 'split') X.height[root] = Math.max(0, ...Array.from(tops.values()).map((v) => X.height[v] + 1));

  // the functions on the reversed path of v (for merge recursion)
  function pathFuncs(v) { const set = new Set(); for (let a = v; a >= 0; a = X.parent[a]) if (X.func[a] >= 0) set.add(X.func[a]); return set; }
  function expand(v) {
    const list = X.contrib[v], at = X.at[v];
    const kids = new Map();
    const onPath = ui.rec ? pathFuncs(v) : null;
    for (let i = 0; list && i < list.length; i++) {
      const n = list[i];
      let m = at ? P[at[i]] : n;        // next caller (or the leaf itself at the top level)
      if (onPath) while (m >= 0 && Fn[m] >= 0 && onPath.has(Fn[m])) m = P[m];
      if (m < 0 || Fn[m] < 0) continue;  // reached the thread root: this chain ends at v
      const f = Fn[m];
      let k = kids.get(f);
      if (k === undefined) { k = { f, ns: [], ms: [], total: 0, self: 0, calls: 0, h: 0 }; kids.set(f, k); }
      k.ns.push(n); k.ms.push(m);
      k.total += callTree.self[n]; k.calls += callTree.calls[n];
      // does the chain end at the child?
      let up = P[m];
      if (onPath) while (up >= 0 && Fn[up] >= 0 && (Fn[up] === f || onPath.has(Fn[up]))) up = P[up];
      if (up < 0 || Fn[up] < 0) k.self += callTree.self[n];
      if (tDepth[m] > k.h) k.h = tDepth[m];
    }
    const out = [];
    for (const k of kids.values()) {
      const c = node(v, k.f, X.thr[v]);
      X.total[c] = k.total; X.self[c] = k.self; X.calls[c] = k.calls; X.height[c] = Math.max(0, k.h - 1);
      X.contrib[c] = Int32Array.from(k.ns); X.at[c] = Int32Array.from(k.ms);
      if (addPeak) for (const n of k.ns) addPeak(c, n);
      out.push(c);
    }
    out.sort((a, b) => (X.total[b] - X.total[a]) || (X.func[a] - X.func[b]));
    X.kidList[v] = out;
    X.contrib[v] = null; X.at[v] = null;   // no longer needed
    STATS.viewNodes = X.n;
    return out;
  }
  X.kids = (v) => X.kidList[v] || expand(v);
  return X;
}

/* The sampled frame a view node shows, -1 for a call or a thread. */
function vSam(v) { return flameView.sam && v < flameView.sam.length ? flameView.sam[v] : -1; }
function vName(v) {
  const s = vSam(v);
  if (s >= 0) return callTree.sampled.label[s];
  const f = flameView.func[v];
  if (f >= 0) return funcName(f);
  if (v === 0) return typeof ui.thread === 'number' ? threadLabel(ui.thread) : ui.process !== 'all' ? 'process ' + ui.process : 'all threads';
  return threadLabel(flameView.thr[v]);
}
/* The view node's label: a function's short name, a thread's label. */
function vShort(v) { const f = flameView.func[v]; return vSam(v) >= 0 ? vName(v) + ' (sampled)' : f >= 0 ? funcShort(f) : vName(v); }
/* A view node's key among its siblings, for the focus path in the URL: a function's index, 't' and
 * a thread's, 's' and a sampled frame's (its index in the call tree's sampled frames: a name could
 * hold any character, and siblings never share a sampled frame). */
function vKey(v) { const f = flameView.func[v], s = vSam(v); return s >= 0 ? 's' + s : f >= 0 ? String(f) : 't' + flameView.thr[v]; }
function vPath(v) { const out = []; for (; v > 0; v = flameView.parent[v]) out.push(v); return out.reverse(); }
function resolveFocus(keys) {
  let v = 0;
  for (const k of keys) {
    let found = -1;
    for (const c of flameView.kids(v)) { if (vKey(c) === k) { found = c; break; } }
    if (found < 0) break;
    v = found;
  }
  return v;
}
