// @ts-check
/* memory: the RSS and GC chart, its legend, zoom and brush */

/* `src`: the samples a series draws when not its key's (the program's RSS, see prepareMemory). */
const SERIES = [
  { key: 'rss', label: 'RSS', css: '--s-rss', src: 'rss' },
  { key: 'gc_heap', label: 'GC heap', css: '--s-heap' },
  { key: 'gc_free', label: 'GC free', css: '--s-free' },
  { key: 'gc_occupied', label: 'GC occupied (est.)', css: '--s-occ' },
];

function prepareMemory() {
  const m = profileDoc.memory;
  if (!m || !m.samples || !Array.isArray(m.samples.t_ns)) { memData = { n: 0, t: new Float64Array(0), s: {}, avail: {}, summary: (m && m.summary) || {}, gc: [] }; return; }
  const n = m.samples.t_ns.length;
  const t = Float64Array.from(m.samples.t_ns, (x) => (isNum(x) ? x : NaN));
  const s = {}, avail = {};
  for (const k of ['rss', 'gc_heap', 'gc_free', 'gc_occupied', 'gc_allocated', 'gc_collections', 'program_rss', 'profiler_rss', 'alloc_bytes']) {
    const a = m.samples[k];
    const arr = new Float64Array(n).fill(NaN);
    let any = false;
    if (Array.isArray(a)) for (let i = 0; i < n; i++) { const x = a[i]; if (isNum(x)) { arr[i] = x; any = true; } }
    s[k] = arr; avail[k] = any;
  }
  memData = { n, t, s, avail, summary: m.summary || {}, gc: Array.isArray(m.gc_events) ? m.gc_events.filter((g) => g && isNum(g.t_ns)) : [], interval: m.interval_ns, bursts: allocBursts(n, t, s.alloc_bytes) };
  // The process's RSS includes the profiler's memory (the mapped capture file and, with allocations
  // recorded, their address table); when the capture measured it, the RSS line is the program's and the
  // profiler's is a series of its own.
  if (avail.program_rss) {
    SERIES[0].label = 'RSS (program)';
    SERIES[0].src = 'program_rss';
    if (avail.profiler_rss && !SERIES.some((sd) => sd.key === 'profiler_rss')) SERIES.splice(1, 0, { key: 'profiler_rss', label: 'profiler\'s memory', css: '--s-prof', src: 'profiler_rss' });
  }
}

/* The data a series draws. */
function seriesData(sd) { return memData.s[sd.src || sd.key]; }
function seriesAvail(sd) { return !!memData.avail[sd.src || sd.key]; }
/* The peak drawn with the RSS line: the program's when the RSS line is the program's, else the process's. */
function memPeak() {
  const pk = SERIES[0].src === 'program_rss' ? memData.summary.program_peak_rss : memData.summary.peak_rss;
  return pk && isNum(pk.value) ? pk.value : null;
}

/* The largest allocation bursts: the (at most 3) sample intervals in which the
 * program allocated the most heap bytes, each at least a tenth of the largest
 * one, marked on the chart. */
function allocBursts(n, t, cum) {
  const out = [];
  for (let i = 1; i < n; i++) {
    const d = cum[i] - cum[i - 1];
    if (d > 0 && !isNaN(t[i]) && !isNaN(t[i - 1])) out.push({ t0: t[i - 1], t1: t[i], bytes: d });
  }
  out.sort((x, y) => y.bytes - x.bytes || x.t0 - y.t0);
  const top = out.length ? out[0].bytes : 0;
  return out.filter((x, k) => k < 3 && x.bytes * 10 >= top);
}

function seriesReason(key) {
  const sm = memData.summary[key];
  if (sm && sm.reason) return String(sm.reason);
  if (!memData.n) return 'no memory samples in this capture';
  return 'no samples had a value';
}

let mc = null, tc = null;      // memory chart / timeline canvases
const PL = 70, PR = 14;         // shared plot margins: the time axes line up
const BURST_LINE = 14;          // an allocation burst's label line (11px text)

