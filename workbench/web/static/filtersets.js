// The Filter sets view of sluice's workbench: lists, creates, edits and
// deletes the stored filter sets through /v1/filter-sets, shows the
// validator's problems beside their lines, and compares two sets on a data
// set (POST /v1/filter-sets/NAME/evaluate, then GET /v1/jobs/ID) in a table
// and a bar chart drawn here as SVG. Plain JavaScript, no libraries.
'use strict';
(function () {
  const wb = window.sluiceWorkbench;
  const { $, showError, status, when, fail } = wb;
  if (!$('fs-app')) return; // a server without a store
  const text = $('text'), gutter = $('gutter'), marks = $('marks');
  const LINE = 20; // px: the editor's line height (workbench.css)
  const SVG = 'http://www.w3.org/2000/svg';
  const COLORS = ['#0b57d0', '#d35400'];
  const TEMPLATE = 'version = 1\nname = "my-set"\ndescription = "link quota, then the block-tag extractor"\nfilter = "lqf>bte"\n';
  let editing = null; // the name of the set in the editor; null for a new one
  let sets = [];

  // api sends a request with the token, if any, and returns the decoded
  // answer (null for none); an error answer throws (see wb.send).
  async function api(method, path, body, type) {
    const resp = await wb.send(method, path, body, type);
    if (resp.status === 204) return null;
    try { return await resp.json(); } catch (e) { return null; /* not JSON */ }
  }

  wb.tokenForm('filter sets', () => refresh());

  // --- the list ---

  function cell(tr, content) {
    const td = document.createElement('td');
    if (content instanceof Node) td.append(content); else td.textContent = content;
    tr.append(td);
    return td;
  }

  function renderList() {
    const body = $('sets').tBodies[0];
    body.replaceChildren();
    for (const s of sets) {
      const tr = document.createElement('tr');
      tr.dataset.name = s.name;
      if (s.name === editing) tr.className = 'current';
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = s.name;
      if (s.description) th.title = s.description;
      tr.append(th);
      cell(tr, 'v' + s.version);
      const code = document.createElement('code');
      code.textContent = s.error ? 'does not read: ' + s.error : (s.filter || s.summary);
      cell(tr, code);
      cell(tr, when(s.updated));
      const edit = document.createElement('button');
      edit.type = 'button';
      edit.className = 'secondary small';
      edit.textContent = 'Edit';
      edit.setAttribute('aria-label', 'Edit ' + s.name);
      edit.addEventListener('click', () => openSet(s.name));
      cell(tr, edit);
      body.append(tr);
    }
    $('no-sets').hidden = sets.length > 0;
    $('sets').hidden = sets.length === 0;
  }

  function fillSelects() {
    ['set-a', 'set-b'].forEach((id, i) => {
      const sel = $(id), was = sel.value;
      sel.replaceChildren(...sets.map((s) => new Option(`${s.name} (v${s.version})`, s.name)));
      if (sets.some((s) => s.name === was)) sel.value = was;
      else if (sets.length > i) sel.selectedIndex = i;
    });
    // Two different sets when there are two: B moves off A's.
    const a = $('set-a'), b = $('set-b');
    if (a.value === b.value && sets.length > 1) b.value = sets.find((s) => s.name !== a.value).name;
  }

  async function refresh() {
    try {
      const d = await api('GET', '/v1/filter-sets');
      sets = d.filter_sets;
      renderList();
      fillSelects();
    } catch (e) { fail('Listing the filter sets', e); }
  }

  // --- the editor ---

  // renderLines numbers the lines, marking those with problems.
  function renderLines(problems) {
    const n = text.value.split('\n').length;
    const bad = new Set((problems || []).map((p) => p.line));
    const frag = document.createDocumentFragment();
    for (let i = 1; i <= n; i++) {
      const d = document.createElement('div');
      d.textContent = i;
      if (bad.has(i)) d.className = 'bad';
      frag.append(d);
    }
    gutter.replaceChildren(frag);
    syncScroll();
  }

  let problems = [];

  // showProblems puts each problem beside its line, and lists them all
  // (as buttons that move the cursor there) for the keyboard and screen
  // readers.
  function showProblems(list) {
    problems = list || [];
    const inner = document.createElement('div');
    inner.className = 'marks-inner';
    const byLine = new Map();
    for (const p of problems) {
      if (p.line < 1) continue;
      if (!byLine.has(p.line)) byLine.set(p.line, []);
      byLine.get(p.line).push(p);
    }
    for (const [line, ps] of byLine) {
      const m = document.createElement('div');
      m.className = 'mark';
      m.dataset.line = line;
      m.style.top = (line - 1) * LINE + 'px';
      m.textContent = ps.map((p) => `⚠ ${p.col ? 'col ' + p.col + ': ' : ''}${p.message}`).join('  ');
      m.title = m.textContent;
      inner.append(m);
    }
    if (!problems.length) {
      const hint = document.createElement('div');
      hint.className = 'hint';
      hint.textContent = 'Problems show here, beside their line, when a save is refused.';
      inner.append(hint);
    }
    marks.replaceChildren(inner);
    marks.classList.remove('stale');
    const ol = $('problems');
    ol.replaceChildren();
    for (const p of problems) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'link';
      b.textContent = p.line ? `line ${p.line}, column ${p.col}` : 'the file';
      b.addEventListener('click', () => caretTo(p.line, p.col));
      li.append(b, ': ' + p.message);
      ol.append(li);
    }
    ol.hidden = problems.length === 0;
    text.setAttribute('aria-invalid', problems.length ? 'true' : 'false');
    renderLines(problems);
  }

  function syncScroll() {
    gutter.scrollTop = text.scrollTop;
    const inner = marks.firstChild;
    if (inner) inner.style.transform = `translateY(${-text.scrollTop}px)`;
  }

  // caretTo moves the cursor to a line and column (1-based, in
  // characters) of the file.
  function caretTo(line, col) {
    const lines = text.value.split('\n');
    let off = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) off += lines[i].length + 1;
    if (line >= 1 && line <= lines.length) off += Array.from(lines[line - 1]).slice(0, Math.max(col - 1, 0)).join('').length;
    text.focus();
    text.setSelectionRange(off, off);
    text.scrollTop = Math.max(0, (line - 3) * LINE);
    syncScroll();
  }

  function setEditor(name, body, format) {
    editing = name;
    text.value = body;
    $('format').value = format || 'toml';
    $('editor-title').textContent = name ? 'Edit ' + name : 'New set';
    $('delete').hidden = !name;
    $('history-box').hidden = !name;
    showProblems([]);
    renderList();
  }

  async function openSet(name, version) {
    showError('');
    try {
      const q = version ? '?version=' + version : '';
      const s = await api('GET', '/v1/filter-sets/' + encodeURIComponent(name) + q);
      setEditor(name, s.text, s.format);
      status(version ? `Version ${version} of ${name} is in the editor: saving makes it the latest.` : `Editing ${name}, version ${s.version}.`);
      await loadHistory(name, s.version);
      text.focus();
    } catch (e) { fail('Opening ' + name, e); }
  }

  async function loadHistory(name, shown) {
    const d = await api('GET', '/v1/filter-sets/' + encodeURIComponent(name) + '/versions');
    const ol = $('history');
    ol.replaceChildren();
    for (const v of d.versions.slice().reverse()) {
      const li = document.createElement('li');
      li.dataset.version = v.version;
      if (v.version === shown) li.className = 'current';
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'link';
      b.textContent = 'v' + v.version;
      b.setAttribute('aria-label', `Open version ${v.version}`);
      b.addEventListener('click', () => openSet(name, v.version));
      const what = document.createElement('code');
      what.textContent = v.filter || v.summary || '';
      li.append(b, ` · ${when(v.created)} · `, what);
      ol.append(li);
    }
  }

  async function save() {
    showError('');
    const format = $('format').value;
    const type = format === 'json' ? 'application/json' : 'application/toml';
    const path = editing ? '/v1/filter-sets/' + encodeURIComponent(editing) : '/v1/filter-sets';
    $('save').disabled = true;
    status('Saving…');
    try {
      const s = await api(editing ? 'PUT' : 'POST', path, text.value, type);
      showProblems([]);
      editing = s.name;
      $('editor-title').textContent = 'Edit ' + s.name;
      $('delete').hidden = false;
      $('history-box').hidden = false;
      status(`Saved ${s.name}, version ${s.version}.`);
      await refresh();
      await loadHistory(s.name, s.version);
    } catch (e) {
      if (e.status === 422 && e.body && e.body.errors) {
        showProblems(e.body.errors);
        const n = e.body.errors.length;
        showError(`Not saved: the set has ${n === 1 ? 'a problem' : n + ' problems'}, shown beside ${n === 1 ? 'its line' : 'their lines'} and listed under the editor.`);
        status('');
      } else fail('Saving', e);
    } finally {
      $('save').disabled = false;
    }
  }

  text.addEventListener('input', () => {
    marks.classList.add('stale');
    renderLines(problems);
  });
  text.addEventListener('scroll', syncScroll);
  text.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); save(); }
  });
  $('save').addEventListener('click', save);
  $('new-set').addEventListener('click', () => {
    setEditor(null, TEMPLATE, 'toml');
    status('A new set: give it a name and a filter, then save.');
    text.focus();
  });

  // --- delete, after a confirmation ---

  $('delete').addEventListener('click', () => {
    $('confirm-text').textContent = `“${editing}” and all its versions will be deleted. Its evaluation runs stay.`;
    $('confirm').returnValue = '';
    $('confirm').showModal();
  });
  $('confirm').addEventListener('close', async () => {
    if ($('confirm').returnValue !== 'delete') { $('delete').focus(); return; }
    const name = editing;
    try {
      await api('DELETE', '/v1/filter-sets/' + encodeURIComponent(name));
      setEditor(null, TEMPLATE, 'toml');
      status(`Deleted ${name}.`);
      await refresh();
      $('new-set').focus();
    } catch (e) { fail('Deleting ' + name, e); }
  });

  // --- compare ---

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  // progressLine shows one job's state.
  function progressLine(i, name, job) {
    let p = $('progress').children[i];
    if (!p) {
      p = document.createElement('div');
      p.append(document.createElement('span'), document.createElement('progress'));
      $('progress').append(p);
    }
    const pr = job.progress || {};
    p.firstChild.textContent = `${i ? 'B' : 'A'}: ${name} v${job.version}: ${job.status}` + (pr.total ? `, ${pr.done} of ${pr.total} pages ` : ' ');
    p.lastChild.max = pr.total || 1;
    p.lastChild.value = pr.done || 0;
    p.lastChild.setAttribute('aria-label', `progress of ${name}`);
  }

  async function compare(ev) {
    ev.preventDefault();
    showError('');
    const names = [$('set-a').value, $('set-b').value];
    const data = $('data').value.trim(), limit = Number($('limit').value) || 0;
    if (!names[0] || !names[1]) return showError('Compare needs two stored sets: save them first.');
    if (names[0] === names[1]) return showError('Choose two different sets to compare.');
    if (!data) { $('data').focus(); return showError('Name a data set folder (inside the server\'s --data-root).'); }
    $('compare').disabled = true;
    $('results').hidden = true;
    $('progress').replaceChildren();
    try {
      const body = JSON.stringify({ data, limit });
      let jobs = [];
      for (const n of names) jobs.push(await api('POST', `/v1/filter-sets/${encodeURIComponent(n)}/evaluate`, body, 'application/json'));
      jobs.forEach((j, i) => progressLine(i, names[i], j));
      const final = (j) => !['queued', 'running'].includes(j.status);
      while (!jobs.every(final)) {
        await sleep(400);
        jobs = await Promise.all(jobs.map((j) => (final(j) ? j : api('GET', '/v1/jobs/' + j.id))));
        jobs.forEach((j, i) => progressLine(i, names[i], j));
      }
      const bad = jobs.find((j) => j.status !== 'done');
      if (bad) throw new Error(`the evaluation of ${bad.filter_set} ended ${bad.status}${bad.error ? ': ' + bad.error : ''}`);
      showResults(names, jobs);
    } catch (e) {
      fail('Comparing', e);
    } finally {
      $('compare').disabled = false;
    }
  }
  $('compare-form').addEventListener('submit', compare);

  const pct = (v) => (100 * v).toFixed(1);

  function showResults(names, jobs) {
    const body = $('prf').tBodies[0];
    body.replaceChildren();
    jobs.forEach((j, i) => {
      const r = j.result, mi = r.score.micro, ma = r.score.macro;
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      const sw = document.createElement('span');
      sw.className = 'swatch';
      sw.style.background = COLORS[i];
      th.append(sw, ` ${names[i]} v${j.version}`);
      tr.append(th);
      cell(tr, r.metric);
      cell(tr, String(r.pages) + (r.failed ? ` (${r.failed} failed)` : ''));
      for (const v of [mi.precision, mi.recall, mi.f1, ma.precision, ma.recall, ma.f1]) cell(tr, pct(v)).className = 'n';
      body.append(tr);
    });
    const f = jobs.map((j) => j.result.score.micro.f1);
    drawChart(names, jobs.map((j) => j.result.score.micro));
    $('results').hidden = false;
    let verdict = `both have an F1 of ${pct(f[0])} %`;
    if (f[0] !== f[1]) {
      const best = f[0] > f[1] ? 0 : 1;
      body.rows[best].classList.add('best');
      verdict = `${names[best]} has the higher F1, ${pct(f[best])} % against ${pct(f[1 - best])} %`;
    }
    $('verdict').textContent = `On ${jobs[0].result.data_set} (${jobs[0].result.pages} pages): ${verdict}.`;
  }

  function svg(name, attrs, textContent) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (textContent !== undefined) e.textContent = textContent;
    return e;
  }

  // drawChart draws grouped bars: precision, recall and F1, one bar per
  // set in each group, on a 0 to 100 % axis.
  function drawChart(names, scores) {
    const W = 560, H = 270, left = 44, top = 50, bottom = 30, plotH = H - top - bottom;
    const keys = [['precision', 'precision'], ['recall', 'recall'], ['f1', 'F1']];
    const groupW = (W - left - 10) / keys.length, barW = 46;
    const desc = names.map((n, i) => `${n}: precision ${pct(scores[i].precision)} %, recall ${pct(scores[i].recall)} %, F1 ${pct(scores[i].f1)} %`).join('; ');
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': 'Bar chart. ' + desc });
    for (let t = 0; t <= 4; t++) {
      const y = top + plotH - (t / 4) * plotH;
      root.append(svg('line', { x1: left, x2: W - 10, y1: y, y2: y, class: 'grid' }));
      root.append(svg('text', { x: left - 6, y: y + 4, 'text-anchor': 'end', class: 'axis' }, `${t * 25}%`));
    }
    keys.forEach(([k, label], g) => {
      const gx = left + g * groupW + (groupW - names.length * barW - 8) / 2;
      names.forEach((n, i) => {
        const v = scores[i][k], h = v * plotH, x = gx + i * (barW + 8), y = top + plotH - h;
        const bar = svg('rect', { x, y, width: barW, height: Math.max(h, 1), fill: COLORS[i] });
        bar.append(svg('title', {}, `${n}: ${label} ${pct(v)} %`));
        root.append(bar, svg('text', { x: x + barW / 2, y: y - 5, 'text-anchor': 'middle', class: 'val' }, pct(v)));
      });
      root.append(svg('text', { x: left + g * groupW + groupW / 2, y: H - 8, 'text-anchor': 'middle', class: 'axis' }, label));
    });
    names.forEach((n, i) => {
      const x = left + i * 180;
      root.append(svg('rect', { x, y: 6, width: 12, height: 12, fill: COLORS[i] }), svg('text', { x: x + 18, y: 17, class: 'legend' }, n));
    });
    $('chart').replaceChildren(root);
  }

  setEditor(null, TEMPLATE, 'toml');
  refresh();
})();
