#!/usr/bin/env node
// Browser test of the HTML diff page (exaloop profile diff --html), driven by playwright-core and the
// system Chromium, on pages the real emitter wrote:
//
//   node diff.test.mjs --exaloop ../../build/bin/exaloop
//
// It builds tests/progs/s-diff.c twice (plain, and with hot() doing 3x the work) from a source file
// whose name is markup, captures one run of each, and writes the diff both ways.  Checks: the page runs
// with no console error, CSP violation, network request, dialog or injected element; the flame graph
// colours hot() red when it got slower and blue when it got faster (the sign of the change in total
// time), the hover shows both values, the table ranks hot() first with the sign's colour, both memory
// series share the chart; and, with the document's names replaced by hostile markup inside the same
// page, every name stays text.  Options: --chromium PATH, --out DIR (pages and screenshots, default
// ./artifacts).  Exit status: 0 passed, 1 a check failed, 77 skipped (playwright-core or Chromium
// missing), 2 usage error.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { escapeJson } from './assemble.mjs';
import { EVIL } from './fixtures/make-fixtures.mjs';
import { check, done, launchChromium, watch } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = { exaloop: null, chromium: process.env.CHROMIUM || '/usr/bin/chromium', out: join(here, 'artifacts') };
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--exaloop') opt.exaloop = resolve(argv[++i]);
  else if (argv[i] === '--chromium') opt.chromium = argv[++i];
  else if (argv[i] === '--out') opt.out = resolve(argv[++i]);
  else { console.error('usage: node diff.test.mjs --exaloop PATH [--chromium PATH] [--out DIR]'); process.exit(2); }
}
if (!opt.exaloop) { console.error('--exaloop PATH is required'); process.exit(2); }
const browser = await launchChromium(opt.chromium);
mkdirSync(opt.out, { recursive: true });

