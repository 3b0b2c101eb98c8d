#!/usr/bin/env node
// The report on a big real capture (issue 25): Lua 5.4.7's own test suite under exaloop, whose
// report holds a call tree of about 265,000 nodes (4.7 MB).  It measures and PRINTS how long the
// page takes to load and draw, and how long a click on a flame-graph frame and a search take to
// the next painted frame; the times are never asserted (the machine may be busy).  What it
// asserts is the behaviour: the click focuses and selects the frame, Back restores the root, and
// the search highlights exactly the frames of the matching functions (counted again from the
// embedded document).
//
//   node bigreport.test.mjs --exaloop ../../build/bin/exaloop      build Lua, capture its suite, check
//   node bigreport.test.mjs --report path/to/index.html             an existing report instead
//
// Options: --lua DIR (Lua's sources; default $XL_REALWORLD_LUA or shared/realworld/lua-5.4.7 beside
// the checkout), --chromium PATH, --out DIR (default ./artifacts), --repeat N (loads, clicks and
// searches measured; default 3), --cpu-profile (record each step with Chromium's CPU profiler,
// write artifacts/bigreport-*.cpuprofile and print the functions with the most self time).
// Exit status: 0 passed, 1 a check failed, 77 skipped (no Lua sources, playwright-core or
// Chromium missing), 2 usage error.
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { extractJson } from './assemble.mjs';
import { check, done, launchChromium, watch } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = {
  exaloop: null, report: null, out: join(here, 'artifacts'), chromium: process.env.CHROMIUM || '/usr/bin/chromium', repeat: 3, cpuProfile: false,
  lua: process.env.XL_REALWORLD_LUA || resolve(here, '../../../shared/realworld/lua-5.4.7'),
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--exaloop') opt.exaloop = resolve(argv[++i]);
  else if (a === '--report') opt.report = resolve(argv[++i]);
  else if (a === '--lua') opt.lua = resolve(argv[++i]);
  else if (a === '--chromium') opt.chromium = argv[++i];
  else if (a === '--out') opt.out = resolve(argv[++i]);
  else if (a === '--repeat') opt.repeat = Math.max(1, +argv[++i] || 1);
  else if (a === '--cpu-profile') opt.cpuProfile = true;
  else { console.error('unknown argument ' + a + ' (see the comment at the top of bigreport.test.mjs)'); process.exit(2); }
}
if (!opt.report && !opt.exaloop) { console.error('give --exaloop PATH (capture Lua\'s suite) or --report PATH'); process.exit(2); }
if (!opt.report && !existsSync(join(opt.lua, 'lua.c'))) {
  console.log(`SKIP: Lua's sources are not at ${opt.lua} (shared/realworld beside the checkout; XL_REALWORLD_LUA or --lua overrides), so the big capture cannot be made`);
  process.exit(77);
}
mkdirSync(opt.out, { recursive: true });

/* Build Lua with exaloop and capture its test suite, as realworld.lua does; returns the report's
 * path (copied to artifacts/), or null after a failed check. */
