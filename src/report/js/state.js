// @ts-check
/* state: the loaded document, the UI state every view reads, lookups by thread and function */

const XL = { ready: false, lastCopied: null, error: null };
let profileDoc = null;      // the document
let funcs = [];             // functions[]
let threadList = [];        // threads[]
let procList = [];          // processes[] (a process tree: docs/summary-json.md "Processes")
const threadByIndex = new Map();
let callTree = null;        // tree (columns), null when absent
let nodeCount = 0;          // number of tree nodes
let flameView = null;       // current flame view tree
let timelineData = null;    // prepared timeline
let memData = null;         // prepared memory samples
let tEnd = 1;               // end of the shared time axis (ns)

const ui = {
  thread: /** @type {string | number} */ ('all'),  // 'all', 'split' or a thread index
  process: /** @type {string | number} */ ('all'), // 'all' or a pid: the threads of one process
  inverted: false, rec: false,
  metric: 'time',           // flame graph width: time | bytes | allocs | live (heap allocations)
  focus: 0,                 // view node
  search: '', searchRe: null, matchFunc: null, matchFrames: 0, matchTotal: 0,
  selFunc: -1,
  hover: -1,                // hovered view node
  sortKey: 'self', sortDir: -1, filter: '',
  timeView: null,           // [t0, t1] or null for the whole run
  brush: null,
  warnHover: -1, warnPin: -1,
  series: { rss: true, profiler_rss: true, gc_heap: true, gc_free: true, gc_occupied: true },
};
const STATS = { buildMs: 0, flameDrawMs: 0, memDrawMs: 0, tlDrawMs: 0, viewNodes: 0, drawnFrames: 0, draws: 0, drawnFocus: -1, drawnSearch: '',
  startup: /** @type {Record<string, number>} */ ({}) };

function threadLabel(t) {
  const th = threadByIndex.get(t);
  if (!th) return 'thread ' + t;
  const nm = th.name != null && th.name !== '' ? String(th.name) : 'thread ' + t;
  const pid = procList.length > 1 && isNum(th.process) ? ', pid ' + th.process : '';
  return th.tid != null ? nm + ' (tid ' + th.tid + pid + ')' : nm;
}
/* Whether thread t belongs to the process shown (every thread when all processes are). */
function procIn(t) {
  if (ui.process === 'all') return true;
  const th = threadByIndex.get(t);
  return !!th && th.process === ui.process;
}
/* Whether the views count thread t: the thread selected, else the process's threads. */
function threadIn(t) { return typeof ui.thread === 'number' ? t === ui.thread : procIn(t); }
/* What the views show, in words: "thread …", "process 4242", "all threads". */
function scopeLabel() {
  if (typeof ui.thread === 'number') return 'thread ' + disp(threadLabel(ui.thread), 120);
  return ui.process !== 'all' ? 'process ' + ui.process : 'all threads';
}
function procLabel(p) { return 'pid ' + p.pid + (p.command ? ' \u00b7 ' + disp(String(p.command), 80) : '') + (p.forked ? ' (forked by ' + p.ppid + ')' : ''); }
/* A function's name in full (as demangled: C++ names run to thousands of characters), for hover,
 * the detail line, search and copying; and its short form (functions[].short_name, docs/cli.md
 * "Function names"), for frames, rows and timeline labels. */
function funcName(f) { const fn = funcs[f]; return fn && fn.name != null ? String(fn.name) : '[function ' + f + ']'; }
function funcShort(f) { const fn = funcs[f]; return fn && typeof fn.short_name === 'string' && fn.short_name !== '' ? fn.short_name : funcName(f); }
function funcLoc(f) {
  const fn = funcs[f];
  if (!fn || fn.file == null || fn.file === '') return '';
  return String(fn.file) + (isNum(fn.line) && fn.line > 0 ? ':' + fn.line : '');
}
