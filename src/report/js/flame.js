// @ts-check
/* flame graph: canvas drawing, search, focus, tooltips */

const ROW = 18;
const METRIC_TITLE = { time: 'elapsed time', bytes: 'heap bytes allocated', allocs: 'heap allocations', live: 'heap bytes live at exit' };
let fg = null;   // canvas bits

function buildFlameSection() {
  const sec = section('xl-flame', 'Flame graph \u2014 elapsed time per call path');
  const thSel = el('select', { id: 'fg-thread', 'aria-label': 'Thread', onchange: (e) => { const v = e.target.value; navigate({ thread: v === 'all' || v === 'split' ? v : +v, focus: [] }); } }, [
    el('option', { value: 'all', text: 'All threads (merged)' }),
    threadByIndex.size > 1 ? el('option', { value: 'split', text: 'All threads (separately)' }) : null,
    ...Array.from(threadByIndex.keys()).sort((a, b) => a - b).map((t) => el('option', { value: String(t), text: disp(threadLabel(t), 120) })),
  ]);
  const prSel = procList.length > 1 ? el('select', { id: 'fg-process', 'aria-label': 'Process', onchange: (e) => { const v = e.target.value; navigate({ process: v === 'all' ? v : +v, thread: 'all', focus: [] }); } }, [
    el('option', { value: 'all', text: 'All processes (merged)' }),
    ...procList.map((p) => el('option', { value: String(p.pid), text: procLabel(p) })),
  ]) : null;
  const toggle = (id, label, title, key) => el('label', { class: 'xl-toggle', title }, [
    el('input', { type: 'checkbox', id, onchange: (e) => navigate({ [key]: e.target.checked, focus: [] }) }), el('span', { text: label })]);
  const search = el('input', { type: 'search', id: 'fg-search', placeholder: 'Search functions  ( / )', 'aria-label': 'Search functions', autocomplete: 'off', spellcheck: 'false',
    oninput: (e) => { ui.search = e.target.value; computeMatches(); schedule('flame'); } });
  const metricSel = hasAllocs() ? el('select', { id: 'fg-metric', 'aria-label': 'Width', onchange: (e) => navigate({ metric: e.target.value, focus: [] }) }, [
    el('option', { value: 'time', text: 'Elapsed time' }),
    el('option', { value: 'bytes', text: 'Bytes allocated' }),
    el('option', { value: 'allocs', text: 'Allocation count' }),
    el('option', { value: 'live', text: 'Bytes live at exit' }),
  ]) : null;
  sec.appendChild(el('div', { class: 'xl-toolbar' }, [
    prSel ? el('label', { class: 'xl-field' }, [el('span', { text: 'Process' }), prSel]) : null,
    el('label', { class: 'xl-field' }, [el('span', { text: 'Thread' }), thSel]),
    metricSel ? el('label', { class: 'xl-field' }, [el('span', { text: 'Width' }), metricSel]) : null,
    toggle('fg-invert', 'Invert (bottom-up)', 'Show callers below each function; width is self time (i)', 'inverted'),
    toggle('fg-rec', 'Merge recursion', 'Fold recursive calls into the outermost frame of the function (r)', 'rec'),
    el('div', { class: 'xl-search' }, [search, el('span', { id: 'fg-match', class: 'xl-match', 'aria-live': 'polite' })]),
  ]));
  if (timelineData) sec.appendChild(windowNote('fg-window'));
  sec.appendChild(el('div', { class: 'xl-crumbs-row' }, [
    el('nav', { id: 'fg-crumbs', class: 'xl-crumbs', 'aria-label': 'Focused call path' }),
    el('button', { type: 'button', id: 'fg-reset', class: 'xl-btn', text: 'Reset zoom', onclick: () => navigate({ focus: [] }) }),
  ]));
  const canvas = el('canvas', { id: 'fg-canvas', class: 'xl-canvas', 'aria-label': 'Flame graph; click a frame to focus it', role: 'img' });
  const spacer = el('div', { class: 'xl-fg-spacer', id: 'fg-spacer' }, [canvas]);
  const scroller = el('div', { class: 'xl-fg-scroll', id: 'fg-scroll' }, [spacer]);
  sec.appendChild(scroller);
  sec.appendChild(el('div', { id: 'fg-detail', class: 'xl-detail' }));
  sec.appendChild(el('div', { id: 'fg-source', class: 'xl-source', hidden: true }));
  sec.appendChild(el('p', { class: 'xl-hint', id: 'fg-hint', text: flameHint() }));
  fg = { canvas, scroller, spacer, ctx: null, rows: [], labels: new Map(), w: 0, h: 0 };
  scroller.addEventListener('scroll', () => schedule('flame'), { passive: true });
  canvas.addEventListener('mousemove', (e) => flameHover(e));
  canvas.addEventListener('mouseleave', () => { ui.hover = -1; hideTip(); schedule('flame'); });
  canvas.addEventListener('click', (e) => {
    const v = flameHit(e);
    if (v < 0) return;
    clickAt = performance.now(); clickNode = v;
    if (flameView.func[v] >= 0) selectFunc(flameView.func[v], true);
    if (v !== ui.focus) navigate({ focus: vPath(v).map(vKey) });
  });
  return sec;
}

