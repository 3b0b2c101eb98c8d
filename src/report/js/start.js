// @ts-check
/* start: build the page and install the listeners */

function start() {
  const ph = STATS.startup;   // when each step of the start ended (ms since navigation), for tests/browser
  ph.script = performance.now();
  installHook();
  readTheme();
  if (!load()) return;
  ph.load = performance.now();
  buildPage();
  ph.page = performance.now();
  if (callTree) {
    renderDetail();
    applyHash();
    window.addEventListener('hashchange', onHashChange);
    window.addEventListener('popstate', onHashChange);
  }
  ph.views = performance.now();
  document.addEventListener('keydown', onKey);
  // the observer's first call comes after the first frame, which drew at that width already
  const ro = new ResizeObserver(() => { if ($('xl-app').clientWidth !== drawnWidth) redrawAll(); });
  ro.observe($('xl-app'));
  window.addEventListener('resize', () => redrawAll());
  if (window.matchMedia) {
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const onTheme = () => { readTheme(); if (callTree) renderTable(); renderDetail(); redrawAll(); };
    if (mq.addEventListener) mq.addEventListener('change', onTheme);
  }
  redrawAll();
  // ready once the first frame has drawn every view (flush, scheduling.js); the table's rows are
  // measured in the frame after it (table.js)
  whenDrawn = () => { XL.ready = true; document.documentElement.dataset.xlReady = '1'; requestAnimationFrame(measureTableRows); };
}

window.addEventListener('error', (e) => reportError(e.error || e.message));
try { start(); } catch (err) { reportError(err); fatal('The report failed to start: ' + (err && err.message)); }
