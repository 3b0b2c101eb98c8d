#!/usr/bin/env node
// Browser tests of the exaloop HTML report, driven by playwright-core and the system Chromium.
//
//   node report.test.mjs                       all fixtures (assembled from fixtures/*.json)
//   node report.test.mjs --only small,hostile  some fixtures
//   node report.test.mjs path/to/index.html    generic checks on real reports
//   node report.test.mjs --exaloop build/bin/exaloop -- -lgc -lm examples/loans/loans.c out.csv
//                                              profile a program with exaloop, then check its report
//
// Options: --out DIR (assembled reports + screenshots; default ./artifacts), --chromium PATH
// (default $CHROMIUM or /usr/bin/chromium), --max-bytes N (fail a real report larger than N),
// --stage SRC=NAME (with --exaloop: copy SRC into the run directory as NAME), --expect-text TEXT (a
// real report must show TEXT as page text; repeatable), --expect-short METHOD (a C++ method whose
// frames must carry a short name ending in it; repeatable), --expect-close-bursts (the memory chart
// has allocation labels that would meet), --expect-processes W1,W2,... (the run is a process tree,
// tests/progs/s-proctree.c: each process's work() calls, in any order; 0: a child with no traced
// call), --require FILE (skip unless FILE exists), --list.  Exit status: 0 all passed, 1 a check failed,
// 77 skipped (playwright-core or Chromium missing), 2 usage error.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assemble, loadSources, NONCE_MARK } from './assemble.mjs';
import { FIXTURES, EVIL, large } from './fixtures/make-fixtures.mjs';
import { check, counts, done, launchChromium, watch } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = { only: null, out: join(here, 'artifacts'), chromium: process.env.CHROMIUM || '/usr/bin/chromium', reports: [], list: false, exaloop: null, runArgs: [], maxBytes: 0, stage: [], expectText: [], timelineProg: null, expectLive: [], expectPeak: [], expectPeakInv: [], expectShort: [], closeBursts: false, require: [], globalArgs: [], expectLines: false, expectSampledTiming: false, expectUncertain: [], expectCertain: [] };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--') { opt.runArgs = argv.slice(i + 1); break; }
  if (a === '--exaloop') opt.exaloop = resolve(argv[++i]);
  else if (a === '--stage') { const [src, ...name] = argv[++i].split('='); opt.stage.push([resolve(src), name.join('=')]); }
  else if (a === '--expect-text') opt.expectText.push(argv[++i]);
  else if (a === '--timeline-prog') opt.timelineProg = resolve(argv[++i]);
  else if (a === '--expect-live') { const [fn, n] = argv[++i].split('='); opt.expectLive.push([fn, +n]); }
  // fn=peak/paths[,peak/paths...]: the top-down frames of fn (all threads merged), by peak
  else if (a === '--expect-peak') { const [fn, v] = argv[++i].split('='); opt.expectPeak.push([fn, v]); }
  // fn=peak/paths: fn's bottom-up frame (depth 1, all threads merged)
  else if (a === '--expect-peak-inverted') { const [fn, v] = argv[++i].split('='); opt.expectPeakInv.push([fn, v]); }
  // a method whose frames must be labelled with a short name ending in it (C++ names)
  else if (a === '--expect-short') opt.expectShort.push(argv[++i]);
  // the memory chart has allocation bursts whose labels would meet where they start
  else if (a === '--expect-close-bursts') opt.closeBursts = true;
  // the run is a process tree (tests/progs/s-proctree.c): its processes' work() calls (processChecks)
  else if (a === '--expect-processes') opt.expectProcesses = argv[++i].split(',').map(Number);
  // skip (77) unless this file exists (a library header the program needs)
  else if (a === '--require') opt.require.push(argv[++i]);
  else if (a === '--max-bytes') opt.maxBytes = +argv[++i];
  // an option of exaloop's before the command (--sample-rate=4000)
  else if (a === '--global') opt.globalArgs.push(argv[++i]);
  // the run is tests/progs/s-lines.c: its source view (sourceChecks)
  else if (a === '--expect-lines') opt.expectLines = true;
  else if (a === '--expect-sampled-timing') opt.expectSampledTiming = true;
  // exact timing: functions whose self time is (not) marked uncertain in the table (callCostChecks)
  else if (a === '--expect-uncertain') opt.expectUncertain.push(argv[++i]);
  else if (a === '--expect-certain') opt.expectCertain.push(argv[++i]);
  else if (a === '--only') opt.only = argv[++i].split(',').filter(Boolean);
  else if (a === '--out') opt.out = resolve(argv[++i]);
  else if (a === '--chromium') opt.chromium = argv[++i];
  else if (a === '--list') opt.list = true;
  else if (a.startsWith('--')) { console.error('unknown option ' + a); process.exit(2); }
  else opt.reports.push(resolve(a));
}
const ALL = [...Object.keys(FIXTURES), 'large', 'dark', 'robust'];
if (opt.list) { console.log(ALL.join('\n')); process.exit(0); }
for (const f of opt.require) if (!existsSync(f)) { console.log(`SKIP: ${f} is not installed (scripts/setup.sh --deps)`); process.exit(77); }

const browser = await launchChromium(opt.chromium);
mkdirSync(opt.out, { recursive: true });

/* ------------------------------------------------------------------ harness */

const near = (a, b, tol) => Math.abs(a - b) <= tol;
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/* Open one report; record console errors, page errors, requests, dialogs, CSP violations and
 * elements that should never be created. */
async function open(htmlPath, { dark = false, width = 1400, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true, colorScheme: dark ? 'dark' : 'light', deviceScaleFactor: 1 });
  const page = await context.newPage();
  const url = pathToFileURL(htmlPath).href;
  // Any element of these kinds would mean markup was injected.
  const log = await watch(page, url, 'img,iframe,object,embed,svg,math,base,form,video,audio,source,frame,frameset,template');
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => window.__xl && window.__xl.ready, null, { timeout: 30000 });
  const loadMs = Date.now() - t0;
  return { context, page, log, url, loadMs };
}

