// @ts-check
/* summary: run facts, totals and warnings */

function kv(k, v, cls) {
  return el('div', { class: 'xl-kv' + (cls ? ' ' + cls : '') }, [el('dt', { text: k }), el('dd', null, v)]);
}

function buildSummary() {
  const run = profileDoc.run, tot = profileDoc.totals, w = run.window || {};
  const sec = section('xl-summary', 'Run summary');
  if (profileDoc.schema && profileDoc.schema !== 'exaloop.profile/1') sec.appendChild(el('p', { class: 'xl-note', text: 'Note: this report was written for exaloop.profile/1; the data says ' + disp(profileDoc.schema, 80) + '.' }));
  const cmd = Array.isArray(run.command) ? run.command.map((a) => shellQuote(a)).join(' ') : '';
  let status, statusCls = 'ok';
  if (isNum(run.signal) && run.signal > 0) { status = 'killed by signal ' + run.signal + (SIGNALS[run.signal] ? ' (' + SIGNALS[run.signal] + ')' : ''); statusCls = 'bad'; }
  else if (isNum(run.exit_status)) { status = 'exit status ' + run.exit_status; statusCls = run.exit_status === 0 ? 'ok' : 'bad'; }
  else status = 'unknown';
  const modeText = { all: 'all \u2014 functions and memory', memory: 'memory only', xray: 'function tracing only' }[run.mode] || disp(run.mode || 'unknown');
  const chips = el('div', { class: 'xl-chips' }, [
    el('span', { class: 'xl-chip ' + statusCls, id: 'xl-status', text: status }),
    el('span', { class: 'xl-chip', text: 'mode: ' + modeText }),
    run.finalized === false ? el('span', { class: 'xl-chip bad', text: 'not finalized' }) : null,
    run.clock ? el('span', { class: 'xl-chip', text: 'clock: ' + disp(run.clock, 40) }) : null,
    run.timing === 'sampled' ? el('span', { class: 'xl-chip', title: 'Call counts exact; times estimated from position samples', text: 'timing: sampled' }) : null,
  ]);
  sec.appendChild(chips);

  const ct = run.compile_time_ns, at = run.app_time_ns;
  const timeBar = isNum(ct) && isNum(at) && ct + at > 0
    ? el('div', { class: 'xl-split', title: 'compile vs application time' }, [
      el('span', { class: 'xl-split-c', style: 'width:' + (100 * ct / (ct + at)).toFixed(2) + '%' }),
      el('span', { class: 'xl-split-a', style: 'width:' + (100 * at / (ct + at)).toFixed(2) + '%' })])
    : null;
  let winText = '\u2014';
  if (isNum(w.start_ns) && isNum(w.end_ns)) {
    const dur = isNum(w.duration_ns) ? w.duration_ns : w.end_ns - w.start_ns;
    winText = fmtNs(w.start_ns) + ' \u2013 ' + fmtNs(w.end_ns) + ' (' + fmtNs(dur) + (isNum(at) && at > 0 ? ', ' + fmtPct(dur / at) + ' of the run' : '') + ')';
  }
  const endReason = { exit: 'until the program exited', window: 'until the capture window closed', exec: 'until the process exec\'d another image', none: 'capture did not finish' }[run.end_reason];
  // which process (and image) this capture is, and the other captures of the run beside it
  const proc = run.process || null;
  let procText = '';
  if (proc && isNum(proc.pid) && proc.pid > 0) {
    procText = 'pid ' + proc.pid + (isNum(proc.ppid) && proc.ppid > 0 ? ', parent ' + proc.ppid : '');
    if (proc.forked_child) procText += ' \u2014 a forked child';
    if (isNum(proc.image) && proc.image > 0) procText += ' \u2014 image ' + proc.image + ' (started by exec)';
    const rel = Array.isArray(proc.related) ? proc.related : [];
    if (rel.length) procText += ' \u2014 other captures of this run: ' + rel.slice(0, 20).map((r) => disp(r.dir, 64) + (isNum(r.pid) ? ' (pid ' + r.pid + ')' : '')).join(', ') + (rel.length > 20 ? ', \u2026' : '');
  }
  const set = run.settings || {};
  const settingsBits = [];
  if (isNum(set.delay_ns) && set.delay_ns > 0) settingsBits.push('delay ' + fmtNs(set.delay_ns));
  if (isNum(set.duration_ns) && set.duration_ns > 0) settingsBits.push('duration ' + fmtNs(set.duration_ns));
  if (isNum(set.memory_interval_ns)) settingsBits.push('memory every ' + fmtNs(set.memory_interval_ns));
  if (isNum(set.buffer_size)) settingsBits.push('buffer ' + fmtBytes(set.buffer_size));
  if (Array.isArray(set.include) && set.include.length) settingsBits.push('include ' + set.include.map((s) => disp(s, 200)).join(', '));

  const dl = el('dl', { class: 'xl-kvs' }, [
    kv('Program', el('span', { class: 'xl-mono xl-wrap', id: 'xl-program', text: disp(run.program, 2000) })),
    kv('Command', el('code', { class: 'xl-mono xl-wrap xl-cmd', id: 'xl-command', text: disp(cmd, 8000) }), 'wide'),
    run.executable ? kv('Executable', el('span', { class: 'xl-mono xl-wrap', text: disp(run.executable, 2000) }), 'wide') : null,
    kv('Exit', el('span', { text: status })),
    procText ? kv('Process', el('span', { id: 'xl-process', text: procText }), 'wide') : null,
    kv('Started', el('span', { text: disp(run.started_at || '\u2014', 80) })),
    kv('Compile / application time', el('span', null, [
      el('span', { text: (isNum(ct) ? fmtNs(ct) : 'n/a (profile exec)') + ' / ' + fmtNs(at) }), timeBar])),
    kv('Capture window', el('span', null, [el('span', { text: winText }), endReason ? el('span', { class: 'xl-muted', text: ' \u2014 ' + endReason }) : null]), 'wide'),
    kv('Threads', el('span', { id: 'xl-threads-kv', text: fmtCount(tot.threads != null ? tot.threads : threadList.length) + (isNum(tot.thread_time_ns) ? ' \u00b7 ' + fmtNs(tot.thread_time_ns) + ' summed thread time' : '') + (isNum(tot.cpu_time_ns) ? ' \u00b7 ' + fmtNs(tot.cpu_time_ns) + ' CPU time' : '') })),
    kv('Events', el('span', { text: fmtCount(tot.events) + ' traced' + (isNum(tot.timeline_events) ? ' \u00b7 ' + fmtCount(tot.timeline_events) + ' in timeline' : '') + (tot.dropped_events > 0 ? ' \u00b7 ' + fmtCount(tot.dropped_events) + ' not kept in timeline' : '') })),
    kv('Functions / call paths', el('span', { id: 'xl-paths', text: fmtCount(tot.functions != null ? tot.functions : funcs.length) + ' functions \u00b7 ' + fmtCount(tot.nodes != null ? tot.nodes : nodeCount) + ' call-tree nodes' +
      (tot.more_calls > 0 ? ' \u00b7 ' + fmtCount(tot.more_calls) + (tot.more_calls === 1 ? ' call' : ' calls') + ' in ' + fmtCount(tot.more_nodes) + ' \u201c(more call paths)\u201d node' + (tot.more_nodes === 1 ? '' : 's') + ' (call-tree space ran out)' : '') })),
    allocText() ? kv('Heap allocations', el('span', { id: 'xl-allocs', text: allocText() }), 'wide') : null,
    settingsBits.length ? kv('Settings', el('span', { text: settingsBits.join(' \u00b7 ') }), 'wide') : null,
    run.capture ? kv('Capture', el('span', { class: 'xl-mono xl-wrap', text: disp(run.capture, 2000) }), 'wide') : null,
  ]);
  sec.appendChild(dl);
  sec.appendChild(buildRunStrip());
  sec.appendChild(buildWarnings());
  // notes shown beside their figures elsewhere stay there; the rest (and a topic this viewer does not know) here
  const placed = ['memory'].concat(timelineData ? ['timeline'] : []);
  const here = notes().filter((n) => !placed.includes(n.topic));
  if (here.length) sec.appendChild(buildNotes(here, 'xl-notes', 'Notes'));
  if (procList.length > 1) sec.appendChild(buildProcessTable());
  if (threadList.length > 1) sec.appendChild(buildThreadTable());
  return sec;
}