function buildMemorySection() {
  const sec = section('xl-memory', timelineData ? 'Memory and timeline' : 'Memory', el('div', { class: 'xl-head-tools' }, [
    timelineData && callTree ? el('button', { type: 'button', class: 'xl-btn primary', id: 'tl-window', text: 'Show this window', hidden: true,
      title: 'Recompute the flame graph and the function table from the timeline\'s calls in the zoomed time span', onclick: () => { if (ui.timeView) showWindow(ui.timeView.slice()); } }) : null,
    el('button', { type: 'button', class: 'xl-btn', id: 'mem-zoom-reset', text: 'Reset time zoom', disabled: true, onclick: () => setTimeView(null) }),
    el('button', { type: 'button', class: 'xl-btn', id: 'mem-csv', text: 'Download CSV', disabled: !memData.n, onclick: downloadCsv }),
  ]));
  const legend = el('div', { class: 'xl-legend', id: 'mem-legend' });
  for (const sd of SERIES) {
    const ok = seriesAvail(sd);
    if (ok) {
      legend.appendChild(el('label', { class: 'xl-leg', dataset: { series: sd.key } }, [
        el('input', { type: 'checkbox', checked: ui.series[sd.key], onchange: (e) => { ui.series[sd.key] = e.target.checked; schedule('mem'); } }),
        el('span', { class: 'xl-leg-sw', style: 'background:var(' + sd.css + ')' }), el('span', { text: sd.label })]));
    } else {
      legend.appendChild(el('span', { class: 'xl-leg unavailable', dataset: { series: sd.key }, title: disp(seriesReason(sd.key), 2000) }, [
        el('span', { class: 'xl-leg-sw off' }), el('span', { text: sd.label + ': unavailable' }), el('span', { class: 'xl-leg-why', text: ' \u2014 ' + disp(seriesReason(sd.key), 300) })]));
    }
  }
  if (memData.gc.length) legend.appendChild(el('span', { class: 'xl-leg' }, [el('span', { class: 'xl-leg-tick' }), el('span', { text: 'GC collection' })]));
  if (memPeak() != null) legend.appendChild(el('span', { class: 'xl-leg' }, [el('span', { class: 'xl-leg-dash' }), el('span', { text: SERIES[0].src === 'program_rss' ? 'peak RSS (program)' : 'peak RSS' })]));
  legend.appendChild(el('span', { class: 'xl-leg' }, [el('span', { class: 'xl-leg-sw shade-out' }), el('span', { text: 'outside capture window' })]));
  if (partialFrom() != null) legend.appendChild(el('span', { class: 'xl-leg' }, [el('span', { class: 'xl-leg-sw shade-part' }), el('span', { text: 'timeline incomplete' })]));
  const memNotes = notes('memory');
  if (memNotes.length) sec.appendChild(buildNotes(memNotes, 'mem-notes', null));
  if (memData.n) {
    sec.appendChild(legend);
    const canvas = el('canvas', { id: 'mem-canvas', class: 'xl-canvas', role: 'img', 'aria-label': 'Memory over time' });
    sec.appendChild(el('div', { class: 'xl-chart', id: 'mem-chart' }, [canvas]));
    mc = { canvas, hoverX: -1 };
    attachTimeInteractions(canvas, 'mem');
  } else {
    sec.appendChild(el('p', { class: 'xl-note', id: 'mem-none', text: 'No memory samples in this capture' + (profileDoc.run.mode === 'xray' ? ' (function-tracing mode: use --profile or --profile=memory to sample memory).' : '.') }));
    memInfo = { series: SERIES.map((sd) => ({ key: sd.key, label: sd.label, available: false, visible: false, points: 0, reason: seriesReason(sd.key) })), gcMarks: 0, spans: [], peak: null };
  }
  if (timelineData) {
    const tcan = el('canvas', { id: 'tl-canvas', class: 'xl-canvas', role: 'img', 'aria-label': 'Timeline of calls per thread' });
    // The header says per thread what the timeline kept; the summary's note of kind "timeline" says
    // the same in a sentence, so it is left out here when the header is shown (and stays in the
    // text report and the JSON).
    const keptNote = timelineKeptNote();
    const tlNotes = notes('timeline').filter((n) => !(keptNote && n.kind === 'timeline'));
    sec.appendChild(el('div', { id: 'xl-timeline-wrap' }, [
      el('div', { class: 'xl-sub-row' }, [
        el('h3', { class: 'xl-sub', text: 'Timeline \u2014 calls in time order per thread' }),
        timelineData.maxEnd > timelineData.minStart && (timelineData.maxEnd - timelineData.minStart) < 0.2 * tEnd
          ? el('button', { type: 'button', class: 'xl-btn', id: 'tl-zoom-data', text: 'Zoom to the recorded calls (' + fmtNs(timelineData.minStart) + ' \u2013 ' + fmtNs(timelineData.maxEnd) + ')',
            onclick: () => { const pad = (timelineData.maxEnd - timelineData.minStart) * 0.02; setTimeView([Math.max(0, timelineData.minStart - pad), Math.min(tEnd, timelineData.maxEnd + pad)]); } })
          : null]),
      keptNote,
      timelineData.truncatedFrom != null ? el('p', { class: 'xl-note warn', text: 'The timeline is incomplete after ' + fmtNs(timelineData.truncatedFrom) + ': later calls are in the flame graph and table but not drawn here.' }) : null,
      timelineMinDur() > 0 ? el('p', { class: 'xl-note', id: 'tl-thinned', text: 'This report keeps the longest calls of each thread over the whole timeline (' + timelineKeptText() + '; ' +
        fmtCount(timelineData.lanes.reduce((s, ln) => s + ln.n, 0)) + ' of ' + fmtCount(timelineData.lanes.reduce((s, ln) => s + ln.recorded, 0)) + ' recorded calls); the flame graph and table count every call. ' +
        '`exaloop profile report CAPTURE --timeline-calls N` keeps more; `exaloop profile export CAPTURE --format chrome` writes every recorded call for Perfetto.' }) : null,
      tlNotes.length ? buildNotes(tlNotes, 'tl-notes', null) : null,
      el('div', { class: 'xl-chart', id: 'tl-chart' }, [tcan])]));
    tc = { canvas: tcan, lanes: [] };
    attachTimeInteractions(tcan, 'tl');
  }
  sec.appendChild(el('p', { class: 'xl-hint', text: 'Drag across a chart to zoom the shared time axis; double-click or Z resets; Shift+wheel pans, Ctrl+wheel zooms. Hover for values.' +
    (timelineData && callTree ? ' After a drag, \u201cShow\u00a0\u2026 in the flame graph and table\u201d recomputes both from the timeline\'s calls in that span.' : '') }));
  sec.appendChild(buildMemSummary());
  return sec;
}

