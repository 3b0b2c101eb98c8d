// @ts-check
/* timeline: per-thread time-ordered calls sharing the memory chart's time axis */

const TL_ROW = 14, TL_HEAD = 18, TL_MAXROWS = 24;

function prepareTimeline() {
  const tl = profileDoc.timeline;
  if (!tl || !Array.isArray(tl.threads) || !tl.threads.length) { timelineData = null; return; }
  let maxEnd = 0, minStart = Infinity;
  const lanes = tl.threads.map((th, i) => {
    const n = Array.isArray(th.start_ns) ? th.start_ns.length : 0;
    const start = new Float64Array(n), dur = new Float64Array(n), func = new Int32Array(n), depth = new Int32Array(n);
    let maxDepth = 0, minDepth = n ? Infinity : 0;
    for (let k = 0; k < n; k++) {
      start[k] = +th.start_ns[k] || 0; dur[k] = Array.isArray(th.dur_ns) ? +th.dur_ns[k] || 0 : 0;
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
    const startsByDepth = Float64Array.from(byDepth, (k) => start[k]);
    return { index: isNum(th.index) ? th.index : i, n, start, dur, func, depth, maxDepth, minDepth, depthStart: cnt, byDepth, startsByDepth };
  });
  // Why the drawn timeline ends early: the capture's timeline buffer ran out, or this report
  // keeps only the first calls of each thread (the Chrome export has all of them).
  const reportLimit = tl.threads.some((th) => th && th.truncated === 'report_limit');
  timelineData = { lanes, maxEnd, minStart: isFinite(minStart) ? minStart : 0, truncatedFrom: isNum(tl.truncated_from_ns) ? tl.truncated_from_ns : null, reportLimit };
}

let tlInfo = { threads: [], spans: [] };

function drawTimeline() {
  if (!tc) return;
  const t0 = performance.now();
  const W = tc.canvas.parentElement.clientWidth;
  let H = 24;
  const layout = [];
  for (const ln of timelineData.lanes) {
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
    ctx.fillStyle = palette.muted; ctx.font = '11px ' + FONT; ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    for (let t = Math.ceil(a / step) * step; t <= b + 1e-6; t += step) ctx.fillText(timeTickLabel(t, step), PL + (t - a) / (b - a) * pw, 4);
    ctx.textAlign = 'left';
  }
  const info = { threads: [], spans };
  tlInfo = info;
  tc.lanes = layout;
  const sel = ui.selFunc, mf = ui.matchFunc;
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
          if (lab) { ctx.fillStyle = mf && f >= 0 && !mf[f] ? palette.dimText : palette.frameText; ctx.font = '10px ' + FONT; ctx.textBaseline = 'middle'; ctx.fillText(lab, Math.max(x0, PL) + 3, y + TL_ROW / 2); }
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
    ctx.fillStyle = palette.text; ctx.font = '600 11px ' + FONT; ctx.textBaseline = 'middle';
    const head = disp(threadLabel(L.ln.index), 200) + '  \u00b7  ' + fmtCount(L.ln.n) + ' calls' + (L.ln.maxDepth - L.ln.minDepth + 1 > L.rows ? '  \u00b7  ' + (L.ln.maxDepth - L.ln.minDepth + 1 - L.rows) + ' deeper levels not drawn' : '') + (L.ln.minDepth > 0 ? '  \u00b7  from call depth ' + L.ln.minDepth : '');
    ctx.fillText(fitLabel(ctx, head, W - 16, labelCache) || '', 8, L.top + TL_HEAD / 2);
    ctx.strokeStyle = palette.grid; ctx.beginPath(); ctx.moveTo(0, L.top + 0.5); ctx.lineTo(W, L.top + 0.5); ctx.stroke();
  }
  if (tc.hoverX >= 0) { ctx.strokeStyle = palette.text; ctx.globalAlpha = 0.5; ctx.beginPath(); ctx.moveTo(tc.hoverX + 0.5, 20); ctx.lineTo(tc.hoverX + 0.5, H - 4); ctx.stroke(); ctx.globalAlpha = 1; }
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