async function common(name, r, { expectFrames = true, expectError = false } = {}) {
  const { page, log } = r;
  await settle(page);
  const err = await page.evaluate(() => window.__xl.error);
  if (expectError) check(`${name}: report explains its error`, !!err, err || '');
  else check(`${name}: report started without error`, !err, err || '');
  const probe = await page.evaluate(() => window.__probe);
  const counts = await page.evaluate(() => Object.fromEntries(['script', 'style', 'link', 'meta', 'img', 'iframe', 'object', 'embed', 'svg', 'base', 'form']
    .map((t) => [t, document.getElementsByTagName(t).length])));
  check(`${name}: DOM has only the template's script/style/link/meta elements`,
    counts.script === 2 && counts.style === 1 && counts.link === 1 && counts.meta === 5 && counts.img + counts.iframe + counts.object + counts.embed + counts.svg + counts.base + counts.form === 0, JSON.stringify(counts));
  check(`${name}: no <img>, <svg>, <iframe>, <form>... element was ever inserted`, probe.created.length === 0, probe.created.join(',') || 'none');
  check(`${name}: no CSP violations`, probe.csp.length === 0, probe.csp.join('; '));
  if (expectFrames) {
    const frames = await page.evaluate(() => window.__xl.frames());
    check(`${name}: flame graph drew frames`, frames.length > 0, frames.length + ' frames');
  }
  return { finish: async () => {
    check(`${name}: no console errors or warnings`, log.console.length === 0, log.console.slice(0, 5).join(' | '));
    check(`${name}: no page errors`, log.errors.length === 0, log.errors.slice(0, 5).join(' | '));
    check(`${name}: no network requests`, log.requests.length === 0, log.requests.slice(0, 5).join(' | '));
    check(`${name}: no dialogs`, log.dialogs.length === 0, log.dialogs.join(' | '));
    await page.mouse.move(0, 0);
    for (const [sel, suffix] of [['#xl-flame', '-flame'], ['#xl-memory', '-memory']]) {
      const loc = page.locator(sel);
      if (await loc.count()) await loc.screenshot({ path: join(opt.out, name + suffix + '.png') });
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    const shot = join(opt.out, name + '.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`     screenshots ${shot} (+ -flame, -memory)`);
    await r.context.close();
  } };
}

async function frames(page) { return page.evaluate(() => window.__xl.frames()); }
async function state(page) { return page.evaluate(() => window.__xl.state()); }
async function frameByName(page, name, pred = () => true) {
  const fs = (await frames(page)).filter((f) => f.name === name && pred(f));
  fs.sort((a, b) => b.w - a.w);
  return fs[0] || null;
}
async function clickFrame(page, f) {
  await page.mouse.click(f.x + Math.min(f.w / 2, 40), f.y + f.h / 2);
  await settle(page);
}
async function scrollTo(page, sel) {
  await page.$eval(sel, (e) => e.scrollIntoView({ block: e.getBoundingClientRect().height > innerHeight * 0.7 ? 'start' : 'center' }));
  await settle(page);
}

async function tableRows(page) {
  return page.$$eval('#fn-body tr[data-f]', (rows) => rows.map((r) => Array.from(r.cells).map((c) => c.dataset.v)));
}

/* Sort by every column, both directions, and read the rows back. */
async function checkSorting(name, page) {
  const keys = await page.$$eval('#fn-table th', (ths) => ths.map((t) => t.dataset.key));
  for (let ci = 0; ci < keys.length; ci++) {
    const key = keys[ci];
    for (let pass = 0; pass < 2; pass++) {
      await page.click(`#fn-table th[data-key="${key}"]`);
      const dir = await page.$eval(`#fn-table th[data-key="${key}"]`, (t) => t.getAttribute('aria-sort'));
      const vals = (await tableRows(page)).map((r) => r[ci]);
      const num = key !== 'name';
      let ok = dir === 'ascending' || dir === 'descending';
      for (let i = 1; ok && i < vals.length; i++) {
        const a = num ? +vals[i - 1] : vals[i - 1], b = num ? +vals[i] : vals[i];
        if (dir === 'ascending' ? a > b : a < b) ok = false;
      }
      check(`${name}: table sorted by ${key} ${dir}`, ok && vals.length > 1, vals.slice(0, 4).map((v) => (num ? v : JSON.stringify(v))).join(', ') + (vals.length > 4 ? ', \u2026' : ''));
    }
  }
}

async function downloadCsv(page) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#mem-csv')]);
  const p = await dl.path();
  return { name: dl.suggestedFilename(), text: readFileSync(p, 'utf8') };
}

function fixtureFile(name, outName = name) {
  const src = join(here, 'fixtures', name + '.json');
  const json = existsSync(src) ? readFileSync(src, 'utf8') : JSON.stringify(FIXTURES[name]());
  const out = join(opt.out, outName + '.html');
  writeFileSync(out, assemble(json));
  return { out, doc: JSON.parse(json) };
}

/* ------------------------------------------------------------------ per-fixture tests */

const TESTS = {
  async small() {
    const { out, doc } = fixtureFile('small');
    const r = await open(out);
    const { page } = r;
    const c = await common('small', r);
    check('small: header shows the program', (await page.textContent('#xl-program')) === 'examples/app/app.c');
    check('small: command line is shell-quoted', (await page.textContent('#xl-command')).includes("'out file.csv'"));
    check('small: exit status shown', (await page.textContent('#xl-status')) === 'exit status 0');

    await scrollTo(page, '#fg-canvas');
    let fs = await frames(page);
    const names = new Set(fs.map((f) => f.name));
    const want = ['all threads', 'main', 'parse_input', 'compute', 'fib', 'write_output', 'checksum'];
    check('small: flame graph draws the known frames', want.every((n) => names.has(n)), [...names].join(', '));
    const root = fs.find((f) => f.depth === 0);
    const comp = await frameByName(page, 'compute');
    check('small: frame width is proportional to total time', comp && near(comp.w / root.w, 0.6, 0.01), comp && (comp.w / root.w).toFixed(3));

    // click to focus, Back restores
    await clickFrame(page, comp);
    let st = await state(page);
    check('small: clicking a frame focuses it', st.focus.at(-1) === 'compute', st.focus.join(' > '));
    check('small: focus is kept in the URL fragment', /focus=/.test(st.focusHash), st.focusHash);
    const comp2 = await frameByName(page, 'compute');
    check('small: focused frame spans the full width', comp2 && near(comp2.w, root.w, 2), comp2 && comp2.w.toFixed(1));
    check('small: breadcrumbs show the path', (await page.textContent('#fg-crumbs')).includes('compute'));
    check('small: clicking a frame selects its table row', (await page.getAttribute('#fn-body tr.selected', 'data-f')) === '2');
    const fib = await frameByName(page, 'fib', (f) => f.depth === 3);
    await clickFrame(page, fib);
    st = await state(page);
    check('small: focusing deeper', st.focus.at(-1) === 'fib' && st.focus.length === 4, st.focus.join(' > '));
    await page.goBack(); await settle(page);
    st = await state(page);
    check('small: Back restores the previous focus', st.focus.at(-1) === 'compute', st.focus.join(' > '));
    await page.goBack(); await settle(page);
    st = await state(page);
    check('small: Back again returns to the root', st.focus.length === 1, st.focus.join(' > '));
    const comp3 = await frameByName(page, 'compute');
    check('small: root view drawn again after Back', comp3 && near(comp3.w / root.w, 0.6, 0.01));

    // search
    await page.fill('#fg-search', 'fib');
    await settle(page);
    st = await state(page);
    check('small: search finds fib and reports its share (50%)', st.matchedFrames === 3 && near(st.matchedShare, 0.5, 1e-9), `${st.matchedFrames} frames, share ${st.matchedShare}`);
    const matchText = await page.textContent('#fg-match');
    check('small: search share is displayed', matchText.includes('50.0%'), matchText);
    fs = await frames(page);
    check('small: matched frames are flagged', fs.filter((f) => f.matched).length === 3 && fs.filter((f) => f.matched).every((f) => f.name === 'fib'));
    await page.fill('#fg-search', '/^(parse|write)_/');
    await settle(page);
    st = await state(page);
    check('small: regular-expression search', near(st.matchedShare, 0.35, 1e-9), String(st.matchedShare));
    await page.fill('#fg-search', '');

    // table
    await scrollTo(page, '#fn-table');
    await checkSorting('small', page);
    await page.click('#fn-body tr[data-f="5"] td:nth-child(2)');
    st = await state(page);
    check('small: selecting a row selects the function', st.selectedFunc === 5 && st.selectedName === 'checksum');
    await scrollTo(page, '#fg-canvas');
    fs = await frames(page);
    check('small: selected function is highlighted in the flame graph', fs.some((f) => f.selected && f.name === 'checksum') && fs.filter((f) => f.selected).every((f) => f.name === 'checksum'));
    await page.fill('#fn-filter', 'fi');
    const filtered = (await tableRows(page)).map((r) => r[0]);
    check('small: table filter by name', filtered.length === 1 && filtered[0] === 'fib', filtered.join(','));
    await page.fill('#fn-filter', '');

    // copy
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await scrollTo(page, '#fg-canvas');
    const comp4 = await frameByName(page, 'compute');
    await page.mouse.move(comp4.x + 10, comp4.y + 5);
    await page.keyboard.press('c');
    check('small: "c" copies the hovered function name', (await page.evaluate(() => window.__xl.lastCopied)) === 'compute');
    const tip = await page.textContent('#xl-tip');
    check('small: tooltip shows location, calls, self and total', tip.includes('examples/app/app.c:50') && tip.includes('Calls') && tip.includes('600 ms') && tip.includes('60.0%'), tip.slice(0, 160));
    await page.mouse.move(5, 5);

    // invert + merge recursion
    await page.check('#fg-invert'); await settle(page);
    st = await state(page);
    fs = await frames(page);
    const ifib = fs.find((f) => f.depth === 1 && f.name === 'fib');
    check('small: invert shows leaf functions at the top with self time', st.inverted && ifib && ifib.total_ns === 500e6 && /inv=1/.test(st.focusHash), ifib && String(ifib.total_ns));
    const icallers = fs.filter((f) => f.depth === 2 && f.node && fs.find((p) => p.node === ifib.node) && f.x >= ifib.x - 0.5 && f.x + f.w <= ifib.x + ifib.w + 0.5).map((f) => f.name).sort();
    check('small: inverted fib has callers fib and compute', icallers.join(',') === 'compute,fib', icallers.join(','));
    await page.uncheck('#fg-invert');
    await page.check('#fg-rec'); await settle(page);
    fs = await frames(page);
    const rfib = fs.filter((f) => f.name === 'fib');
    check('small: merge recursion folds fib into one frame', rfib.length === 1 && rfib[0].total_ns === 500e6 && rfib[0].self_ns === 500e6, rfib.map((f) => f.total_ns).join(','));
    await page.goBack(); await settle(page);
    st = await state(page);
    check('small: Back undoes the recursion toggle', !st.mergeRecursion && !st.inverted);

    // keyboard: help, invert
    await page.focus('.xl-help-btn');   // where the focus is when the help opens
    await page.keyboard.press('?');
    check('small: ? opens the shortcut help', await page.isVisible('#xl-help'));
    await page.keyboard.press('Tab'); await page.keyboard.press('Tab');
    check('small: Tab stays inside the help (a modal dialog)', await page.evaluate(() => !!document.activeElement.closest('#xl-help')));
    await page.keyboard.press('Escape');
    check('small: Escape closes the help', !(await page.isVisible('#xl-help')));
    check('small: ... and gives the focus back to where it was', await page.evaluate(() => document.activeElement.classList.contains('xl-help-btn')));
    await page.keyboard.press('i'); await settle(page);
    check('small: "i" toggles invert', (await state(page)).inverted);
    await page.keyboard.press('i'); await settle(page);

    // keyboard: search box, Enter zooms to the selected function, u goes up
    await page.keyboard.press('/');
    check('small: "/" focuses the search box', await page.evaluate(() => document.activeElement.id === 'fg-search'));
    await page.keyboard.press('Escape');
    await page.click('#fn-body tr[data-f="3"] td:nth-child(3)');
    await page.keyboard.press('Enter'); await settle(page);
    st = await state(page);
    check('small: Enter zooms to the selected function', st.focus.at(-1) === 'fib' && st.focus.length === 4, st.focus.join(' > '));
    await page.keyboard.press('u'); await settle(page);
    check('small: "u" zooms out one level', (await state(page)).focus.at(-1) === 'compute');
    await page.keyboard.press('0'); await settle(page);
    check('small: "0" resets the zoom', (await state(page)).focus.length === 1);

    // memory + timeline
    await scrollTo(page, '#tl-canvas');
    const tbox = await page.locator('#tl-canvas').boundingBox();
    const sel0 = (await state(page)).selectedFunc;
    const lane = (await page.evaluate(() => window.__xl.timeline())).threads[0];
    const rowY = tbox.y + lane.rowsTop + (1 - lane.minDepth) * lane.rowHeight + lane.rowHeight / 2;   // depth 1
    let picked = null;
    for (let x = tbox.x + 80; x < tbox.x + tbox.width - 20 && !picked; x += 6) {
      await page.mouse.move(x, rowY);
      if (await page.isVisible('#xl-tip') && (await page.textContent('#xl-tip')).startsWith('write_output')) picked = x;
    }
    if (picked) { await page.mouse.click(picked, rowY); await settle(page); }
    check('small: clicking a timeline call selects its function', picked && (await state(page)).selectedName === 'write_output' && sel0 !== 4, String(picked));
    await scrollTo(page, '#mem-canvas');
    const mem = await page.evaluate(() => window.__xl.memory());
    const rss = mem.series.find((s) => s.key === 'rss');
    check('small: RSS series drawn', rss.available && rss.points === 101, JSON.stringify(rss));
    const gcs = mem.series.filter((s) => s.key !== 'rss');
    check('small: GC series marked unavailable, not drawn', gcs.every((s) => !s.available && s.points === 0 && /Boehm/.test(s.reason)));
    check('small: peak RSS annotated', mem.peak && mem.peak.osPeak === 40 * 1048576, JSON.stringify(mem.peak));
    const tl = await page.evaluate(() => window.__xl.timeline());
    check('small: timeline drawn', tl && tl.threads.length === 1 && tl.threads[0].drawn > 0, tl && JSON.stringify(tl.threads));
    const csv = await downloadCsv(page);
    const lines = csv.text.trim().split('\n');
    check('small: CSV download of the samples', csv.name === 'memory-samples.csv' && lines.length === 102 && lines[0].startsWith('t_ns,t_s,rss_bytes') && lines[0].endsWith(',program_rss_bytes,profiler_rss_bytes') && lines[1].split(',').length === 10, `${lines.length} lines; ${lines[1]}`);
    await c.finish();
  },

  async multithread() {
    const { out } = fixtureFile('multithread');
    const r = await open(out);
    const { page } = r;
    const c = await common('multithread', r);
    await scrollTo(page, '#fg-canvas');
    const opts = await page.$$eval('#fg-thread option', (o) => o.map((x) => x.value));
    check('multithread: thread selector lists merged, separate and each thread', opts.join(',') === 'all,split,0,1,2', opts.join(','));
    let fs = await frames(page);
    const wl = fs.filter((f) => f.name === 'worker_loop');
    const expected = (20 + 60 + 150 + 400) * 1e6 * 1.8;
    check('multithread: threads merged by path (one worker_loop frame = both workers)', wl.length === 1 && near(wl[0].total_ns, expected, 1), wl.map((f) => f.total_ns).join(','));
    check('multithread: merged root has main and worker_loop', fs.filter((f) => f.depth === 1).map((f) => f.name).sort().join(',') === 'main,worker_loop');
    // notes are not capture-quality warnings: the run and threads notes under the summary, the GC one beside the memory chart
    check('multithread: no capture-quality warnings', (await page.textContent('#xl-warnings')) === 'No capture-quality warnings.');
    const runNotes = await page.$$eval('#xl-notes .xl-note-item', (ls) => ls.map((l) => l.dataset.kind));
    check('multithread: overhead and threads notes in the summary', runNotes.join(',') === 'overhead,threads_exceed_wall', runNotes.join(','));
    const memNotes = await page.$$eval('#xl-memory #mem-notes .xl-note-item', (ls) => ls.map((l) => l.dataset.kind + ': ' + l.textContent));
    check('multithread: the GC note beside the memory chart', memNotes.length === 1 && memNotes[0].startsWith('gc_unavailable: ') && memNotes[0].includes('GC metrics unavailable'), memNotes.join(' | '));
    // the program's RSS and the profiler's capture buffer apart, the CPU time beside each thread's span
    const leg = await page.textContent('#mem-legend');
    check('multithread: legend: the program\'s RSS and the profiler\'s buffer', leg.includes('RSS (program)') && leg.includes('profiler\'s memory') && leg.includes('peak RSS (program)'), leg.slice(0, 300));
    await scrollTo(page, '#mem-canvas');
    const mem = await page.evaluate(() => window.__xl.memory());
    const prof = mem.series.find((x) => x.key === 'profiler_rss');
    check('multithread: the profiler\'s buffer is a series of its own', prof && prof.available && prof.points === 73, JSON.stringify(prof));
    check('multithread: the peak drawn is the program\'s', mem.peak && mem.peak.osPeak === (12 * 1048576 + 72 * 180 * 1024), JSON.stringify(mem.peak));
    const rowsMem = await page.$$eval('#mem-summary tbody tr', (rs) => rs.map((r) => r.dataset.metric + '=' + r.cells[2].textContent));
    check('multithread: measurements: program, profiler and process rows', ['program_rss', 'program_peak_rss', 'profiler_rss', 'rss', 'peak_rss'].every((k) => rowsMem.some((r) => r.startsWith(k + '='))) &&
      rowsMem.some((r) => r.startsWith('program_peak_rss=') && r.includes('profiler\'s memory then: 24.0 MiB')), rowsMem.join(' | '));
    const cpuCells = await page.$$eval('.xl-threads tbody td.xl-cpu', (ls) => ls.map((l) => l.textContent));
    check('multithread: threads table gives CPU time beside the span', cpuCells.length === 3 && cpuCells[0].includes('5.0% of its span') && cpuCells[1].includes('90.0% of its span'), cpuCells.join(' | '));
    check('multithread: summary gives the threads\' CPU time', (await page.textContent('#xl-threads-kv')).includes('CPU time'));
    await page.selectOption('#fg-thread', '1'); await settle(page);
    let st = await state(page);
    fs = await frames(page);
    check('multithread: selecting a thread shows only its tree', st.thread === 1 && fs[0].name.includes('worker-1') && !fs.some((f) => f.name === 'main'), fs[0].name);
    const rows = (await tableRows(page)).map((r) => r[0]);
    check('multithread: function table follows the thread', !rows.includes('main') && rows.includes('hash_block'), rows.join(','));
    await page.selectOption('#fg-thread', 'split'); await settle(page);
    fs = await frames(page);
    check('multithread: separate mode has one frame per thread', fs.filter((f) => f.depth === 1).length === 3 && fs.filter((f) => f.depth === 1).every((f) => f.func === -1));
    await page.goBack(); await settle(page);
    check('multithread: Back restores the thread choice', (await state(page)).thread === 1);
    await page.keyboard.press('t'); await settle(page);
    check('multithread: "t" moves to the next thread', (await state(page)).thread === 2);
    const tl = await page.evaluate(() => window.__xl.timeline());
    check('multithread: timeline has a lane per thread', tl.threads.length === 3 && tl.threads.every((t) => t.drawn > 0));
    const kept = await page.$eval('#tl-kept', (e) => e.textContent).catch(() => null);
    check('multithread: the timeline header says what a thread kept (threads[].timeline.note)',
      kept === 'Timeline keeps worker-1: calls \u2265 12.0 us after 0.800 s. Shorter calls are in the flame graph and table, not drawn here.', kept);
    const tlSection = await page.$eval('#xl-timeline-wrap', (e) => e.textContent);
    check('multithread: the timeline says what it kept once (the header, not the note of kind timeline too)',
      tlSection.split('12.0 us after 0.800 s').length === 2, tlSection.slice(0, 300));
    await scrollTo(page, '#xl-summary');
    check('multithread: threads table lists 3 threads', (await page.$$('.xl-threads tbody tr')).length === 3);
    await c.finish();

    // The same document with worker-1's call tree bounded: 300 hash_block calls on paths that found
    // no node are in a "(more call paths)" node below process_item, and the thread's own function
    // table (threads[].functions, from the capture's per-function table) has all 2,300.
    const b = JSON.parse(readFileSync(join(here, 'fixtures', 'multithread.json'), 'utf8'));
    const more = b.functions.length;
    b.functions.push({ id: more, xray_id: -1, name: '(more call paths)', file: null, line: 0, calls: 0, self_ns: 0, total_ns: 0, more: true });
    const T = b.tree, under = 7, moved = Math.floor(T.self_ns[under] / 2);
    T.self_ns[under] -= moved;
    for (const [k, v] of [['thread', 1], ['parent', under], ['func', more], ['calls', 300], ['total_ns', moved], ['self_ns', moved]]) T[k].push(v);
    b.threads[1].functions = { func: [3, 6, 4, 5], calls: [1, 500, 500, 2300], self_ns: [1, 2, 3, 4], total_ns: [5, 6, 7, 8] };
    b.threads[1].tree_bounded = true; b.threads[1].more_calls = 300; b.threads[1].more_nodes = 1;
    Object.assign(b.totals, { nodes: T.parent.length, more_calls: 300, more_nodes: 1 });
    const out2 = join(opt.out, 'multithread-bounded.html');
    writeFileSync(out2, assemble(JSON.stringify(b)));
    const r2 = await open(out2);
    const c2 = await common('multithread-bounded', r2);
    const p2 = r2.page;
    check('bounded: the summary says how many calls went to "(more call paths)" nodes',
      (await p2.textContent('#xl-paths')).includes('300 calls in 1 \u201c(more call paths)\u201d node'), await p2.textContent('#xl-paths'));
    check('bounded: the function table has no "(more call paths)" row', !(await tableRows(p2)).some((row) => row[0] === '(more call paths)'));
    await scrollTo(p2, '#fg-canvas');
    await p2.selectOption('#fg-thread', '1'); await settle(p2);
    check('bounded: the flame graph shows the node', (await frames(p2)).some((f) => f.name === '(more call paths)' && f.calls === 300));
    const hb = (await tableRows(p2)).find((row) => row[0] === 'hash_block');
    check('bounded: the thread\'s function table is its own (2,300 hash_block calls, not the tree\'s 2,000)', hb && hb.includes('2300'), JSON.stringify(hb));
    await c2.finish();
  },

  async gc() {
    const { out, doc } = fixtureFile('gc');
    const r = await open(out);
    const { page } = r;
    const c = await common('gc', r);
    await scrollTo(page, '#mem-canvas');
    let mem = await page.evaluate(() => window.__xl.memory());
    check('gc: all four memory series drawn', mem.series.every((s) => s.available && s.visible && s.points === 301), mem.series.map((s) => s.key + ':' + s.points).join(' '));
    check('gc: GC collections marked', mem.gcMarks === doc.memory.gc_events.length && mem.gcMarks > 0, `${mem.gcMarks} of ${doc.memory.gc_events.length}`);
    check('gc: peak RSS annotated', mem.peak.osPeak === 150 * 1048576 && mem.peak.value <= mem.peak.osPeak);
    const sum = await page.$$eval('#mem-summary tbody tr', (rs) => rs.map((r) => [r.dataset.metric, r.cells[1].textContent, r.cells[2].textContent]));
    check('gc: summary table has every metric with a value', sum.length === 7 && sum.every((r) => r[1] !== 'unavailable'), sum.map((r) => r[0] + '=' + r[1]).join(' '));
    const alloc = sum.find((r) => r[0] === 'gc_allocated');
    check('gc: GC allocated shows delta and rate', /during capture/.test(alloc[2]) && /\/s/.test(alloc[2]), alloc[2]);
    const coll = sum.find((r) => r[0] === 'gc_collections');
    check('gc: GC collections shows delta', /^\+\d+ during capture$/.test(coll[2]), coll[2]);
    await page.uncheck('[data-series="gc_free"] input'); await settle(page);
    mem = await page.evaluate(() => window.__xl.memory());
    check('gc: series toggle hides GC free', mem.series.find((s) => s.key === 'gc_free').visible === false);
    const box = await page.locator('#mem-canvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + 100); await settle(page);
    const tip = await page.textContent('#xl-tip');
    check('gc: hovering the chart shows values', /RSS/.test(tip) && /GC heap/.test(tip) && /MiB/.test(tip), tip.slice(0, 120));
    // brush zoom on the shared time axis
    await page.mouse.move(box.x + 200, box.y + 100);
    await page.mouse.down(); await page.mouse.move(box.x + 500, box.y + 100, { steps: 5 }); await page.mouse.up(); await settle(page);
    let st = await state(page);
    check('gc: dragging zooms the time axis', st.timeView && st.timeView[0] > 0 && st.timeView[1] < st.timeAxisEnd, JSON.stringify(st.timeView));
    mem = await page.evaluate(() => window.__xl.memory());
    check('gc: zoomed chart draws fewer samples', mem.series[0].points < 301 && mem.series[0].points > 10, String(mem.series[0].points));
    await page.keyboard.press('z'); await settle(page);
    check('gc: "z" resets the time zoom', (await state(page)).timeView === null);
    const csv = await downloadCsv(page);
    const lines = csv.text.trim().split('\n');
    check('gc: CSV has every sample with GC columns', lines.length === 302 && lines[5].split(',').slice(0, 8).every((v) => v !== ''), lines[5]);  // program/profiler columns: none in this fixture
    await c.finish();
  },

  async nogc() {
    const { out } = fixtureFile('nogc');
    const r = await open(out);
    const { page } = r;
    const c = await common('nogc', r);
    await scrollTo(page, '#mem-canvas');
    const mem = await page.evaluate(() => window.__xl.memory());
    const gcs = mem.series.filter((s) => s.key !== 'rss');
    check('nogc: GC series unavailable with the reason', gcs.every((s) => !s.available && s.points === 0 && s.reason === 'libgc is not linked into this program'));
    check('nogc: missing RSS samples are gaps, not zeros', mem.series[0].points === 98, String(mem.series[0].points));
    const leg = await page.textContent('#mem-legend');
    check('nogc: legend says unavailable and why', /GC heap: unavailable/.test(leg) && /libgc is not linked/.test(leg), leg.slice(0, 200));
    const sum = await page.$$eval('#mem-summary tbody tr', (rs) => rs.map((r) => [r.dataset.metric, r.cells[1].textContent, r.cells[2].textContent]));
    const gcRows = sum.filter((r) => r[0].startsWith('gc_'));
    check('nogc: summary shows unavailable + reason for GC metrics', gcRows.length === 5 && gcRows.every((r) => r[1] === 'unavailable' && r[2] === 'libgc is not linked into this program'));
    check('nogc: RSS and peak RSS have values', sum.filter((r) => !r[0].startsWith('gc_')).every((r) => /iB/.test(r[1])));
    check('nogc: no timeline section without a timeline', (await page.$('#tl-canvas')) === null);
    await c.finish();
  },

  async warnings() {
    const { out, doc } = fixtureFile('warnings');
    const r = await open(out);
    const { page } = r;
    const c = await common('warnings', r);
    const items = await page.$$eval('.xl-warn', (ls) => ls.map((l) => [l.dataset.kind, l.className, l.querySelector('.xl-warn-msg').textContent]));
    check('warnings: every warning listed', items.length === doc.warnings.length && items.every((it, i) => it[2] === doc.warnings[i].message), items.map((i) => i[0]).join(','));
    check('warnings: severities styled', items[0][1].includes('sev-error') && items[2][1].includes('sev-info'));
    check('warnings: killed-by-signal status', (await page.textContent('#xl-status')) === 'killed by signal 11 (SIGSEGV)');
    check('warnings: not-finalized chip', (await page.textContent('.xl-chips')).includes('not finalized'));
    await scrollTo(page, '#mem-canvas');
    let mem = await page.evaluate(() => window.__xl.memory());
    const part = mem.spans.find((s) => s.kind === 'timeline_incomplete');
    check('warnings: incomplete timeline span shaded from 0.9 s', part && part.from === 900e6, JSON.stringify(part));
    const outside = mem.spans.filter((s) => s.kind === 'outside_window');
    check('warnings: outside of the capture window shaded', outside.length === 2 && outside[0].to === 300e6 && outside[1].from === 2.05e9, JSON.stringify(outside));
    const tl = await page.evaluate(() => window.__xl.timeline());
    check('warnings: timeline shades the incomplete span too', tl.spans.some((s) => s.kind === 'timeline_incomplete' && s.from === 900e6));
    check('warnings: timeline note says where it is incomplete', (await page.textContent('#xl-timeline-wrap')).includes('incomplete after 900 ms'));
    await page.locator('.xl-warn[data-kind="timeline_full"]').scrollIntoViewIfNeeded();
    await page.hover('.xl-warn[data-kind="timeline_full"]'); await settle(page);
    let st = await state(page);
    mem = await page.evaluate(() => window.__xl.memory());
    check('warnings: hovering a warning highlights its span', st.highlightedWarning === 1 && mem.spans.some((s) => s.kind === 'warning:timeline_full' && s.from === 900e6), JSON.stringify(mem.spans.filter((s) => s.kind.startsWith('warning'))));
    await page.click('.xl-warn[data-kind="window_partial"]');
    await page.mouse.move(2, 400); await settle(page);
    st = await state(page);
    check('warnings: clicking a warning pins its span', st.highlightedWarning === 2, String(st.highlightedWarning));
    check('warnings: run strip marks warned spans', (await page.$$('#xl-strip .xl-strip-warn')).length === 4);
    check('warnings: a buffer-full timeline does not send the user to the Chrome export', !(await page.textContent('#xl-timeline-wrap')).includes('--format chrome'));
    await c.finish();

    // the same document, but the report kept only the thread's longest calls (min_dur_ns)
    const limited = JSON.parse(readFileSync(join(here, 'fixtures', 'warnings.json'), 'utf8'));
    const th0 = limited.timeline.threads[0];
    th0.min_dur_ns = 12000; th0.recorded_calls = th0.start_ns.length * 50;
    const out2 = join(opt.out, 'warnings-report-limit.html');
    writeFileSync(out2, assemble(JSON.stringify(limited)));
    const r2 = await open(out2);
    const c2 = await common('warnings-report-limit', r2);
    const note = await r2.page.textContent('#tl-thinned');
    check('warnings: a timeline thinned by the report says what it kept and points to the Chrome export',
      note.includes('calls \u2265 12.0 \u00b5s') && note.includes(th0.start_ns.length + ' of ' + (th0.start_ns.length * 50).toLocaleString('en-US')) && note.includes('--format chrome') && note.includes('--timeline-calls'), note.slice(0, 300));
    await c2.finish();
  },

  async 'memory-only'() {
    const { out } = fixtureFile('memory-only');
    const r = await open(out);
    const { page } = r;
    const c = await common('memory-only', r, { expectFrames: false });
    check('memory-only: explains there is no function trace', (await page.textContent('#xl-flame')).includes('memory-only mode'));
    check('memory-only: no function table', (await page.$('#fn-table')) === null);
    const allocs = await page.$eval('#xl-allocs', (e) => e.textContent).catch(() => '');
    check('memory-only: the heap allocations are all unattributed, and the summary says why',
      allocs.includes('20 not attributed to a call path') && allocs.endsWith('no call paths in memory mode'), allocs);
    const mem = await page.evaluate(() => window.__xl.memory());
    check('memory-only: RSS drawn', mem.series[0].points === 151);
    await page.keyboard.press('?');
    check('memory-only: help still works', await page.isVisible('#xl-help'));
    await page.keyboard.press('Escape');
    await c.finish();
  },

  async hostile() {
    const { out, doc } = fixtureFile('hostile');
    const r = await open(out);
    const { page } = r;
    const c = await common('hostile', r);
    check('hostile: title shows the name literally', (await page.title()).includes(EVIL));
    check('hostile: program shown as text', (await page.textContent('#xl-program')) === EVIL + '.c');
    check('hostile: command shown as text', (await page.textContent('#xl-command')).includes(EVIL));
    await scrollTo(page, '#fg-canvas');
    const fs = await frames(page);
    check('hostile: flame graph draws the literal name', fs.some((f) => f.name === EVIL));
    for (const f of fs.filter((f) => f.w > 4).slice(0, 20)) { await page.mouse.move(f.x + 2, f.y + 4); }
    const evilFrame = fs.find((f) => f.name === EVIL);
    await page.mouse.move(evilFrame.x + 3, evilFrame.y + 5);
    check('hostile: tooltip shows the literal name', (await page.textContent('#xl-tip')).includes(EVIL));
    await page.mouse.move(2, 2);
    const cells = await page.$$eval('#fn-body .xl-fn-name', (n) => n.map((x) => x.textContent));
    check('hostile: table shows every name as text', cells.includes(EVIL) && cells.some((t) => t.includes('&amp;')) && cells.some((t) => t.includes('`back${alert(2)}`')), cells.length + ' rows');
    check('hostile: markers in names are not expanded', cells.some((t) => t === 'markers @XL_DATA@ /*@XL_JS@*/ /*@XL_CSS@*/ </style><!--'));
    check('hostile: newlines and bidi overrides made visible', cells.some((t) => t.startsWith('line1\u240aline2')) && cells.some((t) => t.includes('\\u202e')));
    const longCell = cells.find((t) => t.startsWith('very_long_'));
    check('hostile: very long name shortened for display', longCell && longCell.length < 600, longCell && String(longCell.length));
    await page.hover('#fn-body tr[data-f="0"]');
    await page.click('#fn-body tr[data-f="0"] button[data-copy]');
    check('hostile: copy button copies the raw name', (await page.evaluate(() => window.__xl.lastCopied)) === EVIL);
    await page.fill('#fg-search', '<img');
    const st = await state(page);
    check('hostile: search matches markup-looking names', st.matchedFrames === 2 && st.matchedShare > 0, `${st.matchedFrames} call paths`);
    const warnText = await page.textContent('#xl-warnings');
    check('hostile: warning message shown as text', warnText.includes('warning with markup ' + EVIL + ' & <b>not bold</b>'));
    check('hostile: note message shown as text', (await page.textContent('#mem-notes')).includes('note with markup ' + EVIL + ' & <b>not bold</b>'));
    check('hostile: a note of an unknown topic is listed in the summary', (await page.textContent('#xl-notes')).includes('a topic this viewer does not know: ' + EVIL));
    const leg = await page.textContent('#mem-legend');
    check('hostile: unavailable reason shown as text', leg.includes(EVIL));
    const opts = await page.$$eval('#fg-thread option', (o) => o.map((x) => x.textContent));
    check('hostile: thread names shown as text', opts.some((o) => o.startsWith(EVIL)) && opts.some((o) => o.startsWith('"><img')));
    await page.selectOption('#fg-thread', '1'); await settle(page);
    const tl = await page.evaluate(() => window.__xl.timeline());
    check('hostile: timeline drawn', tl.threads.every((t) => t.drawn > 0));
    await c.finish();

    // Defence in depth: the CSP runs only the nonce-carrying script.  A script element that got
    // into the page some other way (here: made by hand) does not run, and is reported.
    const html = readFileSync(out, 'utf8');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
    const nonce = csp && /script-src 'nonce-([0-9a-f]{32})'/.exec(csp[1]);
    check('hostile: CSP allows scripts and styles by a 128-bit nonce only, no unsafe-inline',
      !!nonce && !csp[1].includes('unsafe-inline') && csp[1].includes(`style-src 'nonce-${nonce[1]}'`), csp && csp[1]);
    check('hostile: a fresh nonce in every report', !!nonce && !readFileSync(fixtureFile('hostile', 'hostile-again').out, 'utf8').includes(nonce[1]));
    const r2 = await open(out);
    await r2.page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__injected = 1';
      document.body.appendChild(s);
      const d = document.createElement('div');
      d.innerHTML = '<span onmouseover="window.__injected = 2">x</span>';
      document.body.appendChild(d);
      d.firstChild.dispatchEvent(new MouseEvent('mouseover'));
    });
    await settle(r2.page);
    const injected = await r2.page.evaluate(() => window.__injected);
    const violations = await r2.page.evaluate(() => window.__probe.csp);
    check('hostile: an injected script and inline handler do not run', injected === undefined, String(injected));
    check('hostile: ...and the browser reports the CSP violation', violations.some((v) => v.startsWith('script-src')), violations.join('; '));
    await r2.context.close();
  },

  async large() {
    const doc = large();
    const json = JSON.stringify(doc);
    writeFileSync(join(opt.out, 'large.json'), json);
    const out = join(opt.out, 'large.html');
    writeFileSync(out, assemble(json));
    console.log(`     large: ${doc.tree.parent.length} tree nodes, ${doc.functions.length} functions, ${doc.timeline.threads.reduce((s, l) => s + l.start_ns.length, 0)} timeline calls, ${(json.length / 1048576).toFixed(1)} MiB JSON`);
    const r = await open(out);
    const { page } = r;
    console.log(`     large: opened in ${r.loadMs} ms (navigation to ready)`);
    const c = await common('large', r);
    await scrollTo(page, '#fg-canvas');
    const stats = await page.evaluate(() => window.__xl.stats());
    console.log(`     large: view build ${stats.buildMs.toFixed(1)} ms, flame draw ${stats.flameDrawMs.toFixed(1)} ms (${stats.drawnFrames} frames), memory ${stats.memDrawMs.toFixed(1)} ms, timeline ${stats.tlDrawMs.toFixed(1)} ms`);
    check('large: 100,000 nodes in the view', stats.viewNodes > 1000, String(stats.viewNodes));
    const fs = await frames(page);
    const target = fs.filter((f) => f.depth === 2).sort((a, b) => b.w - a.w)[0];
    const t0 = Date.now();
    await clickFrame(page, target);
    await page.waitForFunction((n) => window.__xl.state().focus.at(-1) === n, target.name);
    await settle(page);
    const clickMs = Date.now() - t0;
    console.log(`     large: click to focused redraw ${clickMs} ms as seen by the test driver; ${(await page.evaluate(() => window.__xl.stats().clickToDrawMs)).toFixed(1)} ms in the page (click event to frame drawn)`);
    check('large: click focuses a frame', (await state(page)).focus.length === 3);
    // a deep frame: scroll the flame graph down, click, and the focused frame must be in view
    await page.$eval('#fg-scroll', (e) => { e.scrollTop = e.scrollHeight; });
    await settle(page);
    const deep = (await frames(page)).filter((f) => f.w > 3).sort((a, b) => b.depth - a.depth)[0];
    await clickFrame(page, deep);
    await page.waitForFunction((n) => window.__xl.state().focus.length === n, deep.depth + 1);
    await settle(page);
    const foc = (await frames(page)).find((f) => f.focused);
    const box = await page.locator('#fg-scroll').boundingBox();
    check('large: focusing a deep frame keeps it in view', foc && foc.y >= box.y && foc.y + foc.h <= box.y + box.height, `depth ${deep.depth}`);
    await page.goBack();
    await page.waitForFunction((n) => window.__xl.state().focus.length === n, 3);
    let t1 = Date.now();
    await page.goBack();
    await page.waitForFunction(() => window.__xl.state().focus.length === 1);
    await settle(page);
    console.log(`     large: Back to root ${Date.now() - t1} ms`);
    t1 = Date.now();
    await page.check('#fg-invert'); await settle(page);
    console.log(`     large: invert ${Date.now() - t1} ms (build ${(await page.evaluate(() => window.__xl.stats().buildMs)).toFixed(1)} ms)`);
    await page.uncheck('#fg-invert'); await settle(page);
    t1 = Date.now();
    await page.check('#fg-rec'); await settle(page);
    console.log(`     large: merge recursion ${Date.now() - t1} ms`);
    t1 = Date.now();
    await page.fill('#fg-search', 'sort_'); await settle(page);
    const st = await state(page);
    console.log(`     large: search ${Date.now() - t1} ms (${st.matchedFrames} frames, ${(st.matchedShare * 100).toFixed(1)}%)`);
    check('large: search works', st.matchedFrames > 0);
    t1 = Date.now();
    await page.click('#fn-table th[data-key="calls"]'); await settle(page);
    console.log(`     large: table sort ${Date.now() - t1} ms`);
    await scrollTo(page, '#fn-table');
    const before = await tableRows(page);
    await page.$eval('#fn-wrap', (e) => { e.scrollTop = e.scrollHeight / 2; });
    await settle(page);
    const after = await tableRows(page);
    check('large: the function table renders only the rows in view', before.length < 100 && after.length < 100 && after[0][0] !== before[0][0], `${before.length} rows in the DOM of ${doc.functions.length}`);
    const sorted = after.every((r, i) => i === 0 || +after[i - 1][1] >= +r[1]);
    check('large: rows in the middle are still in order', sorted);
    await scrollTo(page, '#mem-canvas');
    const mem = await page.evaluate(() => window.__xl.memory());
    check('large: memory drawn', mem.series[0].points === 5000);
    await c.finish();
  },

  /* Documents the viewer must survive: no data, empty, partial, odd values. */
  async robust() {
    const small = JSON.parse(readFileSync(join(here, 'fixtures', 'small.json'), 'utf8'));
    const xray = { ...small, run: { ...small.run, mode: 'xray' }, memory: null };
    delete xray.timeline;
    const odd = JSON.parse(JSON.stringify(small));
    odd.schema = 'exaloop.profile/9';
    odd.tree.func[3] = 999; odd.tree.calls[2] = null; odd.tree.thread[4] = 7; odd.functions[1].file = null; odd.functions[2].name = null;
    odd.memory.samples.rss = null; odd.warnings = [{ kind: 'x' }, null].filter(Boolean); odd.run.window = null; odd.run.command = null;
    const cases = [
      ['no-data', null, 'no readable profile data'],
      ['empty-object', '{}', 'Run summary'],
      ['xray-no-memory', JSON.stringify(xray), 'No memory samples'],
      ['odd-values', JSON.stringify(odd), 'exaloop.profile/9'],
    ];
    for (const [name, json, text] of cases) {
      const out = join(opt.out, 'robust-' + name + '.html');
      if (json == null) {
        // the template with code and styles but without data, as if the data were never filled in
        const src = loadSources();
        writeFileSync(out, src.html.split(NONCE_MARK).join('00112233445566778899aabbccddeeff')
          .replace('/*@XL_CSS@*/', () => src.css).replace('/*@XL_JS@*/', () => src.js));
      } else writeFileSync(out, assemble(json));
      const r = await open(out);
      await settle(r.page);
      const body = await r.page.innerText('body');
      check(`robust/${name}: page says what it has`, body.includes(text), body.replace(/\s+/g, ' ').slice(0, 120));
      if (name === 'xray-no-memory') {
        await scrollTo(r.page, '#fg-canvas');
        check(`robust/${name}: flame graph still drawn`, (await frames(r.page)).length > 3);
      }
      const c = await common('robust-' + name, r, { expectFrames: false, expectError: json == null });
      await c.finish();
    }
  },

  async dark() {
    const { out } = fixtureFile('gc', 'dark');
    const r = await open(out, { dark: true });
    const c = await common('dark', r);
    const bg = await r.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check('dark: follows prefers-color-scheme', bg !== 'rgb(244, 245, 247)', bg);
    await scrollTo(r.page, '#fn-table');
    await r.page.click('#fn-body tr[data-f="3"]');
    await c.finish();
  },
};

