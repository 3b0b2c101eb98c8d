// @ts-check
/* page skeleton: the sections, in the order the page shows them */

function section(id, title, extra) {
  return el('section', { class: 'xl-card', id, 'aria-labelledby': id + '-h' }, [
    el('div', { class: 'xl-card-head' }, [el('h2', { id: id + '-h', text: title }), extra || null]),
  ]);
}

function buildPage() {
  const app = $('xl-app');
  app.textContent = '';
  const run = profileDoc.run;
  const prog = run.program != null ? String(run.program) : '(unknown program)';
  document.title = 'exaloop profile \u2014 ' + disp(prog, 200);
  const navBtn = (label, target) => el('button', { class: 'xl-navlink', type: 'button', text: label, onclick: () => { const t = $(target); if (t) t.scrollIntoView({ behavior: 'smooth', block: 'start' }); } });
  app.appendChild(el('header', { class: 'xl-top' }, [
    el('div', { class: 'xl-brand' }, [el('span', { class: 'xl-logo', 'aria-hidden': 'true' }), el('span', { class: 'xl-brand-name', text: 'exaloop' }), el('span', { class: 'xl-brand-sub', text: 'profile' })]),
    el('div', { class: 'xl-top-prog', id: 'xl-prog', title: disp(prog, 4000), text: disp(prog, 300) }),
    el('nav', { class: 'xl-nav', 'aria-label': 'Sections' }, [
      navBtn('Summary', 'xl-summary'), callTree ? navBtn('Flame graph', 'xl-flame') : null, callTree ? navBtn('Functions', 'xl-functions') : null,
      navBtn('Memory', 'xl-memory'), timelineData ? navBtn('Timeline', 'xl-timeline-wrap') : null,
      el('button', { class: 'xl-help-btn', type: 'button', title: 'Keyboard shortcuts (?)', 'aria-label': 'Keyboard shortcuts', text: '?', onclick: () => toggleHelp() }),
    ]),
  ]));
  const main = el('main', { class: 'xl-main' });
  app.appendChild(main);
  main.appendChild(buildSummary());
  if (callTree) { main.appendChild(buildFlameSection()); main.appendChild(buildTableSection()); }
  else {
    const empty = section('xl-flame', 'Call paths');
    empty.classList.add('xl-empty');
    empty.appendChild(el('p', { text: 'This capture has no function trace' + (run.mode === 'memory' ? ' (memory-only mode: use --profile or --profile=xray to trace functions).' : '.') }));
    main.appendChild(empty);
  }
  main.appendChild(buildMemorySection());
  main.appendChild(el('footer', { class: 'xl-foot' }, [
    el('span', { text: disp(profileDoc.generator || 'exaloop') + ' \u00b7 ' + disp(profileDoc.schema || 'unknown schema') }),
    el('span', { text: 'Self-contained report: no network access. Press ? for keyboard shortcuts.' }),
  ]));
  app.appendChild(buildHelp());
  app.appendChild(el('div', { id: 'xl-tip', class: 'xl-tip', role: 'tooltip', hidden: true }));
  app.appendChild(el('div', { id: 'xl-toast', class: 'xl-toast', role: 'status' }));
}
