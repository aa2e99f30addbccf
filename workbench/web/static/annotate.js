// The Annotate view of sluice's workbench: Victor's annotation tool in the
// browser. Projects of pages (/v1/projects), each page's blocks
// pre-labelled by the model and labelled here from the keyboard (h p l c o,
// as in Victor's tool), shown on the page in a sandboxed frame and as a
// list; labels saved with PUT .../labels; export (Victor's format, the
// html/ + ann/ data set) and training (POST /v1/train, GET /v1/train/ID,
// GET /v1/models). Plain JavaScript, no libraries.
'use strict';
(function () {
  const wb = window.sluiceWorkbench;
  const { $, showError, status, when, fail } = wb;
  const app = $('an-app');
  if (!app) return; // a server without a store
  const LETTERS = { h: 'heading', p: 'paragraph', l: 'list', c: 'continuation', o: 'other' };
  const SHORT = { heading: 'h', paragraph: 'p', list: 'l', continuation: 'c', other: 'o' };
  let projects = [], project = null; // the projects, the one chosen
  let pages = [], pageIdx = -1;       // its pages, the one open
  let progress = null;                // the project's progress
  let blocks = [], labels = [], cur = 0; // the open page's blocks, their labels ({label, mine, dirty}), the current one

  const kib = (n) => n < 1024 ? n + ' bytes' : (n / 1024).toFixed(1) + ' KiB';
  const pid = () => project && project.id;
  const request = wb.send;
  async function api(method, path, body) {
    const resp = await request(method, path, body === undefined ? undefined : JSON.stringify(body), body === undefined ? '' : 'application/json');
    return resp.status === 204 ? null : resp.json();
  }

  wb.tokenForm('annotation projects', () => loadProjects());

  // --- projects ---

  async function loadProjects(choose) {
    try {
      projects = (await api('GET', '/v1/projects')).projects;
    } catch (e) { return fail('Listing the projects', e); }
    const sel = $('project');
    sel.replaceChildren(...projects.map((p) => new Option(p.name, p.id)));
    if (!projects.length) sel.append(new Option('(none yet: create one)', ''));
    const want = choose || Number(sessionStorage.getItem('sluice-annotate-project'));
    if (projects.some((p) => p.id === want)) sel.value = want;
    await chooseProject();
    if (!projects.length) openProjectForm(true);
  }

  async function chooseProject() {
    project = projects.find((p) => String(p.id) === $('project').value) || null;
    pages = []; pageIdx = -1;
    closePage();
    if (!project) return renderProject(null);
    sessionStorage.setItem('sluice-annotate-project', project.id);
    $('model-name').value = project.name + '-' + new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
    await refreshPages();
    loadModels();
    resumeRun();
    const first = pages.findIndex((p) => !p.complete);
    if (pages.length) openPage(first < 0 ? 0 : first, false);
  }
  $('project').addEventListener('change', chooseProject);

  // refreshPages reads the project's pages and progress.
  async function refreshPages() {
    try {
      const d = await api('GET', `/v1/projects/${pid()}/pages`);
      pages = d.pages;
      renderProject(d.progress);
    } catch (e) { fail('Reading the pages', e); }
  }

  function renderProject(prog) {
    if (prog !== undefined) progress = prog;
    const list = $('pages');
    list.replaceChildren(...pages.map((p, i) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'page-btn' + (p.complete ? ' complete' : '');
      if (i === pageIdx) b.setAttribute('aria-current', 'true');
      const name = document.createElement('span');
      name.textContent = p.url || p.name;
      const n = document.createElement('span');
      n.className = 'count';
      n.textContent = `${p.labelled}/${p.blocks}${p.complete ? ' ✓' : ''}`;
      b.append(name, n);
      b.setAttribute('aria-label', `${p.url || p.name}: ${p.labelled} of ${p.blocks} blocks labelled`);
      b.addEventListener('click', () => openPage(i, true));
      li.append(b);
      return li;
    }));
    $('no-pages').hidden = pages.length > 0 || !project;
    const open = pages[pageIdx];
    $('page-title').textContent = open ? `Page ${pageIdx + 1} of ${pages.length}: ${open.url || open.name}` : 'No page open';
    renderPageProgress();
    const p = (project && progress) || { pages: 0, pages_complete: 0, blocks: 0, labelled: 0 };
    $('project-bar').max = Math.max(p.blocks, 1);
    $('project-bar').value = p.labelled;
    $('project-count').textContent = project
      ? `${p.labelled} of ${p.blocks} blocks labelled · ${p.pages_complete} of ${p.pages} pages complete` : '';
    for (const id of ['export-victor', 'export-dataset', 'train', 'add']) $(id).disabled = !project;
  }

  function openProjectForm(open) {
    $('project-form').hidden = !open;
    $('new-project').setAttribute('aria-expanded', String(open));
    if (open) $('project-name').focus();
  }
  $('new-project').addEventListener('click', () => openProjectForm($('project-form').hidden));
  $('project-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const p = await api('POST', '/v1/projects', { name: $('project-name').value.trim(), description: $('project-desc').value });
      showError('');
      openProjectForm(false);
      $('project-name').value = $('project-desc').value = '';
      status(`Project “${p.name}” created: add its pages.`);
      await loadProjects(p.id);
      $('add-html').focus();
    } catch (e) { fail('Creating the project', e); }
  });

  // --- adding pages ---

  const source = () => document.querySelector('input[name=source]:checked').value;
  document.querySelectorAll('input[name=source]').forEach((r) => r.addEventListener('change', () => {
    for (const s of ['paste', 'file', 'fetch']) $('src-' + s).hidden = s !== source();
  }));

  // pageBody returns the body and Content-Type of the page to add.
  async function pageBody() {
    switch (source()) {
      case 'file': {
        const f = $('add-file').files[0];
        if (!f) throw new Error('choose a file');
        return [f, 'application/octet-stream'];
      }
      case 'fetch': {
        const addr = $('add-fetch').value.trim();
        if (!addr) throw new Error('give the address to fetch');
        const d = await (await request('POST', '/v1/annotate/fetch?url=' + encodeURIComponent(addr))).json();
        if (!$('add-url').value.trim()) $('add-url').value = d.url;
        return [Uint8Array.from(atob(d.data), (c) => c.charCodeAt(0)), 'application/octet-stream'];
      }
    }
    const html = $('add-html').value;
    if (!html.trim()) throw new Error('paste the HTML of the page');
    return [html, 'text/html; charset=utf-8'];
  }

  $('add-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (!project) return;
    $('add').disabled = true;
    status('Adding the page…');
    try {
      const [body, type] = await pageBody();
      const url = $('add-url').value.trim();
      const resp = await request('POST', `/v1/projects/${pid()}/pages` + (url ? '?url=' + encodeURIComponent(url) : ''), body, type);
      const p = await resp.json();
      showError('');
      $('add-html').value = $('add-url').value = $('add-fetch').value = '';
      $('add-file').value = '';
      status(`Page added: ${p.blocks} blocks to label.`);
      await refreshPages();
      if (pageIdx < 0) openPage(pages.length - 1, false);
    } catch (e) { fail('Adding the page', e); } finally { $('add').disabled = !project; }
  });

  // --- a page ---

  function closePage() {
    blocks = []; labels = []; cur = 0;
    $('blocks').replaceChildren();
    $('frame').srcdoc = '';
    $('page-title').textContent = 'No page open';
    renderPageProgress();
  }

  // openPage saves the open page's unsaved labels, then opens page i.
  async function openPage(i, focus) {
    if (i < 0 || i >= pages.length) return;
    if (dirty() && !(await save())) return;
    status('Opening the page…');
    try {
      const p = pages[i];
      const [d, f] = await Promise.all([api('GET', `/v1/projects/${pid()}/pages/${p.id}`),
        api('GET', `/v1/annotate/projects/${pid()}/pages/${p.id}/frame`)]);
      pageIdx = i;
      blocks = d.block_list;
      labels = blocks.map((b) => ({ label: b.label || b.prelabel, mine: !!b.label, dirty: false }));
      const first = labels.findIndex((l) => !l.mine);
      cur = first < 0 ? 0 : first;
      renderBlocks();
      $('frame').srcdoc = f.frame;
      renderProject();
      refreshPages();
      status('');
      if (focus !== false) $('blocks').focus();
    } catch (e) { fail('Opening the page', e); }
  }

  const dirty = () => labels.some((l) => l.dirty);

  function renderBlocks() {
    $('blocks').replaceChildren(...blocks.map((b, i) => {
      const li = document.createElement('li');
      li.id = 'blk-' + i;
      li.setAttribute('role', 'option');
      const lab = document.createElement('span');
      const txt = document.createElement('span');
      txt.className = 'txt';
      txt.textContent = b.text.length > 200 ? b.text.slice(0, 200) + '…' : b.text;
      const mark = document.createElement('span');
      mark.className = 'dot';
      li.append(lab, txt, mark);
      li.addEventListener('click', () => { moveTo(i); $('blocks').focus(); });
      return li;
    }));
    blocks.forEach((b, i) => paintBlock(i));
    moveTo(cur);
    renderPageProgress();
  }

  // paintBlock shows block i's label in the list and in the frame.
  function paintBlock(i) {
    const l = labels[i], b = blocks[i], li = $('blk-' + i);
    if (!li) return;
    const lab = li.firstChild;
    lab.className = `lab ${l.label}${l.mine ? '' : ' model'}`;
    lab.textContent = SHORT[l.label] || '?';
    li.dataset.label = l.label;
    li.classList.toggle('unsaved', l.dirty);
    const says = `${l.label}${l.mine ? '' : ' (the model’s, not yet labelled)'}${l.dirty ? ', not saved' : ''}`;
    li.title = `block ${i}: ${says}; the model says ${b.prelabel} (${b.prelabel_score.toFixed(2)})`;
    li.setAttribute('aria-label', `${says}: ${b.text.slice(0, 120)}`);
    for (const s of frameSpans(i)) {
      s.removeAttribute('class');
      s.dataset.l = l.label;
      if (l.mine) delete s.dataset.m; else s.dataset.m = '';
      s.title = `block ${i}: ${says}`;
      if (i === cur) s.classList.add('sl-cur');
    }
  }

  function frameDoc() {
    try { return $('frame').contentDocument; } catch (e) { return null; }
  }
  function frameSpans(i) {
    const d = frameDoc();
    return d ? d.querySelectorAll(`[data-b="${i}"]`) : [];
  }

  $('frame').addEventListener('load', () => {
    blocks.forEach((b, i) => paintBlock(i));
    scrollFrame();
    const d = frameDoc();
    if (d) d.addEventListener('keydown', onKey); // after a click in the frame
  });

  function moveTo(i) {
    if (!blocks.length) return;
    i = Math.max(0, Math.min(blocks.length - 1, i));
    const old = $('blk-' + cur);
    if (old) old.setAttribute('aria-selected', 'false');
    for (const s of frameSpans(cur)) s.classList.remove('sl-cur');
    cur = i;
    const li = $('blk-' + cur);
    li.setAttribute('aria-selected', 'true');
    $('blocks').setAttribute('aria-activedescendant', li.id);
    for (const s of frameSpans(cur)) s.classList.add('sl-cur');
    scrollList(li);
    scrollFrame();
  }

  // scrollList brings li into the list's view, a third down.
  function scrollList(li) {
    const ol = $('blocks');
    if (li.offsetTop < ol.scrollTop || li.offsetTop + li.offsetHeight > ol.scrollTop + ol.clientHeight) {
      ol.scrollTop = li.offsetTop - ol.clientHeight / 3;
    }
  }

  // scrollFrame brings the current block into the frame's view.
  function scrollFrame() {
    const s = frameSpans(cur)[0], win = $('frame').contentWindow;
    if (!s || !win) return;
    const r = s.getBoundingClientRect();
    if (r.top < 20 || r.bottom > win.innerHeight - 20) win.scrollTo(0, win.scrollY + r.top - win.innerHeight / 3);
  }

  function setLabel(name) {
    if (!blocks.length) return;
    labels[cur] = { label: name, mine: true, dirty: true };
    paintBlock(cur);
    renderPageProgress();
    if (cur < blocks.length - 1) moveTo(cur + 1);
  }

  // acceptModel takes the model's label for every block not labelled yet.
  function acceptModel() {
    labels.forEach((l, i) => {
      if (!l.mine) { labels[i] = { label: blocks[i].prelabel, mine: true, dirty: true }; paintBlock(i); }
    });
    renderPageProgress();
  }

  function renderPageProgress() {
    const n = labels.filter((l) => l.mine).length, u = labels.filter((l) => l.dirty).length;
    $('page-bar').max = Math.max(blocks.length, 1);
    $('page-bar').value = n;
    $('page-count').textContent = blocks.length
      ? `${n} of ${blocks.length} blocks labelled` + (u ? ` (${u} not saved)` : '') : '';
    $('save').disabled = !blocks.length;
    $('prev-page').disabled = pageIdx <= 0;
    $('next-page').disabled = pageIdx < 0 || pageIdx >= pages.length - 1;
  }

  // save sends the page's labels (null for the blocks not labelled yet);
  // it reports whether they were stored.
  async function save() {
    if (pageIdx < 0) return true;
    const p = pages[pageIdx];
    try {
      const a = await api('PUT', `/v1/projects/${pid()}/pages/${p.id}/labels`,
        { labels: labels.map((l) => l.mine ? l.label : null), author: 'workbench' });
      labels.forEach((l, i) => { if (l.dirty) { l.dirty = false; paintBlock(i); } });
      pages[pageIdx] = a;
      renderPageProgress();
      showError('');
      status(`Saved: ${a.labelled} of ${a.blocks} blocks of this page labelled${a.complete ? ' (complete)' : ''}.`);
      await refreshPages();
      return true;
    } catch (e) { fail('Saving the labels', e); return false; }
  }

  $('save').addEventListener('click', () => save());
  $('prev-page').addEventListener('click', () => openPage(pageIdx - 1, true));
  $('next-page').addEventListener('click', () => openPage(pageIdx + 1, true));

  // onKey is Victor's keys, in the block list (or the frame, or nowhere).
  function onKey(ev) {
    if (ev.ctrlKey && (ev.key === 's' || ev.key === 'S')) { ev.preventDefault(); save(); return; }
    if (ev.ctrlKey || ev.altKey || ev.metaKey) return;
    const k = ev.key;
    const act = {
      ArrowDown: () => moveTo(cur + 1), j: () => moveTo(cur + 1), ArrowUp: () => moveTo(cur - 1), k: () => moveTo(cur - 1),
      Home: () => moveTo(0), End: () => moveTo(blocks.length - 1), Enter: () => save(), a: acceptModel,
      n: () => openPage(pageIdx + 1, true), PageDown: () => openPage(pageIdx + 1, true),
      P: () => openPage(pageIdx - 1, true), PageUp: () => openPage(pageIdx - 1, true),
    }[k] || (LETTERS[k] && (() => setLabel(LETTERS[k])));
    if (!act) return;
    ev.preventDefault();
    act();
  }
  $('blocks').addEventListener('keydown', onKey);
  document.addEventListener('keydown', (ev) => {
    if (ev.target === document.body) onKey(ev);
    else if (ev.ctrlKey && (ev.key === 's' || ev.key === 'S') && ev.target !== $('blocks')) { ev.preventDefault(); save(); }
  });

  // --- export ---

  async function exportAs(format) {
    $('export-status').textContent = 'Exporting…';
    try {
      const resp = await request('GET', `/v1/projects/${pid()}/export?format=${format}`);
      const blob = await resp.blob();
      const n = resp.headers.get('Sluice-Pages') || '?', skipped = Number(resp.headers.get('Sluice-Pages-Skipped') || 0);
      const m = /filename="?([^";]+)"?/.exec(resp.headers.get('Content-Disposition') || '');
      const name = m ? m[1] : `${project.name}-${format}.tar.gz`;
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      $('export-status').textContent = `${name}: ${n} page${n === '1' ? '' : 's'}, ${kib(blob.size)}` +
        (skipped ? ` (${skipped} not complete, left out)` : '') + '.';
      $('export-status').dataset.format = format;
    } catch (e) {
      $('export-status').textContent = '';
      fail('Exporting', e);
    }
  }
  $('export-victor').addEventListener('click', () => exportAs('victor'));
  $('export-dataset').addEventListener('click', () => exportAs('dataset'));

  // --- training ---

  $('train-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const req = { project: pid(), name: $('model-name').value.trim() };
    const stages = $('stages').value.split(',').map((s) => s.trim()).filter(Boolean);
    if (stages.length) req.stages = stages;
    const it = Number($('iterations').value);
    if (it > 0) req.iterations = it;
    $('train').disabled = true;
    try {
      const run = await api('POST', '/v1/train', req);
      showError('');
      $('train-progress').hidden = false;
      poll(run.id);
    } catch (e) { fail('Training', e); $('train').disabled = false; }
  });

  function showRun(r) {
    const p = r.progress || {};
    let text = r.status, frac = 0;
    if (r.status === 'running' || r.status === 'queued') {
      text = `${r.status}: ${p.phase || 'waiting'}`;
      if (p.phase === 'loading' && p.pages) { text += ` ${p.loaded} of ${p.pages} pages`; frac = 0.1 * p.loaded / p.pages; }
      if (p.stage) { text += `, ${p.stage}, iteration ${p.iteration} of ${p.max_iterations}`; frac = 0.1 + 0.85 * p.iteration / Math.max(p.max_iterations, 1); }
    } else if (r.status === 'done') {
      text = `done: model “${r.model}” stored`;
      frac = 1;
    } else if (r.error) text += ': ' + r.error;
    $('train-bar').value = frac;
    $('train-text').textContent = text;
    $('train-progress').dataset.status = r.status;
  }

  async function poll(id) {
    try {
      const r = await api('GET', `/v1/train/${id}`);
      showRun(r);
      if (['done', 'failed', 'canceled', 'interrupted'].includes(r.status)) {
        $('train').disabled = false;
        if (r.status === 'done') loadModels(r.model);
        return;
      }
      setTimeout(() => poll(id), 400);
    } catch (e) { fail('Following the training', e); $('train').disabled = false; }
  }

  // resumeRun follows a training run of the project still going (after a
  // reload of the page, say).
  async function resumeRun() {
    try {
      const runs = (await api('GET', '/v1/train')).runs;
      const r = runs.find((x) => x.project === project.name && ['queued', 'running'].includes(x.status));
      if (!r) return;
      $('train').disabled = true;
      $('train-progress').hidden = false;
      poll(r.id);
    } catch (e) { fail('Listing the training runs', e); }
  }

  async function loadModels(fresh) {
    let ms;
    try { ms = (await api('GET', '/v1/models')).models; } catch (e) { return fail('Listing the models', e); }
    const body = $('models').tBodies[0];
    body.replaceChildren(...ms.map((m) => {
      const tr = document.createElement('tr');
      if (m.name === fresh) tr.className = 'fresh';
      const mt = m.metrics || {};
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = m.name;
      tr.append(th);
      for (const v of [m.stages, mt.pages, when(m.created)]) {
        const td = document.createElement('td');
        td.textContent = v === undefined ? '' : v;
        tr.append(td);
      }
      return tr;
    }));
    $('models').hidden = ms.length === 0;
  }

  renderProject(null);
  renderPageProgress();
  loadProjects();
})();
