// @ts-check
/* theme: colours read from the stylesheet's custom properties (light or dark scheme) */

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
let palette = {};
const colorCache = new Map();
function isDark() { return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches; }
function readTheme() {
  const cs = getComputedStyle(document.documentElement);
  const v = (n) => cs.getPropertyValue(n).trim();
  palette = {
    dark: isDark(), text: v('--text'), muted: v('--muted'), grid: v('--grid'), axis: v('--axis'), bg: v('--card'),
    accent: v('--accent'), frameText: v('--frame-text'), dimText: v('--frame-dim-text'),
    rss: v('--s-rss'), profiler_rss: v('--s-prof'), gc_heap: v('--s-heap'), gc_free: v('--s-free'), gc_occupied: v('--s-occ'), gc: v('--s-gc'),
    outside: v('--shade-outside'), partial: v('--shade-partial'), warnBand: v('--shade-warn'), brush: v('--brush'),
  };
  colorCache.clear();
}
function frameColor(name) {
  let c = colorCache.get(name);
  if (c) return c;
  const h = hashStr(name);
  const hue = 6 + (h % 44), sat = (palette.dark ? 52 : 68) + ((h >>> 8) % 18), lit = (palette.dark ? 52 : 62) + ((h >>> 16) % 12);
  c = 'hsl(' + hue + ',' + sat + '%,' + lit + '%)';
  if (colorCache.size > 50000) colorCache.clear();
  colorCache.set(name, c);
  return c;
}
const NEUTRAL = () => (palette.dark ? 'hsl(220,9%,40%)' : 'hsl(220,12%,82%)');
const DIM = () => (palette.dark ? 'hsl(220,8%,24%)' : 'hsl(220,10%,91%)');
const MATCH = () => (palette.dark ? 'hsl(278,52%,62%)' : 'hsl(278,62%,70%)');
const SELECT = () => (palette.dark ? 'hsl(200,70%,55%)' : 'hsl(200,80%,62%)');