// What each thread's timeline kept (summary threads[].timeline.note: "calls ≥ 12.0 us
// after 0.812 s"), when a thread left calls out: shorter calls are in the flame graph and table.
function timelineKeptNote() {
  const ths = Array.isArray(profileDoc.threads) ? profileDoc.threads : [];
  const kept = ths.filter((th) => th && th.timeline && typeof th.timeline.note === 'string' && th.timeline.note !== 'all calls');
  if (!kept.length) return null;
  const one = (th) => (ths.length > 1 ? th.name + ': ' : '') + th.timeline.note;
  const list = kept.slice(0, 6).map(one).join('; ') + (kept.length > 6 ? '; and ' + (kept.length - 6) + ' more threads' : '');
  return el('p', { class: 'xl-note', id: 'tl-kept', text: 'Timeline keeps ' + list + '. Shorter calls are in the flame graph and table, not drawn here.' });
}

function partialFrom() {
  let p = null;
  if (timelineData && timelineData.truncatedFrom != null) p = timelineData.truncatedFrom;
  for (const w of warnings()) if (w.kind === 'timeline_full' && isNum(w.from_ns)) p = p == null ? w.from_ns : Math.min(p, w.from_ns);
  return p;
}

function buildMemSummary() {
  const sm = memData.summary || {};
  const MEANING = {
    program_rss: 'Sampled resident memory of the program: the process\'s RSS without the profiler\'s memory',
    program_peak_rss: 'The program\'s high-water mark: its largest sample, or the OS peak minus the profiler\'s memory at the end, whichever is larger',
    profiler_rss: 'Resident pages of the profiler\'s memory (the mapped capture file, and the address table of recorded allocations), counted in the process\'s RSS',
    rss: 'Sampled resident memory for the application, native libraries, and profiler',
    peak_rss: 'OS process high-water mark, including time outside a selected window',
    gc_heap: 'Mapped collector-managed heap; not the whole process allocation size',
    gc_free: 'Free space in that collector heap',
    gc_occupied: 'Heap minus free space; not a precise live-object count',
    gc_allocated: 'Cumulative allocation traffic, with a capture delta/rate',
    gc_collections: 'Collector count and capture delta',
  };
  const split = isNum((sm.program_rss || {}).value);
  const LABEL = { program_rss: 'RSS (program)', program_peak_rss: 'Peak RSS (program)', profiler_rss: 'Profiler\'s memory', rss: split ? 'RSS (process)' : 'RSS', peak_rss: split ? 'Peak RSS (process)' : 'Peak RSS', gc_heap: 'GC heap', gc_free: 'GC free', gc_occupied: 'GC occupied estimate', gc_allocated: 'GC allocated', gc_collections: 'GC collections' };
  // the program's figures only when the document has them (capture format 3)
  const rows = Object.keys(LABEL).filter((k) => sm[k] || !k.startsWith('pro')).map((k) => {
    const m = sm[k] || { value: null, reason: memData.n ? 'not reported' : 'no memory data in this capture' };
    let val, extra = '';
    const unavailable = !isNum(m.value);
    if (unavailable) val = 'unavailable';
    else if (k === 'gc_collections') {
      val = fmtCount(m.value);
      if (isNum(m.delta)) extra = '+' + fmtCount(m.delta) + ' during capture';
    } else {
      val = fmtBytes(m.value);
      if ((k === 'rss' || k === 'program_rss' || k === 'profiler_rss') && isNum(m.min) && isNum(m.max)) extra = 'min ' + fmtBytes(m.min) + ' \u00b7 max ' + fmtBytes(m.max);
      if (k === 'program_peak_rss' && isNum(m.profiler_rss)) extra = 'the profiler\'s memory then: ' + fmtBytes(m.profiler_rss) + ' more';
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
    el('p', { class: 'xl-hint', text: (split ? 'The program\'s RSS is the process\'s without the profiler\'s memory (capture buffer, allocation table); ' : 'RSS covers the whole process, the profiler\'s capture buffer included; ') + 'GC metrics describe only the collector-managed heap, so a native library can raise RSS without raising GC memory. Missing measurements are shown as unavailable, never as zero.' }),
  ]);
}

function downloadCsv() {
  const keys = ['rss', 'gc_heap', 'gc_free', 'gc_occupied', 'gc_allocated', 'gc_collections', 'program_rss', 'profiler_rss'];
  const lines = ['t_ns,t_s,' + keys.map((k) => k + (k === 'gc_collections' ? '' : '_bytes')).join(',')];
  for (let i = 0; i < memData.n; i++) {
    const t = memData.t[i];
    lines.push([isNaN(t) ? '' : t, isNaN(t) ? '' : (t / 1e9).toFixed(9)].concat(keys.map((k) => { const v = memData.s[k][i]; return isNaN(v) ? '' : String(v); })).join(','));
  }
  const blob = new Blob([lines.join('\n') + '\n'], { type: 'text/csv' });
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: 'memory-samples.csv', class: 'xl-offscreen' });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30000);
}