function flameHint() {
  const what = ui.metric === 'time' ? 'elapsed time' : METRIC_TITLE[ui.metric] + ' (by the program\'s own code: the summary counts those no call path could be named for as "not attributed")';
  return 'Width is ' + what + ' including traced children. Click a frame to focus it (Back returns), hover for details. Frames narrower than a pixel are not drawn.';
}

function syncControls() {
  const hint = $('fg-hint'); if (hint) hint.textContent = flameHint();
  const ts = $select('fg-thread'); if (ts) ts.value = String(ui.thread);
  const ps = $select('fg-process'); if (ps) ps.value = String(ui.process);
  const inv = $input('fg-invert'); if (inv) inv.checked = ui.inverted;
  const ms = $select('fg-metric'); if (ms) ms.value = ui.metric;
  const h2 = $('xl-flame-h'); if (h2) h2.textContent = 'Flame graph \u2014 ' + METRIC_TITLE[ui.metric] + ' per call path';
  const rec = $input('fg-rec'); if (rec) rec.checked = ui.rec;
  const th = $('fn-scope'); if (th) th.textContent = scopeLabel();
}

function renderCrumbs() {
  const nav = $('fg-crumbs');
  if (!nav) return;
  nav.textContent = '';
  const chain = [0].concat(vPath(ui.focus));
  chain.forEach((v, i) => {
    if (i) nav.appendChild(el('span', { class: 'xl-crumb-sep', 'aria-hidden': 'true', text: '\u203a' }));
    const last = i === chain.length - 1;
    nav.appendChild(el('button', { type: 'button', class: 'xl-crumb' + (last ? ' current' : ''), 'aria-current': last ? 'location' : null,
      title: disp(vName(v), 2000), text: disp(vShort(v), 60),
      onclick: () => navigate({ focus: vPath(v).map(vKey) }) }));
  });
  $button('fg-reset').disabled = ui.focus === 0;
}

/* After a navigation, show the focused frame near the top with two ancestor rows above it. */
let scrollToFocus = false;
function scrollFlameTop() { scrollToFocus = true; }

function computeMatches() {
  const q = ui.search.trim();
  ui.searchRe = null; ui.matchFunc = null; ui.matchFrames = 0; ui.matchTotal = 0;
  const info = $('fg-match');
  if (!q) { if (info) info.textContent = ''; return; }
  let test;
  const m = /^\/(.+)\/([a-z]*)$/.exec(q);
  if (m) {
    try { const re = new RegExp(m[1], m[2].replace(/[gy]/g, '') || 'i'); test = (s) => re.test(s); } catch (e) { if (info) info.textContent = 'invalid regular expression'; return; }
  } else { const ql = q.toLowerCase(); test = (s) => s.toLowerCase().indexOf(ql) >= 0; }
  const mf = new Uint8Array(funcs.length);
  let nf = 0;
  for (let f = 0; f < funcs.length; f++) if (test(funcName(f)) || test(funcShort(f))) { mf[f] = 1; nf++; }
  ui.matchFunc = mf;
  // matched share: time spent with a matching function anywhere on the stack (nested matches
  // count once). Computed on the call tree, so it is the same top-down and bottom-up.
  const has = new Uint8Array(nodeCount);
  let frames = 0, tot = 0;
  for (let n = 0; n < nodeCount; n++) {
    if (!threadIn(callTree.thread[n])) continue;   // the thread or process shown (its total is the divisor)
    const f = callTree.func[n], p = callTree.parent[n];
    const hit = f >= 0 && mf[f] === 1;
    if (hit) frames++;
    if (hit || (p >= 0 && has[p])) { has[n] = 1; tot += callTree.self[n]; }
  }
  ui.matchFrames = frames; ui.matchTotal = tot;
  if (info) info.textContent = frames ? nf + (nf === 1 ? ' function' : ' functions') + ' in ' + fmtCount(frames) + (frames === 1 ? ' call path' : ' call paths') + ' \u00b7 ' + fmtPct(pct(tot, flameView.total[0])) + ' of total (' + fmtMetric(tot) + ')' : 'no match';
}