/* Profile a program with exaloop (in a temporary directory) and return its report. */
function runExaloop() {
  const dir = mkdtempSync(join(tmpdir(), 'xl-browser-'));
  for (const [src, name] of opt.stage) copyFileSync(src, join(dir, name));
  const args = ['--no-open', ...opt.globalArgs, '--profile', 'run', '-release', ...opt.runArgs];
  console.log(`     running ${opt.exaloop} ${args.join(' ')} (in ${dir})`);
  const res = spawnSync(opt.exaloop, args, { cwd: dir, encoding: 'utf8', timeout: 300000 });
  const err = (res.stderr || '').trim().split('\n').slice(-3).join(' | ');
  if (!check('exaloop: profiled run finished', res.status === 0, `status ${res.status}; ${err}`)) return null;
  const prof = join(dir, 'profiles');
  const caps = existsSync(prof) ? readdirSync(prof).filter((d) => existsSync(join(prof, d, 'index.html'))) : [];
  const ok = check('exaloop: wrote profiles/capture-*/index.html', caps.length === 1, caps.join(','));
  let kept = null;
  if (ok) {
    kept = join(opt.out, 'exaloop-' + (opt.stage.length ? basename(opt.stage[0][0]) : basename(opt.runArgs.find((a) => /\.(c|codon)$/.test(a)) || 'run')).replace(/\.\w+$/, '') + '.html');
    copyFileSync(join(prof, caps[0], 'index.html'), kept);
  }
  rmSync(dir, { recursive: true, force: true });   // the capture itself can be large
  return kept;
}