function view() { return ui.timeView || [0, tEnd]; }
function setTimeView(tv) {
  if (tv && tv[1] - tv[0] < 1000) tv = [tv[0], tv[0] + 1000];
  ui.timeView = tv;
  const b = $button('mem-zoom-reset'); if (b) b.disabled = !tv;
  syncWindowButton();
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
    if (down.moved) { ui.brush = [tAt(Math.min(down.x, x)), tAt(Math.max(down.x, x))]; schedule('mem'); schedule('tl'); }
  });
  window.addEventListener('mouseup', (e) => {
    if (!down) return;
    const d = down; down = null;
    if (d.moved && ui.brush) { const b = ui.brush; ui.brush = null; setTimeView([Math.max(0, b[0]), Math.min(tEnd, b[1])]); return; }
    ui.brush = null;
    if (which === 'tl') {
      const hit = tlHit(e);
      if (hit && hit.f >= 0) selectFunc(hit.f, true);
    }
  });
  canvas.addEventListener('dblclick', () => setTimeView(null));
  // Shift+wheel (or a sideways wheel) pans the zoomed axis; Ctrl+wheel zooms around the pointer.
  canvas.addEventListener('wheel', (e) => {
    const [a, b] = view(), span = b - a;
    const pan = e.shiftKey ? e.deltaY || e.deltaX : Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : 0;
    if (e.ctrlKey && e.deltaY) {
      e.preventDefault();
      const r = canvas.getBoundingClientRect(), t = tAt(e.clientX - r.left);
      const k = Math.pow(2, Math.max(-1, Math.min(1, e.deltaY / 200)));
      const n0 = Math.max(0, t - (t - a) * k), n1 = Math.min(tEnd, t + (b - t) * k);
      setTimeView(n0 <= 0 && n1 >= tEnd ? null : [n0, n1]);
    } else if (pan && ui.timeView) {
      e.preventDefault();
      const dt = Math.max(-a, Math.min(tEnd - b, pan / Math.max(1, canvas.clientWidth - PL - PR) * span));
      setTimeView([a + dt, b + dt]);
    }
  }, { passive: false });
  canvas.addEventListener('mousemove', (e) => {
    if (which === 'mem') memHover(e); else tlHover(e);
  });
  canvas.addEventListener('mouseleave', () => { hideTip(); if (mc) mc.hoverX = -1; if (tc) tc.hoverX = -1; schedule('mem'); schedule('tl'); });
}

