/* exaloop HTML report viewer.
 * Reads the exaloop.profile/1 document embedded in #xl-data and draws the run summary, the
 * elapsed-time flame graph, the function table, the memory chart and the timeline.
 * Rule: every string that comes from the capture (names, paths, arguments, messages) is
 * rendered as text (textContent, attribute values, canvas fillText), never parsed as markup. */
(function () {
  'use strict';

  /* ------------------------------------------------------------------ helpers */

  const $ = (id) => document.getElementById(id);

  function append(node, kids) {
    if (kids == null || kids === false) return node;
    if (!Array.isArray(kids)) kids = [kids];
    for (const k of kids) {
      if (k == null || k === false) continue;
      node.appendChild(typeof k === 'object' ? k : document.createTextNode(String(k)));
    }
    return node;
  }

  /* Create an element. Keys of props are chosen by this code only; values may be data. */
  function el(tag, props, kids) {
    const e = document.createElement(tag);
    if (props) {
      for (const k of Object.keys(props)) {
        const v = props[k];
        if (v == null || v === false) continue;
        if (k === 'class') e.className = v;
        else if (k === 'text') e.textContent = v;
        else if (k === 'style') e.style.cssText = v;
        else if (k === 'dataset') Object.assign(e.dataset, v);
        else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v === true ? '' : String(v));
      }
    }
    return append(e, kids);
  }

  /* Make untrusted text safe to look at: control characters become visible symbols and
   * bidirectional overrides are shown as escapes so they cannot reorder what is displayed. */
  const ODD_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;
  function disp(s, max) {
    if (s == null) return '';
    s = String(s);
    if (max && s.length > max) s = s.slice(0, max) + '\u2026 (' + fmtCount(s.length) + ' chars)';
    return s.replace(ODD_CHARS, (c) => {
      const n = c.charCodeAt(0);
      if (n < 0x20) return String.fromCharCode(0x2400 + n);
      if (n === 0x7f) return '\u2421';
      return '\\u' + n.toString(16).padStart(4, '0');
    });
  }

  function isNum(v) { return typeof v === 'number' && isFinite(v); }
  function sig3(x) {
    const a = Math.abs(x);
    return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : x.toFixed(2);
  }
  function fmtCount(n) { return isNum(n) ? Math.round(n).toLocaleString('en-US') : '\u2014'; }
  function fmtNs(ns) {
    if (!isNum(ns)) return '\u2014';
    const a = Math.abs(ns);
    if (ns === 0) return '0';
    if (a < 1e3) return Math.round(ns) + ' ns';
    if (a < 1e6) return sig3(ns / 1e3) + ' \u00b5s';
    if (a < 1e9) return sig3(ns / 1e6) + ' ms';
    if (a < 120e9) return sig3(ns / 1e9) + ' s';
    const m = Math.floor(a / 60e9), s = Math.round((a - m * 60e9) / 1e9);
    return (ns < 0 ? '-' : '') + m + ' min ' + s + ' s';
  }
  const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  function fmtBytes(b) {
    if (!isNum(b)) return '\u2014';
    let a = Math.abs(b), u = 0;
    while (a >= 1024 && u < BYTE_UNITS.length - 1) { a /= 1024; u++; }
    return (b < 0 ? '-' : '') + (u === 0 ? String(a) : sig3(a)) + ' ' + BYTE_UNITS[u];
  }
  function fmtPct(x) {
    if (!isNum(x)) return '\u2014';
    const p = x * 100;
    if (p > 0 && p < 0.1) return '<0.1%';
    return (p >= 99.95 && p < 100 ? '99.9' : p.toFixed(1)) + '%';
  }
  function pct(a, b) { return b > 0 ? a / b : NaN; }

  const SIGNALS = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 4: 'SIGILL', 5: 'SIGTRAP', 6: 'SIGABRT', 7: 'SIGBUS',
    8: 'SIGFPE', 9: 'SIGKILL', 10: 'SIGUSR1', 11: 'SIGSEGV', 12: 'SIGUSR2', 13: 'SIGPIPE', 14: 'SIGALRM', 15: 'SIGTERM',
    24: 'SIGXCPU', 25: 'SIGXFSZ', 31: 'SIGSYS' };

  function shellQuote(a) {
    a = String(a);
    if (a !== '' && /^[A-Za-z0-9_./:=@%+,-]+$/.test(a)) return a;
    return "'" + a.replace(/'/g, "'\\''") + "'";
  }

  function hashStr(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    h ^= h >>> 13; h = Math.imul(h, 0x5bd1e995); h ^= h >>> 15;
    return h >>> 0;
  }

  function lowerBound(arr, x, lo, hi) {
    while (lo < hi) { const m = (lo + hi) >> 1; if (arr[m] < x) lo = m + 1; else hi = m; }
    return lo;
  }

  /* Nice tick step (1, 2, 5 x 10^k) for a span divided into about n parts. */
  function niceStep(span, n) {
    if (!(span > 0)) return 1;
    const raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
  }
  function timeTickLabel(t, step) {
    let unit = 1, suf = ' ns';
    if (step >= 1e8 || Math.abs(t) >= 1e9 && step >= 1e7) { unit = 1e9; suf = ' s'; }
    else if (step >= 1e5) { unit = 1e6; suf = ' ms'; }
    else if (step >= 100) { unit = 1e3; suf = ' \u00b5s'; }
    const dec = Math.max(0, Math.min(6, Math.ceil(-Math.log10(step / unit) - 1e-9)));
    return (t / unit).toFixed(dec) + suf;
  }
  function byteTicks(max, n) {
    let u = 0, scale = 1;
    while (max / scale >= 1024 && u < BYTE_UNITS.length - 1) { scale *= 1024; u++; }
    const step = niceStep(max / scale, n) * scale;
    return { step, label: (v) => { const x = v / scale; return (Number.isInteger(x) ? String(x) : x.toFixed(Math.max(0, Math.ceil(-Math.log10(step / scale))))) + ' ' + BYTE_UNITS[u]; } };
  }

  function copyText(text) {
    XL.lastCopied = String(text);
    const done = () => toast('Copied: ' + disp(text, 80));
    const fallback = () => {
      const ta = el('textarea', { class: 'xl-offscreen', 'aria-hidden': 'true' });
      ta.value = String(text);
      document.body.appendChild(ta);
      ta.select();
      try { document.execCommand('copy'); done(); } catch (e) { toast('Copy failed'); }
      ta.remove();
    };
    try {
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(String(text)).then(done, fallback);
      else fallback();
    } catch (e) { fallback(); }
  }

  let toastTimer = 0;
  function toast(msg) {
    const t = $('xl-toast');
    if (!t) return;
    t.textContent = msg;
    t.classList.add('show');
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.classList.remove('show'), 1600);
  }

  /* ------------------------------------------------------------------ state */

  const XL = { ready: false, lastCopied: null, error: null };
  let D = null;               // the document
  let FN = [];                // functions[]
  let THREADS = [];           // threads[]
  const threadByIndex = new Map();
  let T = null;               // tree (columns), null when absent
  let NT = 0;                 // number of tree nodes
  let V = null;               // current flame view tree
  let TL = null;              // prepared timeline
  let MEM = null;             // prepared memory samples
  let tEnd = 1;               // end of the shared time axis (ns)

  const S = {
    thread: 'all', inverted: false, rec: false,
    focus: 0,                 // view node
    search: '', searchRe: null, matchFunc: null, matchFrames: 0, matchTotal: 0,
    selFunc: -1,
    hover: -1,                // hovered view node
    sortKey: 'self', sortDir: -1, filter: '',
    timeView: null,           // [t0, t1] or null for the whole run
    brush: null,
    warnHover: -1, warnPin: -1,
    series: { rss: true, gc_heap: true, gc_free: true, gc_occupied: true },
  };
  const STATS = { buildMs: 0, flameDrawMs: 0, memDrawMs: 0, tlDrawMs: 0, viewNodes: 0, drawnFrames: 0, draws: 0 };

  function threadLabel(t) {
    const th = threadByIndex.get(t);
    if (!th) return 'thread ' + t;
    const nm = th.name != null && th.name !== '' ? String(th.name) : 'thread ' + t;
    return th.tid != null ? nm + ' (tid ' + th.tid + ')' : nm;
  }
  function funcName(f) { const fn = FN[f]; return fn && fn.name != null ? String(fn.name) : '[function ' + f + ']'; }
  function funcLoc(f) {
    const fn = FN[f];
    if (!fn || fn.file == null || fn.file === '') return '';
    return String(fn.file) + (isNum(fn.line) && fn.line > 0 ? ':' + fn.line : '');
  }

  /* ------------------------------------------------------------------ theme */

  const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
  let C = {};
  const colorCache = new Map();
  function isDark() { return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches; }
  function readTheme() {
    const cs = getComputedStyle(document.documentElement);
    const v = (n) => cs.getPropertyValue(n).trim();
    C = {
      dark: isDark(), text: v('--text'), muted: v('--muted'), grid: v('--grid'), axis: v('--axis'), bg: v('--card'),
      accent: v('--accent'), frameText: v('--frame-text'), dimText: v('--frame-dim-text'),
      rss: v('--s-rss'), gc_heap: v('--s-heap'), gc_free: v('--s-free'), gc_occupied: v('--s-occ'), gc: v('--s-gc'),
      outside: v('--shade-outside'), partial: v('--shade-partial'), warnBand: v('--shade-warn'), brush: v('--brush'),
    };
    colorCache.clear();
  }
  function frameColor(name) {
    let c = colorCache.get(name);
    if (c) return c;
    const h = hashStr(name);
    const hue = 6 + (h % 44), sat = (C.dark ? 52 : 68) + ((h >>> 8) % 18), lit = (C.dark ? 52 : 62) + ((h >>> 16) % 12);
    c = 'hsl(' + hue + ',' + sat + '%,' + lit + '%)';
    if (colorCache.size > 50000) colorCache.clear();
    colorCache.set(name, c);
    return c;
  }
  const NEUTRAL = () => (C.dark ? 'hsl(220,9%,40%)' : 'hsl(220,12%,82%)');
  const DIM = () => (C.dark ? 'hsl(220,8%,24%)' : 'hsl(220,10%,91%)');
  const MATCH = () => (C.dark ? 'hsl(278,52%,62%)' : 'hsl(278,62%,70%)');
  const SELECT = () => (C.dark ? 'hsl(200,70%,55%)' : 'hsl(200,80%,62%)');

  /* ------------------------------------------------------------------ load */

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
    try { D = JSON.parse(txt); } catch (e) {
      fatal('The embedded JSON could not be parsed (' + e.message + '). The report template may not have been filled in.');
      return false;
    }
    txt = null;
    if (!D || typeof D !== 'object') { fatal('The embedded data is not a JSON object.'); return false; }
    D.run = D.run || {};
    D.totals = D.totals || {};
    FN = Array.isArray(D.functions) ? D.functions : [];
    THREADS = Array.isArray(D.threads) ? D.threads : [];
    THREADS.forEach((th, i) => threadByIndex.set(isNum(th.index) ? th.index : i, th));
    const tr = D.tree;
    if (tr && Array.isArray(tr.parent) && tr.parent.length) {
      NT = tr.parent.length;
      const col = (a, Ty, def) => { const out = new Ty(NT); if (Array.isArray(a)) for (let i = 0; i < NT; i++) { const x = a[i]; out[i] = isNum(x) ? x : def; } else out.fill(def); return out; };
      T = {
        thread: col(tr.thread, Int32Array, 0), parent: col(tr.parent, Int32Array, -1), func: col(tr.func, Int32Array, -1),
        calls: col(tr.calls, Float64Array, 0), total: col(tr.total_ns, Float64Array, 0), self: col(tr.self_ns, Float64Array, 0),
      };
      for (let i = 0; i < NT; i++) {
        const f = T.func[i];
        if (f >= FN.length) T.func[i] = -1;
        if (T.parent[i] >= i) T.parent[i] = -1;   // the format promises parents first; guard anyway
        if (!threadByIndex.has(T.thread[i])) threadByIndex.set(T.thread[i], { index: T.thread[i], name: 'thread ' + T.thread[i] });
      }
    }
    prepareMemory();
    prepareTimeline();
    const run = D.run, w = run.window || {};
    tEnd = Math.max(1, run.app_time_ns || 0, w.end_ns || 0);
    for (const th of THREADS) if (isNum(th.end_ns)) tEnd = Math.max(tEnd, th.end_ns);
    if (MEM && MEM.n) tEnd = Math.max(tEnd, MEM.t[MEM.n - 1]);
    if (TL) tEnd = Math.max(tEnd, TL.maxEnd);
    for (const wa of warnings()) { if (isNum(wa.to_ns)) tEnd = Math.max(tEnd, wa.to_ns); }
    return true;
  }

  function warnings() { return Array.isArray(D.warnings) ? D.warnings : []; }

  /* ------------------------------------------------------------------ flame view tree */

  /* Build the tree the flame graph shows for the current thread choice, orientation and
   * recursion setting. Nodes are created parents first, so index order is a topological order.
   * V.kids(v) gives a node's children, heaviest first. The top-down tree is built eagerly (at most
   * one view node per call-tree node); the bottom-up tree can have far more nodes than the call
   * tree, so it is expanded lazily, only where the flame graph draws. */
  let tDepth = null;   // depth of each call-tree node below its thread root
  function buildView() {
    const t0 = performance.now();
    if (T && !tDepth) {
      tDepth = new Int32Array(NT);
      for (let n = 0; n < NT; n++) tDepth[n] = T.parent[n] >= 0 ? tDepth[T.parent[n]] + 1 : 0;
    }
    V = S.inverted ? buildInverted() : buildTopDown();
    STATS.viewNodes = V.n;
    STATS.buildMs = performance.now() - t0;
  }

  function threadKeys() { return Math.max(1, ...Array.from(threadByIndex.keys()).map((k) => k + 1)); }

  function buildTopDown() {
    const parent = [], func = [], thr = [], total = [], self = [], calls = [];
    const kidMap = new Map();
    const NTH = threadKeys(), KEYS = FN.length + NTH + 3;
    function node(p, f, t) {
      parent.push(p); func.push(f); thr.push(t); total.push(0); self.push(0); calls.push(0);
      return parent.length - 1;
    }
    function child(p, f, t) {           // f >= 0: a function; f < 0: the node of thread t
      const key = p * KEYS + (f >= 0 ? f + NTH + 2 : t + 1);
      let c = kidMap.get(key);
      if (c === undefined) { c = node(p, f >= 0 ? f : -1, t); kidMap.set(key, c); }
      return c;
    }
    const sel = S.thread, single = typeof sel === 'number';
    const root = node(-1, -1, single ? sel : -1);
    const threadNode = new Map();
    const threadTop = (t) => {
      if (sel !== 'split') return root;
      let v = threadNode.get(t);
      if (v === undefined) { v = child(root, -1, t); threadNode.set(t, v); }
      return v;
    };
    if (T) {
      const P = T.parent, Fn = T.func, TH = T.thread;
      const viewOf = new Int32Array(NT).fill(-1);
      for (let n = 0; n < NT; n++) {
        const t = TH[n];
        if (single && t !== sel) continue;
        const p = P[n];
        if (p < 0) {
          const v = threadTop(t);
          total[v] += T.total[n]; self[v] += T.self[n];
          if (v !== root) total[root] += T.total[n];
          viewOf[n] = v;
          continue;
        }
        const pv = viewOf[p];
        if (pv < 0) continue;
        const f = Fn[n];
        if (S.rec && f >= 0) {
          let a = pv;
          while (a >= 0 && func[a] !== f) a = parent[a];
          if (a >= 0) {
            // recursion: fold into the enclosing frame of the same function; frames in between
            // no longer contain this call's time
            self[a] += T.self[n];
            for (let b = pv; b !== a; b = parent[b]) total[b] -= T.total[n];
            viewOf[n] = a;
            continue;
          }
        }
        const v = child(pv, f, t);
        total[v] += T.total[n]; self[v] += T.self[n]; calls[v] += T.calls[n];
        viewOf[n] = v;
      }
    }
    const N = parent.length;
    const kidCount = new Int32Array(N), depth = new Int32Array(N), height = new Int32Array(N);
    for (let v = 1; v < N; v++) { kidCount[parent[v]]++; depth[v] = depth[parent[v]] + 1; }
    const kidStart = new Int32Array(N + 1);
    for (let v = 0; v < N; v++) kidStart[v + 1] = kidStart[v] + kidCount[v];
    const fill = kidStart.slice(0, N), kids = new Int32Array(Math.max(0, N - 1));
    for (let v = 1; v < N; v++) kids[fill[parent[v]]++] = v;
    const totalA = Float64Array.from(total);
    const cmp = (x, y) => (totalA[y] - totalA[x]) || (func[x] - func[y]);
    for (let v = 0; v < N; v++) {
      const a = kidStart[v], b = kidStart[v + 1];
      if (b - a > 1) kids.set(Array.from(kids.subarray(a, b)).sort(cmp), a);
    }
    for (let v = N - 1; v > 0; v--) { const p = parent[v]; if (height[v] + 1 > height[p]) height[p] = height[v] + 1; }
    return {
      n: N, lazy: false, parent: Int32Array.from(parent), func: Int32Array.from(func), thr: Int32Array.from(thr),
      total: totalA, self: Float64Array.from(self), calls: Float64Array.from(calls), depth, height,
      kids: (v) => kids.subarray(kidStart[v], kidStart[v + 1]),
    };
  }

  /* Bottom-up: the children of a frame are its callers; width is the self time of the call-tree
   * nodes ("contributors") whose reversed call path leads to the frame. Each view node keeps its
   * contributors and, for each, the call-tree node reached so far going up; expanding a node
   * groups them by the next caller. */
  function buildInverted() {
    const P = T ? T.parent : new Int32Array(0), Fn = T ? T.func : new Int32Array(0), TH = T ? T.thread : new Int32Array(0);
    const sel = S.thread, single = typeof sel === 'number';
    const X = { n: 0, lazy: true, parent: [], func: [], thr: [], total: [], self: [], calls: [], depth: [], height: [], contrib: [], at: [], kidList: [] };
    function node(p, f, t) {
      X.parent.push(p); X.func.push(f); X.thr.push(t); X.total.push(0); X.self.push(0); X.calls.push(0);
      X.depth.push(p >= 0 ? X.depth[p] + 1 : 0); X.height.push(0); X.contrib.push(null); X.at.push(null); X.kidList.push(null);
      return X.n++;
    }
    const root = node(-1, -1, single ? sel : -1);
    const tops = new Map();
    const byThread = new Map();
    if (T) {
      for (let n = 0; n < NT; n++) {
        const t = TH[n];
        if (single && t !== sel) continue;
        let top = root;
        if (sel === 'split') {
          top = tops.get(t);
          if (top === undefined) { top = node(root, -1, t); tops.set(t, top); byThread.set(top, []); }
        }
        if (P[n] < 0) {  // time outside any traced function
          X.self[top] += T.self[n]; X.total[top] += T.self[n];
          if (top !== root) { X.total[root] += T.self[n]; }
          continue;
        }
        if (!(T.self[n] > 0) && !(T.calls[n] > 0)) continue;
        (sel === 'split' ? byThread.get(top) : (byThread.get(root) || (byThread.set(root, []), byThread.get(root)))).push(n);
      }
    }
    // contributors of the top level(s): every call-tree node, currently at itself
    for (const [v, list] of byThread) {
      X.contrib[v] = Int32Array.from(list);
      X.at[v] = null;                    // null: the contributors have not been grouped yet
      let w = 0;
      for (const n of list) w += T.self[n];
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
      const onPath = S.rec ? pathFuncs(v) : null;
      for (let i = 0; list && i < list.length; i++) {
        const n = list[i];
        let m = at ? P[at[i]] : n;        // next caller (or the leaf itself at the top level)
        if (onPath) while (m >= 0 && Fn[m] >= 0 && onPath.has(Fn[m])) m = P[m];
        if (m < 0 || Fn[m] < 0) continue;  // reached the thread root: this chain ends at v
        const f = Fn[m];
        let k = kids.get(f);
        if (k === undefined) { k = { f, ns: [], ms: [], total: 0, self: 0, calls: 0, h: 0 }; kids.set(f, k); }
        k.ns.push(n); k.ms.push(m);
        k.total += T.self[n]; k.calls += T.calls[n];
        // does the chain end at the child?
        let up = P[m];
        if (onPath) while (up >= 0 && Fn[up] >= 0 && (Fn[up] === f || onPath.has(Fn[up]))) up = P[up];
        if (up < 0 || Fn[up] < 0) k.self += T.self[n];
        if (tDepth[m] > k.h) k.h = tDepth[m];
      }
      const out = [];
      for (const k of kids.values()) {
        const c = node(v, k.f, X.thr[v]);
        X.total[c] = k.total; X.self[c] = k.self; X.calls[c] = k.calls; X.height[c] = Math.max(0, k.h - 1);
        X.contrib[c] = Int32Array.from(k.ns); X.at[c] = Int32Array.from(k.ms);
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

  function vName(v) {
    const f = V.func[v];
    if (f >= 0) return funcName(f);
    if (v === 0) return typeof S.thread === 'number' ? threadLabel(S.thread) : 'all threads';
    return threadLabel(V.thr[v]);
  }
  function vKey(v) { const f = V.func[v]; return f >= 0 ? String(f) : 't' + V.thr[v]; }
  function vPath(v) { const out = []; for (; v > 0; v = V.parent[v]) out.push(v); return out.reverse(); }
  function resolveFocus(keys) {
    let v = 0;
    for (const k of keys) {
      let found = -1;
      for (const c of V.kids(v)) { if (vKey(c) === k) { found = c; break; } }
      if (found < 0) break;
      v = found;
    }
    return v;
  }

  /* ------------------------------------------------------------------ URL fragment state */

  function readHash() {
    const p = new URLSearchParams(location.hash.replace(/^#/, ''));
    let thread = 'all';
    const th = p.get('thread');
    if (th === 'split') thread = 'split';
    else if (th && /^\d+$/.test(th) && threadByIndex.has(+th)) thread = +th;
    const focus = (p.get('focus') || '').split('.').filter((k) => /^t?\d{1,9}$/.test(k));
    return { thread, inverted: p.get('inv') === '1', rec: p.get('rec') === '1', focus };
  }
  function navState() { return { thread: S.thread, inverted: S.inverted, rec: S.rec, focus: V ? vPath(S.focus).map(vKey) : [] }; }
  function writeHash(st) {
    const p = ['thread=' + st.thread];
    if (st.inverted) p.push('inv=1');
    if (st.rec) p.push('rec=1');
    if (st.focus.length) p.push('focus=' + st.focus.join('.'));
    return '#' + p.join('&');
  }
  function navigate(changes) {
    const st = Object.assign(navState(), changes);
    const h = writeHash(st);
    if (h === location.hash) return;
    location.hash = h;           // pushes a history entry; hashchange applies it
  }
  function applyHash() {
    if (!T) return;
    const h = readHash();
    const rebuild = !V || h.thread !== S.thread || h.inverted !== S.inverted || h.rec !== S.rec;
    const threadChanged = h.thread !== S.thread;
    S.thread = h.thread; S.inverted = h.inverted; S.rec = h.rec;
    if (rebuild) buildView();
    S.focus = resolveFocus(h.focus);
    S.hover = -1;
    syncControls();
    computeMatches();
    renderCrumbs();
    if (threadChanged || !tableRows) { buildTableRows(); renderDetail(); }
    scrollFlameTop();
    schedule('flame');
  }

  /* ------------------------------------------------------------------ page skeleton */

  function section(id, title, extra) {
    return el('section', { class: 'xl-card', id, 'aria-labelledby': id + '-h' }, [
      el('div', { class: 'xl-card-head' }, [el('h2', { id: id + '-h', text: title }), extra || null]),
    ]);
  }

  function buildPage() {
    const app = $('xl-app');
    app.textContent = '';
    const run = D.run;
    const prog = run.program != null ? String(run.program) : '(unknown program)';
    document.title = 'exaloop profile \u2014 ' + disp(prog, 200);
    const navBtn = (label, target) => el('button', { class: 'xl-navlink', type: 'button', text: label, onclick: () => { const t = $(target); if (t) t.scrollIntoView({ behavior: 'smooth', block: 'start' }); } });
    app.appendChild(el('header', { class: 'xl-top' }, [
      el('div', { class: 'xl-brand' }, [el('span', { class: 'xl-logo', 'aria-hidden': 'true' }), el('span', { class: 'xl-brand-name', text: 'exaloop' }), el('span', { class: 'xl-brand-sub', text: 'profile' })]),
      el('div', { class: 'xl-top-prog', id: 'xl-prog', title: disp(prog, 4000), text: disp(prog, 300) }),
      el('nav', { class: 'xl-nav', 'aria-label': 'Sections' }, [
        navBtn('Summary', 'xl-summary'), T ? navBtn('Flame graph', 'xl-flame') : null, T ? navBtn('Functions', 'xl-functions') : null,
        navBtn('Memory', 'xl-memory'), TL ? navBtn('Timeline', 'xl-timeline-wrap') : null,
        el('button', { class: 'xl-help-btn', type: 'button', title: 'Keyboard shortcuts (?)', 'aria-label': 'Keyboard shortcuts', text: '?', onclick: () => toggleHelp() }),
      ]),
    ]));
    const main = el('main', { class: 'xl-main' });
    app.appendChild(main);
    main.appendChild(buildSummary());
    if (T) { main.appendChild(buildFlameSection()); main.appendChild(buildTableSection()); }
    else {
      const empty = section('xl-flame', 'Call paths');
      empty.classList.add('xl-empty');
      empty.appendChild(el('p', { text: 'This capture has no function trace' + (run.mode === 'memory' ? ' (memory-only mode: use --profile or --profile=xray to trace functions).' : '.') }));
      main.appendChild(empty);
    }
    main.appendChild(buildMemorySection());
    main.appendChild(el('footer', { class: 'xl-foot' }, [
      el('span', { text: disp(D.generator || 'exaloop') + ' \u00b7 ' + disp(D.schema || 'unknown schema') }),
      el('span', { text: 'Self-contained report: no network access. Press ? for keyboard shortcuts.' }),
    ]));
    app.appendChild(buildHelp());
    app.appendChild(el('div', { id: 'xl-tip', class: 'xl-tip', role: 'tooltip', hidden: true }));
    app.appendChild(el('div', { id: 'xl-toast', class: 'xl-toast', role: 'status' }));
  }

  /* ------------------------------------------------------------------ summary */

  function kv(k, v, cls) {
    return el('div', { class: 'xl-kv' + (cls ? ' ' + cls : '') }, [el('dt', { text: k }), el('dd', null, v)]);
  }

  function buildSummary() {
    const run = D.run, tot = D.totals, w = run.window || {};
    const sec = section('xl-summary', 'Run summary');
    if (D.schema && D.schema !== 'exaloop.profile/1') sec.appendChild(el('p', { class: 'xl-note', text: 'Note: this report was written for exaloop.profile/1; the data says ' + disp(D.schema, 80) + '.' }));
    const cmd = Array.isArray(run.command) ? run.command.map((a) => shellQuote(a)).join(' ') : '';
    let status, statusCls = 'ok';
    if (isNum(run.signal) && run.signal > 0) { status = 'killed by signal ' + run.signal + (SIGNALS[run.signal] ? ' (' + SIGNALS[run.signal] + ')' : ''); statusCls = 'bad'; }
    else if (isNum(run.exit_status)) { status = 'exit status ' + run.exit_status; statusCls = run.exit_status === 0 ? 'ok' : 'bad'; }
    else status = 'unknown';
    const modeText = { all: 'all \u2014 functions and memory', memory: 'memory only', xray: 'function tracing only' }[run.mode] || disp(run.mode || 'unknown');
    const chips = el('div', { class: 'xl-chips' }, [
      el('span', { class: 'xl-chip ' + statusCls, id: 'xl-status', text: status }),
      el('span', { class: 'xl-chip', text: 'mode: ' + modeText }),
      run.finalized === false ? el('span', { class: 'xl-chip bad', text: 'not finalized' }) : null,
      run.clock ? el('span', { class: 'xl-chip', text: 'clock: ' + disp(run.clock, 40) }) : null,
    ]);
    sec.appendChild(chips);

    const ct = run.compile_time_ns, at = run.app_time_ns;
    const timeBar = isNum(ct) && isNum(at) && ct + at > 0
      ? el('div', { class: 'xl-split', title: 'compile vs application time' }, [
        el('span', { class: 'xl-split-c', style: 'width:' + (100 * ct / (ct + at)).toFixed(2) + '%' }),
        el('span', { class: 'xl-split-a', style: 'width:' + (100 * at / (ct + at)).toFixed(2) + '%' })])
      : null;
    let winText = '\u2014';
    if (isNum(w.start_ns) && isNum(w.end_ns)) {
      const dur = isNum(w.duration_ns) ? w.duration_ns : w.end_ns - w.start_ns;
      winText = fmtNs(w.start_ns) + ' \u2013 ' + fmtNs(w.end_ns) + ' (' + fmtNs(dur) + (isNum(at) && at > 0 ? ', ' + fmtPct(dur / at) + ' of the run' : '') + ')';
    }
    const endReason = { exit: 'until the program exited', window: 'until the capture window closed', none: 'capture did not finish' }[run.end_reason];
    const set = run.settings || {};
    const settingsBits = [];
    if (isNum(set.delay_ns) && set.delay_ns > 0) settingsBits.push('delay ' + fmtNs(set.delay_ns));
    if (isNum(set.duration_ns) && set.duration_ns > 0) settingsBits.push('duration ' + fmtNs(set.duration_ns));
    if (isNum(set.memory_interval_ns)) settingsBits.push('memory every ' + fmtNs(set.memory_interval_ns));
    if (isNum(set.buffer_size)) settingsBits.push('buffer ' + fmtBytes(set.buffer_size));
    if (Array.isArray(set.include) && set.include.length) settingsBits.push('include ' + set.include.map((s) => disp(s, 200)).join(', '));

    const dl = el('dl', { class: 'xl-kvs' }, [
      kv('Program', el('span', { class: 'xl-mono xl-wrap', id: 'xl-program', text: disp(run.program, 2000) })),
      kv('Command', el('code', { class: 'xl-mono xl-wrap xl-cmd', id: 'xl-command', text: disp(cmd, 8000) }), 'wide'),
      run.executable ? kv('Executable', el('span', { class: 'xl-mono xl-wrap', text: disp(run.executable, 2000) }), 'wide') : null,
      kv('Exit', el('span', { text: status })),
      kv('Started', el('span', { text: disp(run.started_at || '\u2014', 80) })),
      kv('Compile / application time', el('span', null, [
        el('span', { text: (isNum(ct) ? fmtNs(ct) : 'n/a (profile exec)') + ' / ' + fmtNs(at) }), timeBar])),
      kv('Capture window', el('span', null, [el('span', { text: winText }), endReason ? el('span', { class: 'xl-muted', text: ' \u2014 ' + endReason }) : null]), 'wide'),
      kv('Threads', el('span', { text: fmtCount(tot.threads != null ? tot.threads : THREADS.length) + (isNum(tot.thread_time_ns) ? ' \u00b7 ' + fmtNs(tot.thread_time_ns) + ' summed thread time' : '') })),
      kv('Events', el('span', { text: fmtCount(tot.events) + ' traced' + (isNum(tot.timeline_events) ? ' \u00b7 ' + fmtCount(tot.timeline_events) + ' in timeline' : '') + (tot.dropped_events > 0 ? ' \u00b7 ' + fmtCount(tot.dropped_events) + ' not kept in timeline' : '') })),
      kv('Functions / call paths', el('span', { text: fmtCount(tot.functions != null ? tot.functions : FN.length) + ' functions \u00b7 ' + fmtCount(tot.nodes != null ? tot.nodes : NT) + ' call-tree nodes' })),
      settingsBits.length ? kv('Settings', el('span', { text: settingsBits.join(' \u00b7 ') }), 'wide') : null,
      run.capture ? kv('Capture', el('span', { class: 'xl-mono xl-wrap', text: disp(run.capture, 2000) }), 'wide') : null,
    ]);
    sec.appendChild(dl);
    sec.appendChild(buildRunStrip());
    sec.appendChild(buildWarnings());
    if (THREADS.length > 1) sec.appendChild(buildThreadTable());
    return sec;
  }

  /* A strip showing the whole run, the capture window and the spans warnings affect. */
  function buildRunStrip() {
    const w = D.run.window || {};
    const strip = el('div', { class: 'xl-strip', id: 'xl-strip', title: 'Run time axis: capture window and affected spans' });
    const pos = (t) => Math.max(0, Math.min(100, 100 * t / tEnd));
    if (isNum(w.start_ns) && isNum(w.end_ns)) strip.appendChild(el('span', { class: 'xl-strip-win', style: 'left:' + pos(w.start_ns).toFixed(3) + '%;width:' + Math.max(0.3, pos(w.end_ns) - pos(w.start_ns)).toFixed(3) + '%' }));
    warnings().forEach((wa, i) => {
      if (!isNum(wa.from_ns)) return;
      const to = isNum(wa.to_ns) ? wa.to_ns : tEnd;
      strip.appendChild(el('span', { class: 'xl-strip-warn sev-' + sevClass(wa.severity), dataset: { warn: String(i) }, style: 'left:' + pos(wa.from_ns).toFixed(3) + '%;width:' + Math.max(0.3, pos(to) - pos(wa.from_ns)).toFixed(3) + '%' }));
    });
    return el('div', { class: 'xl-strip-wrap' }, [
      el('div', { class: 'xl-strip-labels' }, [el('span', { text: '0' }), el('span', { class: 'xl-muted', text: 'run time axis \u2014 capture window in colour, warned spans hatched' }), el('span', { text: fmtNs(tEnd) })]),
      strip]);
  }

  function sevClass(s) { return s === 'error' ? 'error' : s === 'info' ? 'info' : 'warning'; }

  function buildWarnings() {
    const ws = warnings();
    const box = el('div', { class: 'xl-warnings', id: 'xl-warnings' });
    if (!ws.length) { box.appendChild(el('p', { class: 'xl-ok', text: 'No capture-quality warnings.' })); return box; }
    box.appendChild(el('h3', { text: ws.length === 1 ? '1 capture-quality warning' : ws.length + ' capture-quality warnings' }));
    const ul = el('ul', { class: 'xl-warn-list' });
    ws.forEach((wa, i) => {
      const hasSpan = isNum(wa.from_ns);
      const span = hasSpan ? fmtNs(wa.from_ns) + ' \u2013 ' + (isNum(wa.to_ns) ? fmtNs(wa.to_ns) : 'end') : 'whole run';
      const li = el('li', { class: 'xl-warn sev-' + sevClass(wa.severity), dataset: { warn: String(i), kind: String(wa.kind || '') }, tabindex: hasSpan ? '0' : null }, [
        el('span', { class: 'xl-warn-icon', 'aria-hidden': 'true', text: sevClass(wa.severity) === 'info' ? 'i' : '!' }),
        el('div', { class: 'xl-warn-body' }, [
          el('div', { class: 'xl-warn-msg', text: disp(wa.message || wa.kind || 'warning', 4000) }),
          el('div', { class: 'xl-warn-meta' }, [el('span', { class: 'xl-warn-kind', text: disp(wa.kind || '', 60) }), el('span', { text: ' \u00b7 affects ' + span }),
            hasSpan ? el('span', { class: 'xl-warn-show', text: ' \u00b7 show on the time axis' }) : null]),
        ]),
      ]);
      if (hasSpan) {
        li.addEventListener('mouseenter', () => { S.warnHover = i; warnHighlightChanged(); });
        li.addEventListener('mouseleave', () => { S.warnHover = -1; warnHighlightChanged(); });
        const pin = () => {
          S.warnPin = S.warnPin === i ? -1 : i; warnHighlightChanged();
          if (S.warnPin === i) { const m = $('xl-memory'); if (m) m.scrollIntoView({ behavior: 'smooth', block: 'start' }); }
        };
        li.addEventListener('click', pin);
        li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pin(); } });
      }
      ul.appendChild(li);
    });
    box.appendChild(ul);
    return box;
  }
  function activeWarn() { return S.warnHover >= 0 ? S.warnHover : S.warnPin; }
  function warnHighlightChanged() {
    const a = activeWarn();
    document.querySelectorAll('[data-warn]').forEach((n) => n.classList.toggle('active', +n.dataset.warn === a));
    document.querySelectorAll('.xl-warn').forEach((n) => n.classList.toggle('pinned', +n.dataset.warn === S.warnPin));
    schedule('mem'); schedule('tl');
  }

  function buildThreadTable() {
    const rows = THREADS.slice(0, 256).map((th) => el('tr', null, [
      el('td', { class: 'xl-name-cell', text: disp(th.name != null ? th.name : 'thread ' + th.index, 300) }),
      el('td', { class: 'num', text: th.tid != null ? String(th.tid) : '\u2014' }),
      el('td', { class: 'num', text: fmtNs(th.total_ns) }),
      el('td', { class: 'num', text: fmtNs(th.start_ns) + ' \u2013 ' + fmtNs(th.end_ns) }),
      el('td', { class: 'num', text: fmtCount(th.events) }),
      el('td', { class: 'num', text: th.dropped_events > 0 ? fmtCount(th.dropped_events) + (isNum(th.dropped_from_ns) ? ' from ' + fmtNs(th.dropped_from_ns) : '') : '0' }),
      el('td', { class: 'num', text: fmtCount(th.repaired_exits || 0) }),
    ]));
    return el('details', { class: 'xl-threads' }, [
      el('summary', { text: 'Threads (' + THREADS.length + ')' }),
      el('div', { class: 'xl-table-wrap small' }, [el('table', { class: 'xl-table' }, [
        el('thead', null, el('tr', null, ['Thread', 'TID', 'Traced time', 'Span', 'Events', 'Not in timeline', 'Repaired exits'].map((h, i) => el('th', { class: i ? 'num' : null, text: h })))),
        el('tbody', null, rows)])]),
      THREADS.length > 256 ? el('p', { class: 'xl-note', text: 'Showing 256 of ' + THREADS.length + ' threads.' }) : null,
    ]);
  }

  /* ------------------------------------------------------------------ flame graph */

  const ROW = 18;
  let fg = null;   // canvas bits

  function buildFlameSection() {
    const sec = section('xl-flame', 'Flame graph \u2014 elapsed time per call path');
    const thSel = el('select', { id: 'fg-thread', 'aria-label': 'Thread', onchange: (e) => { const v = e.target.value; navigate({ thread: v === 'all' || v === 'split' ? v : +v, focus: [] }); } }, [
      el('option', { value: 'all', text: 'All threads (merged)' }),
      threadByIndex.size > 1 ? el('option', { value: 'split', text: 'All threads (separately)' }) : null,
      ...Array.from(threadByIndex.keys()).sort((a, b) => a - b).map((t) => el('option', { value: String(t), text: disp(threadLabel(t), 120) })),
    ]);
    const toggle = (id, label, title, key) => el('label', { class: 'xl-toggle', title }, [
      el('input', { type: 'checkbox', id, onchange: (e) => navigate({ [key]: e.target.checked, focus: [] }) }), el('span', { text: label })]);
    const search = el('input', { type: 'search', id: 'fg-search', placeholder: 'Search functions  ( / )', 'aria-label': 'Search functions', autocomplete: 'off', spellcheck: 'false',
      oninput: (e) => { S.search = e.target.value; computeMatches(); schedule('flame'); } });
    sec.appendChild(el('div', { class: 'xl-toolbar' }, [
      el('label', { class: 'xl-field' }, [el('span', { text: 'Thread' }), thSel]),
      toggle('fg-invert', 'Invert (bottom-up)', 'Show callers below each function; width is self time (i)', 'inverted'),
      toggle('fg-rec', 'Merge recursion', 'Fold recursive calls into the outermost frame of the function (r)', 'rec'),
      el('div', { class: 'xl-search' }, [search, el('span', { id: 'fg-match', class: 'xl-match', 'aria-live': 'polite' })]),
    ]));
    sec.appendChild(el('div', { class: 'xl-crumbs-row' }, [
      el('nav', { id: 'fg-crumbs', class: 'xl-crumbs', 'aria-label': 'Focused call path' }),
      el('button', { type: 'button', id: 'fg-reset', class: 'xl-btn', text: 'Reset zoom', onclick: () => navigate({ focus: [] }) }),
    ]));
    const canvas = el('canvas', { id: 'fg-canvas', class: 'xl-canvas', 'aria-label': 'Flame graph; click a frame to focus it', role: 'img' });
    const spacer = el('div', { class: 'xl-fg-spacer', id: 'fg-spacer' }, [canvas]);
    const scroller = el('div', { class: 'xl-fg-scroll', id: 'fg-scroll' }, [spacer]);
    sec.appendChild(scroller);
    sec.appendChild(el('div', { id: 'fg-detail', class: 'xl-detail' }));
    sec.appendChild(el('p', { class: 'xl-hint', text: 'Width is elapsed time including traced children. Click a frame to focus it (Back returns), hover for details. Frames narrower than a pixel are not drawn.' }));
    fg = { canvas, scroller, spacer, ctx: null, rows: [], w: 0, h: 0 };
    scroller.addEventListener('scroll', () => schedule('flame'), { passive: true });
    canvas.addEventListener('mousemove', (e) => flameHover(e));
    canvas.addEventListener('mouseleave', () => { S.hover = -1; hideTip(); schedule('flame'); });
    canvas.addEventListener('click', (e) => {
      const v = flameHit(e);
      if (v < 0) return;
      clickAt = performance.now(); clickNode = v;
      if (V.func[v] >= 0) selectFunc(V.func[v], true);
      if (v !== S.focus) navigate({ focus: vPath(v).map(vKey) });
    });
    return sec;
  }

  function syncControls() {
    const ts = $('fg-thread'); if (ts) ts.value = String(S.thread);
    const inv = $('fg-invert'); if (inv) inv.checked = S.inverted;
    const rec = $('fg-rec'); if (rec) rec.checked = S.rec;
    const th = $('fn-scope'); if (th) th.textContent = typeof S.thread === 'number' ? 'thread ' + disp(threadLabel(S.thread), 120) : 'all threads';
  }

  function renderCrumbs() {
    const nav = $('fg-crumbs');
    if (!nav) return;
    nav.textContent = '';
    const chain = [0].concat(vPath(S.focus));
    chain.forEach((v, i) => {
      if (i) nav.appendChild(el('span', { class: 'xl-crumb-sep', 'aria-hidden': 'true', text: '\u203a' }));
      const last = i === chain.length - 1;
      nav.appendChild(el('button', { type: 'button', class: 'xl-crumb' + (last ? ' current' : ''), 'aria-current': last ? 'location' : null,
        title: disp(vName(v), 2000), text: disp(vName(v), 60),
        onclick: () => navigate({ focus: vPath(v).map(vKey) }) }));
    });
    $('fg-reset').disabled = S.focus === 0;
  }

  /* After a navigation, show the focused frame near the top with two ancestor rows above it. */
  let scrollToFocus = false;
  function scrollFlameTop() { scrollToFocus = true; }

  function computeMatches() {
    const q = S.search.trim();
    S.searchRe = null; S.matchFunc = null; S.matchFrames = 0; S.matchTotal = 0;
    const info = $('fg-match');
    if (!q) { if (info) info.textContent = ''; return; }
    let test;
    const m = /^\/(.+)\/([a-z]*)$/.exec(q);
    if (m) {
      try { const re = new RegExp(m[1], m[2].replace(/[gy]/g, '') || 'i'); test = (s) => re.test(s); } catch (e) { if (info) info.textContent = 'invalid regular expression'; return; }
    } else { const ql = q.toLowerCase(); test = (s) => s.toLowerCase().indexOf(ql) >= 0; }
    const mf = new Uint8Array(FN.length);
    let nf = 0;
    for (let f = 0; f < FN.length; f++) if (test(funcName(f))) { mf[f] = 1; nf++; }
    S.matchFunc = mf;
    // matched share: time spent with a matching function anywhere on the stack (nested matches
    // count once). Computed on the call tree, so it is the same top-down and bottom-up.
    const has = new Uint8Array(NT), sel = S.thread, single = typeof sel === 'number';
    let frames = 0, tot = 0;
    for (let n = 0; n < NT; n++) {
      if (single && T.thread[n] !== sel) continue;
      const f = T.func[n], p = T.parent[n];
      const hit = f >= 0 && mf[f] === 1;
      if (hit) frames++;
      if (hit || (p >= 0 && has[p])) { has[n] = 1; tot += T.self[n]; }
    }
    S.matchFrames = frames; S.matchTotal = tot;
    if (info) info.textContent = frames ? nf + (nf === 1 ? ' function' : ' functions') + ' in ' + fmtCount(frames) + (frames === 1 ? ' call path' : ' call paths') + ' \u00b7 ' + fmtPct(pct(tot, V.total[0])) + ' of total (' + fmtNs(tot) + ')' : 'no match';
  }

  function fitLabel(ctx, text, maxW, cache) {
    let full = cache.get(text);
    if (full === undefined) { full = ctx.measureText(text).width; if (cache.size > 20000) cache.clear(); cache.set(text, full); }
    if (full <= maxW) return text;
    let n = Math.floor(text.length * maxW / full);
    while (n > 2) {
      const t = text.slice(0, n - 1) + '\u2026';
      if (ctx.measureText(t).width <= maxW) return t;
      n = Math.floor(n * 0.85);
    }
    return '';
  }
  const labelCache = new Map();

  function setupCanvas(canvas, cssW, cssH) {
    const dpr = window.devicePixelRatio || 1;
    const W = Math.max(1, Math.floor(cssW)), H = Math.max(1, Math.floor(cssH));
    if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
      canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
    }
    canvas.style.width = W + 'px'; canvas.style.height = H + 'px';
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return ctx;
  }

  function drawFlame() {
    if (!fg || !V) return;
    const t0 = performance.now();
    const chain = [0].concat(vPath(S.focus)).slice(0, -1);   // ancestors above the focus
    const totalRows = chain.length + V.height[S.focus] + 1;
    const contentH = totalRows * ROW + 4;
    const maxH = Math.max(240, Math.floor(window.innerHeight * 0.62));
    const viewH = Math.min(contentH, maxH);
    fg.scroller.style.height = viewH + 'px';
    fg.spacer.style.height = contentH + 'px';
    if (scrollToFocus) { scrollToFocus = false; fg.scroller.scrollTop = Math.max(0, (chain.length - 2) * ROW); }
    const W = fg.scroller.clientWidth;
    const top = Math.min(fg.scroller.scrollTop, Math.max(0, contentH - viewH));
    fg.canvas.style.top = top + 'px';
    const ctx = setupCanvas(fg.canvas, W, viewH);
    fg.ctx = ctx; fg.w = W; fg.h = viewH; fg.top = top;
    ctx.clearRect(0, 0, W, viewH);
    ctx.font = '11.5px ' + FONT;
    ctx.textBaseline = 'middle';
    const firstRow = Math.floor(top / ROW), lastRow = Math.ceil((top + viewH) / ROW);
    const rows = [];
    fg.rows = rows;
    const mf = S.matchFunc, sel = S.selFunc, hov = S.hover;
    let drawn = 0;
    const frame = (v, x, w, row, anc) => {
      if (row < firstRow || row > lastRow) return;
      const y = row * ROW - top;
      const f = V.func[v];
      let fill, txt = C.frameText;
      if (f < 0) fill = NEUTRAL();
      else if (mf) { if (mf[f]) fill = MATCH(); else { fill = DIM(); txt = C.dimText; } }
      else fill = frameColor(funcName(f));
      if (f >= 0 && f === sel) fill = SELECT();
      ctx.globalAlpha = anc ? 0.6 : 1;
      ctx.fillStyle = fill;
      const bw = w > 3 ? w - 1 : Math.max(w, 1);
      ctx.fillRect(x, y, bw, ROW - 1);
      if (v === hov || (f >= 0 && f === sel)) {
        ctx.strokeStyle = v === hov ? C.text : C.accent; ctx.lineWidth = v === hov ? 1 : 1.5;
        ctx.strokeRect(x + 0.5, y + 0.5, Math.max(0, bw - 1), ROW - 2);
      }
      if (w > 26) {
        const label = fitLabel(ctx, disp(vName(v), 400), w - 8, labelCache);
        if (label) { ctx.fillStyle = txt; ctx.fillText(label, x + 4, y + ROW / 2); }
      }
      ctx.globalAlpha = 1;
      let r = rows[row]; if (!r) r = rows[row] = [];
      r.push(x, w, v);
      drawn++;
    };
    chain.forEach((a, i) => frame(a, 0, W, i, true));
    const stack = [S.focus, 0, W, chain.length];
    while (stack.length) {
      const row = stack.pop(), w = stack.pop(), x = stack.pop(), v = stack.pop();
      frame(v, x, w, row, false);
      if (row >= lastRow) continue;
      const tv = V.total[v];
      if (!(tv > 0)) continue;
      const scale = w / tv;
      let cx = x;
      const ks = V.kids(v);
      for (let i = 0; i < ks.length; i++) {
        const k = ks[i];
        // clamp: with inconsistent data (children summing to more than the parent) stay inside it
        const cw = Math.min(V.total[k] * scale, x + w - cx);
        if (cw >= 1) stack.push(k, cx, cw, row + 1);
        cx += cw;
        if (cx >= x + w) break;
      }
    }
    STATS.drawnFrames = drawn;
    STATS.flameDrawMs = performance.now() - t0;
    STATS.draws++;
  }

  function flameHit(e) {
    if (!fg || !fg.rows) return -1;
    const r = fg.canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top + fg.top;
    const row = Math.floor(y / ROW);
    const list = fg.rows[row];
    if (!list) return -1;
    for (let i = 0; i < list.length; i += 3) if (x >= list[i] && x < list[i] + Math.max(1, list[i + 1])) return list[i + 2];
    return -1;
  }

  function flameHover(e) {
    const v = flameHit(e);
    if (v !== S.hover) { S.hover = v; schedule('flame'); }
    if (v < 0) { hideTip(); fg.canvas.style.cursor = 'default'; return; }
    fg.canvas.style.cursor = 'pointer';
    const f = V.func[v], rootT = V.total[0], p = V.parent[v];
    const rows = [];
    const loc = f >= 0 ? funcLoc(f) : '';
    rows.push(['Total', fmtNs(V.total[v]) + '  \u00b7  ' + fmtPct(pct(V.total[v], rootT)) + (p >= 0 ? ' of all, ' + fmtPct(pct(V.total[v], V.total[p])) + ' of parent' : '')]);
    rows.push(['Self', fmtNs(V.self[v]) + '  \u00b7  ' + fmtPct(pct(V.self[v], rootT))]);
    if (f >= 0) {
      rows.push(['Calls', fmtCount(V.calls[v])]);
      if (V.calls[v] > 0 && !S.inverted) rows.push(['Average', fmtNs(V.total[v] / V.calls[v]) + ' per call']);
    }
    showTip(e.clientX, e.clientY, vName(v), loc, rows,
      S.inverted ? 'Bottom-up: width is the self time of the function at the top of this chain. Click to focus \u00b7 C copies the name' : 'Click to focus \u00b7 C copies the name');
  }

  function showTip(cx, cy, title, sub, rows, hint) {
    const tip = $('xl-tip');
    tip.textContent = '';
    tip.appendChild(el('div', { class: 'xl-tip-title', text: disp(title, 600) }));
    if (sub) tip.appendChild(el('div', { class: 'xl-tip-sub', text: disp(sub, 600) }));
    const tb = el('table', { class: 'xl-tip-rows' });
    for (const [k, v] of rows) tb.appendChild(el('tr', null, [el('th', { text: k }), el('td', { text: v })]));
    tip.appendChild(tb);
    if (hint) tip.appendChild(el('div', { class: 'xl-tip-hint', text: hint }));
    tip.hidden = false;
    const tw = tip.offsetWidth, th = tip.offsetHeight;
    let x = cx + 14, y = cy + 16;
    if (x + tw > window.innerWidth - 8) x = Math.max(8, cx - tw - 14);
    if (y + th > window.innerHeight - 8) y = Math.max(8, cy - th - 12);
    tip.style.transform = 'translate(' + Math.round(x) + 'px,' + Math.round(y) + 'px)';
  }
  function hideTip() { const t = $('xl-tip'); if (t) t.hidden = true; }

  function largestFrameOf(f) {
    let best = -1;
    for (let v = 1; v < V.n; v++) if (V.func[v] === f && (best < 0 || V.total[v] > V.total[best])) best = v;
    return best;
  }

  /* ------------------------------------------------------------------ function table */

  let tableRows = null;     // [{f, calls, self, total, avg}]
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

  function buildTableSection() {
    const sec = section('xl-functions', 'Functions', el('span', { class: 'xl-muted', id: 'fn-scope-wrap' }, ['\u2014 ', el('span', { id: 'fn-scope', text: 'all threads' })]));
    sec.appendChild(el('div', { class: 'xl-toolbar' }, [
      el('input', { type: 'search', id: 'fn-filter', placeholder: 'Filter by name or file  ( f )', 'aria-label': 'Filter functions', autocomplete: 'off', spellcheck: 'false',
        oninput: (e) => { S.filter = e.target.value; const w = $('fn-wrap'); if (w) w.scrollTop = 0; renderTable(); } }),
      el('span', { id: 'fn-count', class: 'xl-muted' }),
    ]));
    const headRow = el('tr', null, COLS.map((c) => el('th', { class: c.num ? 'num sortable' : 'sortable', dataset: { key: c.key }, title: c.title || null, scope: 'col', tabindex: '0', 'aria-sort': 'none' },
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
    const rows = [];
    if (typeof S.thread === 'number' && T) {
      const t = S.thread;
      const calls = new Float64Array(FN.length), self = new Float64Array(FN.length), total = new Float64Array(FN.length), seen = new Uint8Array(FN.length);
      let tt = 0;
      for (let n = 0; n < NT; n++) {
        if (T.thread[n] !== t) continue;
        const f = T.func[n];
        if (T.parent[n] < 0) { tt += T.total[n]; continue; }
        if (f < 0) continue;
        calls[f] += T.calls[n]; self[f] += T.self[n]; seen[f] = 1;
        let rec = false;
        for (let m = T.parent[n]; m >= 0; m = T.parent[m]) if (T.func[m] === f) { rec = true; break; }
        if (!rec) total[f] += T.total[n];
      }
      for (let f = 0; f < FN.length; f++) if (seen[f]) rows.push({ f, calls: calls[f], self: self[f], total: total[f] });
      tableTotal = tt || 1;
    } else {
      FN.forEach((fn, f) => rows.push({ f, calls: +fn.calls || 0, self: +fn.self_ns || 0, total: +fn.total_ns || 0 }));
      let tt = D.totals.thread_time_ns;
      if (!isNum(tt) || tt <= 0) { tt = 0; for (const th of THREADS) tt += th.total_ns || 0; }
      tableTotal = tt || 1;
    }
    for (const r of rows) { r.avg = r.calls > 0 ? r.total / r.calls : 0; r.selfPct = r.self / tableTotal; r.totalPct = r.total / tableTotal; r.name = funcName(r.f); }
    tableRows = rows;
    renderTable();
  }

  function sortBy(key) {
    if (S.sortKey === key) S.sortDir = -S.sortDir;
    else { S.sortKey = key; S.sortDir = key === 'name' ? 1 : -1; }
    renderTable();
  }

  function sortedFilteredRows() {
    let rows = tableRows || [];
    const q = S.filter.trim().toLowerCase();
    if (q) rows = rows.filter((r) => r.name.toLowerCase().indexOf(q) >= 0 || funcLoc(r.f).toLowerCase().indexOf(q) >= 0);
    else rows = rows.slice();
    const k = S.sortKey, d = S.sortDir;
    if (k === 'name') rows.sort((a, b) => d * (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || a.f - b.f);
    else rows.sort((a, b) => d * (a[k] - b[k]) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || a.f - b.f);
    return rows;
  }

  /* The table is virtual: only the rows in (and near) the visible part of its scroll box are
   * in the DOM, so thousands of functions cost nothing. */
  let tableView = [];        // sorted + filtered rows
  let rowH = 44;
  let tableWin = null;
  function renderTable() {
    const body = $('fn-body');
    if (!body) return;
    tableView = sortedFilteredRows();
    document.querySelectorAll('#fn-table th').forEach((th) => {
      const on = th.dataset.key === S.sortKey;
      th.setAttribute('aria-sort', on ? (S.sortDir > 0 ? 'ascending' : 'descending') : 'none');
      th.querySelector('.xl-sort-ind').textContent = on ? (S.sortDir > 0 ? '\u25b2' : '\u25bc') : '';
    });
    $('fn-count').textContent = fmtCount(tableView.length) + (tableView.length === 1 ? ' function' : ' functions') + (S.filter.trim() ? ' match' : '');
    renderTableWindow(true);
  }

  function tableRow(r) {
    const loc = funcLoc(r.f);
    return el('tr', { class: 'xl-row' + (r.f === S.selFunc ? ' selected' : ''), dataset: { f: String(r.f) }, 'aria-selected': r.f === S.selFunc ? 'true' : 'false' }, [
      el('td', { class: 'xl-name-cell', dataset: { v: r.name } }, [
        el('div', { class: 'xl-fn' }, [
          el('span', { class: 'xl-swatch', style: 'background:' + frameColor(r.name) }),
          el('span', { class: 'xl-fn-name', title: disp(r.name, 4000), text: disp(r.name, 500) }),
          el('button', { type: 'button', class: 'xl-copy', dataset: { copy: '1' }, title: 'Copy function name', 'aria-label': 'Copy function name', text: '\u29c9' }),
        ]),
        el('div', { class: 'xl-fn-loc', title: loc ? disp(loc, 4000) : null, text: loc ? disp(loc, 300) : '\u00a0' }),
      ]),
      el('td', { class: 'num', dataset: { v: String(r.calls) }, text: fmtCount(r.calls) }),
      el('td', { class: 'num', dataset: { v: String(r.self) }, text: fmtNs(r.self) }),
      el('td', { class: 'num pct', dataset: { v: String(r.selfPct) } }, [el('span', { class: 'xl-bar', style: 'width:' + Math.min(100, r.selfPct * 100).toFixed(1) + '%' }), el('span', { class: 'xl-bar-t', text: fmtPct(r.selfPct) })]),
      el('td', { class: 'num', dataset: { v: String(r.total) }, text: fmtNs(r.total) }),
      el('td', { class: 'num pct', dataset: { v: String(r.totalPct) } }, [el('span', { class: 'xl-bar total', style: 'width:' + Math.min(100, r.totalPct * 100).toFixed(1) + '%' }), el('span', { class: 'xl-bar-t', text: fmtPct(r.totalPct) })]),
      el('td', { class: 'num', dataset: { v: String(r.avg) }, text: r.calls > 0 ? fmtNs(r.avg) : '\u2014' }),
    ]);
  }

  function renderTableWindow(force) {
    const body = $('fn-body'), wrap = $('fn-wrap');
    if (!body || !wrap) return;
    const n = tableView.length;
    const head = wrap.querySelector('thead');
    const headH = head ? head.offsetHeight : 0;
    const viewH = Math.max(wrap.clientHeight, 400);
    const first = Math.max(0, Math.floor((wrap.scrollTop - headH) / rowH) - 10);
    const last = Math.min(n, first + Math.ceil(viewH / rowH) + 20);
    if (!force && tableWin && tableWin[0] === first && tableWin[1] === last) return;
    tableWin = [first, last];
    const spacer = (h) => el('tr', { class: 'xl-spacer', 'aria-hidden': 'true' }, el('td', { colspan: String(COLS.length), style: 'height:' + h + 'px' }));
    const frag = document.createDocumentFragment();
    if (first > 0) frag.appendChild(spacer(first * rowH));
    for (let i = first; i < last; i++) frag.appendChild(tableRow(tableView[i]));
    if (last < n) frag.appendChild(spacer((n - last) * rowH));
    body.textContent = '';
    body.appendChild(frag);
    const r0 = body.querySelector('tr.xl-row');
    if (r0 && r0.offsetHeight > 0 && Math.abs(r0.offsetHeight - rowH) > 0.5) { rowH = r0.offsetHeight; renderTableWindow(true); }
  }

  function selectFunc(f, fromFlame) {
    S.selFunc = f;
    const wrap = $('fn-wrap');
    if (wrap && f >= 0) {
      let i = tableView.findIndex((r) => r.f === f);
      if (i < 0 && fromFlame) {
        // the row is filtered out: clear the filter
        S.filter = ''; const fi = $('fn-filter'); if (fi) fi.value = '';
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
    renderTableWindow(true);
    renderDetail();
    schedule('flame'); schedule('tl');
  }

  function zoomToFunc(f) {
    if (!V) return;
    selectFunc(f, false);
    const v = largestFrameOf(f);
    if (v > 0) { navigate({ focus: vPath(v).map(vKey) }); const s = $('xl-flame'); if (s) s.scrollIntoView({ behavior: 'smooth', block: 'start' }); }
  }

  function renderDetail() {
    const d = $('fg-detail');
    if (!d) return;
    d.textContent = '';
    const f = S.selFunc;
    if (f < 0 || f >= FN.length) { d.appendChild(el('span', { class: 'xl-muted', text: 'Select a frame or a table row to see its function here.' })); return; }
    const r = (tableRows || []).find((x) => x.f === f);
    append(d, [
      el('span', { class: 'xl-swatch big', style: 'background:' + SELECT() }),
      el('strong', { class: 'xl-detail-name', id: 'fg-detail-name', title: disp(funcName(f), 4000), text: disp(funcName(f), 300) }),
      funcLoc(f) ? el('span', { class: 'xl-mono xl-muted', text: disp(funcLoc(f), 300) }) : null,
      r ? el('span', { text: fmtCount(r.calls) + (r.calls === 1 ? ' call' : ' calls') + ' \u00b7 self ' + fmtNs(r.self) + ' (' + fmtPct(r.selfPct) + ') \u00b7 total ' + fmtNs(r.total) + ' (' + fmtPct(r.totalPct) + ')' }) : null,
      el('span', { class: 'xl-grow' }),
      el('button', { type: 'button', class: 'xl-btn', id: 'fg-copy', text: 'Copy name', onclick: () => copyText(funcName(f)) }),
      el('button', { type: 'button', class: 'xl-btn', text: 'Zoom to largest frame', onclick: () => zoomToFunc(f) }),
      el('button', { type: 'button', class: 'xl-btn ghost', text: 'Clear', onclick: () => selectFunc(-1, false) }),
    ]);
  }

  /* ------------------------------------------------------------------ memory */

  const SERIES = [
    { key: 'rss', label: 'RSS', css: '--s-rss' },
    { key: 'gc_heap', label: 'GC heap', css: '--s-heap' },
    { key: 'gc_free', label: 'GC free', css: '--s-free' },
    { key: 'gc_occupied', label: 'GC occupied (est.)', css: '--s-occ' },
  ];

  function prepareMemory() {
    const m = D.memory;
    if (!m || !m.samples || !Array.isArray(m.samples.t_ns)) { MEM = { n: 0, t: new Float64Array(0), s: {}, avail: {}, summary: (m && m.summary) || {}, gc: [] }; return; }
    const n = m.samples.t_ns.length;
    const t = Float64Array.from(m.samples.t_ns, (x) => (isNum(x) ? x : NaN));
    const s = {}, avail = {};
    for (const k of ['rss', 'gc_heap', 'gc_free', 'gc_occupied', 'gc_allocated', 'gc_collections']) {
      const a = m.samples[k];
      const arr = new Float64Array(n).fill(NaN);
      let any = false;
      if (Array.isArray(a)) for (let i = 0; i < n; i++) { const x = a[i]; if (isNum(x)) { arr[i] = x; any = true; } }
      s[k] = arr; avail[k] = any;
    }
    MEM = { n, t, s, avail, summary: m.summary || {}, gc: Array.isArray(m.gc_events) ? m.gc_events.filter((g) => g && isNum(g.t_ns)) : [], interval: m.interval_ns };
  }

  function seriesReason(key) {
    const sm = MEM.summary[key];
    if (sm && sm.reason) return String(sm.reason);
    if (!MEM.n) return 'no memory samples in this capture';
    return 'no samples had a value';
  }

  let mc = null, tc = null;      // memory chart / timeline canvases
  const PL = 70, PR = 14;         // shared plot margins: the time axes line up

  function buildMemorySection() {
    const sec = section('xl-memory', TL ? 'Memory and timeline' : 'Memory', el('div', { class: 'xl-head-tools' }, [
      el('button', { type: 'button', class: 'xl-btn', id: 'mem-zoom-reset', text: 'Reset time zoom', disabled: true, onclick: () => setTimeView(null) }),
      el('button', { type: 'button', class: 'xl-btn', id: 'mem-csv', text: 'Download CSV', disabled: !MEM.n, onclick: downloadCsv }),
    ]));
    const legend = el('div', { class: 'xl-legend', id: 'mem-legend' });
    for (const sd of SERIES) {
      const ok = MEM.avail[sd.key];
      if (ok) {
        legend.appendChild(el('label', { class: 'xl-leg', dataset: { series: sd.key } }, [
          el('input', { type: 'checkbox', checked: S.series[sd.key], onchange: (e) => { S.series[sd.key] = e.target.checked; schedule('mem'); } }),
          el('span', { class: 'xl-leg-sw', style: 'background:var(' + sd.css + ')' }), el('span', { text: sd.label })]));
      } else {
        legend.appendChild(el('span', { class: 'xl-leg unavailable', dataset: { series: sd.key }, title: disp(seriesReason(sd.key), 2000) }, [
          el('span', { class: 'xl-leg-sw off' }), el('span', { text: sd.label + ': unavailable' }), el('span', { class: 'xl-leg-why', text: ' \u2014 ' + disp(seriesReason(sd.key), 300) })]));
      }
    }
    if (MEM.gc.length) legend.appendChild(el('span', { class: 'xl-leg' }, [el('span', { class: 'xl-leg-tick' }), el('span', { text: 'GC collection' })]));
    if (MEM.summary.peak_rss && isNum(MEM.summary.peak_rss.value)) legend.appendChild(el('span', { class: 'xl-leg' }, [el('span', { class: 'xl-leg-dash' }), el('span', { text: 'peak RSS' })]));
    legend.appendChild(el('span', { class: 'xl-leg' }, [el('span', { class: 'xl-leg-sw shade-out' }), el('span', { text: 'outside capture window' })]));
    if (partialFrom() != null) legend.appendChild(el('span', { class: 'xl-leg' }, [el('span', { class: 'xl-leg-sw shade-part' }), el('span', { text: 'timeline incomplete' })]));
    if (MEM.n) {
      sec.appendChild(legend);
      const canvas = el('canvas', { id: 'mem-canvas', class: 'xl-canvas', role: 'img', 'aria-label': 'Memory over time' });
      sec.appendChild(el('div', { class: 'xl-chart', id: 'mem-chart' }, [canvas]));
      mc = { canvas, hoverX: -1 };
      attachTimeInteractions(canvas, 'mem');
    } else {
      sec.appendChild(el('p', { class: 'xl-note', id: 'mem-none', text: 'No memory samples in this capture' + (D.run.mode === 'xray' ? ' (function-tracing mode: use --profile or --profile=memory to sample memory).' : '.') }));
      memInfo = { series: SERIES.map((sd) => ({ key: sd.key, label: sd.label, available: false, visible: false, points: 0, reason: seriesReason(sd.key) })), gcMarks: 0, spans: [], peak: null };
    }
    if (TL) {
      const tcan = el('canvas', { id: 'tl-canvas', class: 'xl-canvas', role: 'img', 'aria-label': 'Timeline of calls per thread' });
      sec.appendChild(el('div', { id: 'xl-timeline-wrap' }, [
        el('div', { class: 'xl-sub-row' }, [
          el('h3', { class: 'xl-sub', text: 'Timeline \u2014 calls in time order per thread' }),
          TL.maxEnd > TL.minStart && (TL.maxEnd - TL.minStart) < 0.2 * tEnd
            ? el('button', { type: 'button', class: 'xl-btn', id: 'tl-zoom-data', text: 'Zoom to the recorded calls (' + fmtNs(TL.minStart) + ' \u2013 ' + fmtNs(TL.maxEnd) + ')',
              onclick: () => { const pad = (TL.maxEnd - TL.minStart) * 0.02; setTimeView([Math.max(0, TL.minStart - pad), Math.min(tEnd, TL.maxEnd + pad)]); } })
            : null]),
        TL.truncatedFrom != null ? el('p', { class: 'xl-note warn', text: 'The timeline is incomplete after ' + fmtNs(TL.truncatedFrom) + ': later calls are in the flame graph and table but not drawn here.' +
          (TL.reportLimit ? ' This report draws the first calls of each thread only; `exaloop profile export CAPTURE --format chrome` writes every recorded call for Perfetto.' : '') }) : null,
        el('div', { class: 'xl-chart', id: 'tl-chart' }, [tcan])]));
      tc = { canvas: tcan, lanes: [] };
      attachTimeInteractions(tcan, 'tl');
    }
    sec.appendChild(el('p', { class: 'xl-hint', text: 'Drag across a chart to zoom the shared time axis; double-click or Z resets. Hover for values.' }));
    sec.appendChild(buildMemSummary());
    return sec;
  }

  function partialFrom() {
    let p = null;
    if (TL && TL.truncatedFrom != null) p = TL.truncatedFrom;
    for (const w of warnings()) if (w.kind === 'timeline_full' && isNum(w.from_ns)) p = p == null ? w.from_ns : Math.min(p, w.from_ns);
    return p;
  }

  function buildMemSummary() {
    const sm = MEM.summary || {};
    const MEANING = {
      rss: 'Sampled resident memory for the application, native libraries, and profiler',
      peak_rss: 'OS process high-water mark, including time outside a selected window',
      gc_heap: 'Mapped collector-managed heap; not the whole process allocation size',
      gc_free: 'Free space in that collector heap',
      gc_occupied: 'Heap minus free space; not a precise live-object count',
      gc_allocated: 'Cumulative allocation traffic, with a capture delta/rate',
      gc_collections: 'Collector count and capture delta',
    };
    const LABEL = { rss: 'RSS', peak_rss: 'Peak RSS', gc_heap: 'GC heap', gc_free: 'GC free', gc_occupied: 'GC occupied estimate', gc_allocated: 'GC allocated', gc_collections: 'GC collections' };
    const rows = Object.keys(LABEL).map((k) => {
      const m = sm[k] || { value: null, reason: MEM.n ? 'not reported' : 'no memory data in this capture' };
      let val, extra = '';
      const unavailable = !isNum(m.value);
      if (unavailable) val = 'unavailable';
      else if (k === 'gc_collections') {
        val = fmtCount(m.value);
        if (isNum(m.delta)) extra = '+' + fmtCount(m.delta) + ' during capture';
      } else {
        val = fmtBytes(m.value);
        if (k === 'rss' && isNum(m.min) && isNum(m.max)) extra = 'min ' + fmtBytes(m.min) + ' \u00b7 max ' + fmtBytes(m.max);
        if (k === 'gc_allocated') {
          const bits = [];
          if (isNum(m.delta)) bits.push('+' + fmtBytes(m.delta) + ' during capture');
          if (isNum(m.rate_per_s)) bits.push(fmtBytes(m.rate_per_s) + '/s');
          extra = bits.join(' \u00b7 ');
        }
      }
      return el('tr', { dataset: { metric: k }, class: unavailable ? 'unavailable' : null }, [
        el('th', { scope: 'row', text: LABEL[k] }),
        el('td', { class: 'num', text: val }),
        el('td', { text: unavailable ? disp(m.reason || 'not measured', 1000) : extra }),
        el('td', { class: 'xl-muted', text: MEANING[k] }),
      ]);
    });
    return el('div', { class: 'xl-memsum' }, [
      el('h3', { class: 'xl-sub', text: 'Memory measurements' }),
      el('div', { class: 'xl-table-wrap small' }, [el('table', { class: 'xl-table', id: 'mem-summary' }, [
        el('thead', null, el('tr', null, [el('th', { text: 'Metric' }), el('th', { class: 'num', text: 'Value' }), el('th', { text: 'Details' }), el('th', { text: 'Meaning' })])),
        el('tbody', null, rows)])]),
      el('p', { class: 'xl-hint', text: 'RSS covers the whole process; GC metrics describe only the collector-managed heap, so a native library can raise RSS without raising GC memory. Missing measurements are shown as unavailable, never as zero.' }),
    ]);
  }

  function downloadCsv() {
    const keys = ['rss', 'gc_heap', 'gc_free', 'gc_occupied', 'gc_allocated', 'gc_collections'];
    const lines = ['t_ns,t_s,' + keys.map((k) => k + (k === 'gc_collections' ? '' : '_bytes')).join(',')];
    for (let i = 0; i < MEM.n; i++) {
      const t = MEM.t[i];
      lines.push([isNaN(t) ? '' : t, isNaN(t) ? '' : (t / 1e9).toFixed(9)].concat(keys.map((k) => { const v = MEM.s[k][i]; return isNaN(v) ? '' : String(v); })).join(','));
    }
    const blob = new Blob([lines.join('\n') + '\n'], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    const a = el('a', { href: url, download: 'memory-samples.csv', class: 'xl-offscreen' });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 30000);
  }

  function view() { return S.timeView || [0, tEnd]; }
  function setTimeView(tv) {
    if (tv && tv[1] - tv[0] < 1000) tv = [tv[0], tv[0] + 1000];
    S.timeView = tv;
    const b = $('mem-zoom-reset'); if (b) b.disabled = !tv;
    schedule('mem'); schedule('tl');
  }

  function attachTimeInteractions(canvas, which) {
    const tAt = (x) => { const [a, b] = view(); const W = canvas.clientWidth; return a + (x - PL) / Math.max(1, W - PL - PR) * (b - a); };
    let down = null;
    canvas.addEventListener('mousedown', (e) => {
      if (e.button !== 0) return;
      const r = canvas.getBoundingClientRect();
      down = { x: e.clientX - r.left, moved: false };
    });
    window.addEventListener('mousemove', (e) => {
      if (!down) return;
      const r = canvas.getBoundingClientRect();
      const x = Math.max(PL, Math.min(canvas.clientWidth - PR, e.clientX - r.left));
      if (Math.abs(x - down.x) > 3) down.moved = true;
      if (down.moved) { S.brush = [tAt(Math.min(down.x, x)), tAt(Math.max(down.x, x))]; schedule('mem'); schedule('tl'); }
    });
    window.addEventListener('mouseup', (e) => {
      if (!down) return;
      const d = down; down = null;
      if (d.moved && S.brush) { const b = S.brush; S.brush = null; setTimeView([Math.max(0, b[0]), Math.min(tEnd, b[1])]); return; }
      S.brush = null;
      if (which === 'tl') {
        const hit = tlHit(e);
        if (hit && hit.f >= 0) selectFunc(hit.f, true);
      }
    });
    canvas.addEventListener('dblclick', () => setTimeView(null));
    canvas.addEventListener('mousemove', (e) => {
      if (which === 'mem') memHover(e); else tlHover(e);
    });
    canvas.addEventListener('mouseleave', () => { hideTip(); if (mc) mc.hoverX = -1; if (tc) tc.hoverX = -1; schedule('mem'); schedule('tl'); });
  }

  function timeGrid(ctx, W, top, bottom, labels) {
    const [a, b] = view();
    const pw = W - PL - PR;
    const step = niceStep(b - a, Math.max(2, Math.floor(pw / 110)));
    ctx.strokeStyle = C.grid; ctx.lineWidth = 1;
    ctx.fillStyle = C.muted; ctx.font = '11px ' + FONT; ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    for (let t = Math.ceil(a / step) * step; t <= b + 1e-6; t += step) {
      const x = Math.round(PL + (t - a) / (b - a) * pw) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
      if (labels) ctx.fillText(timeTickLabel(t, step), x, bottom + 4);
    }
    ctx.textAlign = 'left';
  }

  /* Shade what the time axis must not be misread for: outside the capture window, the span
   * where the timeline is incomplete, the highlighted warning span and the brush. */
  function timeShading(ctx, W, top, bottom, spans, stripOnly) {
    const [a, b] = view();
    const pw = W - PL - PR;
    const X = (t) => PL + (Math.max(a, Math.min(b, t)) - a) / (b - a) * pw;
    const w = D.run.window || {};
    const band = (t0, t1, fill, kind, hatch, y0 = top, y1 = bottom) => {
      if (!(t1 > t0)) return;
      const x0 = X(t0), x1 = X(t1);
      if (x1 - x0 < 0.5 && !(t0 <= b && t1 >= a)) return;
      ctx.fillStyle = fill; ctx.fillRect(x0, y0, Math.max(1, x1 - x0), y1 - y0);
      if (hatch) {
        ctx.save(); ctx.beginPath(); ctx.rect(x0, y0, Math.max(1, x1 - x0), y1 - y0); ctx.clip();
        ctx.strokeStyle = hatch; ctx.lineWidth = 1;
        for (let x = x0 - (y1 - y0); x < x1; x += 7) { ctx.beginPath(); ctx.moveTo(x, y1); ctx.lineTo(x + (y1 - y0), y0); ctx.stroke(); }
        ctx.restore();
      }
      if (spans && kind) spans.push({ kind, from: t0, to: t1 });
    };
    if (isNum(w.start_ns) && isNum(w.end_ns)) {
      band(0, w.start_ns, C.outside, 'outside_window');
      band(w.end_ns, tEnd, C.outside, 'outside_window');
    }
    const pf = partialFrom();
    if (pf != null) {
      // on the memory chart only a strip along the top: the memory samples themselves are complete
      const pend = isNum(w.end_ns) ? Math.max(w.end_ns, pf) : tEnd;
      if (stripOnly) {
        const sh = Math.min(8, bottom - top);
        band(pf, pend, C.partial, 'timeline_incomplete', C.partial, top, top + sh);
      } else band(pf, pend, C.partial, 'timeline_incomplete', C.partial);
    }
    const aw = activeWarn();
    if (aw >= 0) {
      const wa = warnings()[aw];
      if (wa && isNum(wa.from_ns)) {
        const to = isNum(wa.to_ns) ? wa.to_ns : tEnd;
        band(wa.from_ns, Math.max(to, wa.from_ns + (b - a) / Math.max(1, pw)), C.warnBand, 'warning:' + (wa.kind || ''));
        ctx.strokeStyle = C.accent; ctx.lineWidth = 1.5;
        const x0 = X(wa.from_ns), x1 = X(to);
        ctx.strokeRect(x0 + 0.5, top + 0.5, Math.max(1, x1 - x0 - 1), bottom - top - 1);
      }
    }
    if (S.brush) band(S.brush[0], S.brush[1], C.brush, 'brush');
  }

  let memInfo = { series: [], gcMarks: 0, spans: [], peak: null };

  function drawMem() {
    if (!mc) return;
    const t0 = performance.now();
    const W = mc.canvas.parentElement.clientWidth, H = 240;
    const ctx = setupCanvas(mc.canvas, W, H);
    ctx.clearRect(0, 0, W, H);
    const top = 12, bottom = H - 24, pw = W - PL - PR;
    const [a, b] = view();
    const X = (t) => PL + (t - a) / (b - a) * pw;
    const info = { series: [], gcMarks: 0, spans: [], peak: null };
    memInfo = info;
    timeShading(ctx, W, top, bottom, info.spans, true);
    // y range over visible series in the visible time range
    let ymax = 0;
    const i0 = Math.max(0, lowerBound(MEM.t, a, 0, MEM.n) - 1), i1 = Math.min(MEM.n, lowerBound(MEM.t, b, 0, MEM.n) + 1);
    const visible = SERIES.filter((sd) => MEM.avail[sd.key] && S.series[sd.key]);
    for (const sd of visible) { const arr = MEM.s[sd.key]; for (let i = i0; i < i1; i++) if (arr[i] > ymax) ymax = arr[i]; }
    const peak = MEM.summary.peak_rss && isNum(MEM.summary.peak_rss.value) ? MEM.summary.peak_rss.value : null;
    if (peak != null && S.series.rss && MEM.avail.rss) ymax = Math.max(ymax, peak);
    if (!(ymax > 0)) ymax = 1024;
    const ticks = byteTicks(ymax * 1.08, 4);
    const ytop = Math.ceil(ymax * 1.08 / ticks.step) * ticks.step;
    const Y = (v) => bottom - v / ytop * (bottom - top);
    ctx.font = '11px ' + FONT; ctx.textBaseline = 'middle'; ctx.textAlign = 'right';
    for (let v = 0; v <= ytop + 1e-9; v += ticks.step) {
      const y = Math.round(Y(v)) + 0.5;
      ctx.strokeStyle = C.grid; ctx.lineWidth = 1; ctx.beginPath(); ctx.moveTo(PL, y); ctx.lineTo(W - PR, y); ctx.stroke();
      ctx.fillStyle = C.muted; ctx.fillText(ticks.label(v), PL - 8, y);
    }
    ctx.textAlign = 'left';
    timeGrid(ctx, W, top, bottom, true);
    ctx.strokeStyle = C.axis; ctx.beginPath(); ctx.moveTo(PL + 0.5, top); ctx.lineTo(PL + 0.5, bottom + 0.5); ctx.lineTo(W - PR, bottom + 0.5); ctx.stroke();
    ctx.save(); ctx.beginPath(); ctx.rect(PL, top - 2, pw, bottom - top + 4); ctx.clip();
    for (const sd of SERIES) {
      const avail = MEM.avail[sd.key], on = avail && S.series[sd.key];
      const rec = { key: sd.key, label: sd.label, available: avail, visible: !!on, points: 0, reason: avail ? null : seriesReason(sd.key) };
      info.series.push(rec);
      if (!on) continue;
      const arr = MEM.s[sd.key];
      ctx.strokeStyle = C[sd.key]; ctx.lineWidth = sd.key === 'rss' ? 2 : 1.6; ctx.lineJoin = 'round';
      // min/max per pixel column so that peaks survive decimation; null samples break the line
      let pen = false, col = -1e9, cmin = 0, cmax = 0, last = 0, pts = 0;
      const flush = () => { if (col > -1e9) { ctx.lineTo(col, Y(cmin)); ctx.lineTo(col, Y(cmax)); ctx.lineTo(col, Y(last)); } };
      ctx.beginPath();
      for (let i = i0; i < i1; i++) {
        const v = arr[i], t = MEM.t[i];
        if (isNaN(v) || isNaN(t)) { flush(); col = -1e9; pen = false; continue; }
        const x = Math.round(X(t));
        pts++;
        if (!pen) { ctx.moveTo(x, Y(v)); pen = true; col = x; cmin = cmax = last = v; continue; }
        if (x === col) { if (v < cmin) cmin = v; if (v > cmax) cmax = v; last = v; continue; }
        flush();
        ctx.lineTo(x, Y(v)); col = x; cmin = cmax = last = v;
      }
      flush();
      ctx.stroke();
      if (sd.key === 'rss' && pts > 1) {
        // soft area under RSS
        ctx.globalAlpha = C.dark ? 0.14 : 0.1; ctx.fillStyle = C.rss;
        ctx.beginPath(); let started = false, lx = 0;
        for (let i = i0; i < i1; i++) { const v = arr[i]; if (isNaN(v)) continue; const x = X(MEM.t[i]); if (!started) { ctx.moveTo(x, bottom); started = true; } ctx.lineTo(x, Y(v)); lx = x; }
        ctx.lineTo(lx, bottom); ctx.closePath(); ctx.fill(); ctx.globalAlpha = 1;
      }
      rec.points = pts;
    }
    // peak RSS: the OS high-water mark (dashed) and the largest sample (dot)
    if (MEM.avail.rss && S.series.rss) {
      let mi = -1;
      const arr = MEM.s.rss;
      for (let i = 0; i < MEM.n; i++) if (!isNaN(arr[i]) && (mi < 0 || arr[i] > arr[mi])) mi = i;
      if (peak != null) {
        const y = Math.round(Y(peak)) + 0.5;
        ctx.setLineDash([5, 4]); ctx.strokeStyle = C.rss; ctx.lineWidth = 1; ctx.beginPath(); ctx.moveTo(PL, y); ctx.lineTo(W - PR, y); ctx.stroke(); ctx.setLineDash([]);
        ctx.fillStyle = C.rss; ctx.font = '600 11px ' + FONT; ctx.textAlign = 'right'; ctx.textBaseline = 'bottom';
        ctx.fillText('peak RSS ' + fmtBytes(peak), W - PR - 4, y - 3);
        ctx.textAlign = 'left';
      }
      if (mi >= 0 && MEM.t[mi] >= a && MEM.t[mi] <= b) {
        const x = X(MEM.t[mi]), y = Y(arr[mi]);
        ctx.fillStyle = C.rss; ctx.beginPath(); ctx.arc(x, y, 3.5, 0, Math.PI * 2); ctx.fill();
        ctx.strokeStyle = C.bg; ctx.lineWidth = 1.5; ctx.stroke();
        info.peak = { t: MEM.t[mi], value: arr[mi], osPeak: peak };
      } else info.peak = { t: null, value: null, osPeak: peak };
    }
    // GC collections
    ctx.fillStyle = C.gc; ctx.strokeStyle = C.gc;
    let visibleGc = 0;
    for (const g of MEM.gc) if (g.t_ns >= a && g.t_ns <= b) visibleGc++;
    const gcLines = visibleGc <= pw / 12;      // guide lines only while they stay sparse
    for (const g of MEM.gc) {
      if (g.t_ns < a || g.t_ns > b) continue;
      const x = Math.round(X(g.t_ns)) + 0.5;
      if (gcLines) { ctx.globalAlpha = C.dark ? 0.3 : 0.22; ctx.lineWidth = 1; ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke(); ctx.globalAlpha = 1; }
      ctx.beginPath(); ctx.moveTo(x - 4, bottom); ctx.lineTo(x + 4, bottom); ctx.lineTo(x, bottom - 7); ctx.closePath(); ctx.fill();
      info.gcMarks++;
    }
    if (mc.hoverX >= 0) { ctx.strokeStyle = C.text; ctx.globalAlpha = 0.5; ctx.lineWidth = 1; ctx.beginPath(); ctx.moveTo(mc.hoverX + 0.5, top); ctx.lineTo(mc.hoverX + 0.5, bottom); ctx.stroke(); ctx.globalAlpha = 1; }
    ctx.restore();
    if (!MEM.n || !visible.length) {
      ctx.fillStyle = C.muted; ctx.font = '13px ' + FONT; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      ctx.fillText(!MEM.n ? 'No memory samples in this capture' : 'No series selected', PL + pw / 2, (top + bottom) / 2);
      ctx.textAlign = 'left';
    }
    STATS.memDrawMs = performance.now() - t0;
  }

  function memHover(e) {
    if (!MEM.n) return;
    const r = mc.canvas.getBoundingClientRect();
    const x = e.clientX - r.left, W = r.width, pw = W - PL - PR;
    if (x < PL || x > W - PR) { hideTip(); mc.hoverX = -1; schedule('mem'); return; }
    const [a, b] = view();
    const t = a + (x - PL) / pw * (b - a);
    let i = lowerBound(MEM.t, t, 0, MEM.n);
    if (i >= MEM.n || (i > 0 && t - MEM.t[i - 1] < MEM.t[i] - t)) i--;
    if (i < 0) return;
    mc.hoverX = PL + (MEM.t[i] - a) / (b - a) * pw;
    schedule('mem');
    const rows = [];
    for (const sd of SERIES) {
      if (!MEM.avail[sd.key]) { rows.push([sd.label, 'unavailable']); continue; }
      const v = MEM.s[sd.key][i];
      rows.push([sd.label, isNaN(v) ? 'not sampled' : fmtBytes(v)]);
    }
    if (MEM.avail.gc_allocated) rows.push(['GC allocated', fmtBytes(MEM.s.gc_allocated[i])]);
    if (MEM.avail.gc_collections) rows.push(['GC collections', fmtCount(MEM.s.gc_collections[i])]);
    const near = MEM.gc.find((g) => Math.abs(PL + (g.t_ns - a) / (b - a) * pw - x) < 5);
    if (near) rows.push(['GC', 'collection' + (isNum(near.collections) ? ' #' + fmtCount(near.collections) : '') + ' at ' + fmtNs(near.t_ns)]);
    const w = D.run.window || {};
    let note = null;
    if (isNum(w.start_ns) && (MEM.t[i] < w.start_ns || MEM.t[i] > w.end_ns)) note = 'Outside the capture window';
    const pf = partialFrom();
    if (pf != null && MEM.t[i] >= pf) note = (note ? note + ' \u00b7 ' : '') + 'timeline incomplete here';
    showTip(e.clientX, e.clientY, 'at ' + fmtNs(MEM.t[i]), note, rows, 'Drag to zoom \u00b7 double-click resets');
  }

  /* ------------------------------------------------------------------ timeline */

  const TL_ROW = 14, TL_HEAD = 18, TL_MAXROWS = 24;

  function prepareTimeline() {
    const tl = D.timeline;
    if (!tl || !Array.isArray(tl.threads) || !tl.threads.length) { TL = null; return; }
    let maxEnd = 0, minStart = Infinity;
    const lanes = tl.threads.map((th, i) => {
      const n = Array.isArray(th.start_ns) ? th.start_ns.length : 0;
      const start = new Float64Array(n), dur = new Float64Array(n), func = new Int32Array(n), depth = new Int32Array(n);
      let maxDepth = 0, minDepth = n ? Infinity : 0;
      for (let k = 0; k < n; k++) {
        start[k] = +th.start_ns[k] || 0; dur[k] = Array.isArray(th.dur_ns) ? +th.dur_ns[k] || 0 : 0;
        const f = Array.isArray(th.func) ? th.func[k] : -1; func[k] = isNum(f) && f < FN.length ? f : -1;
        const d = Array.isArray(th.depth) ? th.depth[k] : 0; depth[k] = isNum(d) && d >= 0 ? d : 0;
        if (depth[k] > maxDepth) maxDepth = depth[k];
        if (depth[k] < minDepth) minDepth = depth[k];
        if (start[k] + dur[k] > maxEnd) maxEnd = start[k] + dur[k];
        if (start[k] < minStart) minStart = start[k];
      }
      // per-depth index lists: calls at one depth do not overlap, so they are sorted by start
      const cnt = new Int32Array(maxDepth + 2);
      for (let k = 0; k < n; k++) cnt[depth[k] + 1]++;
      for (let d = 0; d <= maxDepth; d++) cnt[d + 1] += cnt[d];
      const byDepth = new Int32Array(n), pos = cnt.slice();
      for (let k = 0; k < n; k++) byDepth[pos[depth[k]]++] = k;
      const startsByDepth = Float64Array.from(byDepth, (k) => start[k]);
      return { index: isNum(th.index) ? th.index : i, n, start, dur, func, depth, maxDepth, minDepth, depthStart: cnt, byDepth, startsByDepth };
    });
    // Why the drawn timeline ends early: the capture's timeline buffer ran out, or this report
    // keeps only the first calls of each thread (the Chrome export has all of them).
    const reportLimit = tl.threads.some((th) => th && th.truncated === 'report_limit');
    TL = { lanes, maxEnd, minStart: isFinite(minStart) ? minStart : 0, truncatedFrom: isNum(tl.truncated_from_ns) ? tl.truncated_from_ns : null, reportLimit };
  }

  let tlInfo = { threads: [], spans: [] };

  function drawTimeline() {
    if (!tc) return;
    const t0 = performance.now();
    const W = tc.canvas.parentElement.clientWidth;
    let H = 24;
    const layout = [];
    for (const ln of TL.lanes) {
      const rows = Math.min(ln.maxDepth - ln.minDepth + 1, TL_MAXROWS);
      layout.push({ ln, top: H, rows });
      H += TL_HEAD + rows * TL_ROW + 8;
    }
    const ctx = setupCanvas(tc.canvas, W, H);
    ctx.clearRect(0, 0, W, H);
    const [a, b] = view();
    const pw = W - PL - PR;
    const X = (t) => PL + (t - a) / (b - a) * pw;
    const spans = [];
    timeShading(ctx, W, 20, H - 4, spans);
    timeGrid(ctx, W, 20, H - 4, false);
    // axis labels at the top
    {
      const step = niceStep(b - a, Math.max(2, Math.floor(pw / 110)));
      ctx.fillStyle = C.muted; ctx.font = '11px ' + FONT; ctx.textAlign = 'center'; ctx.textBaseline = 'top';
      for (let t = Math.ceil(a / step) * step; t <= b + 1e-6; t += step) ctx.fillText(timeTickLabel(t, step), PL + (t - a) / (b - a) * pw, 4);
      ctx.textAlign = 'left';
    }
    const info = { threads: [], spans };
    tlInfo = info;
    tc.lanes = layout;
    const sel = S.selFunc, mf = S.matchFunc;
    ctx.save(); ctx.beginPath(); ctx.rect(PL, 0, pw, H); ctx.clip();
    for (const L of layout) {
      const ln = L.ln;
      let drawn = 0;
      const rowTop = L.top + TL_HEAD;
      for (let r = 0; r < L.rows; r++) {
        const d = r + ln.minDepth;
        const s0 = ln.depthStart[d], s1 = ln.depthStart[d + 1];
        if (s1 <= s0) continue;
        // first call at this depth that may be visible: the one before the first start >= a
        let j = Math.max(s0, lowerBound(ln.startsByDepth, a, s0, s1) - 1);
        const y = rowTop + r * TL_ROW;
        let lastPx = -1;
        for (; j < s1; j++) {
          const k = ln.byDepth[j];
          const s = ln.start[k];
          if (s > b) break;
          const e = s + ln.dur[k];
          if (e < a) continue;
          const x0 = X(s), x1 = X(e);
          const w = x1 - x0;
          if (w < 1) { const px = Math.floor(x0); if (px <= lastPx) continue; lastPx = px; }
          else lastPx = Math.floor(x1);
          const f = ln.func[k];
          const nm = f >= 0 ? funcName(f) : '?';
          let fill = f < 0 ? NEUTRAL() : mf ? (mf[f] ? MATCH() : DIM()) : frameColor(nm);
          if (f >= 0 && f === sel) fill = SELECT();
          ctx.fillStyle = fill;
          ctx.fillRect(x0, y, Math.max(1, w > 3 ? w - 1 : w), TL_ROW - 1);
          if (w > 30) {
            const lab = fitLabel(ctx, disp(nm, 300), w - 6, labelCache);
            if (lab) { ctx.fillStyle = mf && f >= 0 && !mf[f] ? C.dimText : C.frameText; ctx.font = '10px ' + FONT; ctx.textBaseline = 'middle'; ctx.fillText(lab, Math.max(x0, PL) + 3, y + TL_ROW / 2); }
          }
          drawn++;
        }
      }
      info.threads.push({ index: ln.index, name: threadLabel(ln.index), events: ln.n, drawn, depthShown: L.rows, maxDepth: ln.maxDepth, minDepth: ln.minDepth,
        rowsTop: rowTop, rowHeight: TL_ROW });
    }
    ctx.restore();
    // lane headers
    for (const L of layout) {
      ctx.fillStyle = C.text; ctx.font = '600 11px ' + FONT; ctx.textBaseline = 'middle';
      const head = disp(threadLabel(L.ln.index), 200) + '  \u00b7  ' + fmtCount(L.ln.n) + ' calls' + (L.ln.maxDepth - L.ln.minDepth + 1 > L.rows ? '  \u00b7  ' + (L.ln.maxDepth - L.ln.minDepth + 1 - L.rows) + ' deeper levels not drawn' : '') + (L.ln.minDepth > 0 ? '  \u00b7  from call depth ' + L.ln.minDepth : '');
      ctx.fillText(fitLabel(ctx, head, W - 16, labelCache) || '', 8, L.top + TL_HEAD / 2);
      ctx.strokeStyle = C.grid; ctx.beginPath(); ctx.moveTo(0, L.top + 0.5); ctx.lineTo(W, L.top + 0.5); ctx.stroke();
    }
    if (tc.hoverX >= 0) { ctx.strokeStyle = C.text; ctx.globalAlpha = 0.5; ctx.beginPath(); ctx.moveTo(tc.hoverX + 0.5, 20); ctx.lineTo(tc.hoverX + 0.5, H - 4); ctx.stroke(); ctx.globalAlpha = 1; }
    STATS.tlDrawMs = performance.now() - t0;
  }

  function tlHit(e) {
    if (!tc || !tc.lanes) return null;
    const r = tc.canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    const W = r.width, pw = W - PL - PR;
    if (x < PL || x > W - PR) return null;
    const [a, b] = view();
    const t = a + (x - PL) / pw * (b - a), tol = (b - a) / pw;
    for (const L of tc.lanes) {
      const rowTop = L.top + TL_HEAD;
      if (y < rowTop || y >= rowTop + L.rows * TL_ROW) continue;
      const ln = L.ln, d = Math.floor((y - rowTop) / TL_ROW) + ln.minDepth;
      const s0 = ln.depthStart[d], s1 = ln.depthStart[d + 1];
      let j = lowerBound(ln.startsByDepth, t + tol, s0, s1) - 1;
      for (; j >= s0 && j >= lowerBound(ln.startsByDepth, t - tol * 4, s0, s1) - 1; j--) {
        const k = ln.byDepth[j];
        if (ln.start[k] <= t + tol && ln.start[k] + ln.dur[k] >= t - tol) return { lane: ln, k, f: ln.func[k] };
      }
      return null;
    }
    return null;
  }

  function tlHover(e) {
    const r = tc.canvas.getBoundingClientRect();
    const x = e.clientX - r.left;
    tc.hoverX = x >= PL && x <= r.width - PR ? x : -1;
    schedule('tl');
    const hit = tlHit(e);
    if (!hit) { hideTip(); tc.canvas.style.cursor = 'default'; return; }
    tc.canvas.style.cursor = 'pointer';
    const ln = hit.lane, k = hit.k, f = hit.f;
    showTip(e.clientX, e.clientY, f >= 0 ? funcName(f) : '(unknown function)', f >= 0 ? funcLoc(f) : '', [
      ['Start', fmtNs(ln.start[k])], ['Duration', fmtNs(ln.dur[k])], ['Depth', String(ln.depth[k])], ['Thread', disp(threadLabel(ln.index), 120)],
    ], 'Click selects the function \u00b7 drag zooms');
  }

  /* ------------------------------------------------------------------ help + keys */

  const KEYS = [
    ['?', 'Show or hide this help'],
    ['/', 'Search functions in the flame graph'],
    ['f', 'Filter the function table'],
    ['Esc', 'Close help, clear the search, or reset the flame-graph zoom'],
    ['0', 'Reset the flame-graph zoom (Back also undoes a zoom)'],
    ['u', 'Zoom out one level'],
    ['i', 'Toggle inverted (bottom-up) flame graph'],
    ['r', 'Toggle merge recursion'],
    ['t / T', 'Next / previous thread'],
    ['j / k', 'Select the next / previous table row'],
    ['Enter', 'Zoom the flame graph to the selected function'],
    ['c', 'Copy the name of the hovered frame or selected function'],
    ['z', 'Reset the time zoom of the memory chart and timeline'],
  ];
  function buildHelp() {
    return el('div', { id: 'xl-help', class: 'xl-overlay', hidden: true, role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'xl-help-h',
      onclick: (e) => { if (e.target.id === 'xl-help') toggleHelp(false); } }, [
      el('div', { class: 'xl-help' }, [
        el('div', { class: 'xl-help-head' }, [el('h2', { id: 'xl-help-h', text: 'Keyboard shortcuts' }), el('button', { type: 'button', class: 'xl-btn ghost', text: 'Close', onclick: () => toggleHelp(false) })]),
        el('table', { class: 'xl-keys' }, KEYS.map(([k, d]) => el('tr', null, [el('td', null, k.split(' / ').map((x, i) => [i ? ' / ' : null, el('kbd', { text: x })]).flat()), el('td', { text: d })]))),
        el('p', { class: 'xl-hint', text: 'The flame-graph view (thread, orientation, zoom) is kept in the address fragment, so the browser\u2019s Back button and bookmarks work.' }),
      ]),
    ]);
  }
  function toggleHelp(force) {
    const h = $('xl-help');
    if (!h) return;
    const show = force === undefined ? h.hidden : force;
    h.hidden = !show;
    if (show) { const b = h.querySelector('button'); if (b) b.focus(); }
  }

  function threadOptions() { const s = $('fg-thread'); return s ? Array.from(s.options).map((o) => o.value) : []; }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tgt = e.target || {};
    const tag = tgt.tagName || '';
    const typing = tag === 'TEXTAREA' || tag === 'SELECT' || !!tgt.isContentEditable ||
      (tag === 'INPUT' && !/^(checkbox|radio|button|submit|reset|range|color)$/.test(tgt.type));
    const help = $('xl-help');
    if (e.key === 'Escape') {
      if (help && !help.hidden) { toggleHelp(false); return; }
      if (typing) {
        const t = e.target;
        if (t.id === 'fg-search') { t.value = ''; S.search = ''; computeMatches(); schedule('flame'); }
        if (t.id === 'fn-filter') { t.value = ''; S.filter = ''; renderTable(); }
        t.blur(); return;
      }
      if (S.search) { const s = $('fg-search'); if (s) s.value = ''; S.search = ''; computeMatches(); schedule('flame'); return; }
      if (V && S.focus !== 0) { navigate({ focus: [] }); return; }
      if (S.timeView) { setTimeView(null); return; }
      if (S.selFunc >= 0) selectFunc(-1, false);
      return;
    }
    if (typing) return;
    const k = e.key;
    if (k === '?') { e.preventDefault(); toggleHelp(); return; }
    if (help && !help.hidden) return;
    if (k === 'z') { setTimeView(null); return; }
    if (!T) return;
    if (k === '/') { e.preventDefault(); const s = $('fg-search'); s.focus(); s.select(); return; }
    if (k === 'f') { e.preventDefault(); const s = $('fn-filter'); s.focus(); s.select(); return; }
    if (k === 'i') { navigate({ inverted: !S.inverted, focus: [] }); return; }
    if (k === 'r') { navigate({ rec: !S.rec, focus: [] }); return; }
    if (k === 't' || k === 'T') {
      const opts = threadOptions();
      if (opts.length < 2) return;
      const i = opts.indexOf(String(S.thread));
      const n = opts[(i + (k === 't' ? 1 : opts.length - 1)) % opts.length];
      navigate({ thread: n === 'all' || n === 'split' ? n : +n, focus: [] });
      return;
    }
    if (k === '0') { navigate({ focus: [] }); return; }
    if (k === 'u' || k === 'Backspace') { if (S.focus > 0) { e.preventDefault(); navigate({ focus: vPath(V.parent[S.focus]).map(vKey) }); } return; }
    if (k === 'c') {
      const v = S.hover;
      if (v > 0 && V.func[v] >= 0) copyText(funcName(V.func[v]));
      else if (S.selFunc >= 0) copyText(funcName(S.selFunc));
      return;
    }
    if (k === 'j' || k === 'k') {
      if (!tableView.length) return;
      let i = tableView.findIndex((r) => r.f === S.selFunc);
      i = i < 0 ? 0 : Math.max(0, Math.min(tableView.length - 1, i + (k === 'j' ? 1 : -1)));
      selectFunc(tableView[i].f, false);
      return;
    }
    if (k === 'Enter' && S.selFunc >= 0 && !/^(BUTTON|A|SUMMARY|LI|TH|TR)$/.test(tag)) { zoomToFunc(S.selFunc); }
  }

  /* ------------------------------------------------------------------ scheduling */

  const dirty = new Set();
  let clickAt = 0, clickNode = -1;
  let rafPending = false;
  function schedule(what) {
    dirty.add(what);
    if (rafPending) return;
    rafPending = true;
    requestAnimationFrame(flush);
  }
  function flush() {
    rafPending = false;
    const d = Array.from(dirty); dirty.clear();
    for (const w of d) {
      try {
        if (w === 'flame') {
          drawFlame();
          // click-to-focused-frame latency, for the tests' timing report
          if (clickAt && S.focus === clickNode) { STATS.clickToDrawMs = performance.now() - clickAt; clickAt = 0; }
        }
        else if (w === 'mem') drawMem();
        else if (w === 'tl' && TL) drawTimeline();
      } catch (err) { reportError(err); }
    }
    XL.frame = (XL.frame || 0) + 1;
  }
  function reportError(err) {
    XL.error = String(err && err.stack || err);
    if (window.console) console.error('exaloop report:', err);
  }
  function redrawAll() { schedule('flame'); schedule('mem'); schedule('tl'); }

  /* ------------------------------------------------------------------ test hook */

  function installHook() {
    const hook = {
      get ready() { return XL.ready; },
      get error() { return XL.error; },
      get lastCopied() { return XL.lastCopied; },
      get frame() { return XL.frame || 0; },
      /* Frames drawn in the flame graph, in viewport (client) CSS pixels. */
      frames() {
        if (!fg || !fg.rows) return [];
        const r = fg.canvas.getBoundingClientRect();
        const out = [];
        fg.rows.forEach((list, row) => {
          if (!list) return;
          for (let i = 0; i < list.length; i += 3) {
            const v = list[i + 2], f = V.func[v];
            out.push({ name: vName(v), func: f, thread: f < 0 ? V.thr[v] : null, depth: row, node: v,
              x: r.left + list[i], y: r.top + row * ROW - fg.top, w: list[i + 1], h: ROW - 1,
              total_ns: V.total[v], self_ns: V.self[v], calls: V.calls[v],
              focused: v === S.focus, matched: !!(S.matchFunc && f >= 0 && S.matchFunc[f]), selected: f >= 0 && f === S.selFunc });
          }
        });
        return out;
      },
      state() {
        return {
          thread: S.thread, inverted: S.inverted, mergeRecursion: S.rec,
          focus: V ? [0].concat(vPath(S.focus)).map(vName) : [], focusHash: location.hash,
          search: S.search, matchedFrames: S.matchFrames, matchedShare: V && V.total[0] > 0 ? S.matchTotal / V.total[0] : 0, matchedNs: S.matchTotal,
          selectedFunc: S.selFunc, selectedName: S.selFunc >= 0 ? funcName(S.selFunc) : null,
          sort: { key: S.sortKey, dir: S.sortDir > 0 ? 'asc' : 'desc' }, timeView: S.timeView ? S.timeView.slice() : null,
          highlightedWarning: activeWarn(), timeAxisEnd: tEnd,
        };
      },
      memory() { return JSON.parse(JSON.stringify(memInfo)); },
      timeline() { return TL ? JSON.parse(JSON.stringify(tlInfo)) : null; },
      stats() { return Object.assign({}, STATS); },
    };
    Object.defineProperty(window, '__xl', { value: Object.freeze(hook), writable: false, configurable: false });
  }

  /* ------------------------------------------------------------------ start */

  function start() {
    installHook();
    readTheme();
    if (!load()) return;
    buildPage();
    if (T) {
      renderDetail();
      applyHash();
      window.addEventListener('hashchange', applyHash);
    }
    document.addEventListener('keydown', onKey);
    const ro = new ResizeObserver(() => redrawAll());
    ro.observe($('xl-app'));
    window.addEventListener('resize', () => redrawAll());
    if (window.matchMedia) {
      const mq = window.matchMedia('(prefers-color-scheme: dark)');
      const onTheme = () => { readTheme(); if (T) renderTable(); renderDetail(); redrawAll(); };
      if (mq.addEventListener) mq.addEventListener('change', onTheme);
    }
    redrawAll();
    requestAnimationFrame(() => requestAnimationFrame(() => { XL.ready = true; document.documentElement.dataset.xlReady = '1'; }));
  }

  window.addEventListener('error', (e) => reportError(e.error || e.message));
  try { start(); } catch (err) { reportError(err); fatal('The report failed to start: ' + (err && err.message)); }
})();
