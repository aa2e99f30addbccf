// The Inspect view of sluice's workbench: sends the page to POST
// /v1/inspect, shows the answer, and re-decides the blocks here from their
// scores when the threshold slider moves. Plain JavaScript, no libraries.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const form = $('inspect-form');
  const maxBytes = Number(form.dataset.maxBytes);
  const filterSel = $('filter'), slider = $('threshold'), out = $('out');
  let result = null;  // the last answer of /v1/inspect
  let labels = [];    // the label of each block as shown
  let frameTimer = 0;
  let latest = 0;     // the number of the last request sent: older answers are dropped

  function showError(msg) {
    const box = $('error');
    box.textContent = msg;
    box.hidden = !msg;
    if (msg) $('result').hidden = true; // what is shown is not the page asked for
  }

  function size(n) {
    const units = [[1 << 30, 'GiB'], [1 << 20, 'MiB'], [1 << 10, 'KiB']];
    for (const [u, name] of units) if (n >= u) return `${(n / u).toFixed(1).replace(/\.0$/, '')} ${name}`;
    return `${n} bytes`;
  }

  function sourceKind() {
    return form.querySelector('input[name=source]:checked').value;
  }

  for (const r of form.querySelectorAll('input[name=source]')) {
    r.addEventListener('change', () => {
      for (const k of ['paste', 'file', 'fetch']) $('src-' + k).hidden = k !== sourceKind();
    });
  }

  // request returns the query and body of the page to inspect, or an
  // error message.
  function request() {
    const q = new URLSearchParams();
    // A stored filter set or model is sent by name (filter_set, model), so
    // that its own parameters and settings apply; a preset is a filter.
    const opt = filterSel.selectedOptions[0];
    q.set((opt && opt.dataset.param) || 'filter', filterSel.value);
    switch (sourceKind()) {
      case 'fetch': {
        const u = $('fetch').value.trim();
        if (!/^https?:\/\/\S+$/i.test(u)) return { error: 'Give an http:// or https:// address to fetch.' };
        q.set('fetch', u);
        return { q };
      }
      case 'file': {
        const f = $('file').files[0];
        if (!f) return { error: 'Choose a file to upload.' };
        if (f.size > maxBytes) return { error: `The file “${f.name}” has ${size(f.size)} (${f.size} bytes); the server takes pages of at most ${size(maxBytes)}.` };
        if (f.size === 0) return { error: 'The file is empty.' };
        return { q, body: f, type: 'application/octet-stream' };
      }
      default: {
        const html = $('html').value;
        if (!html.trim()) return { error: 'Paste the HTML of a page first.' };
        return { q, body: html, type: 'text/html; charset=utf-8' };
      }
    }
  }

  async function run() {
    const req = request();
    if (req.error) { showError(req.error); return; }
    showError('');
    const seq = ++latest;
    $('run').disabled = true;
    $('busy').textContent = 'Cleaning…';
    try {
      const init = { method: 'POST', body: req.body };
      if (req.type) init.headers = { 'Content-Type': req.type };
      const resp = await fetch('/v1/inspect?' + req.q, init);
      let data = null;
      try { data = await resp.json(); } catch (e) { /* not JSON */ }
      if (seq !== latest) return; // a later choice was sent meanwhile: its answer decides
      if (!resp.ok) {
        const msg = data && data.error ? data.error.message : `the server answered ${resp.status}`;
        showError('Could not inspect the page: ' + msg);
        return;
      }
      show(data);
    } catch (e) {
      if (seq === latest) showError('Could not reach the server: ' + e.message);
    } finally {
      if (seq === latest) {
        $('run').disabled = false;
        $('busy').textContent = '';
      }
    }
  }

  function show(data) {
    result = data;
    labels = data.blocks.map((b) => b.label);
    let t = data.threshold;
    if (t === undefined) { // the model's per-page rule: start at the lowest kept score
      const kept = data.blocks.filter((b) => b.label !== 'other').map((b) => b.score);
      t = kept.length ? Math.min(...kept) : 0.5;
    }
    slider.value = t;
    $('threshold-value').textContent = Number(slider.value).toFixed(2);
    $('threshold-note').textContent = data.rule === 'ef'
      ? 'Decided by the model\'s expected-F1 rule for this page; moving the slider decides here by score alone.'
      : `Threshold of ${data.filter}; moving the slider decides here by score (the server's rule may rescue a page that keeps too little).`;
    const meta = [data.title && `“${data.title}”`, data.url, `${data.blocks.length} blocks`, `encoding ${data.encoding}`,
      data.language && `language ${data.language}`, `decided by ${data.filter}`,
      data.filter_set && `filter set ${data.filter_set}`, data.model && `stored model ${data.model}`];
    $('meta').textContent = meta.filter(Boolean).join(' · ');
    const warn = $('warnings');
    warn.replaceChildren(...data.warnings.map((w) => { const li = document.createElement('li'); li.textContent = w; return li; }));
    const first = $('result').hidden;
    $('result').hidden = false;
    render(true);
    if (first) $('result').scrollIntoView({ block: 'start' });
  }

  // decide labels the blocks at threshold t: a block scoring below it is
  // dropped; a kept continuation without a kept block before it starts a
  // paragraph, as the server decides.
  function decide(t) {
    let prev = false;
    return result.blocks.map((b) => {
      if (b.score < t) { prev = false; return 'other'; }
      const l = b.role === 'continuation' && !prev ? 'paragraph' : b.role;
      prev = true;
      return l;
    });
  }

  function title(i) {
    const b = result.blocks[i], kept = labels[i] !== 'other';
    return `${kept ? labels[i] : b.role} · ${b.score.toFixed(3)} · ${kept ? 'kept' : 'dropped'}`;
  }

  function render(now) {
    const kept = labels.filter((l) => l !== 'other').length;
    $('kept-count').textContent = `${kept} of ${labels.length} blocks kept`;
    renderOutput();
    $('block-info').textContent = 'Hover or focus a block for its label and score.';
    clearTimeout(frameTimer);
    if (now) renderFrame(); else frameTimer = setTimeout(renderFrame, 150);
  }

  // renderFrame marks the blocks of the framed page as kept or dropped.
  function renderFrame() {
    const esc = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    $('frame').srcdoc = result.frame.replace(/<span class="sl-[kd]" data-b="(\d+)" title="[^"]*">/g, (m, n) => {
      const i = Number(n);
      if (i >= labels.length) return m;
      return `<span class="${labels[i] === 'other' ? 'sl-d' : 'sl-k'}" data-b="${i}" title="${esc(title(i))}">`;
    });
  }

  // renderOutput writes the kept blocks as headings, paragraphs and lists,
  // each block a focusable span.
  function renderOutput() {
    const frag = document.createDocumentFragment();
    let seg = null, list = null;
    labels.forEach((l, i) => {
      if (l === 'other') return;
      if (l !== 'continuation' || !seg) {
        if (l === 'list') {
          if (!list || list !== frag.lastChild) { list = document.createElement('ul'); frag.appendChild(list); }
          seg = list.appendChild(document.createElement('li'));
        } else {
          seg = frag.appendChild(document.createElement(l === 'heading' ? 'h4' : 'p'));
        }
      } else {
        seg.appendChild(document.createTextNode(' '));
      }
      const s = seg.appendChild(document.createElement('span'));
      s.className = 'blk';
      s.tabIndex = -1;
      s.dataset.b = i;
      s.title = title(i);
      s.textContent = result.blocks[i].text;
    });
    if (!frag.firstChild) {
      const p = frag.appendChild(document.createElement('p'));
      p.className = 'empty';
      p.textContent = 'Nothing kept at this threshold.';
    }
    out.replaceChildren(frag);
  }

  function describe(el) {
    if (!el || !el.dataset || el.dataset.b === undefined) return;
    const i = Number(el.dataset.b);
    $('block-info').textContent = `Block ${i}: ${title(i)}`;
  }
  out.addEventListener('mouseover', (e) => describe(e.target.closest('.blk')));
  out.addEventListener('focusin', (e) => describe(e.target));
  out.addEventListener('keydown', (e) => {
    const blocks = [...out.querySelectorAll('.blk')];
    if (!blocks.length) return;
    let at = blocks.indexOf(document.activeElement);
    switch (e.key) {
      case 'ArrowDown': case 'ArrowRight': at = Math.min(at + 1, blocks.length - 1); break;
      case 'ArrowUp': case 'ArrowLeft': at = Math.max(at - 1, 0); break;
      case 'Home': at = 0; break;
      case 'End': at = blocks.length - 1; break;
      default: return;
    }
    e.preventDefault();
    blocks[at].focus();
    blocks[at].scrollIntoView({ block: 'nearest' });
  });

  slider.addEventListener('input', () => {
    if (!result) return;
    $('threshold-value').textContent = Number(slider.value).toFixed(2);
    labels = decide(Number(slider.value));
    render(false);
  });
  filterSel.addEventListener('change', () => { if (result) run(); });
  form.addEventListener('submit', (e) => { e.preventDefault(); run(); });

  // The stored filter sets and models, by name, when the server answers
  // for them: a server without a store (404) or one that wants a token
  // this tab does not have (401) adds nothing to the picker.
  function stored(path, key, param, label, describe) {
    const token = sessionStorage.getItem('sluice-token');
    const init = token ? { headers: { Authorization: 'Bearer ' + token } } : {};
    return fetch(path, init).then((r) => (r.ok ? r.json() : null)).then((data) => {
      const items = data && Array.isArray(data[key]) ? data[key] : [];
      const group = document.createElement('optgroup');
      group.label = label;
      for (const it of items) {
        if (!it || typeof it.name !== 'string') continue;
        const o = group.appendChild(document.createElement('option'));
        o.value = it.name;
        o.dataset.param = param;
        o.textContent = describe(it);
      }
      if (group.children.length) filterSel.appendChild(group);
    }).catch(() => {});
  }
  // A set's summary starts with its name ("news: lqf>bte lqf.threshold=0.4").
  const setLabel = (s) => (typeof s.summary === 'string' && s.summary.startsWith(s.name) ? s.summary : `${s.name} (${s.filter || 'stored set'})`);
  const modelLabel = (m) => `${m.name} (stored model${m.stages ? ': ' + m.stages : ''})`;
  stored('/v1/filter-sets', 'filter_sets', 'filter_set', 'Stored filter sets', setLabel)
    .then(() => stored('/v1/models', 'models', 'model', 'Stored models', modelLabel))
    .then(() => { filterSel.dataset.loaded = 'true'; });
})();
