// The report's number formats (src/report/js/helpers.js), run in node: the unit is chosen after
// rounding, so a figure never reads "1000 µs" or "2 min 60 s", and bytes are whole.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const ctx = vm.createContext({});
vm.runInContext(readFileSync(join(here, '..', '..', 'src', 'report', 'js', 'helpers.js'), 'utf8') +
  '\n;globalThis.fmts = { fmtNs, fmtBytes, fmtCount, fmtPct };', ctx);
const { fmtNs, fmtBytes } = ctx.fmts;

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
console.log(failed ? `${failed} check(s) failed` : 'all checks passed');
process.exit(failed ? 1 : 0);
