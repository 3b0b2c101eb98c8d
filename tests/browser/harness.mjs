// What the browser tests (report.test.mjs, diff.test.mjs) share: the skip rules, Chromium's launch,
// the check counter and the probes every page they open gets.
import { existsSync } from 'node:fs';

/* Headless Chromium at `path` through playwright-core; when either is missing, exit 77 (CTest:
 * skipped) saying what to install. */
export async function launchChromium(path) {
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    console.log('SKIP: playwright-core is not installed (run `npm ci` in tests/browser)');
    process.exit(77);
  }
  if (!existsSync(path)) {
    console.log(`SKIP: Chromium not found at ${path} (set CHROMIUM=/path/to/chromium)`);
    process.exit(77);
  }
  return chromium.launch({
    executablePath: path,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
}

export const counts = { passed: 0, failed: 0 };
export function check(name, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail !== undefined && detail !== '' ? ' \u2014 ' + detail : ''}`);
  if (ok) counts.passed++; else counts.failed++;
  return ok;
}
/* Print the counts and exit: 0 when every check passed, else 1. */
export function done() {
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed ? 1 : 0);
}

/* Watch a page before it loads url: its console errors and warnings, page errors, requests for
 * anything but the page itself, dialogs (dismissed) go to the returned log; CSP violations and
 * every element matching the selector `bad` ever inserted, even if removed again (markup injected
 * from data), to window.__probe {csp, created}. */
export async function watch(page, url, bad) {
  const log = { console: [], errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') log.console.push(m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('request', (r) => { const u = r.url(); if (u.split('#')[0] !== url) log.requests.push(u); });
  page.on('dialog', (d) => { log.dialogs.push(d.type() + ': ' + d.message()); d.dismiss().catch(() => {}); });
  await page.addInitScript((BAD) => {
    window.__probe = { csp: [], created: [] };
    document.addEventListener('securitypolicyviolation', (e) => window.__probe.csp.push(e.violatedDirective + ' ' + e.blockedURI));
    new MutationObserver((muts) => {
      for (const m of muts) for (const n of m.addedNodes) {
        if (n.nodeType !== 1) continue;
        for (const b of n.matches(BAD) ? [n] : n.querySelectorAll(BAD)) window.__probe.created.push(b.tagName);
      }
    }).observe(document, { childList: true, subtree: true });
  }, bad);
  return log;
}
