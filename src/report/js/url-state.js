// @ts-check
/* URL fragment state: thread, process, inversion, recursion and focus in location.hash */

function readHash() {
  const p = new URLSearchParams(location.hash.replace(/^#/, ''));
  /** @type {string | number} */
  let thread = 'all';
  const th = p.get('thread');
  if (th === 'split') thread = 'split';
  else if (th && /^\d+$/.test(th) && threadByIndex.has(+th)) thread = +th;
  /** @type {string | number} */
  let process = 'all';
  const pr = p.get('process');
  if (pr && /^\d+$/.test(pr) && procList.some((q) => q.pid === +pr)) process = +pr;
  const focus = (p.get('focus') || '').split('.').filter((k) => /^[ts]?\d{1,9}$/.test(k));
  const mt = p.get('metric');
  const metric = mt && ['bytes', 'allocs', 'live'].indexOf(mt) >= 0 && hasAllocs() ? mt : 'time';
  return { thread, process, inverted: p.get('inv') === '1', rec: p.get('rec') === '1', metric, focus };
}
/* In a time window the width is elapsed time, but the address keeps the whole run's metric, which
 * Back to the whole run draws again (window.js). */
function navState() { return { thread: ui.thread, process: ui.process, inverted: ui.inverted, rec: ui.rec, metric: winView ? wholeMetric : ui.metric, focus: flameView ? vPath(ui.focus).map(vKey) : [] }; }
function writeHash(st) {
  const p = ['thread=' + st.thread];
  if (st.process !== 'all') p.push('process=' + st.process);
  if (st.metric && st.metric !== 'time') p.push('metric=' + st.metric);
  if (st.inverted) p.push('inv=1');
  if (st.rec) p.push('rec=1');
  if (st.focus.length) p.push('focus=' + st.focus.join('.'));
  return '#' + p.join('&');
}
function navigate(changes) {
  const st = Object.assign(navState(), changes);
  const h = writeHash(st);
  if (h === location.hash) return;
  // a history entry (Back returns to the state before), applied now: hashchange would come a task
  // later, often after another frame; and pushState, unlike setting location.hash, does not lay
  // the page out at once to look for an element of that id
  history.pushState(null, '', h);
  applyHash();
}
let appliedHash = null;        // the fragment the views show
/* popstate and hashchange: Back, Forward, a fragment typed or opened (each fires both); the
 * fragment navigate() applied already is not applied again. */
function onHashChange() { if (location.hash !== appliedHash) applyHash(); }
function applyHash() {
  if (!callTree) return;
  appliedHash = location.hash;
  const h = readHash();
  const procChanged = h.process !== ui.process;
  const rebuild = !flameView || procChanged || h.thread !== ui.thread || h.inverted !== ui.inverted || h.rec !== ui.rec || h.metric !== ui.metric;
  const threadChanged = h.thread !== ui.thread || procChanged;
  ui.thread = h.thread; ui.process = h.process; ui.inverted = h.inverted; ui.rec = h.rec;
  if (h.metric !== ui.metric) setMetric(h.metric);
  if (rebuild) buildView();
  ui.focus = resolveFocus(h.focus);
  ui.hover = -1;
  syncControls();
  if (rebuild) computeMatches();   // the matches depend on the view's tree, not on its focus
  renderCrumbs();
  if (threadChanged || !tableRows) { buildTableRows(); renderDetail(); }
  scrollFlameTop();
  schedule('flame');
  if (procChanged) schedule('tl');
}
