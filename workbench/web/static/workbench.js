// What the workbench's views that manage stored state (Filter sets,
// Annotate) share: the error and status lines, times, and requests with
// the server's token, which a 401 asks for in the view's token form and
// keeps in sessionStorage for the tab. Plain JavaScript, no libraries.
'use strict';
window.sluiceWorkbench = (function () {
  const $ = (id) => document.getElementById(id);
  let token = sessionStorage.getItem('sluice-token') || '';
  let needs = '';        // what the view needs the token for, in the 401 message
  let reload = () => {}; // what the view does once given a token

  const showError = (msg) => { $('error').textContent = msg; $('error').hidden = !msg; };
  const status = (msg) => { $('status').textContent = msg; };

  // when is a time as YYYY-MM-DD HH:MM, local.
  function when(t) {
    const d = new Date(t), p = (n) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  }

  function askToken() {
    $('token-form').hidden = false;
    showError(token
      ? 'The server refused the token given (401): check it and give it again.'
      : `This server was started with a token and needs it for ${needs} (401 unauthorized): enter it below.`);
    $('token').focus();
  }

  // tokenForm wires the view's token form: what names what the token is
  // needed for, and then is called once a token is given.
  function tokenForm(what, then) {
    needs = what;
    reload = then;
    $('token-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      token = $('token').value.trim();
      sessionStorage.setItem('sluice-token', token);
      $('token-form').hidden = true;
      showError('');
      reload();
    });
  }

  // send sends a request with the token, if any, and returns the response;
  // an error answer throws an Error with its status and the answer's error
  // object (body), and a 401 asks for the token.
  async function send(method, path, body, type) {
    const headers = {};
    if (token) headers.Authorization = 'Bearer ' + token;
    if (type) headers['Content-Type'] = type;
    const resp = await fetch(path, { method, headers, body });
    if (resp.ok) return resp;
    let data = null;
    try { data = await resp.json(); } catch (e) { /* not JSON */ }
    const e = new Error(data && data.error ? data.error.message : `the server answered ${resp.status} ${resp.statusText}`);
    e.status = resp.status;
    e.body = data && data.error;
    if (resp.status === 401) askToken();
    throw e;
  }

  // fail shows what went wrong; a 401 has its own message and form.
  function fail(what, e) {
    status('');
    if (e.status !== 401) showError(`${what}: ${e.message}`);
  }

  return { $, showError, status, when, tokenForm, send, fail };
})();