/* The source view (--expect-lines; the run is tests/progs/s-lines.c, whose header gives the
 * ratios): selecting a function opens its lines with their instruction samples' shares and the
 * capture's source text, hot lines highlighted, context lines around them, and the inline chain
 * at the line that called the inlined helper. */
async function sourceChecks(name, page) {
  const pick = async (fn) => {
    await scrollTo(page, '#fn-table');
    await page.evaluate((fn) => {
      const tr = Array.from(document.querySelectorAll('#fn-body tr[data-f]')).find((r) => r.querySelector('td') && r.querySelector('td').textContent.startsWith(fn));
      if (tr) /** @type {HTMLElement} */ (tr).click();
    }, fn);
    await settle(page);
    return page.evaluate(() => window.__xl.source());
  };
  const has = (rows, marker) => rows.find((r) => r.text && r.text.includes(marker));
  let rows = await pick('two_loops');
  const a = has(rows, 'LINE_A'), b = has(rows, 'LINE_B');
  check(`${name}: two_loops' source view shows LINE_A and LINE_B with their text`, !!(a && b), JSON.stringify(rows.slice(0, 12)));
  if (!a || !b) return;
  check(`${name}: LINE_A has 75 % of two_loops' samples (within 5 points), highlighted`, Math.abs(a.share - 0.75) <= 0.05 && a.hot, JSON.stringify(a));
  check(`${name}: LINE_B has 25 %, highlighted`, Math.abs(b.share - 0.25) <= 0.05 && b.hot, JSON.stringify(b));
  check(`${name}: the lines around them are context (no samples, not highlighted)`,
    rows.some((r) => r.context && !r.hot && !r.samples && r.text && r.text.includes('two_loops(long n)')), JSON.stringify(rows.map((r) => r.line)));
  const hot = await page.$$eval('#fg-source-table tr.xl-hot', (trs) => trs.map((t) => t.dataset.line));
  check(`${name}: the table highlights exactly LINE_A and LINE_B`, hot.length === 2 && hot.includes(String(a.line)) && hot.includes(String(b.line)), hot.join(','));
  rows = await pick('with_inline');
  const d = has(rows, 'LINE_D');
  check(`${name}: with_inline's LINE_D has half its samples and the inline chain step_n`,
    !!d && Math.abs(d.share - 0.5) <= 0.07 && d.chains.some((c) => c.name === 'step_n'), JSON.stringify(d));
  if (d) {
    const cell = await page.$eval(`#fg-source-table tr[data-line="${d.line}"] .xl-src-inl`, (e) => e.textContent);
    check(`${name}: the row says what was inlined there`, cell.includes('step_n'), cell);
  }
  rows = await pick('main');
  const note = await page.$eval('#fg-source', (e) => e.hidden ? '' : e.textContent);
  check(`${name}: main (no samples of its own) says so`, rows.length === 0 && note.includes('No instruction sample'), note);
  // step_n, inlined into with_inline, is a sampled frame on top of it: about half its width
  // (s-lines.c: its loop is half of with_inline's work), hatched, labelled, with a tooltip
  await scrollTo(page, '#fg-canvas');
  await settle(page);
  const frames = await page.evaluate(() => window.__xl.frames());
  const wi = frames.find((f) => f.name === 'with_inline' && !f.sampled);
  const sn = frames.find((f) => f.sampled && f.name === 'step_n');
  check(`${name}: the flame graph has a sampled step_n frame on with_inline`, !!(wi && sn && sn.depth === wi.depth + 1 && sn.x >= wi.x - 1 && sn.x + sn.w <= wi.x + wi.w + 1),
    JSON.stringify(frames.filter((f) => f.sampled || f.name === 'with_inline').map((f) => [f.name, f.depth, Math.round(f.x), Math.round(f.w)])));
  if (!wi || !sn) return;
  check(`${name}: step_n's width is 50 % of with_inline's (within 7 points)`, Math.abs(sn.total_ns / wi.total_ns - 0.5) <= 0.07, `${sn.total_ns} / ${wi.total_ns}`);
  check(`${name}: step_n's frame is labelled as sampled`, sn.short.endsWith('(sampled)'), sn.short);
  check(`${name}: the sampled frame has no calls and with_inline keeps its exact self time`, sn.calls === 0 && wi.self_ns > 0, JSON.stringify([sn.calls, wi.self_ns]));
  await page.mouse.move(sn.x + sn.w / 2, sn.y + sn.h / 2);
  await settle(page);
  const tip = await page.$eval('#xl-tip', (e) => e.textContent).catch(() => '');
  check(`${name}: hovering the sampled frame says it is inlined and sampled`, tip.includes('inlined') && tip.includes('Sampled'), tip);
  // a click focuses the sampled frame itself (not its traced parent), and a second click on the
  // focused frame adds no history entry
  await page.mouse.click(sn.x + sn.w / 2, sn.y + sn.h / 2); await settle(page);
  const st = await state(page);
  check(`${name}: clicking the sampled frame focuses it`, st.focus.at(-1) === 'step_n' && /focus=[^&]*\bs\d+$/.test(st.focusHash), st.focus.join(' > ') + ' ' + st.focusHash);
  const hist = await page.evaluate(() => history.length);
  const again = (await page.evaluate(() => window.__xl.frames())).find((f) => f.sampled && f.name === 'step_n');
  if (again) { await page.mouse.click(again.x + again.w / 2, again.y + again.h / 2); await settle(page); }
  check(`${name}: clicking it again adds no history entry`, !!again && (await page.evaluate(() => history.length)) === hist && (await state(page)).focus.at(-1) === 'step_n');
  await page.keyboard.press('0'); await settle(page);
}

