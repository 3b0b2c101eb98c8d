// @ts-check
/* source view: the selected function's lines by instruction samples (capture format 6), with the
 * source text the capture embeds ("sources", HTML only), hot lines highlighted and the inline
 * chain of each line (code inlined into the function counts at the line that called it). */

/** @typedef {{first: number, lines: string[]}} SrcRange */
/** @typedef {{line: number, samples: number, share: number, text: string | null, chains: {name: string, samples: number}[], hot: boolean, context: boolean}} SrcRow */
/** @type {Map<string, SrcRange[]> | null} */
let srcByFile = null;
/** @type {SrcRow[]} */
let srcRows = [];
const SRC_HOT = 0.05;     // a line with at least this share of the function's samples is hot

function sourceRanges() {
  if (srcByFile) return srcByFile;
  srcByFile = new Map();
  const src = Array.isArray(profileDoc.sources) ? profileDoc.sources : [];
  for (const r of src) {
    if (!r || typeof r.file !== 'string' || !isNum(r.first) || !Array.isArray(r.lines)) continue;
    let a = srcByFile.get(r.file);
    if (!a) { a = []; srcByFile.set(r.file, a); }
    a.push({ first: r.first, lines: r.lines });
  }
  return srcByFile;
}

/* Tabs to the next multiple of 8, so that the code keeps its indentation. */
function expandTabs(s) {
  let out = '', col = 0;
  for (const c of s) {
    if (c === '\t') { const n = 8 - (col % 8); out += ' '.repeat(n); col += n; } else { out += c; col++; }
  }
  return out;
}

/* The rows of function f: its sampled lines in line order, each embedded range around them in
 * full (the unsampled lines as context), then the samples with no line. */
function sourceRows(f) {
  const fn = funcs[f];
  const total = fn && isNum(fn.samples) ? fn.samples : 0;
  const lines = fn && Array.isArray(fn.lines) ? fn.lines.filter((l) => l && isNum(l.line) && isNum(l.samples)) : [];
  if (total <= 0 || !lines.length) return [];
  const by = new Map(lines.map((l) => [l.line, l]));
  const ranges = typeof fn.file === 'string' ? sourceRanges().get(fn.file) || [] : [];
  /** @type {Map<number, string>} */
  const text = new Map();
  for (const r of ranges) {
    const hit = lines.some((l) => l.line >= r.first && l.line < r.first + r.lines.length);
    if (hit) r.lines.forEach((t, k) => { if (typeof t === 'string') text.set(r.first + k, t); });
  }
  const nums = Array.from(new Set([...text.keys(), ...lines.filter((l) => l.line > 0).map((l) => l.line)])).sort((a, b) => a - b);
  if (by.has(0)) nums.push(0);
  return nums.map((n) => {
    const l = by.get(n);
    const samples = l ? l.samples : 0;
    const chains = l && Array.isArray(l.inlined) ? l.inlined.filter((c) => c && typeof c.name === 'string' && isNum(c.samples)) : [];
    return { line: n, samples, share: samples / total, text: text.has(n) ? text.get(n) : null, chains, hot: samples / total >= SRC_HOT, context: !l };
  });
}

function renderSource() {
  const box = $('fg-source');
  if (!box) return;
  box.textContent = '';
  const f = ui.selFunc;
  srcRows = f >= 0 && f < funcs.length ? sourceRows(f) : [];
  if (!srcRows.length) {
    const fn = f >= 0 ? funcs[f] : null;
    box.hidden = !fn || !isNum(fn.samples);   // resolved samples: say there are none for it
    if (!box.hidden) box.appendChild(el('p', { class: 'xl-muted', text: 'No instruction sample fell in this function\'s own code.' }));
    return;
  }
  box.hidden = false;
  const fn = funcs[f];
  const inl = Array.isArray(fn.inlined) ? fn.inlined.filter((c) => c && typeof c.name === 'string') : [];
  const anyText = srcRows.some((r) => r.text != null);
  box.appendChild(el('div', { class: 'xl-src-head' }, [
    el('strong', { text: 'Lines' }),
    el('span', { class: 'xl-muted', text: fmtCount(fn.samples) + ' instruction samples in its own code' + (inl.length ? ' \u00b7 inlined: ' + inl.slice(0, 4).map((c) => disp(c.name, 80) + ' ' + fmtPct(c.samples / fn.samples)).join(', ') : '') }),
    anyText ? null : el('span', { class: 'xl-muted', text: '(the capture holds no source text: captured with --no-source, or the report was written with it)' }),
  ]));
  const body = el('tbody', null, srcRows.map((r) => el('tr', {
    class: 'xl-src-row' + (r.hot ? ' xl-hot' : '') + (r.context ? ' xl-src-ctx' : ''),
    style: r.hot ? '--heat:' + Math.min(1, r.share * 2).toFixed(3) : null,
    dataset: { line: String(r.line) },
  }, [
    el('td', { class: 'num xl-mono', text: r.line > 0 ? String(r.line) : '?' }),
    el('td', { class: 'num', text: r.samples ? fmtCount(r.samples) : '' }),
    el('td', { class: 'num', text: r.samples ? fmtPct(r.share) : '' }),
    el('td', { class: 'xl-src-code xl-mono', text: r.line === 0 ? '(no line information: code the compiler made of several lines)' : r.text != null ? disp(expandTabs(r.text), 400) : '' }),
    el('td', { class: 'xl-src-inl', title: r.chains.map((c) => c.name + ': ' + fmtCount(c.samples)).join('\n') || null,
      text: r.chains.length ? 'inlined: ' + r.chains.map((c) => disp(c.name, 120)).join('; ') : '' }),
  ])));
  box.appendChild(el('div', { class: 'xl-src-wrap' }, el('table', { class: 'xl-src', id: 'fg-source-table' }, [
    el('thead', null, el('tr', null, [
      el('th', { class: 'num', text: 'Line', scope: 'col' }), el('th', { class: 'num', text: 'Samples', scope: 'col' }),
      el('th', { class: 'num', text: 'Share', scope: 'col' }), el('th', { text: 'Source', scope: 'col' }), el('th', { text: 'Inlined here', scope: 'col' })])),
    body])));
  box.appendChild(el('p', { class: 'xl-hint', text: 'Instruction samples of the function\'s own code by line (code inlined into it counts at the line that called it, with the inline chain beside it); lines with at least ' + fmtPct(SRC_HOT) + ' of them are highlighted. Samples are statistical: a share from N samples is good to about \u00b11/\u221aN.' }));
}
