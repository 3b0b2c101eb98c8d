// @ts-check
/* timeline: per-thread time-ordered calls sharing the memory chart's time axis.
 *
 * Level of detail: a lane can hold hundreds of thousands of calls, far more than a canvas has
 * pixels. For a zoom level (the nanoseconds one pixel stands for, rounded down to a power of two)
 * each depth row's calls are merged into blocks once: a call at least one pixel wide is a block of
 * its own, and runs of narrower calls whose gaps are under a pixel become one block. Blocks are in
 * time units, so panning at the same zoom reuses them; a frame draws only the blocks in view, a
 * number bounded by the canvas width, whatever the number of calls. */

const TL_ROW = 14, TL_HEAD = 18, TL_MAXROWS = 24;
const TL_LOD_CACHE = 12;   // zoom levels kept per lane

function prepareTimeline() {
  const tl = profileDoc.timeline;
  if (!tl || !Array.isArray(tl.threads) || !tl.threads.length) { timelineData = null; return; }
  // no thread has a call in it (--timing sampled keeps none): no timeline to draw or to take a
  // window's calls from
  const calls = (th) => (Array.isArray(th.start_gap_ns) ? th.start_gap_ns : Array.isArray(th.start_ns) ? th.start_ns : []).length;
  if (!tl.threads.some((th) => th && calls(th) > 0)) { timelineData = null; return; }
  let maxEnd = 0, minStart = Infinity;
  const lanes = tl.threads.map((th, i) => {
    // start_gap_ns (the report's compact form): each start as the gap from the previous one
    const gaps = Array.isArray(th.start_gap_ns) ? th.start_gap_ns : null;
    const starts = gaps || (Array.isArray(th.start_ns) ? th.start_ns : []);
    const n = starts.length;
    const start = new Float64Array(n), dur = new Float64Array(n), func = new Int32Array(n), depth = new Int32Array(n);
    let maxDepth = 0, minDepth = n ? Infinity : 0, prev = 0;
    for (let k = 0; k < n; k++) {
      const s = +starts[k] || 0;
      start[k] = gaps ? (prev += s) : s;
      dur[k] = Array.isArray(th.dur_ns) ? +th.dur_ns[k] || 0 : 0;
      const f = Array.isArray(th.func) ? th.func[k] : -1; func[k] = isNum(f) && f < funcs.length ? f : -1;
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
    return {
      index: isNum(th.index) ? th.index : i, n, start, dur, func, depth, maxDepth, minDepth, depthStart: cnt, byDepth,
      recorded: isNum(th.recorded_calls) ? th.recorded_calls : n, minDur: isNum(th.min_dur_ns) ? th.min_dur_ns : 0,
      from: isNum(th.kept_from_ns) ? th.kept_from_ns : null, to: isNum(th.kept_to_ns) ? th.kept_to_ns : null,
      lods: new Map(),
    };
  });
  timelineData = { lanes, maxEnd, minStart: isFinite(minStart) ? minStart : 0, truncatedFrom: isNum(tl.truncated_from_ns) ? tl.truncated_from_ns : null };
}

/* The shortest call the report kept over the threads shown (0: every recorded call). */
function timelineMinDur(lanes) {
  let m = 0;
  for (const ln of lanes || timelineData.lanes) if (ln.minDur > m) m = ln.minDur;
  return m;
}
/* What the timeline holds, in words: "calls ≥ 12 µs" or "every call". */
function timelineKeptText(lanes) {
  const m = timelineMinDur(lanes);
  return m > 0 ? 'calls \u2265 ' + fmtNs(m) : 'every recorded call';
}

/* Blocks of one lane at zoom level q (ns per pixel, a power of two): per depth row, sorted,
 * non-overlapping. func: the calls' function, -2 when they differ; count: calls merged; k: the
 * call when count is 1. */
function laneLod(ln, level) {
  let lod = ln.lods.get(level);
  if (lod) return lod;
  const t0 = performance.now();
  const q = Math.pow(2, level);
  const n = ln.n;
  const bs = new Float64Array(n), be = new Float64Array(n), bf = new Int32Array(n), bc = new Int32Array(n), bk = new Int32Array(n);
  const rowStart = new Int32Array(ln.maxDepth + 2);
  let nb = 0;
  for (let d = 0; d <= ln.maxDepth; d++) {
    rowStart[d] = nb;
    let open = -1;   // the merged block being extended, or -1
    for (let j = ln.depthStart[d]; j < ln.depthStart[d + 1]; j++) {
      const k = ln.byDepth[j], s = ln.start[k], e = s + ln.dur[k];
      if (ln.dur[k] < q && open >= 0 && s - be[open] < q) {
        if (e > be[open]) be[open] = e;
        if (bf[open] !== ln.func[k]) bf[open] = -2;
        bc[open]++;
        continue;
      }
      bs[nb] = s; be[nb] = e; bf[nb] = ln.func[k]; bc[nb] = 1; bk[nb] = k;
      open = ln.dur[k] < q ? nb : -1;
      nb++;
    }
  }
  rowStart[ln.maxDepth + 1] = nb;
  lod = { level, n: nb, start: bs.slice(0, nb), end: be.slice(0, nb), func: bf.slice(0, nb), count: bc.slice(0, nb), k: bk.slice(0, nb), rowStart };
  if (ln.lods.size >= TL_LOD_CACHE) ln.lods.delete(ln.lods.keys().next().value);
  ln.lods.set(level, lod);
  STATS.tlLodMs = performance.now() - t0;
  STATS.tlLodBuilds = (STATS.tlLodBuilds || 0) + 1;
  return lod;
}
function lodLevel(nsPerPx) { return Math.max(0, Math.floor(Math.log2(Math.max(1, nsPerPx)))); }

let tlInfo = { threads: [], spans: [] };

function drawTimeline() {
  if (!tc) return;
  const t0 = performance.now();
  const W = tc.canvas.parentElement.clientWidth;
  let H = 24;
  const layout = [];
  for (const ln of timelineData.lanes) {
    if (!procIn(ln.index)) continue;   // the process shown's threads
    const rows = Math.min(ln.maxDepth - ln.minDepth + 1, TL_MAXROWS);
    layout.push({ ln, top: H, rows });
    H += TL_HEAD + rows * TL_ROW + 8;
  }
  const ctx = setupCanvas(tc.canvas, W, H);
  ctx.clearRect(0, 0, W, H);
  const [a, b] = view();
  const pw = W - PL - PR;
  const X = (t) => PL + (t - a) / (b - a) * pw;
  const level = lodLevel((b - a) / Math.max(1, pw));
  const spans = [];
  timeShading(ctx, W, 20, H - 4, spans);
  timeGrid(ctx, W, 20, H - 4, false);
  // axis labels at the top
  {
    const step = niceStep(b - a, Math.max(2, Math.floor(pw / 110)));
    ctx.fillStyle = palette.muted; ctx.font = '11px ' + FONT; ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    for (let t = Math.ceil(a / step) * step; t <= b + 1e-6; t += step) ctx.fillText(timeTickLabel(t, step), PL + (t - a) / (b - a) * pw, 4);
    ctx.textAlign = 'left';
  }
  const info = { threads: [], spans, level, plotLeft: PL, width: pw, from: a, to: b };
  tlInfo = info;
  tc.lanes = layout;
  tc.level = level;
  const sel = ui.selFunc, mf = ui.matchFunc;
  ctx.save(); ctx.beginPath(); ctx.rect(PL, 0, pw, H); ctx.clip();
  ctx.font = '10px ' + FONT; ctx.textBaseline = 'middle';
  for (const L of layout) {
    const ln = L.ln, lod = laneLod(ln, level);
    let drawn = 0, merged = 0, maxRow = 0;
    const rowTop = L.top + TL_HEAD;
    for (let r = 0; r < L.rows; r++) {
      const d = r + ln.minDepth;
      const s0 = lod.rowStart[d], s1 = lod.rowStart[d + 1];
      if (s1 <= s0) continue;
      const y = rowTop + r * TL_ROW;
      let inRow = 0;
      // blocks of a row do not overlap, so their ends are sorted too
      for (let j = lowerBound(lod.end, a, s0, s1); j < s1; j++) {
        const s = lod.start[j];
        if (s > b) break;
        const x0 = X(s), x1 = X(lod.end[j]);
        const w = x1 - x0;
        const f = lod.func[j], many = lod.count[j] > 1;
        let fill = f < 0 ? NEUTRAL() : mf ? (mf[f] ? MATCH() : DIM()) : frameColor(funcName(f));
        if (f >= 0 && f === sel) fill = SELECT();
        ctx.fillStyle = fill;
        ctx.fillRect(x0, y, Math.max(1, w > 3 ? w - 1 : w), TL_ROW - 1);
        if (w > 30 && f >= 0) {
          const lab = many ? fitLabel(ctx, lod.count[j] + '\u00d7 ' + disp(funcShort(f), 300), w - 6, labelCache) : fitName(ctx, disp(funcShort(f), 300), w - 6, labelCache);
          if (lab) { ctx.fillStyle = mf && !mf[f] ? palette.dimText : palette.frameText; ctx.fillText(lab, Math.max(x0, PL) + 3, y + TL_ROW / 2); }
        }
        drawn++; inRow++;
        if (many) merged++;
      }
      if (inRow > maxRow) maxRow = inRow;
    }
    info.threads.push({ index: ln.index, name: threadLabel(ln.index), head: laneHead(L), events: ln.n, recorded: ln.recorded, minDurNs: ln.minDur, drawn, merged, maxRowBlocks: maxRow,
      blocks: lod.n, dataFrom: lod.n ? lod.start[0] : null, dataTo: lod.n ? lod.end[lod.rowStart[ln.minDepth + 1] - 1] : null,
      depthShown: L.rows, maxDepth: ln.maxDepth, minDepth: ln.minDepth, rowsTop: rowTop, rowHeight: TL_ROW });
  }
  ctx.restore();
  // lane headers
  for (const L of layout) {
    ctx.fillStyle = palette.text; ctx.font = '600 11px ' + FONT; ctx.textBaseline = 'middle';
    ctx.fillText(fitLabel(ctx, laneHead(L), W - 16, labelCache) || '', 8, L.top + TL_HEAD / 2);
    ctx.strokeStyle = palette.grid; ctx.beginPath(); ctx.moveTo(0, L.top + 0.5); ctx.lineTo(W, L.top + 0.5); ctx.stroke();
  }
  if (tc.hoverX >= 0) { ctx.strokeStyle = palette.text; ctx.globalAlpha = 0.5; ctx.beginPath(); ctx.moveTo(tc.hoverX + 0.5, 20); ctx.lineTo(tc.hoverX + 0.5, H - 4); ctx.stroke(); ctx.globalAlpha = 1; }
  STATS.tlDrawMs = performance.now() - t0;
  STATS.tlDraws = (STATS.tlDraws || 0) + 1;
}

/* A lane's header: the thread, the calls it holds (and what the report kept of them), the rows. */
function laneHead(L) {
  const ln = L.ln;
  const kept = ln.minDur > 0 ? fmtCount(ln.n) + ' of ' + fmtCount(ln.recorded) + ' calls (\u2265 ' + fmtNs(ln.minDur) + ')' : fmtCount(ln.n) + ' calls';
  return disp(threadLabel(ln.index), 200) + '  \u00b7  ' + kept + (ln.maxDepth - ln.minDepth + 1 > L.rows ? '  \u00b7  ' + (ln.maxDepth - ln.minDepth + 1 - L.rows) + ' deeper levels not drawn' : '') + (ln.minDepth > 0 ? '  \u00b7  from call depth ' + ln.minDepth : '');
}

/* The block under the pointer at the zoom level last drawn. */
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
    const lod = laneLod(ln, tc.level || 0);
    const s0 = lod.rowStart[d], s1 = lod.rowStart[d + 1];
    const j = lowerBound(lod.end, t - tol, s0, s1);
    if (j < s1 && lod.start[j] <= t + tol) return { lane: ln, lod, j, f: lod.func[j] };
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
  tc.canvas.style.cursor = hit.f >= 0 ? 'pointer' : 'default';
  const ln = hit.lane, lod = hit.lod, j = hit.j, f = hit.f;
  if (lod.count[j] > 1) {
    showTip(e.clientX, e.clientY, fmtCount(lod.count[j]) + ' calls, each under a pixel at this zoom', f >= 0 ? 'all ' + funcShort(f) : 'several functions', [
      ['From', fmtNs(lod.start[j])], ['To', fmtNs(lod.end[j])], ['Depth', String(ln.depth[lod.k[j]])], ['Thread', disp(threadLabel(ln.index), 120)],
    ], 'Drag across them to zoom in');
    return;
  }
  const k = lod.k[j];
  showTip(e.clientX, e.clientY, f >= 0 ? funcShort(f) : '(unknown function)', f >= 0 ? funcLoc(f) : '', [
    ['Start', fmtNs(ln.start[k])], ['Duration', fmtNs(ln.dur[k])], ['Depth', String(ln.depth[k])], ['Thread', disp(threadLabel(ln.index), 120)],
  ], 'Click selects the function \u00b7 drag zooms', f >= 0 ? funcName(f) : null);
}