/* Heap allocations (issue 16): the flame graph's width selector switches between elapsed time
 * and the allocation metrics; for each, the flame graph's total must be what the embedded summary
 * says the call paths allocated (the run's total less the "(not attributed)" part). The function
 * table has the allocation columns; the memory chart marks the largest bursts. */
/* --timing=sampled (tests/progs/s-ratio.c): the run summary says so, and each self time in the
 * function table carries its bound, with its position samples on hover. */
async function sampledTimingChecks(name, page) {
  const doc = await page.evaluate(() => JSON.parse(document.getElementById('xl-data').textContent));
  check(`${name}: the capture's timing is sampled`, doc.run.timing === 'sampled', doc.run.timing);
  const chips = await page.$$eval('.xl-chip', (cs) => cs.map((c) => c.textContent));
  check(`${name}: the run summary says "timing: sampled"`, chips.includes('timing: sampled'), chips.join('|'));
  await scrollTo(page, '#fn-table');
  const rows = await page.$$eval('#fn-table tbody tr.xl-row', (trs) => trs.map((tr) => ({
    name: tr.querySelector('.xl-fn-name').textContent, self: tr.children[2].textContent, title: tr.children[2].getAttribute('title') || '' })));
  const heavy = rows.find((r) => r.name === 'heavy');
  const f = doc.functions.find((x) => x.name === 'heavy');
  check(`${name}: heavy's self time shows its bound`, !!heavy && /\u00b1\s*[0-9.]+\s*(ns|us|µs|ms|s)$/.test(heavy.self), heavy && heavy.self);
  check(`${name}: ... and its samples on hover`, !!heavy && !!f && heavy.title.includes(f.self_samples.toLocaleString('en-US') + ' position samples'), heavy && heavy.title);
  // no call in the timeline: no timeline drawn, and no window to take from it
  check(`${name}: no timeline is drawn (it would have no call)`, (await page.evaluate(() => window.__xl.timeline())) === null && !(await page.$('#tl-window')),
    String(await page.$('#tl-window')));
}