function captureLua() {
  const dir = mkdtempSync(join(tmpdir(), 'xl-bigreport-'));
  try {
    const src = join(dir, 'lua');
    cpSync(opt.lua, src, { recursive: true });
    const sources = readdirSync(src).filter((f) => f.endsWith('.c') && f !== 'onelua.c').sort();
    const env = { ...process.env, CI: '1', EXALOOP_CACHE_DIR: join(dir, 'cache') };
    const run = (args, cwd) => {
      console.log(`     $ exaloop ${args.join(' ')}   (in ${cwd})`);
      const t0 = Date.now();
      const r = spawnSync(opt.exaloop, args, { cwd, env, encoding: 'utf8', timeout: 900000, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
      console.log(`     -> ${r.status} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return r;
    };
    let r = run(['--profile', 'build', '-release', '-std=c99', '-DLUA_USE_LINUX', ...sources, '-lm', '-ldl', '-o', 'lua'], src);
    if (!check('lua: exaloop build', r.status === 0, (r.stderr || '').trim().split('\n').slice(-5).join(' | '))) return null;
    const testes = join(src, 'testes');
    r = run(['--no-open', 'profile', 'exec', '../lua', '-e_U=true', 'all.lua'], testes);
    if (!check('lua suite: captured run exits 0 and ends with "final OK !!!"', r.status === 0 && r.stdout.includes('final OK !!!'), (r.stderr || '').trim().split('\n').slice(-4).join(' | '))) return null;
    const prof = join(testes, 'profiles');
    const caps = existsSync(prof) ? readdirSync(prof).filter((d) => existsSync(join(prof, d, 'index.html'))) : [];
    if (!check('lua suite: wrote profiles/capture-*/index.html', caps.length === 1, caps.join(','))) return null;
    const kept = join(opt.out, 'bigreport-lua.html');
    copyFileSync(join(prof, caps[0], 'index.html'), kept);
    return kept;
  } finally {
    rmSync(dir, { recursive: true, force: true });   // the capture file alone is about 50 MB
  }
}

/* In the page, from before its script runs: waitPaint(event, cond) resolves, after the next
 * painted frame at which cond() holds, with the milliseconds since the next `event` (its
 * timeStamp; 0: since navigation), or with -1 when cond() still fails 20 s after the call.
 * "After the painted frame" is a message posted from a requestAnimationFrame callback: it runs
 * once that frame's rendering is done. */
function pageProbe() {
  const mc = new MessageChannel();
  let waiter = null;
  mc.port1.onmessage = () => {
    if (!waiter) return;
    let ok = false;
    try { ok = waiter.t0 !== null && waiter.cond(); } catch (e) { ok = false; }
    if (ok) { const w = waiter; waiter = null; w.resolve(performance.now() - w.t0); }
    else if (performance.now() - waiter.since > 20000) { const w = waiter; waiter = null; w.resolve(-1); }
    else requestAnimationFrame(tick);
  };
  const tick = () => mc.port2.postMessage(0);
  window.__waitPaint = (event, condSrc) => new Promise((resolve) => {
    // eslint-disable-next-line no-new-func
    waiter = { t0: event ? null : 0, since: performance.now(), cond: new Function('return (' + condSrc + ')')(), resolve };
    if (event) {
      const on = (e) => { if (waiter && waiter.t0 === null) { waiter.t0 = e.timeStamp; waiter.begin = window.__xl.stats().draws; } window.removeEventListener(event, on, true); };
      window.addEventListener(event, on, true);
    }
    requestAnimationFrame(tick);
  });
  window.__waitBegin = () => (waiter ? waiter.begin : 0);
  window.__loaded = window.__waitPaint('', '() => window.__xl && window.__xl.stats().startup.drawn > 0');
}

const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const ms = (xs) => xs.map((x) => x.toFixed(0)).join(', ') + ` ms (median ${median(xs).toFixed(0)} ms)`;
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/* CPU profiles (--cpu-profile): the functions with the most self time, printed. */
async function profiled(page, label, action) {
  if (!opt.cpuProfile) return action();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const out = await action();
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync(join(opt.out, `bigreport-${label}.cpuprofile`), JSON.stringify(profile));
  const self = new Map(), byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id), cf = n.callFrame;
    const key = (cf.functionName || '(anonymous)') + (cf.lineNumber >= 0 ? ':' + (cf.lineNumber + 1) : '');
    self.set(key, (self.get(key) || 0) + (dt[i + 1] || 0) / 1000);
  });
  const top = [...self.entries()].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 12);
  console.log(`     cpu profile of ${label}: ` + top.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ') + ' (ms self)');
  await cdp.detach();
  return out;
}

async function openReport(browser, url, label) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
  await context.addInitScript(pageProbe);
  const page = await context.newPage();
  const log = await watch(page, url, 'img,iframe,object,embed,svg,math,base,form,video,audio,source,frame,frameset,template');
  const t0 = Date.now();
  const inPage = await profiled(page, label, async () => {
    await page.goto(url);
    return page.evaluate(() => window.__loaded);
  });
  return { context, page, log, inPage, driver: Date.now() - t0 };
}

/* Functions whose full or short name contains q (case-insensitive), as the report matches a plain
 * query, and the call-tree nodes (all threads) of those functions: the frames the search counts. */
function expectedMatches(doc, q) {
  const ql = q.toLowerCase();
  const fns = new Set();
  doc.functions.forEach((fn, f) => { if (String(fn.name).toLowerCase().includes(ql) || String(fn.short_name || '').toLowerCase().includes(ql)) fns.add(f); });
  const nodes = doc.tree.func.filter((f) => fns.has(f)).length;
  return { fns, nodes };
}

async function clickAndMeasure(page, target) {
  // the draw that shows the new focus: the view node focused at the flame graph's last draw
  await page.evaluate((v) => { window.__click = window.__waitPaint('click', `() => window.__xl.stats().drawnFocus === ${v} && window.__xl.stats().draws > window.__waitBegin()`); }, target.node);
  await page.mouse.click(target.x + Math.min(target.w / 2, 40), target.y + target.h / 2);
  return page.evaluate(() => window.__click);
}

async function searchAndMeasure(page, q) {
  await page.evaluate((q) => { window.__search = window.__waitPaint('input', `() => window.__xl.stats().drawnSearch === ${JSON.stringify(q)}`); }, q);
  await page.fill('#fg-search', q);
  return page.evaluate(() => window.__search);
}

const browser = await launchChromium(opt.chromium);
const started = Date.now();
try {
  const path = opt.report || captureLua();
  if (path) await measure(path);
} catch (e) {
  check('bigreport: test ran to completion', false, e.stack.split('\n').slice(0, 4).join(' | '));
} finally {
  await browser.close();
}
console.log(`# ${((Date.now() - started) / 1000).toFixed(1)} s`);
done();

async function measure(path) {
  const html = readFileSync(path, 'utf8');
  const doc = JSON.parse(extractJson(html));
  const url = pathToFileURL(path).href;
  console.log(`     ${path}: ${statSync(path).size} bytes, ${doc.tree.func.length} call-tree nodes, ${doc.functions.length} functions`);
  check('bigreport: a big capture (over 100,000 call-tree nodes)', doc.tree.func.length > 100000, String(doc.tree.func.length));

  // loading: from navigation to the painted frame after the first that drew every view
  const loads = [], driver = [], phases = [];
  for (let i = 0; i < opt.repeat; i++) {
    const r = await openReport(browser, url, 'load');
    if (!check(`bigreport: load ${i + 1} drew every view`, r.inPage >= 0)) { await r.context.close(); return; }
    loads.push(r.inPage); driver.push(r.driver);
    const ph = (await r.page.evaluate(() => window.__xl.stats())).startup || {};
    let prev = 0;
    phases.push(['script', 'load', 'page', 'views', 'drawn'].filter((k) => ph[k]).map((k) => { const d = ph[k] - prev; prev = ph[k]; return `${k} ${d.toFixed(0)}`; }).join(', ') + `, painted ${(r.inPage - prev).toFixed(0)}`);
    if (i < opt.repeat - 1) await r.context.close();
    else await interact(r, doc);
  }
  console.log(`     bigreport: loaded and drawn in ${ms(loads)} in the page (navigation start to painted frame); ${ms(driver)} as the driver sees it (measured, not asserted; issue 25's target: 1 s)`);
  console.log(`     bigreport: where the load went (ms): ${phases.join(' | ')} (script: the HTML parsed up to the script; load: the embedded JSON parsed and its columns; page: the sections built; views: flame view, table and matches; drawn: the first frame's drawing; painted: that frame laid out and painted)`);
}

async function interact(r, doc) {
  const { page, log } = r;
  await page.waitForFunction(() => window.__xl.ready);
  await page.$eval('#fg-canvas', (e) => e.scrollIntoView({ block: 'start' }));
  await settle(page);
  const err = await page.evaluate(() => window.__xl.error);
  check('bigreport: report started without error', !err, err || '');
  const W = await page.$eval('#fg-scroll', (e) => e.clientWidth);
  const frames = () => page.evaluate(() => window.__xl.frames());

  // clicks: the widest frames at depths 2, 3 and 4; each focuses and selects its frame, Back returns
  const clicks = [];
  for (let i = 0; i < opt.repeat; i++) {
    const depth = 2 + (i % 3);
    const fs = await frames();
    const target = fs.filter((f) => f.depth === depth && f.func >= 0).sort((a, b) => b.w - a.w)[0];
    if (!check(`bigreport: a frame at depth ${depth} to click`, !!target)) break;
    const t = await profiled(page, 'click', () => clickAndMeasure(page, target));
    if (t >= 0) clicks.push(t);
    check(`bigreport: a frame drawn with ${target.short} focused was painted after the click`, t >= 0);
    const st = await page.evaluate(() => window.__xl.state());
    const after = await frames();
    const foc = after.find((f) => f.focused);
    check(`bigreport: click on ${target.short} (depth ${depth}) focuses it`, st.focus.length === depth + 1 && st.focus.at(-1) === target.name && foc && foc.node === target.node, st.focus.slice(1).join(' > '));
    check(`bigreport: ...draws it across the whole width`, foc && foc.x <= after[0].x + 1 && foc.w >= W - 2, foc ? `${foc.w} of ${W} px` : 'not drawn');
    check(`bigreport: ...and selects its function`, st.selectedFunc === target.func && (await page.textContent('#fg-detail-name')) !== '', String(st.selectedFunc));
    check(`bigreport: ...its children are drawn below it, inside it`, after.some((f) => f.depth === depth + 1) && after.filter((f) => f.depth === depth + 1).every((f) => f.x >= foc.x - 0.5 && f.x + f.w <= foc.x + foc.w + 0.5));
    if (st.focus.length > 1) {
      await page.goBack();
      await page.waitForFunction(() => window.__xl.state().focus.length === 1);
    }
    await settle(page);
  }
  if (clicks.length) console.log(`     bigreport: click on a flame-graph frame to the next painted frame: ${ms(clicks)} (measured, not asserted; target 100 ms)`);

  // searches: each highlights the frames of the functions it matches, and only those
  const queries = ['luaH_', 'gc', 'str_', 'luaV_execute', 'zz-no-such-function'].slice(0, Math.max(opt.repeat, 2) + 2);
  const searches = [];
  for (const q of queries) {
    const t = await profiled(page, 'search', () => searchAndMeasure(page, q));
    if (t >= 0) searches.push(t);
    check(`bigreport: a frame drawn with the search "${q}" was painted`, t >= 0);
    const st = await page.evaluate(() => window.__xl.state());
    const want = expectedMatches(doc, q);
    const drawn = (await frames()).filter((f) => f.func >= 0);
    const wrong = drawn.filter((f) => f.matched !== want.fns.has(f.func));
    check(`bigreport: search "${q}" counts the call paths of the matching functions`, st.matchedFrames === want.nodes, `${st.matchedFrames}, expected ${want.nodes}`);
    check(`bigreport: search "${q}" highlights exactly the matching functions' frames`, wrong.length === 0 && (want.nodes === 0 || drawn.some((f) => f.matched)),
      `${drawn.filter((f) => f.matched).length} of ${drawn.length} drawn frames highlighted` + (wrong.length ? `; wrong: ${wrong.slice(0, 3).map((f) => f.name).join(', ')}` : ''));
    const info = await page.textContent('#fg-match');
    check(`bigreport: search "${q}" says what it found`, want.nodes ? info.includes(' in ') && info.includes('of total') : info === 'no match', info);
  }
  await page.fill('#fg-search', '');
  await settle(page);
  check('bigreport: clearing the search highlights nothing', (await frames()).every((f) => !f.matched));
  if (searches.length) console.log(`     bigreport: search to the next painted frame: ${ms(searches)} (measured, not asserted; target 100 ms)`);

  check('bigreport: no console errors or warnings', log.console.length === 0, log.console.slice(0, 5).join(' | '));
  check('bigreport: no page errors', log.errors.length === 0, log.errors.slice(0, 5).join(' | '));
  check('bigreport: no network requests', log.requests.length === 0, log.requests.slice(0, 5).join(' | '));
  await r.context.close();
}