/* The run's heap allocations (docs/summary-json.md): totals, leaks, and what no call path could be
 * named for. */
function allocText() {
  const al = profileDoc.allocations;
  if (!al || !al.recorded || !al.total || !(al.total.allocs > 0)) return '';
  const t = al.total, na = al.not_attributed || {}, out = al.outside_window || {};
  let s = fmtCount(t.allocs) + ' allocations \u00b7 ' + fmtBytes(t.bytes) + ' \u00b7 ' + fmtBytes(t.live_bytes) + ' live at exit';
  if (t.gc_bytes > 0) s += ' \u00b7 ' + fmtBytes(t.gc_bytes) + ' by the GC';
  if (na.allocs > 0) {
    s += ' \u00b7 ' + fmtCount(na.allocs) + ' not attributed to a call path (' + fmtBytes(na.bytes) + ')';
    if (profileDoc.run.mode === 'memory') s += ': no call paths in memory mode';
  }
  if (out.allocs > 0) s += ' \u00b7 ' + fmtCount(out.allocs) + ' outside the capture window (' + fmtBytes(out.bytes) + ')';
  return s;
}

/* A strip showing the whole run, the capture window and the spans warnings affect. */
function buildRunStrip() {
  const w = profileDoc.run.window || {};
  const strip = el('div', { class: 'xl-strip', id: 'xl-strip', title: 'Run time axis: capture window and affected spans' });
  const pos = (t) => Math.max(0, Math.min(100, 100 * t / tEnd));
  if (isNum(w.start_ns) && isNum(w.end_ns)) strip.appendChild(el('span', { class: 'xl-strip-win', style: 'left:' + pos(w.start_ns).toFixed(3) + '%;width:' + Math.max(0.3, pos(w.end_ns) - pos(w.start_ns)).toFixed(3) + '%' }));
  warnings().forEach((wa, i) => {
    if (!isNum(wa.from_ns)) return;
    const to = isNum(wa.to_ns) ? wa.to_ns : tEnd;
    strip.appendChild(el('span', { class: 'xl-strip-warn sev-' + sevClass(wa.severity), dataset: { warn: String(i) }, style: 'left:' + pos(wa.from_ns).toFixed(3) + '%;width:' + Math.max(0.3, pos(to) - pos(wa.from_ns)).toFixed(3) + '%' }));
  });
  return el('div', { class: 'xl-strip-wrap' }, [
    el('div', { class: 'xl-strip-labels' }, [el('span', { text: '0' }), el('span', { class: 'xl-muted', text: 'run time axis \u2014 capture window in colour, warned spans hatched' }), el('span', { text: fmtNs(tEnd) })]),
    strip]);
}

