// The report's number formats (src/report/js/helpers.js), run in node: the unit is chosen after
// rounding, so a figure never reads "1000 µs" or "2 min 60 s", and bytes are whole. And the label
// widths the flame graph and the timeline share (flame.js): cached by font and text.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const ctx = vm.createContext({});
const js = (name) => readFileSync(join(here, '..', '..', 'src', 'report', 'js', name), 'utf8');
vm.runInContext(js('helpers.js') + '\n' + js('flame.js') +
  '\n;globalThis.fmts = { fmtNs, fmtBytes, fmtCount, fmtPct, textWidth, fitName };', ctx);
const { fmtNs, fmtBytes, textWidth, fitName } = ctx.fmts;

let failed = 0;
function eq(what, got, want) {
  const ok = got === want;
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}: ${JSON.stringify(got)}${ok ? '' : ' (want ' + JSON.stringify(want) + ')'}`);
}
for (const [ns, want] of [[0, '0'], [5, '5 ns'], [999.4, '999 ns'], [999.6, '1.00 \u00b5s'], [1500, '1.50 \u00b5s'],
  [999600, '1.00 ms'], [12.5e6, '12.5 ms'], [999.6e6, '1.00 s'], [59.9e9, '59.9 s'], [119.96e9, '2 min 0 s'],
  [179.7e9, '3 min 0 s'], [3725e9, '62 min 5 s'], [-2500, '-2.50 \u00b5s']]) eq(`fmtNs(${ns})`, fmtNs(ns), want);
for (const [b, want] of [[0, '0 B'], [12.345, '12 B'], [1023, '1023 B'], [1023.6, '1.00 KiB'], [1024, '1.00 KiB'],
  [1536, '1.50 KiB'], [1048575, '1.00 MiB'], [1073741823, '1.00 GiB'], [-2048, '-2.00 KiB']]) eq(`fmtBytes(${b})`, fmtBytes(b), want);
eq('fmtNs(NaN)', fmtNs(NaN), '\u2014');
eq('fmtBytes(undefined)', fmtBytes(undefined), '\u2014');
// A canvas context whose font sets the width of a character (its size in px / 2).
const canvas = { font: '10px sans', measureText(t) { return { width: t.length * +/(\d+)px/.exec(this.font)[1] / 2 }; } };
const cache = new Map();
eq('textWidth at 10px', textWidth(canvas, 'parse_value', cache), 55);
canvas.font = '600 20px sans';
eq('textWidth of the same text at 20px, after 10px', textWidth(canvas, 'parse_value', cache), 110);
canvas.font = '10px sans';
eq('fitName in 70 px at 10px', fitName(canvas, 'json::parse_value', 70, cache), '\u2026::parse_value');
canvas.font = '600 20px sans';
eq('fitName in 70 px at 20px, after 10px: 7 characters or fewer', fitName(canvas, 'json::parse_value', 70, cache).length <= 7, true);
console.log(failed ? `${failed} check(s) failed` : 'all checks passed');
process.exit(failed ? 1 : 0);
