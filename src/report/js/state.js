// @ts-check
/* state: the loaded document, the UI state every view reads, lookups by thread and function */

const XL = { ready: false, lastCopied: null, error: null };
let profileDoc = null;      // the document
let funcs = [];             // functions[]
let threadList = [];        // threads[]
const threadByIndex = new Map();
let callTree = null;        // tree (columns), null when absent
let nodeCount = 0;          // number of tree nodes
let flameView = null;       // current flame view tree
let timelineData = null;    // prepared timeline
let memData = null;         // prepared memory samples
let tEnd = 1;               // end of the shared time axis (ns)

const ui = {
  thread: /** @type {string | number} */ ('all'),  // 'all', 'split' or a thread index
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
const STATS = { buildMs: 0, flameDrawMs: 0, memDrawMs: 0, tlDrawMs: 0, viewNodes: 0, drawnFrames: 0, draws: 0 };

function threadLabel(t) {
  const th = threadByIndex.get(t);
  if (!th) return 'thread ' + t;
  const nm = th.name != null && th.name !== '' ? String(th.name) : 'thread ' + t;
  return th.tid != null ? nm + ' (tid ' + th.tid + ')' : nm;
}
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