function sevClass(s) { return s === 'error' ? 'error' : s === 'info' ? 'info' : 'warning'; }

function buildWarnings() {
  const ws = warnings();
  const box = el('div', { class: 'xl-warnings', id: 'xl-warnings' });
  if (!ws.length) { box.appendChild(el('p', { class: 'xl-ok', text: 'No capture-quality warnings.' })); return box; }
  box.appendChild(el('h3', { text: ws.length === 1 ? '1 capture-quality warning' : ws.length + ' capture-quality warnings' }));
  const ul = el('ul', { class: 'xl-warn-list' });
  ws.forEach((wa, i) => {
    const hasSpan = isNum(wa.from_ns);
    const span = hasSpan ? fmtNs(wa.from_ns) + ' \u2013 ' + (isNum(wa.to_ns) ? fmtNs(wa.to_ns) : 'end') : 'whole run';
    const li = el('li', { class: 'xl-warn sev-' + sevClass(wa.severity), dataset: { warn: String(i), kind: String(wa.kind || '') }, tabindex: hasSpan ? '0' : null }, [
      el('span', { class: 'xl-warn-icon', 'aria-hidden': 'true', text: sevClass(wa.severity) === 'info' ? 'i' : '!' }),
      el('div', { class: 'xl-warn-body' }, [
        el('div', { class: 'xl-warn-msg', text: disp(wa.message || wa.kind || 'warning', 4000) }),
        el('div', { class: 'xl-warn-meta' }, [el('span', { class: 'xl-warn-kind', text: disp(wa.kind || '', 60) }), el('span', { text: ' \u00b7 affects ' + span }),
          hasSpan ? el('span', { class: 'xl-warn-show', text: ' \u00b7 show on the time axis' }) : null]),
      ]),
    ]);
    if (hasSpan) {
      li.addEventListener('mouseenter', () => { ui.warnHover = i; warnHighlightChanged(); });
      li.addEventListener('mouseleave', () => { ui.warnHover = -1; warnHighlightChanged(); });
      const pin = () => {
        ui.warnPin = ui.warnPin === i ? -1 : i; warnHighlightChanged();
        if (ui.warnPin === i) { const m = $('xl-memory'); if (m) m.scrollIntoView({ behavior: 'smooth', block: 'start' }); }
      };
      li.addEventListener('click', pin);
      li.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pin(); } });
    }
    ul.appendChild(li);
  });
  box.appendChild(ul);
  return box;
}
/* Notes: facts about the program or the run that the figures need beside them (the profiler's overhead,
 * threads that overlapped, no GC metrics), listed apart from the capture-quality warnings. */