function timeGrid(ctx, W, top, bottom, labels) {
  const [a, b] = view();
  const pw = W - PL - PR;
  const step = niceStep(b - a, Math.max(2, Math.floor(pw / 110)));
  ctx.strokeStyle = palette.grid; ctx.lineWidth = 1;
  ctx.fillStyle = palette.muted; ctx.font = '11px ' + FONT; ctx.textAlign = 'center'; ctx.textBaseline = 'top';
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
  const w = profileDoc.run.window || {};
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
    band(0, w.start_ns, palette.outside, 'outside_window');
    band(w.end_ns, tEnd, palette.outside, 'outside_window');
  }
  const pf = partialFrom();
  if (pf != null) {
    // on the memory chart only a strip along the top: the memory samples themselves are complete
    const pend = isNum(w.end_ns) ? Math.max(w.end_ns, pf) : tEnd;
    if (stripOnly) {
      const sh = Math.min(8, bottom - top);
      band(pf, pend, palette.partial, 'timeline_incomplete', palette.partial, top, top + sh);
    } else band(pf, pend, palette.partial, 'timeline_incomplete', palette.partial);
  }
  const aw = activeWarn();
  if (aw >= 0) {
    const wa = warnings()[aw];
    if (wa && isNum(wa.from_ns)) {
      const to = isNum(wa.to_ns) ? wa.to_ns : tEnd;
      band(wa.from_ns, Math.max(to, wa.from_ns + (b - a) / Math.max(1, pw)), palette.warnBand, 'warning:' + (wa.kind || ''));
      ctx.strokeStyle = palette.accent; ctx.lineWidth = 1.5;
      const x0 = X(wa.from_ns), x1 = X(to);
      ctx.strokeRect(x0 + 0.5, top + 0.5, Math.max(1, x1 - x0 - 1), bottom - top - 1);
    }
  }
  if (ui.brush) band(ui.brush[0], ui.brush[1], palette.brush, 'brush');
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
  const info = { series: [], gcMarks: 0, spans: [], peak: null, bursts: [] };
  memInfo = info;
  timeShading(ctx, W, top, bottom, info.spans, true);
  // y range over visible series in the visible time range
  let ymax = 0;
  const i0 = Math.max(0, lowerBound(memData.t, a, 0, memData.n) - 1), i1 = Math.min(memData.n, lowerBound(memData.t, b, 0, memData.n) + 1);
  const visible = SERIES.filter((sd) => seriesAvail(sd) && ui.series[sd.key]);
  for (const sd of visible) { const arr = seriesData(sd); for (let i = i0; i < i1; i++) if (arr[i] > ymax) ymax = arr[i]; }
  const peak = memPeak();
  if (peak != null && ui.series.rss && seriesAvail(SERIES[0])) ymax = Math.max(ymax, peak);
  if (!(ymax > 0)) ymax = 1024;
  const ticks = byteTicks(ymax * 1.08, 4);
  const ytop = Math.ceil(ymax * 1.08 / ticks.step) * ticks.step;
  const Y = (v) => bottom - v / ytop * (bottom - top);
  ctx.font = '11px ' + FONT; ctx.textBaseline = 'middle'; ctx.textAlign = 'right';
  for (let v = 0; v <= ytop + 1e-9; v += ticks.step) {
    const y = Math.round(Y(v)) + 0.5;
    ctx.strokeStyle = palette.grid; ctx.lineWidth = 1; ctx.beginPath(); ctx.moveTo(PL, y); ctx.lineTo(W - PR, y); ctx.stroke();
    ctx.fillStyle = palette.muted; ctx.fillText(ticks.label(v), PL - 8, y);
  }
  ctx.textAlign = 'left';
  timeGrid(ctx, W, top, bottom, true);
  ctx.strokeStyle = palette.axis; ctx.beginPath(); ctx.moveTo(PL + 0.5, top); ctx.lineTo(PL + 0.5, bottom + 0.5); ctx.lineTo(W - PR, bottom + 0.5); ctx.stroke();
  ctx.save(); ctx.beginPath(); ctx.rect(PL, top - 2, pw, bottom - top + 4); ctx.clip();
  for (const sd of SERIES) {
    const avail = seriesAvail(sd), on = avail && ui.series[sd.key];
    const rec = { key: sd.key, label: sd.label, available: avail, visible: !!on, points: 0, reason: avail ? null : seriesReason(sd.key) };
    info.series.push(rec);
    if (!on) continue;
    const arr = seriesData(sd);
    ctx.strokeStyle = palette[sd.key]; ctx.lineWidth = sd.key === 'rss' ? 2 : 1.6; ctx.lineJoin = 'round';
    // min/max per pixel column so that peaks survive decimation; null samples break the line
    let pen = false, col = -1e9, cmin = 0, cmax = 0, last = 0, pts = 0;
    const flush = () => { if (col > -1e9) { ctx.lineTo(col, Y(cmin)); ctx.lineTo(col, Y(cmax)); ctx.lineTo(col, Y(last)); } };
    ctx.beginPath();
    for (let i = i0; i < i1; i++) {
      const v = arr[i], t = memData.t[i];
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
      ctx.globalAlpha = palette.dark ? 0.14 : 0.1; ctx.fillStyle = palette.rss;
      ctx.beginPath(); let started = false, lx = 0;
      for (let i = i0; i < i1; i++) { const v = arr[i]; if (isNaN(v)) continue; const x = X(memData.t[i]); if (!started) { ctx.moveTo(x, bottom); started = true; } ctx.lineTo(x, Y(v)); lx = x; }
      ctx.lineTo(lx, bottom); ctx.closePath(); ctx.fill(); ctx.globalAlpha = 1;
    }
    rec.points = pts;
  }
  // peak RSS: the OS high-water mark (dashed) and the largest sample (dot)
  if (seriesAvail(SERIES[0]) && ui.series.rss) {
    let mi = -1;
    const arr = seriesData(SERIES[0]);
    for (let i = 0; i < memData.n; i++) if (!isNaN(arr[i]) && (mi < 0 || arr[i] > arr[mi])) mi = i;
    if (peak != null) {
      const y = Math.round(Y(peak)) + 0.5;
      ctx.setLineDash([5, 4]); ctx.strokeStyle = palette.rss; ctx.lineWidth = 1; ctx.beginPath(); ctx.moveTo(PL, y); ctx.lineTo(W - PR, y); ctx.stroke(); ctx.setLineDash([]);
      ctx.fillStyle = palette.rss; ctx.font = '600 11px ' + FONT; ctx.textAlign = 'right'; ctx.textBaseline = 'bottom';
      ctx.fillText((SERIES[0].src === 'program_rss' ? 'peak RSS (program) ' : 'peak RSS ') + fmtBytes(peak), W - PR - 4, y - 3);
      ctx.textAlign = 'left';
    }
    if (mi >= 0 && memData.t[mi] >= a && memData.t[mi] <= b) {
      const x = X(memData.t[mi]), y = Y(arr[mi]);
      ctx.fillStyle = palette.rss; ctx.beginPath(); ctx.arc(x, y, 3.5, 0, Math.PI * 2); ctx.fill();
      ctx.strokeStyle = palette.bg; ctx.lineWidth = 1.5; ctx.stroke();
      info.peak = { t: memData.t[mi], value: arr[mi], osPeak: peak };
    } else info.peak = { t: null, value: null, osPeak: peak };
  }
  // the largest heap allocation bursts: a band over the interval, labelled.  Bursts a few pixels
  // apart (loans: +22.9 MiB and +15.3 MiB in neighbouring samples) would draw their labels on top
  // of each other: a label that would meet one already placed goes a line lower (the largest
  // burst's stays on top), and none runs past the plot's right edge.
  const placed = [];
  for (const bu of memData.bursts) {
    if (bu.t1 < a || bu.t0 > b) continue;
    const x0 = X(Math.max(bu.t0, a)), x1 = Math.max(X(Math.min(bu.t1, b)), x0 + 2);
    ctx.globalAlpha = palette.dark ? 0.22 : 0.16; ctx.fillStyle = palette.accent; ctx.fillRect(x0, top, x1 - x0, bottom - top); ctx.globalAlpha = 1;
    ctx.fillStyle = palette.accent; ctx.font = '600 11px ' + FONT; ctx.textBaseline = 'top';
    const text = '+' + fmtBytes(bu.bytes) + ' allocated';
    const box = { x: Math.max(PL + 2, Math.min(x0 + 3, W - PR - 2 - ctx.measureText(text).width)), y: top + 2, w: ctx.measureText(text).width, h: BURST_LINE - 2 };
    while (placed.some((p) => box.x < p.x + p.w + 6 && p.x < box.x + box.w + 6 && box.y < p.y + p.h && p.y < box.y + box.h)) box.y += BURST_LINE;
    placed.push(box);
    ctx.fillText(text, box.x, box.y);
    info.bursts.push({ t0: bu.t0, t1: bu.t1, bytes: bu.bytes, x0, label: box });
  }
  // GC collections
  ctx.fillStyle = palette.gc; ctx.strokeStyle = palette.gc;
  let visibleGc = 0;
  for (const g of memData.gc) if (g.t_ns >= a && g.t_ns <= b) visibleGc++;
  const gcLines = visibleGc <= pw / 12;      // guide lines only while they stay sparse
  for (const g of memData.gc) {
    if (g.t_ns < a || g.t_ns > b) continue;
    const x = Math.round(X(g.t_ns)) + 0.5;
    if (gcLines) { ctx.globalAlpha = palette.dark ? 0.3 : 0.22; ctx.lineWidth = 1; ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke(); ctx.globalAlpha = 1; }
    ctx.beginPath(); ctx.moveTo(x - 4, bottom); ctx.lineTo(x + 4, bottom); ctx.lineTo(x, bottom - 7); ctx.closePath(); ctx.fill();
    info.gcMarks++;
  }
  if (mc.hoverX >= 0) { ctx.strokeStyle = palette.text; ctx.globalAlpha = 0.5; ctx.lineWidth = 1; ctx.beginPath(); ctx.moveTo(mc.hoverX + 0.5, top); ctx.lineTo(mc.hoverX + 0.5, bottom); ctx.stroke(); ctx.globalAlpha = 1; }
  ctx.restore();
  if (!memData.n || !visible.length) {
    ctx.fillStyle = palette.muted; ctx.font = '13px ' + FONT; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    ctx.fillText(!memData.n ? 'No memory samples in this capture' : 'No series selected', PL + pw / 2, (top + bottom) / 2);
    ctx.textAlign = 'left';
  }
  STATS.memDrawMs = performance.now() - t0;
}

