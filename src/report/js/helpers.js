// @ts-check
/* exaloop HTML report viewer.
 * Reads the exaloop.profile/1 document embedded in #xl-data and draws the run summary, the
 * elapsed-time flame graph, the function table, the memory chart and the timeline.
 * Rule: every string that comes from the capture (names, paths, arguments, messages) is
 * rendered as text (textContent, attribute values, canvas fillText), never parsed as markup. */

const $ = (id) => document.getElementById(id);
/* The same, for form controls whose value, checked, disabled or options the code reads or sets. */
/** @param {string} id @returns {HTMLInputElement | null} */
const $input = (id) => /** @type {HTMLInputElement | null} */ ($(id));
/** @param {string} id @returns {HTMLSelectElement | null} */
const $select = (id) => /** @type {HTMLSelectElement | null} */ ($(id));
/** @param {string} id @returns {HTMLButtonElement | null} */
const $button = (id) => /** @type {HTMLButtonElement | null} */ ($(id));
/* Elements matching a selector, as HTML elements (dataset, offsetHeight). */
/** @param {ParentNode} root @param {string} sel @returns {NodeListOf<HTMLElement>} */
const $all = (root, sel) => root.querySelectorAll(sel);

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

/* Where the scopes of a (short) C++ name end: the index after each "::" outside brackets, in
 * order; an operator's own characters ("operator<", "operator<<", "operator()") are no brackets.
 * The part after the last is the function's own name, which a narrow place keeps in sight. */
function scopeCuts(text) {
  const cuts = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const op = /^operator(?![\w$])\s*(\(\)|\[\]|[<>=!+\-*\/%^&|~,]+)?/.exec(text.slice(i, i + 12));
    if (op && (i === 0 || !/[\w$]/.test(text[i - 1]))) { i += op[0].length - 1; continue; }
    const c = text[i];
    if (c === '<' || c === '(' || c === '[' || c === '{') depth++;
    else if ((c === '>' || c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (c === ':' && text[i + 1] === ':' && depth === 0) { cuts.push(i + 2); i++; }
  }
  return cuts;
}

/* A name as two spans, its scope and its own part ("::destroy"), so that CSS can shorten the
 * scope first (.xl-fn-scope / .xl-fn-own); text goes through disp(). */
function nameSpans(text, max) {
  const cuts = scopeCuts(text), at = cuts.length ? cuts[cuts.length - 1] - 2 : 0;
  return [el('span', { class: 'xl-fn-scope', text: disp(text.slice(0, at), max) }), el('span', { class: 'xl-fn-own', text: disp(text.slice(at), max) })];
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
/* A whole number with thousands separators, as toLocaleString('en-US') writes it; done by hand,
 * since the first toLocaleString of a page costs tens of milliseconds (ICU's number formats). */
function fmtCount(n) {
  if (!isNum(n)) return '\u2014';
  const r = Math.round(n), a = String(Math.abs(r));
  if (!/^\d+$/.test(a)) return r.toLocaleString('en-US');   // 1e21 and up
  let out = a.length > 3 ? a.slice(0, a.length % 3 || 3) : a;
  for (let i = out.length; i < a.length; i += 3) out += ',' + a.slice(i, i + 3);
  return (r < 0 ? '-' : '') + out;
}
/* The unit is chosen after rounding to three significant digits, so that 999.6 us reads
 * "1.00 ms", never "1000 us", and 179.7 s "3 min 0 s", never "2 min 60 s". */
function fmtNs(ns) {
  if (!isNum(ns)) return '\u2014';
  const a = Math.abs(ns);
  if (ns === 0) return '0';
  if (Math.round(a) < 1e3) return Math.round(ns) + ' ns';
  if (Number(sig3(a / 1e3)) < 1e3) return sig3(ns / 1e3) + ' \u00b5s';
  if (Number(sig3(a / 1e6)) < 1e3) return sig3(ns / 1e6) + ' ms';
  if (Number(sig3(a / 1e9)) < 120) return sig3(ns / 1e9) + ' s';
  const secs = Math.round(a / 1e9), m = Math.floor(secs / 60);
  return (ns < 0 ? '-' : '') + m + ' min ' + (secs - m * 60) + ' s';
}
const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
/* Whole bytes; a larger unit as soon as the rounded figure reaches 1024 (1048575 B: "1.00 MiB"). */
function fmtBytes(b) {
  if (!isNum(b)) return '\u2014';
  let a = Math.round(Math.abs(b)), u = 0;
  while (u < BYTE_UNITS.length - 1 && (u === 0 ? a : Number(sig3(a))) >= 1024) { a /= 1024; u++; }
  return (b < 0 && a !== 0 ? '-' : '') + (u === 0 ? String(a) : sig3(a)) + ' ' + BYTE_UNITS[u];
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