function buildNotes(/** @type {any[]} */ list, /** @type {string} */ id, /** @type {string | null} */ title) {
  const box = el('div', { class: 'xl-notes', id });
  if (title) box.appendChild(el('h3', { text: title }));
  box.appendChild(el('ul', { class: 'xl-warn-list' }, list.map((n) => el('li', { class: 'xl-note-item sev-info', dataset: { kind: String(n.kind || ''), topic: String(n.topic || '') } }, [
    el('span', { class: 'xl-warn-icon', 'aria-hidden': 'true', text: 'i' }),
    el('div', { class: 'xl-warn-body' }, [
      el('div', { class: 'xl-warn-msg', text: disp(n.message || n.kind || 'note', 4000) }),
      el('div', { class: 'xl-warn-meta' }, [el('span', { class: 'xl-warn-kind', text: disp(n.kind || '', 60) })]),
    ]),
  ]))));
  return box;
}
function activeWarn() { return ui.warnHover >= 0 ? ui.warnHover : ui.warnPin; }
function warnHighlightChanged() {
  const a = activeWarn();
  $all(document, '[data-warn]').forEach((n) => n.classList.toggle('active', +n.dataset.warn === a));
  $all(document, '.xl-warn').forEach((n) => n.classList.toggle('pinned', +n.dataset.warn === ui.warnPin));
  schedule('mem'); schedule('tl');
}

/* A thread's CPU time beside its elapsed time (its span): whether it ran or waited. */
function cpuText(th) {
  if (!isNum(th.cpu_ns)) return '\u2014';
  const span = isNum(th.elapsed_ns) ? th.elapsed_ns : (isNum(th.end_ns) && isNum(th.start_ns) ? th.end_ns - th.start_ns : 0);
  return fmtNs(th.cpu_ns) + (span > 0 ? ' (' + fmtPct(th.cpu_ns / span) + ' of its span)' : '');
}