/* Exact timing (the note call_cost): a function's self cell is marked uncertain, with its bound
 * on hover, exactly when the analyzer says so (functions[].cost_uncertain; t1313 checks that verdict
 * against its rule); --expect-uncertain / --expect-certain name functions of the run that must be
 * (not) marked. */
async function callCostChecks(name, page) {
  const doc = await page.evaluate(() => JSON.parse(document.getElementById('xl-data').textContent));
  if (doc.run.timing === 'sampled' || !(doc.functions || []).some((f) => typeof f.cost_bound_ns === 'number')) return;
  await scrollTo(page, '#fn-table');
  const rows = await page.$$eval('#fn-table tbody tr.xl-row', (trs) => trs.map((tr) => ({ f: +tr.dataset.f,
    name: tr.querySelector('.xl-fn-name').textContent, mark: !!tr.children[2].querySelector('.xl-unc-mark'), title: tr.children[2].getAttribute('title') || '' })));
  const wrong = rows.filter((r) => {
    const fn = doc.functions[r.f];
    return r.mark !== !!(fn && fn.cost_uncertain === true);
  });
  check(`${name}: self times marked uncertain exactly where functions[].cost_uncertain says so (${rows.length} rows)`,
    rows.length > 0 && wrong.length === 0, JSON.stringify(wrong.slice(0, 5)));
  for (const n of opt.expectUncertain) {
    const r = rows.find((x) => x.name === n);
    check(`${name}: ${n}'s self time is marked uncertain, its bound on hover`, !!r && r.mark && /up to [0-9.]+\s*(ns|us|µs|ms|s)/.test(r.title), JSON.stringify(r));
  }
  for (const n of opt.expectCertain) {
    const r = rows.find((x) => x.name === n);
    check(`${name}: ${n}'s self time is not marked`, !!r && !r.mark, JSON.stringify(r));
  }
}

/* A time window's views have elapsed time only: shown with an allocation metric chosen, the width
 * menu reads elapsed time and is disabled and the table's allocation columns say "—"; back on the
 * whole run, the metric the address names is drawn again. */
async function windowMetricChecks(name, page) {
  if (!(await page.$('#fg-metric')) || !(await page.$('#tl-canvas')) || !(await page.$('#tl-window'))) return;
  const doc = await page.evaluate(() => JSON.parse(document.getElementById('xl-data').textContent));
  const bytes = doc.allocations.total.bytes - doc.allocations.not_attributed.bytes;
  await scrollTo(page, '#fg-canvas');
  await page.selectOption('#fg-metric', 'bytes'); await settle(page);
  await scrollTo(page, '#tl-canvas');
  const info = await page.evaluate(() => window.__xl.timeline());
  const box = await page.locator('#tl-canvas').boundingBox();
  const y = box.y + info.threads[0].rowsTop + 2;
  await page.mouse.move(box.x + info.plotLeft + info.width * 0.02, y); await page.mouse.down();
  await page.mouse.move(box.x + info.plotLeft + info.width * 0.98, y, { steps: 6 }); await page.mouse.up(); await settle(page);
  if (!check(`${name}: a drag across the timeline offers its window`, !(await page.$eval('#tl-window', (b) => b.hidden)))) return;
  await page.click('#tl-window'); await settle(page);
  let st = await state(page);
  let sel = await page.$eval('#fg-metric', (e) => ({ v: /** @type {HTMLSelectElement} */ (e).value, d: /** @type {HTMLSelectElement} */ (e).disabled }));
  check(`${name}: in a time window the width is elapsed time, the menu says so and waits`, st.metric === 'time' && sel.v === 'time' && sel.d, JSON.stringify([st.metric, sel]));
  const cells = await page.$$eval('#fn-body tr[data-f]', (rows) => rows.map((r) => Array.from(r.cells).slice(7, 10).map((c) => c.textContent)));
  check(`${name}: the window's allocation columns say "\u2014" (the timeline has no allocations)`, cells.length > 0 && cells.every((c) => c.length === 3 && c.every((t) => t === '\u2014')),
    JSON.stringify(cells.slice(0, 3)));
  // a click in the window's flame graph (a navigation) must not lose the whole run's metric
  await scrollTo(page, '#fg-canvas');
  const fr = (await page.evaluate(() => window.__xl.frames())).find((f) => f.depth === 1);
  if (fr) { await page.mouse.click(fr.x + Math.min(fr.w / 2, 20), fr.y + fr.h / 2); await settle(page); }
  check(`${name}: a click in the window's flame graph keeps metric=bytes in the address`, !!fr && (await state(page)).focusHash.includes('metric=bytes'),
    (await state(page)).focusHash);
  await page.click('#fg-window button'); await settle(page);
  st = await state(page);
  sel = await page.$eval('#fg-metric', (e) => ({ v: /** @type {HTMLSelectElement} */ (e).value, d: /** @type {HTMLSelectElement} */ (e).disabled }));
  check(`${name}: back on the whole run, the metric the address names (bytes) is drawn`, st.metric === 'bytes' && sel.v === 'bytes' && !sel.d && st.flameTotal === bytes,
    JSON.stringify([st.metric, sel, st.flameTotal, bytes]));
  await page.selectOption('#fg-metric', 'time'); await page.keyboard.press('z'); await settle(page);
}

async function allocChecks(name, page) {
  const sel = await page.$('#fg-metric');
  const doc = await page.evaluate(() => JSON.parse(document.getElementById('xl-data').textContent));
  const al = doc.allocations;
  const onPaths = al && al.recorded ? al.total.allocs - al.not_attributed.allocs : 0;
  if (!onPaths) { check(`${name}: no allocations on call paths, no width selector`, !sel); return; }
  if (!check(`${name}: the flame graph offers a width selector`, !!sel)) return;
  await scrollTo(page, '#fg-canvas');
  const want = { bytes: al.total.bytes - al.not_attributed.bytes, allocs: al.total.allocs - al.not_attributed.allocs,
    live: al.total.live_bytes - al.not_attributed.live_bytes };
  const timeTotal = (await state(page)).flameTotal;
  for (const m of ['bytes', 'allocs', 'live', 'time']) {
    await page.selectOption('#fg-metric', m); await settle(page);
    const st = await state(page);
    check(`${name}: width ${m} selected`, st.metric === m && st.focusHash.includes(m === 'time' ? 'thread=' : 'metric=' + m), st.focusHash);
    if (m === 'time') { check(`${name}: back to elapsed time`, st.flameTotal === timeTotal, `${st.flameTotal} vs ${timeTotal}`); continue; }
    check(`${name}: flame graph total in ${m} is the call paths' allocations`, st.flameTotal === want[m], `${st.flameTotal} vs ${want[m]}`);
    const title = await page.textContent('#xl-flame-h');
    check(`${name}: the flame graph's title names ${m}`, /heap/.test(title), title);
    if (m === 'live') {
      for (const [fn, n] of opt.expectLive) {
        const fs = (await frames(page)).filter((f) => f.name === fn);
        const sum = fs.reduce((s, f) => s + f.total_ns, 0);
        check(`${name}: ${fn} leaks ${n} bytes in the flame graph`, sum === n, `${sum}`);
      }
    }
  }
  if (opt.expectPeak.length || opt.expectPeakInv.length) await peakChecks(name, page);
  const heads = await page.$$eval('#fn-table th', (ths) => ths.map((t) => t.textContent));
  check(`${name}: function table has allocation columns`, ['Allocs', 'Allocated', 'Live at exit'].every((h) => heads.some((x) => x.startsWith(h))), heads.join('|'));
  const rows = await page.$$eval('#fn-table tbody tr.xl-row', (trs) => trs.length);
  check(`${name}: function table rows with allocations`, rows > 0);
  const mem = await page.evaluate(() => window.__xl.memory());
  const cum = doc.memory.samples.alloc_bytes || [];
  const grew = cum.some((v, i) => i > 0 && v > cum[i - 1]);
  check(`${name}: memory chart marks the largest allocation bursts`, grew ? mem.bursts.length > 0 : mem.bursts.length === 0, JSON.stringify(mem.bursts));
}

/* The memory chart's allocation-burst labels never meet (they did on loans: "+22.9 MiB" and
 * "+15.3 MiB" in neighbouring samples); with --expect-close-bursts the capture must have had two
 * bursts whose labels, each at its own band, would have met, so the check is of the real case. */
async function burstLabelChecks(name, page) {
  await scrollTo(page, '#mem-canvas');
  const mem = await page.evaluate(() => window.__xl.memory());
  const bs = mem.bursts || [];
  const meet = (p, q) => p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
  const pairs = [];
  for (let i = 0; i < bs.length; i++) for (let j = 0; j < i; j++) pairs.push([bs[i], bs[j]]);
  const hit = pairs.filter(([p, q]) => meet(p.label, q.label));
  check(`${name}: the memory chart's burst labels do not overlap (${bs.length} bursts)`, hit.length === 0, JSON.stringify(hit));
  if (!opt.closeBursts) return;
  const naive = (b) => ({ x: b.x0 + 3, y: b.label.y, w: b.label.w, h: b.label.h });
  const close = pairs.filter(([p, q]) => meet(Object.assign(naive(p), { y: 0 }), Object.assign(naive(q), { y: 0 })));
  check(`${name}: two bursts close enough for their labels to meet where they start`, close.length > 0,
    bs.map((b) => `+${b.bytes} at x ${b.x0.toFixed(0)}, label ${JSON.stringify(b.label)}`).join('; '));
}

/* A process tree (--expect-processes; the run is tests/progs/s-proctree.c, whose header gives each
 * process's calls): the process selector beside the thread selector lists every process; choosing
 * one shows its calls only in the table and the flame graph, puts #process=PID in the URL, and
 * Back returns to all processes merged; a URL with #process=PID opens on that process; the
 * processes table lists them and a click on a pid shows that process. */