function memHover(e) {
  if (!memData.n) return;
  const r = mc.canvas.getBoundingClientRect();
  const x = e.clientX - r.left, W = r.width, pw = W - PL - PR;
  if (x < PL || x > W - PR) { hideTip(); mc.hoverX = -1; schedule('mem'); return; }
  const [a, b] = view();
  const t = a + (x - PL) / pw * (b - a);
  let i = lowerBound(memData.t, t, 0, memData.n);
  if (i >= memData.n || (i > 0 && t - memData.t[i - 1] < memData.t[i] - t)) i--;
  if (i < 0) return;
  mc.hoverX = PL + (memData.t[i] - a) / (b - a) * pw;
  schedule('mem');
  const rows = [];
  for (const sd of SERIES) {
    if (!seriesAvail(sd)) { rows.push([sd.label, 'unavailable']); continue; }
    const v = seriesData(sd)[i];
    rows.push([sd.label, isNaN(v) ? 'not sampled' : fmtBytes(v)]);
  }
  if (SERIES[0].src !== 'rss' && memData.avail.rss) rows.push(['RSS (process)', isNaN(memData.s.rss[i]) ? 'not sampled' : fmtBytes(memData.s.rss[i])]);
  if (memData.avail.gc_allocated) rows.push(['GC allocated', fmtBytes(memData.s.gc_allocated[i])]);
  if (memData.avail.gc_collections) rows.push(['GC collections', fmtCount(memData.s.gc_collections[i])]);
  if (memData.avail.alloc_bytes) {
    const c = memData.s.alloc_bytes;
    rows.push(['Heap allocated', fmtBytes(c[i]) + (i > 0 && !isNaN(c[i - 1]) ? ' (+' + fmtBytes(c[i] - c[i - 1]) + ' since the sample before)' : '')]);
  }
  const near = memData.gc.find((g) => Math.abs(PL + (g.t_ns - a) / (b - a) * pw - x) < 5);
  if (near) rows.push(['GC', 'collection' + (isNum(near.collections) ? ' #' + fmtCount(near.collections) : '') + ' at ' + fmtNs(near.t_ns)]);
  const w = profileDoc.run.window || {};
  let note = null;
  if (isNum(w.start_ns) && (memData.t[i] < w.start_ns || memData.t[i] > w.end_ns)) note = 'Outside the capture window';
  const pf = partialFrom();
  if (pf != null && memData.t[i] >= pf) note = (note ? note + ' \u00b7 ' : '') + 'timeline incomplete here';
  showTip(e.clientX, e.clientY, 'at ' + fmtNs(memData.t[i]), note, rows, 'Drag to zoom \u00b7 double-click resets');
}