/* The processes of a process tree, each with its own totals; a row's pid shows that process. */
function buildProcessTable() {
  const ended = (p) => p.status === 'exit' ? 'exit' + (isNum(p.exit_status) ? ' ' + p.exit_status : '')
    : p.status === 'signal' ? 'signal' + (isNum(p.signal) ? ' ' + p.signal : '') : p.status === 'exec' ? 'exec\u2019d ' + (p.exec_command ? disp(String(p.exec_command), 120) : 'another program') : String(p.status || '\u2014');
  const rows = procList.slice(0, 256).map((p) => { const t = p.totals || {}; return el('tr', null, [
    el('td', null, el('a', { href: '#', class: 'xl-proc-link', text: String(p.pid), onclick: (e) => { e.preventDefault(); navigate({ process: p.pid, thread: 'all', focus: [] }); } })),
    el('td', { class: 'num', text: String(p.ppid) }),
    el('td', { class: 'xl-name-cell', text: disp(p.command != null ? String(p.command) : '\u2014', 200) }),
    el('td', { text: ended(p) }),
    el('td', { class: 'num', text: fmtCount(t.threads || 0) }),
    el('td', { class: 'num', text: fmtCount(t.calls || 0) }),
    el('td', { class: 'num', text: fmtNs(t.thread_time_ns) }),
    el('td', { class: 'num', text: isNum(t.cpu_time_ns) ? fmtNs(t.cpu_time_ns) : '\u2014' }),
  ]); });
  return el('details', { class: 'xl-threads', id: 'xl-processes', open: true }, [
    el('summary', { text: 'Processes (' + procList.length + ')' }),
    el('div', { class: 'xl-table-wrap small' }, [el('table', { class: 'xl-table' }, [
      el('thead', null, el('tr', null, ['PID', 'Parent', 'Command', 'Ended', 'Threads', 'Calls', 'Traced time', 'CPU time'].map((h, i) => el('th', { class: i === 0 || i === 2 || i === 3 ? null : 'num', text: h })))),
      el('tbody', null, rows)])]),
  ]);
}

function buildThreadTable() {
  const rows = threadList.slice(0, 256).map((th) => el('tr', null, [
    el('td', { class: 'xl-name-cell', text: disp(th.name != null ? th.name : 'thread ' + th.index, 300) }),
    el('td', { class: 'num', text: th.tid != null ? String(th.tid) : '\u2014' }),
    el('td', { class: 'num', text: fmtNs(th.total_ns) }),
    el('td', { class: 'num', text: fmtNs(th.start_ns) + ' \u2013 ' + fmtNs(th.end_ns) }),
    el('td', { class: 'num xl-cpu', text: cpuText(th) }),
    el('td', { class: 'num', text: fmtCount(th.events) }),
    el('td', { class: 'num', text: th.dropped_events > 0 ? fmtCount(th.dropped_events) + (isNum(th.dropped_from_ns) ? ' from ' + fmtNs(th.dropped_from_ns) : '') : '0' }),
    el('td', { class: 'num', text: fmtCount(th.repaired_exits || 0) }),
  ]));
  return el('details', { class: 'xl-threads' }, [
    el('summary', { text: 'Threads (' + threadList.length + ')' }),
    el('div', { class: 'xl-table-wrap small' }, [el('table', { class: 'xl-table' }, [
      el('thead', null, el('tr', null, ['Thread', 'TID', 'Traced time', 'Span', 'CPU time', 'Events', 'Not in timeline', 'Repaired exits'].map((h, i) => el('th', { class: i ? 'num' : null, text: h })))),
      el('tbody', null, rows)])]),
    threadList.length > 256 ? el('p', { class: 'xl-note', text: 'Showing 256 of ' + threadList.length + ' threads.' }) : null,
  ]);
}