async function processChecks(name, page, path) {
  const work = async () => { const row = (await tableRows(page)).find((r) => r[0] === 'work'); return row ? +row[1] : 0; };
  const want = opt.expectProcesses, sum = want.reduce((a, b) => a + b, 0);
  const opts = await page.$$eval('#fg-process option', (os) => os.map((o) => o.value));
  check(`${name}: a process selector with all processes merged and each process`, opts[0] === 'all' && opts.length === want.length + 1, opts.join(','));
  const thOpts = await page.$$eval('#fg-thread option', (os) => os.map((o) => o.textContent));
  check(`${name}: the thread selector names each thread's pid`, thOpts.filter((t) => /pid \d+/.test(t)).length === want.filter((n) => n > 0).length, thOpts.join(' | '));
  await scrollTo(page, '#fn-table');
  check(`${name}: all processes merged: work() ${sum} times`, (await work()) === sum, String(await work()));
  const got = [];
  for (const pid of opts.slice(1)) {
    await page.selectOption('#fg-process', pid); await settle(page);
    const st = await state(page), n = await work();
    got.push(n);
    check(`${name}: process ${pid}: the URL says it`, st.process === +pid && st.focusHash.includes('process=' + pid), st.focusHash);
    const names = new Set((await frames(page)).map((f) => f.name));
    // the started process's frames start at main, a forked child's at child() (work() is too narrow to
    // draw); a child that exec'd before any traced call has none
    check(`${name}: process ${pid}: the flame graph has its calls only`, names.has('process ' + pid) && (n === 0 ? names.size === 1 : names.has('main') !== names.has('child')), [...names].join(', '));
  }
  check(`${name}: each process's work() calls`, JSON.stringify(got.slice().sort((a, b) => a - b)) === JSON.stringify(want.slice().sort((a, b) => a - b)), got.join(','));
  await page.goBack(); await settle(page);
  check(`${name}: Back returns to the process before`, (await state(page)).process === +opts[opts.length - 2], String((await state(page)).process));
  await page.selectOption('#fg-process', 'all'); await settle(page);
  check(`${name}: all processes again: work() ${sum} times`, (await work()) === sum && (await state(page)).process === 'all');
  // a URL that names a process opens on it
  const pid = opts[1 + got.indexOf(Math.max(...got))];
  await page.goto(pathToFileURL(path).href + '#thread=all&process=' + pid); await settle(page);
  await page.waitForFunction(() => window.__xl && window.__xl.state().process !== 'all');
  check(`${name}: #process=${pid} opens on that process`, (await state(page)).process === +pid && (await page.$eval('#fg-process', (e) => e.value)) === pid
    && (await work()) === Math.max(...got));
  const rows = await page.$$eval('#xl-processes tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  check(`${name}: the processes table lists each process`, rows.length === want.length && opts.slice(1).every((p) => rows.includes(p)), rows.join(','));
  await page.click(`#xl-processes a:text-is("${opts[1]}")`); await settle(page);
  check(`${name}: a pid in the processes table shows that process`, (await state(page)).process === +opts[1]);
  // a search's matched share is of the process shown (it counted every process's frames: 494 %)
  await scrollTo(page, '#fg-canvas');
  await page.fill('#fg-search', '/^(main|child|work)$/'); await settle(page);
  const ms = (await state(page)).matchedShare;
  check(`${name}: a search in one process: its matched share is of that process (${ms.toFixed(3)})`, ms > 0 && ms <= 1 + 1e-9, String(ms));
  await page.fill('#fg-search', ''); await settle(page);
}

/* C++ names: every function's short name is at most 100 characters; every frame's label is its
 * short name, or an end of it (after "…": a narrow frame keeps the function's own name), or the
 * start of its own name cut with "…"; search finds a function by a piece of its full name that the short name
 * leaves out.  With --expect-short M: M's widest frame is labelled with a short name that ends in
 * M, hovering shows the full name, and selecting it puts the full name in the detail line. */
async function shortNameChecks(name, page) {
  const doc = await page.evaluate(() => JSON.parse(document.getElementById('xl-data').textContent));
  const long = doc.functions.filter((f) => typeof f.short_name !== 'string' || [...f.short_name].length > 100);
  check(`${name}: every function's short name is at most 100 characters`, long.length === 0, long.map((f) => f.short_name).join(' | ').slice(0, 400));
  await scrollTo(page, '#fg-canvas');
  const fs = (await frames(page)).filter((f) => f.func >= 0 && f.label);
  const odd = fs.filter((f) => {
    const core = f.label.replace(/^\u2026/, '').replace(/\u2026$/, '');
    return !(f.short.includes(core) && (f.label.endsWith('\u2026') || f.short.endsWith(core)));
  });
  check(`${name}: frames are labelled with their short names (${fs.length} labelled)`, fs.length > 0 && odd.length === 0, odd.map((f) => f.label + ' / ' + f.short).join(' | ').slice(0, 400));
  if (!opt.expectShort.length) return;
  const hidden = doc.functions.map((f) => /\w*_abi_v\d+\w*/.exec(f.name)).find((m) => m);
  if (check(`${name}: full names hold an ABI namespace the short names leave out`, !!hidden && !doc.functions.some((f) => f.short_name.includes(hidden[0])))) {
    await page.fill('#fg-search', hidden[0]); await settle(page);
    const st = await state(page);
    check(`${name}: searching a piece of the full names only (${hidden[0]}) finds frames`, st.matchedFrames > 0, JSON.stringify(st.matchedFrames));
    await page.fill('#fg-search', ''); await settle(page);
  }
  for (const m of opt.expectShort) {
    const own = (f) => f.short.endsWith('::' + m) || f.short.endsWith(m + '<\u2026>');
    const f = (await frames(page)).filter((x) => x.func >= 0 && own(x) && x.label).sort((a, b) => b.w - a.w)[0];
    if (!check(`${name}: a labelled frame of ${m}`, !!f, '')) continue;
    const full = doc.functions[f.func].name;
    check(`${name}: ${m}'s frame is labelled ${JSON.stringify(f.label)}, with ${m}`, f.label.includes(m) && f.short.length <= 100 && full.length > f.short.length, `${f.short} (full: ${full.length} characters)`);
    await page.mouse.move(f.x + Math.min(f.w / 2, 30), f.y + f.h / 2); await settle(page);
    const title = await page.textContent('#xl-tip .xl-tip-title');
    const tipFull = (await page.$('#xl-tip-full')) ? await page.textContent('#xl-tip-full') : '';
    check(`${name}: hovering ${m}'s frame shows its short name and its full name`, title === f.short && tipFull === full, `${title} / ${tipFull.slice(0, 200)}`);
    await page.mouse.move(2, 2);
    await clickFrame(page, f);
    const det = (await page.$('#fg-detail-full')) ? await page.textContent('#fg-detail-full') : '';
    check(`${name}: selecting ${m} puts its full name in the detail line`, det === full && (await page.textContent('#fg-detail-name')) === f.short, det.slice(0, 200));
    await page.goBack(); await settle(page);
  }
}

/* Peak live bytes per call path (--expect-peak, --expect-peak-inverted; the figures come from the
 * program's own allocation pattern, tests/progs/s-allocpeak.c): each frame's peak and the number
 * of call paths it counts, the tooltip saying so with an allocation metric and not with elapsed
 * time. A frame merging several paths (threads merged; bottom-up, a function's callers) shows the
 * largest of their peaks. */
async function peakChecks(name, page) {
  const peaksOf = (fs, fn) => fs.filter((f) => f.name === fn).map((f) => f.peak + '/' + f.peakPaths).sort((a, b) => parseFloat(a) - parseFloat(b)).join(',');
  await page.selectOption('#fg-metric', 'bytes'); await settle(page);
  let fs = await frames(page);
  for (const [fn, want] of opt.expectPeak) check(`${name}: ${fn}'s frames have peaks ${want}`, peaksOf(fs, fn) === want, peaksOf(fs, fn));
  const tipOf = async (f) => {
    await page.mouse.move(f.x + Math.min(f.w / 2, 20), f.y + f.h / 2); await settle(page);
    const t = (await page.isVisible('#xl-tip')) ? await page.textContent('#xl-tip') : '';
    await page.mouse.move(2, 2); await settle(page);
    return t;
  };
  const merged = fs.filter((f) => f.peakPaths > 1).sort((a, b) => b.w - a.w)[0];
  const single = fs.filter((f) => f.peakPaths === 1).sort((a, b) => b.w - a.w)[0];
  if (check(`${name}: a frame merges several call paths' peaks`, !!merged && !!single)) {
    let t = await tipOf(merged);
    check(`${name}: ${merged.name}'s tooltip gives the largest of ${merged.peakPaths} paths' peaks`, t.includes('Peak live') && t.includes(`largest of ${merged.peakPaths} call paths`), t);
    t = await tipOf(single);
    check(`${name}: ${single.name}'s tooltip gives its path's peak`, t.includes('Peak live') && t.includes('its own allocations'), t);
    await page.selectOption('#fg-metric', 'time'); await settle(page);
    const ft = (await frames(page)).find((f) => f.name === single.name);
    t = ft ? await tipOf(ft) : '';
    check(`${name}: with elapsed time the tooltip has no peak`, !!ft && t.includes('Calls') && !t.includes('Peak live'), t);
    await page.selectOption('#fg-metric', 'bytes'); await settle(page);
  }
  if (opt.expectPeakInv.length) {
    await page.check('#fg-invert'); await settle(page);
    fs = (await frames(page)).filter((f) => f.depth === 1);
    for (const [fn, want] of opt.expectPeakInv) check(`${name}: bottom-up, ${fn}'s frame has peak ${want}`, peaksOf(fs, fn) === want, peaksOf(fs, fn));
    await page.uncheck('#fg-invert'); await settle(page);
  }
}

/* Generic checks for reports produced by exaloop. */
async function realReport(path, label) {
  const name = label || basename(dirname(path)) + '-' + basename(path, '.html');
  const bytes = statSync(path).size;
  console.log(`     ${name}: ${path} is ${(bytes / 1024).toFixed(0)} KiB`);
  if (opt.maxBytes) check(`${name}: report is smaller than ${(opt.maxBytes / 1048576).toFixed(1)} MiB`, bytes < opt.maxBytes, `${bytes} bytes`);
  const r = await open(path);
  const hasTree = await r.page.evaluate(() => !!document.getElementById('fg-canvas'));
  const c = await common(name, r, { expectFrames: hasTree });
  if (hasTree) {
    await scrollTo(r.page, '#fg-canvas');
    const fs = await frames(r.page);
    const target = fs.filter((f) => f.depth === 1).sort((a, b) => b.w - a.w)[0];
    if (target) {
      await clickFrame(r.page, target);
      const st = await state(r.page);
      check(`${name}: clicking a frame focuses it`, st.focus.at(-1) === target.name, st.focus.join(' > '));
      await r.page.goBack(); await settle(r.page);
      check(`${name}: Back restores the root`, (await state(r.page)).focus.length === 1);
    }
  }
  if (opt.expectText.length) {
    // visible text only: the embedded JSON is escaped and must not count
    const text = await r.page.evaluate(() => {
      const out = [];
      const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, { acceptNode: (n) => (n.parentElement.closest('script,style,noscript') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT) });
      for (let n = w.nextNode(); n; n = w.nextNode()) out.push(n.nodeValue);
      return out.join('\n') + '\n' + document.title;
    });
    for (const t of opt.expectText) check(`${name}: shows ${JSON.stringify(t)} as text`, text.includes(t));
    const fs = await frames(r.page);
    check(`${name}: flame graph draws the capture's names`, fs.length > 0, fs.map((f) => f.name).join(', '));
  }
  if (await r.page.$('#tl-zoom-data')) {
    await r.page.click('#tl-zoom-data'); await settle(r.page);
    const tl = await r.page.evaluate(() => window.__xl.timeline());
    check(`${name}: zooming to the recorded calls draws them`, tl.threads.some((t) => t.drawn > 0), tl.threads.map((t) => t.drawn).join(','));
    await r.page.keyboard.press('z');
  }
  if (hasTree) await allocChecks(name, r.page);
  if (hasTree) await windowMetricChecks(name, r.page);
  if (opt.expectProcesses) await processChecks(name, r.page, path);
  await burstLabelChecks(name, r.page);
  if (hasTree) await shortNameChecks(name, r.page);
  if (opt.expectLines) await sourceChecks(name, r.page);
  if (opt.expectSampledTiming) await sampledTimingChecks(name, r.page);
  if (hasTree) await callCostChecks(name, r.page);
  const mem = await r.page.evaluate(() => window.__xl.memory());
  console.log('     memory series: ' + mem.series.map((s) => `${s.key}=${s.available ? s.points + ' pts' : 'unavailable (' + s.reason + ')'}`).join(', '));
  await c.finish();
}