/* ------------------------------------------------------------------ pages from the real CLI */
const work = mkdtempSync(join(tmpdir(), 'xl-diff-browser-'));
const SRCNAME = '<img src=x onerror=alert(1)>.c';
copyFileSync(resolve(here, '../progs/s-diff.c'), join(work, SRCNAME));
function xl(args) {
  const p = spawnSync(opt.exaloop, args, { cwd: work, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  if (p.status !== 0) { console.log(`FAIL exaloop ${args.join(' ')} exited ${p.status}: ${p.stderr}`); process.exit(1); }
  return p;
}
xl(['--profile', 'build', '-release', SRCNAME, '-o', 'base']);
xl(['--profile', 'build', '-release', '-DSLOW=3', SRCNAME, '-o', 'slow']);
const caps = [];
for (const exe of ['base', 'slow']) {
  xl(['profile', 'exec', './' + exe, '6']);
  const dir = join(work, 'cap-' + exe);
  const latest = spawnSync('sh', ['-c', 'ls -d profiles/capture-* | tail -1'], { cwd: work, encoding: 'utf8' }).stdout.trim();
  spawnSync('mv', [latest, dir], { cwd: work });
  caps.push(dir);
}
const fwd = join(opt.out, 'diff-slower.html'), rev = join(opt.out, 'diff-faster.html'), hostile = join(opt.out, 'diff-hostile.html');
xl(['profile', 'diff', caps[0], caps[1], '--html', '-o', fwd]);
xl(['profile', 'diff', caps[1], caps[0], '--html', '-o', rev]);

/* The same page with hostile names in its document (the emitter's html-safe escaping). */
{
  const page = readFileSync(fwd, 'utf8');
  const open = '<script type="application/json" id="xd-data">';
  const a = page.indexOf(open) + open.length, b = page.indexOf('</script>', a);
  const doc = JSON.parse(page.slice(a, b));
  // in both names: the page shows short_name, hover the full name
  doc.functions.forEach((f, i) => { f.name = f.short_name = i === 0 ? EVIL : f.name + '"><b onmouseover=alert(1)>' + i; f.file = EVIL + '.c'; });
  doc.base.program = EVIL;
  doc.new.captures = [EVIL];
  writeFileSync(hostile, page.slice(0, a) + escapeJson(JSON.stringify(doc)) + page.slice(b));
}

/* ------------------------------------------------------------------ browser */
async function open(path, name) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const url = pathToFileURL(path).href;
  // Markup from the names (the memory chart is the page's own <svg>).
  const log = await watch(page, url, 'img,iframe,object,embed,math,base,form,video,audio,frame,template,b');
  await page.goto(url);
  await page.waitForSelector('.xd-frame', { timeout: 30000 });
  const finish = async () => {
    const probe = await page.evaluate(() => window.__probe);
    const scripts = await page.evaluate(() => document.getElementsByTagName('script').length);
    check(`${name}: no CSP violation`, probe.csp.length === 0, probe.csp.join(', '));
    check(`${name}: no element injected`, probe.created.length === 0 && scripts === 2, probe.created.join(',') + ` scripts=${scripts}`);
    check(`${name}: no console errors`, log.console.length === 0, log.console.slice(0, 3).join(' | '));
    check(`${name}: no page errors`, log.errors.length === 0, log.errors.slice(0, 3).join(' | '));
    check(`${name}: no network requests`, log.requests.length === 0, log.requests.slice(0, 3).join(' | '));
    check(`${name}: no dialogs`, log.dialogs.length === 0, log.dialogs.join(' | '));
    await page.screenshot({ path: join(opt.out, name + '.png'), fullPage: true });
    await context.close();
  };
  return { page, finish };
}

const rgb = (s) => (s.match(/\d+(\.\d+)?/g) || []).slice(0, 3).map(Number);
async function frame(page, name) {
  return page.evaluate((n) => {
    const f = [...document.querySelectorAll('.xd-frame')].find((e) => e.textContent === n);
    if (!f) return null;
    const r = f.getBoundingClientRect();
    return { change: +f.dataset.change, bg: getComputedStyle(f).backgroundColor, x: r.x, y: r.y, w: r.width, h: r.height };
  }, name);
}

for (const [path, name, sign] of [[fwd, 'diff-slower', 1], [rev, 'diff-faster', -1]]) {
  const { page, finish } = await open(path, name);
  const hot = await frame(page, 'hot');
  check(`${name}: hot() has a frame`, !!hot);
  if (hot) {
    const [r, , b] = rgb(hot.bg);
    check(`${name}: hot's change in total time has the expected sign`, Math.sign(hot.change) === sign, String(hot.change));
    check(`${name}: hot's colour follows the sign (${sign > 0 ? 'red' : 'blue'})`, sign > 0 ? r > b + 40 : b > r + 40, hot.bg);
    await page.mouse.move(hot.x + Math.min(hot.w / 2, 30), hot.y + hot.h / 2);
    const tip = await page.textContent('.xd-tip');
    check(`${name}: hover shows both values`, /base .* new /.test(tip) && tip.includes('hot'), tip);
  }
  const root = await frame(page, 'all threads');
  check(`${name}: the root frame spans the graph`, root && root.w > 1000, root && String(root.w));
  const firstRow = await page.$$eval('table.xd-table tbody tr', (rows) => rows.length ? [rows[0].cells[0].firstChild.textContent, rows[0].cells[4].className] : null);
  check(`${name}: the table ranks hot first`, firstRow && firstRow[0] === 'hot', JSON.stringify(firstRow));
  check(`${name}: its change has the sign's colour`, firstRow && firstRow[1] === (sign > 0 ? 'xd-up' : 'xd-down'), firstRow && firstRow[1]);
  const lines = await page.$$eval('svg.xd-mem polyline', (ls) => ls.map((l) => l.dataset.side + ':' + l.dataset.series));
  check(`${name}: both memory series on the chart`, lines.includes('base:rss') && lines.includes('new:rss'), lines.join(' '));
  const title = await page.$eval('table.xd-table tbody tr td', (td) => td.title);
  check(`${name}: the markup-named source file is plain text (a title)`, title.includes('/' + SRCNAME + ':'), title);
  await page.click('.xd-table th[data-col="1"]');
  const sorted = await page.$$eval('table.xd-table tbody tr', (rows) => rows.map((r) => r.cells[1].textContent));
  check(`${name}: a column header sorts the table`, sorted.length >= 4, sorted.join(', '));
  const hotFrame = await frame(page, 'hot');
  if (hotFrame) {
    await page.mouse.click(hotFrame.x + 5, hotFrame.y + hotFrame.h / 2);
    const zoomed = await frame(page, 'hot');
    check(`${name}: clicking a frame zooms to it`, zoomed && zoomed.w > 1000, zoomed && String(zoomed.w));
  }
  await finish();
}

{
  const { page, finish } = await open(hostile, 'diff-hostile');
  const names = await page.$$eval('table.xd-table tbody tr', (rows) => rows.map((r) => r.cells[0].firstChild.textContent));
  check('diff-hostile: a hostile function name is shown as text in the table', names.includes(EVIL), names[0]);
  check('diff-hostile: every markup name is text', names.filter((n) => n.includes('<b onmouseover')).length === names.length - 1, String(names.length));
  const frameNames = await page.$$eval('.xd-frame', (fs) => fs.map((f) => f.textContent));
  check('diff-hostile: the flame graph shows the hostile name as text', frameNames.includes(EVIL), frameNames.slice(0, 4).join(' | '));
  const text = await page.textContent('#xd-app');
  check('diff-hostile: the hostile program name is text in the header', text.includes(EVIL));
  await finish();
}

await browser.close();
rmSync(work, { recursive: true, force: true });
done();
