// @ts-check
/* test hook: window.__xl, read by tests/browser (read-only views of the state) */

function installHook() {
  const hook = {
    get ready() { return XL.ready; },
    get error() { return XL.error; },
    get lastCopied() { return XL.lastCopied; },
    get frame() { return XL.frame || 0; },
    /* Frames drawn in the flame graph, in viewport (client) CSS pixels. */
    frames() {
      if (!fg || !fg.rows) return [];
      const r = fg.canvas.getBoundingClientRect();
      const out = [];
      fg.rows.forEach((list, row) => {
        if (!list) return;
        for (let i = 0; i < list.length; i += 3) {
          const v = list[i + 2], f = flameView.func[v];
          out.push({ name: vName(v), short: vShort(v), label: fg.labels.get(v) || '', func: f, thread: f < 0 ? flameView.thr[v] : null, depth: row, node: v,
            x: r.left + list[i], y: r.top + row * ROW - fg.top, w: list[i + 1], h: ROW - 1,
            total_ns: flameView.total[v], self_ns: flameView.self[v], calls: flameView.calls[v],
            peak: flameView.hasPeak && flameView.peakPaths[v] > 0 ? flameView.peak[v] : null, peakPaths: flameView.hasPeak ? flameView.peakPaths[v] : 0,
            sampled: vSam(v) >= 0, focused: v === ui.focus, matched: !!(ui.matchFunc && f >= 0 && ui.matchFunc[f]), selected: f >= 0 && f === ui.selFunc });
        }
      });
      return out;
    },
    state() {
      return {
        thread: ui.thread, process: ui.process, inverted: ui.inverted, mergeRecursion: ui.rec, metric: ui.metric, flameTotal: flameView ? flameView.total[0] : 0,
        focus: flameView ? [0].concat(vPath(ui.focus)).map(vName) : [], focusHash: location.hash,
        search: ui.search, matchedFrames: ui.matchFrames, matchedShare: flameView && flameView.total[0] > 0 ? ui.matchTotal / flameView.total[0] : 0, matchedNs: ui.matchTotal,
        selectedFunc: ui.selFunc, selectedName: ui.selFunc >= 0 ? funcName(ui.selFunc) : null, selectedShort: ui.selFunc >= 0 ? funcShort(ui.selFunc) : null,
        sort: { key: ui.sortKey, dir: ui.sortDir > 0 ? 'asc' : 'desc' }, timeView: ui.timeView ? ui.timeView.slice() : null,
        highlightedWarning: activeWarn(), timeAxisEnd: tEnd,
      };
    },
    memory() { return JSON.parse(JSON.stringify(memInfo)); },
    timeline() { return timelineData ? JSON.parse(JSON.stringify(tlInfo)) : null; },
    stats() { return Object.assign({}, STATS); },
    /* The source view's rows (source.js): the selected function's lines. */
    source() { return JSON.parse(JSON.stringify(srcRows)); },
  };
  Object.defineProperty(window, '__xl', { value: Object.freeze(hook), writable: false, configurable: false });
}