/* A short name in maxW pixels: as it is, else with its leading scopes given way to "…" (the
 * function's own name, at the end, is what a narrow frame keeps: "…::json_value::destroy"), else
 * cut at the end (scopeCuts). */
function fitName(ctx, text, maxW, cache) {
  if (textWidth(ctx, text, cache) <= maxW) return text;
  const cuts = scopeCuts(text);
  for (const at of cuts) {
    const t = '\u2026::' + text.slice(at);
    if (textWidth(ctx, t, cache) <= maxW) return t;
  }
  return fitLabel(ctx, cuts.length ? text.slice(cuts[cuts.length - 1]) : text, maxW, cache);
}

/* Widths by font and text: the flame graph, the timeline's blocks and its lane headers share the
 * cache and draw in different fonts. */
function textWidth(ctx, text, cache) {
  const key = ctx.font + '\u0000' + text;
  let w = cache.get(key);
  if (w === undefined) { w = ctx.measureText(text).width; if (cache.size > 20000) cache.clear(); cache.set(key, w); }
  return w;
}

function fitLabel(ctx, text, maxW, cache) {
  const full = textWidth(ctx, text, cache);
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

/* A sampled frame's fill: its colour with diagonal hatching (one pattern per colour and draw). */
const hatchCache = new Map();
function sampledFill(ctx, color) {
  const key = color + '|' + palette.bg;
  let pat = hatchCache.get(key);
  if (pat) return pat;
  const c = document.createElement('canvas');
  c.width = 6; c.height = 6;
  const g = c.getContext('2d');
  if (!g) return color;
  g.fillStyle = color; g.fillRect(0, 0, 6, 6);
  g.strokeStyle = palette.bg; g.globalAlpha = 0.55; g.lineWidth = 1.5;
  g.beginPath(); g.moveTo(-1, 7); g.lineTo(7, -1); g.moveTo(-1, 1); g.lineTo(1, -1); g.moveTo(5, 7); g.lineTo(7, 5); g.stroke();
  pat = ctx.createPattern(c, 'repeat') || color;
  hatchCache.set(key, pat);
  return pat;
}

function drawFlame() {
  if (!fg || !flameView) return;
  const t0 = performance.now();
  const chain = [0].concat(vPath(ui.focus)).slice(0, -1);   // ancestors above the focus
  const totalRows = chain.length + flameView.height[ui.focus] + 1;
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
  fg.labels = new Map();   // view node -> the label drawn on its frame
  const mf = ui.matchFunc, sel = ui.selFunc, hov = ui.hover;
  let drawn = 0;
  const frame = (v, x, w, row, anc) => {
    if (row < firstRow || row > lastRow) return;
    const y = row * ROW - top;
    const f = flameView.func[v];
    let fill, txt = palette.frameText;
    const sm = vSam(v);
    if (sm >= 0) fill = sampledFill(ctx, frameColor(vName(v)));
    else if (f < 0) fill = NEUTRAL();
    else if (mf) { if (mf[f]) fill = MATCH(); else { fill = DIM(); txt = palette.dimText; } }
    else fill = frameColor(funcName(f));
    if (f >= 0 && f === sel) fill = SELECT();
    ctx.globalAlpha = anc ? 0.6 : 1;
    ctx.fillStyle = fill;
    const bw = w > 3 ? w - 1 : Math.max(w, 1);
    ctx.fillRect(x, y, bw, ROW - 1);
    if (v === hov || (f >= 0 && f === sel)) {
      ctx.strokeStyle = v === hov ? palette.text : palette.accent; ctx.lineWidth = v === hov ? 1 : 1.5;
      ctx.strokeRect(x + 0.5, y + 0.5, Math.max(0, bw - 1), ROW - 2);
    }
    if (w > 26) {
      const label = fitName(ctx, disp(vShort(v), 400), w - 8, labelCache);
      if (label) { ctx.fillStyle = txt; ctx.fillText(label, x + 4, y + ROW / 2); fg.labels.set(v, label); }
    }
    ctx.globalAlpha = 1;
    let r = rows[row]; if (!r) r = rows[row] = [];
    r.push(x, w, v);
    drawn++;
  };
  chain.forEach((a, i) => frame(a, 0, W, i, true));
  const stack = [ui.focus, 0, W, chain.length];
  while (stack.length) {
    const row = stack.pop(), w = stack.pop(), x = stack.pop(), v = stack.pop();
    frame(v, x, w, row, false);
    if (row >= lastRow) continue;
    const tv = flameView.total[v];
    if (!(tv > 0)) continue;
    const scale = w / tv;
    let cx = x;
    const ks = flameView.kids(v);
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i];
      // clamp: with inconsistent data (children summing to more than the parent) stay inside it
      const cw = Math.min(flameView.total[k] * scale, x + w - cx);
      if (cw >= 1) stack.push(k, cx, cw, row + 1);
      cx += cw;
      if (cx >= x + w) break;
    }
  }
  STATS.drawnFrames = drawn;
  STATS.drawnFocus = ui.focus; STATS.drawnSearch = ui.search;   // what the last draw shows (tests/browser)
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
  if (v !== ui.hover) { ui.hover = v; schedule('flame'); }
  if (v < 0) { hideTip(); fg.canvas.style.cursor = 'default'; return; }
  fg.canvas.style.cursor = 'pointer';
  const f = flameView.func[v], rootT = flameView.total[0], p = flameView.parent[v];
  const rows = [];
  const loc = f >= 0 ? funcLoc(f) : '';
  rows.push(['Total', fmtMetric(flameView.total[v]) + '  \u00b7  ' + fmtPct(pct(flameView.total[v], rootT)) + (p >= 0 ? ' of all, ' + fmtPct(pct(flameView.total[v], flameView.total[p])) + ' of parent' : '')]);
  rows.push(['Self', fmtMetric(flameView.self[v]) + '  \u00b7  ' + fmtPct(pct(flameView.self[v], rootT))]);
  if (f >= 0) {
    rows.push(['Calls', fmtCount(flameView.calls[v])]);
    if (flameView.calls[v] > 0 && !ui.inverted && ui.metric === 'time') rows.push(['Average', fmtNs(flameView.total[v] / flameView.calls[v]) + ' per call']);
  }
  const sm = vSam(v);
  if (sm >= 0) {
    const S = callTree.sampled;
    rows.length = 0;
    rows.push(['Estimated', fmtNs(flameView.total[v]) + '  \u00b7  ' + fmtPct(pct(flameView.total[v], rootT)) + (p >= 0 ? ' of all, ' + fmtPct(pct(flameView.total[v], flameView.total[p])) + ' of parent' : '')]);
    rows.push(['Kind', S.inlined[sm] ? 'inlined into the frame below (no call of its own)' : S.library[sm] ? 'in ' + S.library[sm] + ', called from the frame below' : 'untraced code of the program, called from the frame below']);
    showTip(e.clientX, e.clientY, vShort(v), '', rows, 'Sampled, not traced: width is the share of the frame below\'s self time that instruction samples found here (statistical; no calls are counted)', vName(v));
    return;
  }
  const pk = peakText(v);
  if (pk) rows.push(['Peak live', pk]);
  const more = f >= 0 && funcs[f] && funcs[f].more;
  showTip(e.clientX, e.clientY, vShort(v), loc, rows,
    more ? 'The call tree ran out of space: calls on paths first seen after that, made from the frame below, are counted here with their time (the function table has each under its own name)'
      : ui.inverted ? 'Bottom-up: width is the self time of the function at the top of this chain. Click to focus \u00b7 C copies the name' : 'Click to focus \u00b7 C copies the name',
    f >= 0 ? funcName(f) : null);
}

