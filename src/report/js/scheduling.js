// @ts-check
/* scheduling: redraws batched per animation frame */

const dirty = new Set();
let clickAt = 0, clickNode = -1;
let rafPending = false;
let drawnWidth = -1;     // #xl-app's width when every view was last drawn (redrawAll)
let allDirty = false;
let whenDrawn = null;    // called once, after the first frame that drew (start.js)
function schedule(what) {
  dirty.add(what);
  if (rafPending) return;
  rafPending = true;
  requestAnimationFrame(flush);
}
function flush() {
  rafPending = false;
  const d = Array.from(dirty); dirty.clear();
  const app = $('xl-app');
  if (allDirty && app) drawnWidth = app.clientWidth;
  allDirty = false;
  for (const w of d) {
    try {
      if (w === 'flame') {
        drawFlame();
        // click-to-focused-frame latency, for the tests' timing report
        if (clickAt && ui.focus === clickNode) { STATS.clickToDrawMs = performance.now() - clickAt; clickAt = 0; }
      }
      else if (w === 'mem') drawMem();
      else if (w === 'tl' && timelineData) drawTimeline();
    } catch (err) { reportError(err); }
  }
  XL.frame = (XL.frame || 0) + 1;
  if (!STATS.startup.drawn) STATS.startup.drawn = performance.now();
  if (whenDrawn) { const f = whenDrawn; whenDrawn = null; f(); }
}
function reportError(err) {
  XL.error = String(err && err.stack || err);
  if (window.console) console.error('exaloop report:', err);
}
function redrawAll() { allDirty = true; schedule('flame'); schedule('mem'); schedule('tl'); }
