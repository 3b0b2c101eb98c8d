// @ts-check
/* exaloop diff page: reads the "exaloop.diff/1" document from #xd-data and draws the run totals,
 * a differential flame graph (NEW's calling-context tree, each frame coloured by its change in total
 * time), the function table and both memory charts on one time axis.  Every name, path and number
 * from the captures is set as text (textContent / attribute values), never as markup, and names and
 * paths go through disp() as in the report.  It follows the report's js/helpers.js (diff.js.list):
 * el, disp and the number formats are the report's; its own names stay inside this function. */
(function () {
  const app = document.getElementById('xd-app');
  let doc;
  try {
    doc = JSON.parse(document.getElementById('xd-data').textContent);
  } catch (e) {
    doc = null;
  }
  /* An element with a class and text (helpers.js elc() with the two props this page uses). */
  const elc = (tag, cls, text) => el(tag, { class: cls, text: text == null ? null : String(text) });
  const SVG = 'http://www.w3.org/2000/svg';
  const svgEl = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, String(attrs[k]));
    return e;
  };
  app.textContent = '';
  if (!doc || typeof doc !== 'object' || doc.schema !== 'exaloop.diff/1') {
    app.appendChild(elc('p', null, 'This page holds no exaloop diff (expected schema exaloop.diff/1).'));
    return;
  }

  /* ---------------------------------------------------------------- formatting */
  const NONE = '\u2014';
  const num = (v) => (isNum(v) ? v : null);
  const dur = fmtNs, size = fmtBytes;
  /* Tree calls are means over runs: one decimal, unlike the report's whole counts. */
  const count = (v) => (isNum(v) ? (Math.round(v * 10) / 10).toLocaleString('en-US') : NONE);
  const signed = (s, v) => (v > 0 ? '+' : v < 0 ? '−' : '') + s;
  function pctText(x) {
    const p = x ? num(x.change_pct) : null;
    return p === null ? NONE : signed(Math.abs(p).toFixed(1) + ' %', p);
  }
  const dirClass = (v) => (v > 0 ? 'xd-up' : v < 0 ? 'xd-down' : '');

  /* ---------------------------------------------------------------- header + totals */
  const sides = ['base', 'new'];
  const head = elc('div', 'xd-card');
  head.appendChild(elc('h1', null, 'exaloop diff'));
  for (const s of sides) {
    const info = doc[s] || {};
    const p = elc('div');
    p.appendChild(elc('strong', null, s === 'base' ? 'Base: ' : 'New: '));
    p.appendChild(elc('span', null, disp(info.program || '?')));
    const caps = Array.isArray(info.captures) ? info.captures : [];
    const runs = num(info.runs) || caps.length;
    p.appendChild(elc('span', 'xd-muted', ' — ' + disp(caps[0] || '') + (runs > 1 ? ' (' + runs + ' runs, medians)' : '')));
    head.appendChild(p);
    // what each capture's figures lack (capture-quality warnings), as text
    for (const x of Array.isArray(info.warnings) ? info.warnings : []) {
      head.appendChild(elc('p', 'xd-note xd-warn', (s === 'base' ? 'Base' : 'New') + ' capture ' + disp(String(x.capture || '')) + ': ' + disp(String(x.message || ''))));
    }
  }
  head.appendChild(elc('p', 'xd-note xd-muted', doc.normalized
    ? 'Times normalized: base scaled by ' + Number(doc.scale).toFixed(3) + ' to new\u2019s thread time, so changes are of shares of the run.'
    : 'Times absolute (profile diff --normalize compares shares of the run instead).'));
  const tt = elc('table', 'xd-totals');
  const hr = elc('tr');
  for (const h of ['', 'base', 'new', 'change']) hr.appendChild(elc('th', null, h));
  tt.appendChild(hr);
  const totals = doc.totals || {};
  /** @type {[string, string, (v: any) => string][]} */
  const rows = [['wall time', 'wall_ns', dur], ['thread time', 'thread_ns', dur], ['peak RSS', 'peak_rss', size], ['GC collections', 'gc_collections', count]];
  for (const [label, key, fmt] of rows) {
    const x = totals[key] || {};
    const tr = elc('tr');
    tr.appendChild(elc('td', null, label));
    tr.appendChild(elc('td', null, fmt(x.base)));
    tr.appendChild(elc('td', null, fmt(x.new)));
    const c = elc('td', dirClass(num(x.change)), pctText(x));
    tr.appendChild(c);
    for (const s of sides) {
      const r = x[s + '_range'];
      if (Array.isArray(r)) tr.appendChild(elc('td', 'xd-muted', s + ' runs ' + fmt(r[0]) + ' .. ' + fmt(r[1])));
    }
    tt.appendChild(tr);
  }
  head.appendChild(tt);
  app.appendChild(head);

  /* ---------------------------------------------------------------- flame graph */
  const funcs = Array.isArray(doc.functions) ? doc.functions : [];
  const tree = doc.tree || {};
  const parent = Array.isArray(tree.parent) ? tree.parent : [];
  const nn = parent.length;
  const col = (k) => (Array.isArray(tree[k]) ? tree[k] : []);
  const tb = col('total_base_ns'), tn = col('total_new_ns'), cb = col('calls_base'), cn = col('calls_new'), fidx = col('func');
  const children = Array.from({ length: nn }, () => []);
  for (let i = 0; i < nn; i++) {
    const p = parent[i];
    if (Number.isInteger(p) && p >= 0 && p < i) children[p].push(i);
  }
  /* A function's full name (hover) and the short form frames and rows show (docs/cli.md, Function names). */
  const fullName = (fn) => (fn && typeof fn.name === 'string' ? fn.name : '?');
  const shortName = (fn) => (fn && typeof fn.short_name === 'string' && fn.short_name !== '' ? fn.short_name : fullName(fn));
  const nameOf = (i) => (i === 0 ? 'all threads' : disp(shortName(funcs[fidx[i]])));
  const fullOf = (i) => (i === 0 ? 'all threads' : disp(fullName(funcs[fidx[i]]), 6000));

  /* Red: slower, blue: faster; saturation grows with the change relative to the larger side. */
  function frameColour(base, now) {
    const d = now - base, m = Math.max(base, now);
    const r = m > 0 ? Math.min(1, Math.abs(d) / m) : 0;
    if (r < 0.01) return 'hsl(220, 6%, 82%)';
    const sat = 25 + Math.round(65 * Math.sqrt(r));
    const light = 80 - Math.round(28 * Math.sqrt(r));
    return d > 0 ? 'hsl(4, ' + sat + '%, ' + light + '%)' : 'hsl(218, ' + sat + '%, ' + light + '%)';
  }

  const fcard = elc('div', 'xd-card');
  fcard.appendChild(elc('h2', null, 'Differential flame graph'));
  const legend = elc('div', 'xd-legend');
  const sw = (cls, text) => { const s = elc('span'); s.appendChild(elc('span', 'xd-swatch ' + cls)); s.appendChild(document.createTextNode(text)); return s; };
  legend.appendChild(sw('xd-sw-up', 'slower (more total time in new)'));
  legend.appendChild(sw('xd-sw-down', 'faster'));
  legend.appendChild(sw('xd-sw-same', 'within 1 %'));
  legend.appendChild(elc('span', 'xd-muted', 'Width: total time in new. Click a frame to zoom.'));
  const reset = elc('button', null, 'Show all');
  legend.appendChild(reset);
  fcard.appendChild(legend);
  const flame = elc('div', 'xd-flame');
  fcard.appendChild(flame);
  const tip = elc('div', 'xd-tip');
  tip.hidden = true;
  document.body.appendChild(tip);
  app.appendChild(fcard);

  const ROW = 18, MAX_FRAMES = 6000;
  let focus = 0;
  function tipFor(i) {
    tip.textContent = '';
    tip.appendChild(elc('div', 'xd-name', nameOf(i)));
    if (fullOf(i) !== nameOf(i)) tip.appendChild(elc('div', 'xd-full', fullOf(i)));
    const d = (tn[i] || 0) - (tb[i] || 0);
    const rel = tb[i] > 0 ? ' (' + signed(Math.abs(100 * d / tb[i]).toFixed(1) + ' %', d) + ')' : tb[i] ? '' : ' (only in new)';
    tip.appendChild(elc('div', null, 'total: base ' + dur(tb[i]) + ' → new ' + dur(tn[i]) + ', ' + signed(dur(Math.abs(d)), d) + rel));
    tip.appendChild(elc('div', 'xd-muted', 'calls: base ' + count(cb[i]) + ' → new ' + count(cn[i])));
  }
  function drawFlame() {
    flame.textContent = '';
    const width = flame.clientWidth || 1200;
    let frames = 0, depthMax = 0;
    // the focused node's ancestors are drawn full width above it
    const chain = [];
    for (let a = focus; a >= 0 && chain.length < 4096; a = parent[a]) chain.unshift(a);
    const stack = [];
    chain.forEach((a, k) => { if (a !== focus) stack.push([a, 0, width, k, true]); });
    stack.push([focus, 0, width, chain.length - 1, false]);
    while (stack.length && frames < MAX_FRAMES) {
      const [i, x, w, depth, ancestor] = stack.pop();
      const f = elc('div', 'xd-frame');
      append(f, nameSpans(nameOf(i)));
      f.style.left = x + 'px';
      f.style.width = Math.max(w, 1) + 'px';
      f.style.top = depth * ROW + 'px';
      f.style.background = frameColour(tb[i] || 0, tn[i] || 0);
      f.dataset.node = String(i);
      f.dataset.change = String((tn[i] || 0) - (tb[i] || 0));
      flame.appendChild(f);
      frames++;
      depthMax = Math.max(depthMax, depth);
      if (ancestor) continue;
      let cx = x;
      for (const c of children[i].slice().sort((a, b) => (tn[b] || 0) - (tn[a] || 0))) {
        const cw = w * (tn[c] || 0) / Math.max(tn[i] || 0, 1);
        if (cw >= 0.5) stack.push([c, cx, cw, depth + 1, false]);
        cx += cw;
      }
    }
    flame.style.height = (depthMax + 1) * ROW + 4 + 'px';
  }
  flame.addEventListener('mousemove', (ev) => {
    const f = ev.target.closest('.xd-frame');
    if (!f) { tip.hidden = true; return; }
    tipFor(+f.dataset.node);
    tip.hidden = false;
    tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - 540) + 'px';
    tip.style.top = ev.clientY + 14 + 'px';
  });
  flame.addEventListener('mouseleave', () => { tip.hidden = true; });
  flame.addEventListener('click', (ev) => {
    const f = ev.target.closest('.xd-frame');
    if (f) { focus = +f.dataset.node; drawFlame(); }
  });
  reset.addEventListener('click', () => { focus = 0; drawFlame(); });

  /* ---------------------------------------------------------------- function table */
  const tcard = elc('div', 'xd-card');
  tcard.appendChild(elc('h2', null, 'Functions by change in ' + (doc.sort || 'self') + (doc.sort === 'calls' ? '' : ' time')));
  const noise = (doc.base && doc.base.runs > 1) && (doc.new && doc.new.runs > 1);
  tcard.appendChild(elc('p', 'xd-muted xd-note', noise
    ? 'Several runs per side: values are medians; greyed rows changed less than the runs\u2019 spread (not significant).'
    : 'One run per side: no spread to judge noise by.'));
  const wrap = elc('div', 'xd-table-wrap');
  const table = elc('table', 'xd-table');
  const v = (f, k, s) => (f[k] ? num(f[k][s]) : null);
  /** @type {[string, (f: any) => any, ((v: any) => string) | null][]} */
  const cols = [
    ['function', (f) => shortName(f), null],
    ['self base', (f) => v(f, 'self_ns', 'base'), dur],
    ['self new', (f) => v(f, 'self_ns', 'new'), dur],
    ['Δ self', (f) => v(f, 'self_ns', 'change'), (x) => (x === null ? NONE : signed(dur(Math.abs(x)), x))],
    ['Δ self %', (f) => v(f, 'self_ns', 'change_pct'), null],
    ['total base', (f) => v(f, 'total_ns', 'base'), dur],
    ['total new', (f) => v(f, 'total_ns', 'new'), dur],
    ['Δ total %', (f) => v(f, 'total_ns', 'change_pct'), null],
    ['calls base', (f) => v(f, 'calls', 'base'), count],
    ['calls new', (f) => v(f, 'calls', 'new'), count],
  ];
  const thead = elc('tr');
  cols.forEach(([h], k) => {
    const th = elc('th', k === 0 ? 'xd-name' : null, h);
    th.dataset.col = String(k);
    thead.appendChild(th);
  });
  table.appendChild(thead);
  const tbody = elc('tbody');
  table.appendChild(tbody);
  wrap.appendChild(table);
  tcard.appendChild(wrap);
  const more = elc('button', null, '');
  tcard.appendChild(more);
  app.appendChild(tcard);
  let order = funcs.map((_, i) => i);
  let limit = num(doc.top) || 200;
  function pctCell(f, key) {
    const x = f[key] || {};
    if (f.status === 'new_only') return ['only in new', 'xd-up'];
    if (f.status === 'base_only') return ['only in base', 'xd-down'];
    return [pctText(x), dirClass(num(x.change))];
  }
  function drawTable() {
    tbody.textContent = '';
    for (const i of order.slice(0, limit)) {
      const f = funcs[i] || {};
      const tr = elc('tr', f.significant === false ? 'xd-insig' : null);
      tr.dataset.status = String(f.status);
      cols.forEach(([h, get, fmt], k) => {
        let td;
        if (k === 0) {
          td = elc('td', 'xd-name', disp(shortName(f)));
          td.title = disp(fullName(f), 6000) + (f.file ? '\n' + disp(f.file) + ':' + f.line : '');
          if (f.status !== 'both') td.appendChild(elc('span', 'xd-badge', f.status === 'new_only' ? 'only in new' : 'only in base'));
        } else if (h === 'Δ self %') {
          const [t, c] = pctCell(f, 'self_ns');
          td = elc('td', c, t);
          if (f.significant === false) td.title = 'within the runs\u2019 spread: not significant';
        } else if (h === 'Δ total %') {
          const [t, c] = pctCell(f, 'total_ns');
          td = elc('td', c, t);
        } else {
          const x = get(f);
          td = elc('td', k === 3 ? dirClass(x) : null, fmt(x));
        }
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    }
    more.hidden = order.length <= limit;
    more.textContent = 'Show all ' + order.length + ' functions';
  }
  more.addEventListener('click', () => { limit = order.length; drawTable(); });
  let sortCol = -1, sortDir = 1;
  thead.addEventListener('click', (ev) => {
    const th = ev.target.closest('th');
    if (!th) return;
    const k = +th.dataset.col;
    sortDir = sortCol === k ? -sortDir : (k === 0 ? 1 : -1);
    sortCol = k;
    const get = k === 4 ? (f) => v(f, 'self_ns', 'change_pct') : k === 7 ? (f) => v(f, 'total_ns', 'change_pct') : cols[k][1];
    order = funcs.map((_, i) => i).sort((a, b) => {
      const x = get(funcs[a] || {}), y = get(funcs[b] || {});
      if (k === 0) return sortDir * String(x).localeCompare(String(y));
      const ax = x === null ? -Infinity : (k === 3 ? Math.abs(x) : x), ay = y === null ? -Infinity : (k === 3 ? Math.abs(y) : y);
      return sortDir * (ax - ay) || a - b;
    });
    drawTable();
  });

  /* ---------------------------------------------------------------- memory */
  const mcard = elc('div', 'xd-card');
  mcard.appendChild(elc('h2', null, 'Memory (first run of each side, one time axis)'));
  const mem = doc.memory || {};
  const series = [];
  for (const s of sides) {
    const m = mem[s] || {};
    const t = Array.isArray(m.t_ns) ? m.t_ns : [];
    for (const [key, dash] of /** @type {[string, boolean][]} */ ([['rss', false], ['gc_occupied', true]])) {
      const ys = Array.isArray(m[key]) ? m[key] : [];
      const pts = [];
      for (let i = 0; i < t.length && i < ys.length; i++) if (num(t[i]) !== null && num(ys[i]) !== null) pts.push([t[i], ys[i]]);
      if (pts.length) series.push({ side: s, key, dash, pts });
    }
  }
  const mlegend = elc('div', 'xd-legend');
  mlegend.appendChild(sw('xd-sw-base', 'base'));
  mlegend.appendChild(sw('xd-sw-new', 'new'));
  mlegend.appendChild(elc('span', 'xd-muted', 'solid: RSS; dashed: GC occupied estimate'));
  for (const s of sides) {
    const p = (mem[s] || {}).peak_rss;
    mlegend.appendChild(elc('span', null, s + ' peak RSS ' + size(p)));
  }
  mcard.appendChild(mlegend);
  if (!series.length) {
    mcard.appendChild(elc('p', 'xd-muted', 'No memory samples on either side (xray mode, or the windows never opened).'));
  } else {
    const W = 1000, H = 240, L = 70, B = 24, T = 8, R = 10;
    let tmax = 1, ymax = 1;
    for (const s of series) for (const [t, y] of s.pts) { tmax = Math.max(tmax, t); ymax = Math.max(ymax, y); }
    const svg = svgEl('svg', { class: 'xd-mem', viewBox: '0 0 ' + W + ' ' + H, preserveAspectRatio: 'none', role: 'img' });
    const X = (t) => L + (W - L - R) * t / tmax, Y = (y) => H - B - (H - B - T) * y / ymax;
    for (let k = 0; k <= 4; k++) {
      const y = ymax * k / 4;
      svg.appendChild(svgEl('line', { class: 'xd-gridline', x1: L, x2: W - R, y1: Y(y), y2: Y(y) }));
      const lab = svgEl('text', { class: 'xd-tick', x: L - 6, y: Y(y) + 3, 'text-anchor': 'end' });
      lab.textContent = size(y);
      svg.appendChild(lab);
      const tx = tmax * k / 4;
      const tl = svgEl('text', { class: 'xd-tick', x: X(tx), y: H - 8, 'text-anchor': k ? (k === 4 ? 'end' : 'middle') : 'start' });
      tl.textContent = dur(tx);
      svg.appendChild(tl);
    }
    svg.appendChild(svgEl('line', { class: 'xd-axis', x1: L, x2: W - R, y1: H - B, y2: H - B }));
    for (const s of series) {
      const line = svgEl('polyline', {
        class: 'xd-line-' + s.side + (s.dash ? ' xd-dash' : ''),
        points: s.pts.map(([t, y]) => X(t).toFixed(1) + ',' + Y(y).toFixed(1)).join(' '),
        'vector-effect': 'non-scaling-stroke',
      });
      line.dataset.side = s.side;
      line.dataset.series = s.key;
      svg.appendChild(line);
    }
    mcard.appendChild(svg);
  }
  app.appendChild(mcard);

  drawTable();
  drawFlame();
  let resizeTimer = 0;
  window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(drawFlame, 100); });
})();