/* The whole-run timeline and the window views on a real capture (--timeline-prog progs/phases.c):
 * two threads of 310,005 calls each, in bursts separated by rests, so the calls of a window between
 * the rests are known exactly (see the program's header). */
async function timelineWindow() {
  const name = 'timeline-window';
  const dir = mkdtempSync(join(tmpdir(), 'xl-browser-'));
  try {
    // a buffer that holds every call, and "first": the auto timeline thins a busy run's calls, and the
    // window counts here must be exact
    writeFileSync(join(dir, 'exaloop.toml'), `[targets.ph]\nsource = ${JSON.stringify(opt.timelineProg)}\nbuild_args = ["-lpthread"]\n[targets.ph.profile]\nbuffer_size = "256MiB"\ntimeline = "first"\n`);
    let res = spawnSync(opt.exaloop, ['--no-open', '--profile', '--target', 'ph', 'run'], { cwd: dir, encoding: 'utf8', timeout: 300000 });
    if (!check(`${name}: profiled run finished`, res.status === 0, `status ${res.status}; ${(res.stderr || '').trim().split('\n').slice(-3).join(' | ')}`)) return;
    const cap = readdirSync(join(dir, 'profiles')).map((d) => join(dir, 'profiles', d))[0];
    const out = join(opt.out, name + '.html');
    res = spawnSync(opt.exaloop, ['profile', 'report', cap, '--timeline-calls', '1000000', '-o', out], { encoding: 'utf8', timeout: 300000 });
    if (!check(`${name}: report written`, res.status === 0, (res.stderr || '').trim())) return;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const out = join(opt.out, name + '.html');
  console.log(`     ${name}: ${out} is ${(statSync(out).size / 1048576).toFixed(1)} MiB`);
  // where each thread rested, from the embedded document (the same numbers the page reads)
  const html = readFileSync(out, 'utf8');
  const doc = JSON.parse(html.match(/<script type="application\/json" id="xl-data">([\s\S]*?)<\/script>/)[1]);
  const fi = (n) => doc.functions.findIndex((f) => f.name === n);
  const rests = doc.timeline.threads.map((th) => {
    let t = 0;
    const starts = th.start_gap_ns.map((g) => (t += g));
    return starts.map((s, k) => [s, s + th.dur_ns[k], th.func[k]]).filter((c) => c[2] === fi('rest'));
  });
  check(`${name}: two threads, two rests each in the timeline`, rests.length === 2 && rests.every((r) => r.length === 2), JSON.stringify(rests));
  const mid = (i) => { const from = Math.max(...rests.map((r) => r[i][0])), to = Math.min(...rests.map((r) => r[i][1])); return from + (to - from) / 2; };
  const t0 = mid(0), t1 = mid(1), restEnd = Math.max(...rests.map((r) => r[1][1]));

  const r = await open(out);
  const { page } = r;
  const c = await common(name, r);
  await scrollTo(page, '#tl-canvas');
  const tl = async () => page.evaluate(() => window.__xl.timeline());
  let info = await tl();
  check(`${name}: a lane of 310,005 calls per thread, all of them kept`, info.threads.length === 2 && info.threads.every((t) => t.events === 310005 && t.recorded === 310005 && t.minDurNs === 0),
    info.threads.map((t) => `${t.events}/${t.recorded} min ${t.minDurNs}`).join(', '));
  check(`${name}: lane headers say how many calls`, info.threads.every((t) => t.head.includes('310,005 calls')), info.threads.map((t) => t.head).join(' | '));
  check(`${name}: the whole run is drawn (calls after the second rest too)`, info.threads.every((t) => t.drawn > 0 && t.dataTo > restEnd), info.threads.map((t) => `${t.drawn} blocks to ${t.dataTo}`).join(', '));
  // level of detail: the blocks drawn in a row are bounded by the plot's width, not by the calls
  const bounded = (inf) => inf.threads.every((t) => t.maxRowBlocks <= 2 * inf.width + 2);
  check(`${name}: whole run: blocks per row bounded by the width`, bounded(info), info.threads.map((t) => `${t.maxRowBlocks} blocks (${t.merged} merged) in ${Math.round(info.width)} px`).join(', '));

  const rect = await page.$eval('#tl-canvas', (e) => { const b = e.getBoundingClientRect(); return { left: b.left, top: b.top }; });
  const xOf = (inf, t) => rect.left + inf.plotLeft + (t - inf.from) / (inf.to - inf.from) * inf.width;
  const y = rect.top + info.threads[0].rowsTop + 2;
  const drag = async (x0, x1) => { await page.mouse.move(x0, y); await page.mouse.down(); await page.mouse.move(x1, y, { steps: 6 }); await page.mouse.up(); await settle(page); };
  const timings = [];
  const frame = async (what) => {
    const st = await page.evaluate(() => window.__xl.stats());
    const inf = await tl();
    timings.push(`${what} ${st.tlDrawMs.toFixed(1)} ms`);
    check(`${name}: ${what}: blocks per row bounded by the width`, bounded(inf), inf.threads.map((t) => `${t.maxRowBlocks} in ${Math.round(inf.width)} px`).join(', '));
    return inf;
  };
  // zoom into the first burst of tick_a, deeper, then pan: each frame is measured (printed, not asserted)
  const a0 = Math.min(...rests.map((r) => r[0][0]));
  await drag(xOf(info, a0 * 0.2), xOf(info, a0 * 0.6)); info = await frame('zoom in');
  await drag(xOf(info, info.from + (info.to - info.from) * 0.4), xOf(info, info.from + (info.to - info.from) * 0.45)); info = await frame('zoom in again');
  await page.keyboard.down('Shift'); await page.mouse.move(rect.left + 400, y); await page.mouse.wheel(0, 300); await page.keyboard.up('Shift'); await settle(page);
  const panned = await frame('pan');
  check(`${name}: Shift+wheel pans at the same zoom`, panned.from > info.from && Math.abs((panned.to - panned.from) - (info.to - info.from)) < 1, `${info.from}..${info.to} -> ${panned.from}..${panned.to}`);
  console.log(`     ${name}: frames after a zoom or pan with 2 x 310,005 calls: ${timings.join(', ')} (the issue's target: under 50 ms; measured, not asserted)`);
  await page.keyboard.press('z'); await settle(page);
  check(`${name}: no window button before a drag`, await page.$eval('#tl-window', (b) => b.hidden));

  // brush from inside both threads' first rest to inside their second: the calls there are known
  info = await tl();
  await drag(xOf(info, t0), xOf(info, t1));
  const tv = (await state(page)).timeView;
  check(`${name}: dragging zooms the axis to the brushed span`, tv && Math.abs(tv[0] - t0) < 2e6 && Math.abs(tv[1] - t1) < 2e6, JSON.stringify(tv) + ` want ${t0}..${t1}`);
  const btn = await page.textContent('#tl-window');
  check(`${name}: the drag offers to show the window`, !(await page.$eval('#tl-window', (b) => b.hidden)) && btn.startsWith('Show '), btn);
  await page.click('#tl-window'); await settle(page);
  const counts = async () => Object.fromEntries((await tableRows(page)).map((row) => [row[0], +row[1]]));
  let got = await counts();
  const want = { tick_b: 120000, burst: 2, rest: 4, phases: 2, main: 1, worker: 1 };
  check(`${name}: the window's table counts the calls inside it exactly`, Object.entries(want).every(([k, v]) => got[k] === v) && !got.tick_a,
    JSON.stringify(got));
  const label = await page.textContent('#fn-window');
  check(`${name}: the table says where its numbers come from`, label.includes('From the timeline: every recorded call, ') && !(await page.$eval('#fn-window', (e) => e.hidden)), label.slice(0, 160));
  check(`${name}: the flame graph says it too`, !(await page.$eval('#fg-window', (e) => e.hidden)));
  await scrollTo(page, '#fg-canvas');
  const names = new Set((await frames(page)).map((f) => f.name));
  check(`${name}: the window's flame graph has burst and tick_b, no tick_a`, names.has('burst') && names.has('tick_b') && !names.has('tick_a'), [...names].join(', '));
  const wst = await page.evaluate(() => window.__xl.stats());
  console.log(`     ${name}: window views recomputed in ${wst.windowMs.toFixed(1)} ms`);
  // the window's views follow the thread choice and inversion like the whole run's
  const tid = doc.threads[0].index;
  await page.selectOption('#fg-thread', String(tid)); await settle(page);
  got = await counts();
  check(`${name}: one thread's window: its own calls`, got.tick_b === 60000 && got.burst === 1 && got.rest === 2 && got.phases === 1 && !got.tick_a, JSON.stringify(got));
  await page.keyboard.press('i'); await settle(page);
  const inv = await frames(page);
  check(`${name}: the window's inverted flame graph draws`, (await state(page)).inverted && inv.some((f) => f.name === 'tick_b'), inv.map((f) => f.name).join(', '));
  await page.keyboard.press('i'); await page.selectOption('#fg-thread', 'all'); await settle(page);
  await page.click('#fg-window button'); await settle(page);
  got = await counts();
  check(`${name}: back to the whole run: every call again`, got.tick_a === 500000 && got.tick_b === 120000 && got.rest === 4, JSON.stringify(got));
  check(`${name}: the window labels are gone`, await page.$eval('#fn-window', (e) => e.hidden));
  await c.finish();
}

const started = Date.now();
try {
  if (opt.exaloop && opt.timelineProg) {
    await timelineWindow();
  } else if (opt.exaloop) {
    const p = runExaloop();
    if (p) await realReport(p, basename(p, '.html'));
  } else if (opt.reports.length) {
    for (const p of opt.reports) await realReport(p);
  } else {
    const names = opt.only || ALL;
    for (const n of names) {
      if (!TESTS[n]) { console.error('unknown fixture ' + n + ' (known: ' + ALL.join(', ') + ')'); counts.failed++; continue; }
      console.log(`# ${n}`);
      try { await TESTS[n](); } catch (e) { check(`${n}: test ran to completion`, false, e.stack.split('\n').slice(0, 4).join(' | ')); }
    }
  }
} finally {
  await browser.close();
}
console.log(`# ${((Date.now() - started) / 1000).toFixed(1)} s`);
done();