/* A frame's peak live bytes (flame-tree.js), with the allocation metrics: of its own allocations
 * (bottom-up: of the call paths it counts); for a frame counting several paths, the largest of
 * their peaks, said as such (not their combined peak, which the capture does not hold). */
function peakText(v) {
  if (ui.metric === 'time' || !flameView.hasPeak) return '';
  const n = flameView.peakPaths[v];
  if (!(n > 0)) return '';
  return fmtBytes(flameView.peak[v]) + (n > 1 ? '  \u00b7  largest of ' + fmtCount(n) + ' call paths\u2019 peaks' : ui.inverted ? '' : '  \u00b7  its own allocations');
}

/* A tooltip: title (a short name), sub (a location), rows [label, value], hint; full: the
 * function's full name, shown under the title when it differs. */
function showTip(cx, cy, title, sub, rows, hint, full) {
  const tip = $('xl-tip');
  tip.textContent = '';
  tip.appendChild(el('div', { class: 'xl-tip-title', text: disp(title, 600) }));
  if (full && full !== title) tip.appendChild(el('div', { class: 'xl-tip-full', id: 'xl-tip-full', text: disp(full, 6000) }));
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
  for (let v = 1; v < flameView.n; v++) if (flameView.func[v] === f && (best < 0 || flameView.total[v] > flameView.total[best])) best = v;
  return best;
}
