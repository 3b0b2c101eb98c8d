// @ts-check
/* help + keys: keyboard shortcuts and the help overlay */

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
/** @type {HTMLElement | null} */
let helpReturn = null;   // focused before the help opened: focused again when it closes
function toggleHelp(force) {
  const h = $('xl-help');
  if (!h) return;
  const show = force === undefined ? h.hidden : force;
  if (show && h.hidden) helpReturn = /** @type {HTMLElement | null} */ (document.activeElement);
  const was = !h.hidden;
  h.hidden = !show;
  if (show) { const b = h.querySelector('button'); if (b) b.focus(); }
  else if (was && helpReturn && helpReturn.isConnected && typeof helpReturn.focus === 'function') helpReturn.focus();
  if (!show) helpReturn = null;
}

function threadOptions() { const s = $select('fg-thread'); return s ? Array.from(s.options).map((o) => o.value) : []; }

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
      if (t.id === 'fg-search') { t.value = ''; ui.search = ''; computeMatches(); schedule('flame'); }
      if (t.id === 'fn-filter') { t.value = ''; ui.filter = ''; renderTable(); }
      t.blur(); return;
    }
    if (ui.search) { const s = $input('fg-search'); if (s) s.value = ''; ui.search = ''; computeMatches(); schedule('flame'); return; }
    if (flameView && ui.focus !== 0) { navigate({ focus: [] }); return; }
    if (ui.timeView) { setTimeView(null); return; }
    if (ui.selFunc >= 0) selectFunc(-1, false);
    return;
  }
  if (typing) return;
  const k = e.key;
  if (k === '?') { e.preventDefault(); toggleHelp(); return; }
  if (help && !help.hidden) {
    // a modal dialog: Tab stays on its one control
    if (k === 'Tab') { e.preventDefault(); const b = help.querySelector('button'); if (b) b.focus(); }
    return;
  }
  if (k === 'z') { setTimeView(null); return; }
  if (!callTree) return;
  if (k === '/') { e.preventDefault(); const s = $input('fg-search'); s.focus(); s.select(); return; }
  if (k === 'f') { e.preventDefault(); const s = $input('fn-filter'); s.focus(); s.select(); return; }
  if (k === 'i') { navigate({ inverted: !ui.inverted, focus: [] }); return; }
  if (k === 'r') { navigate({ rec: !ui.rec, focus: [] }); return; }
  if (k === 't' || k === 'T') {
    const opts = threadOptions();
    if (opts.length < 2) return;
    const i = opts.indexOf(String(ui.thread));
    const n = opts[(i + (k === 't' ? 1 : opts.length - 1)) % opts.length];
    navigate({ thread: n === 'all' || n === 'split' ? n : +n, focus: [] });
    return;
  }
  if (k === '0') { navigate({ focus: [] }); return; }
  if (k === 'u' || k === 'Backspace') { if (ui.focus > 0) { e.preventDefault(); navigate({ focus: vPath(flameView.parent[ui.focus]).map(vKey) }); } return; }
  if (k === 'c') {
    const v = ui.hover;
    if (v > 0 && flameView.func[v] >= 0) copyText(funcName(flameView.func[v]));
    else if (ui.selFunc >= 0) copyText(funcName(ui.selFunc));
    return;
  }
  if (k === 'j' || k === 'k') {
    if (!tableView.length) return;
    let i = tableView.findIndex((r) => r.f === ui.selFunc);
    i = i < 0 ? 0 : Math.max(0, Math.min(tableView.length - 1, i + (k === 'j' ? 1 : -1)));
    selectFunc(tableView[i].f, false);
    return;
  }
  if (k === 'Enter' && ui.selFunc >= 0 && !/^(BUTTON|A|SUMMARY|LI|TH|TR)$/.test(tag)) { zoomToFunc(ui.selFunc); }
}
