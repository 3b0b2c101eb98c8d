#!/usr/bin/env node
// Build a self-contained report the way the C emitter does: substitute the three markers of
// src/report/report.html with report.css, the script and the escaped JSON document.  The script
// is the files src/report/js/report.js.list names, concatenated in its order (the list the build's
// embed step reads, with the same rules: blank lines and lines starting with # skipped).
//
//   node assemble.mjs fixture.json out.html
//
// The substitution is done in ONE pass over the template (the inserted texts are never scanned
// again), so a function name that happens to contain a marker cannot be expanded.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const REPORT_DIR = resolve(here, '../../src/report');
export const MARKERS = { css: '/*@XL_CSS@*/', js: '/*@XL_JS@*/', data: '@XL_DATA@' };
/* The CSP nonce: twice in the CSP, and on the <style> and <script> elements. */
export const NONCE_MARK = '@XL_NONCE@';

/* JSON text that cannot close its <script> element nor be cut by a line separator. */
export function escapeJson(jsonText) {
  return jsonText
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/* The script's files, in order (absolute paths). */
export function scriptFiles(dir = REPORT_DIR) {
  const list = join(dir, 'js', 'report.js.list');
  return readFileSync(list, 'utf8').split('\n').map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#')).map((l) => join(dir, 'js', l));
}

export function loadSources(dir = REPORT_DIR) {
  return {
    html: readFileSync(join(dir, 'report.html'), 'utf8'),
    css: readFileSync(join(dir, 'report.css'), 'utf8'),
    js: scriptFiles(dir).map((f) => readFileSync(f, 'utf8')).join(''),
  };
}

/* Checks the emitter relies on; throws with a clear message. */
export function checkSources({ html, css, js }) {
  for (const [name, m] of Object.entries(MARKERS)) {
    const n = html.split(m).length - 1;
    if (n !== 1) throw new Error(`report.html must contain ${m} exactly once (found ${n})`);
    if (css.includes(m) || js.includes(m)) throw new Error(`marker ${m} (${name}) must not appear in report.css / the script`);
  }
  const nn = html.split(NONCE_MARK).length - 1;
  if (nn !== 4) throw new Error(`report.html must contain ${NONCE_MARK} 4 times (found ${nn})`);
  if (css.includes(NONCE_MARK) || js.includes(NONCE_MARK)) throw new Error(`${NONCE_MARK} must not appear in report.css / the script`);
  if (/<\/script/i.test(js) || /<!--/.test(js) || /<script/i.test(js)) throw new Error('the script must not contain "</script", "<script" or "<!--"');
  if (/<\/style/i.test(css)) throw new Error('report.css must not contain "</style"');
  if (/[\u2028\u2029]/.test(js)) throw new Error('the script must not contain raw U+2028/U+2029');
}

export function assemble(jsonText, sources = loadSources()) {
  checkSources(sources);
  JSON.parse(jsonText); // must be valid JSON
  const data = escapeJson(jsonText);
  // The nonce goes into the template only, before the one pass below.
  const html = sources.html.split(NONCE_MARK).join(randomBytes(16).toString('hex'));
  const found = [];
  for (const [key, m] of Object.entries(MARKERS)) found.push({ key, m, at: html.indexOf(m) });
  found.sort((a, b) => a.at - b.at);
  let out = '', pos = 0;
  for (const f of found) {
    out += html.slice(pos, f.at);
    out += f.key === 'css' ? sources.css : f.key === 'js' ? sources.js : data;
    pos = f.at + f.m.length;
  }
  return out + html.slice(pos);
}

/* The JSON document embedded in an existing report (to re-template it with current sources). */
export function extractJson(reportHtml) {
  const open = '<script type="application/json" id="xl-data">';
  const a = reportHtml.indexOf(open);
  const b = a < 0 ? -1 : reportHtml.indexOf('</script>', a);
  if (a < 0 || b < 0) throw new Error('no xl-data element in this report');
  return reportHtml.slice(a + open.length, b);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args = process.argv.slice(2);
  const rebuild = args[0] === '--rebuild';
  if (rebuild) args = args.slice(1);
  const [inPath, outPath] = args;
  if (!inPath || !outPath) {
    console.error('usage: node assemble.mjs fixture.json out.html\n       node assemble.mjs --rebuild old-report.html out.html   (same data, current report sources)');
    process.exit(2);
  }
  const text = readFileSync(inPath, 'utf8');
  const html = assemble(rebuild ? extractJson(text) : text);
  writeFileSync(outPath, html);
  console.log(`${outPath}: ${html.length} bytes`);
}
