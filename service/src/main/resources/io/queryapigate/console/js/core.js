/*
 * The Console's core: every screen is built from these helpers. No framework and no build step: the files listed in
 * bundle.txt are joined into one script by the gateway (console/ConsoleAssets). Each file is an IIFE that adds to the
 * one global, window.QAG.
 *
 * Data comes only from the JSON API, called with the console session's cookie and its CSRF token (QAG.api): the
 * server checks every call as it checks any other caller's, so hiding a control from a role is a courtesy, never the
 * protection.
 */
(function () {
  'use strict';
  const QAG = (window.QAG = window.QAG || {});
  QAG.base = '/console';
  QAG.screens = [];
  QAG.me = null;
  QAG.workspace = 'default';

  // ---------------------------------------------------------------- DOM
  /**
   * An element: h('button', {class: 'primary', on: {click: fn}, type: 'button'}, 'Save').
   * attrs: class, text, html is not supported (no innerHTML anywhere), on: {event: fn}, dataset: {...}, any other
   * attribute (false/null leaves it out, true sets it empty). Children: strings, nodes, arrays, null (skipped).
   */
  QAG.h = function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) continue;
        if (k === 'class') el.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
        else if (k === 'text') el.textContent = v;
        else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
        else if (k === 'dataset') Object.assign(el.dataset, v);
        else if (k === 'value' && 'value' in el) el.value = v;
        else if (k === 'checked' || k === 'selected' || k === 'disabled') el[k] = !!v;
        else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
    QAG.append(el, children);
    return el;
  };

  /** Appends children (strings, nodes, arrays, null) to an element; returns it. */
  QAG.append = function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  };

  /** Empties an element and fills it with children. */
  QAG.fill = function fill(el, ...children) {
    el.replaceChildren();
    return QAG.append(el, children);
  };

  // ---------------------------------------------------------------- API
  /** An error answer of the API: status, code, message, field errors, request id. */
  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.error) || 'HTTP ' + status);
      this.status = status;
      this.code = (body && body.code) || 'http_' + status;
      this.errors = (body && body.errors) || {};
      this.requestId = body && body.request_id;
      this.body = body;
    }
  }
  QAG.ApiError = ApiError;

  function cookie(name) {
    for (const part of document.cookie.split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === name) return decodeURIComponent(v.join('='));
    }
    return null;
  }
  QAG.csrfToken = () => cookie('__Host-qag_csrf');

  /** The path of an API route in the workspace the Console acts in: /api/v1/x, or /w/{ws}/api/v1/x. */
  QAG.wsPath = function wsPath(path) {
    return QAG.workspace && QAG.workspace !== 'default' && path.startsWith('/api/v1/')
      ? '/w/' + encodeURIComponent(QAG.workspace) + path : path;
  };

  /**
   * Calls the API: api('POST', '/api/v1/keys', {...}). Paths under /api/v1/ act in the chosen workspace unless
   * opts.anyWorkspace. Answers the parsed JSON (or text for non-JSON answers, null for 204). Throws QAG.ApiError.
   * opts.headers adds headers; opts.raw answers the fetch Response itself (after the status check); opts.signal
 * aborts it.
   */
  QAG.api = async function api(method, path, body, opts) {
    opts = opts || {};
    const headers = Object.assign({ Accept: 'application/json' }, opts.headers || {});
    const csrf = QAG.csrfToken();
    if (csrf) headers['X-CSRF-Token'] = csrf;
    let payload;
    if (body !== undefined && body !== null) {
      if (typeof body === 'string') {
        payload = body;
      } else {
        headers['Content-Type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    }
    const url = opts.anyWorkspace ? path : QAG.wsPath(path);
    const response = await fetch(url, { method, headers, body: payload, credentials: 'same-origin',
      signal: opts.signal });
    if (!response.ok) {
      let parsed = null;
      try { parsed = await response.json(); } catch (e) { /* not JSON */ }
      const error = new ApiError(response.status, parsed);
      if (response.status === 401 && !opts.quiet401) QAG.signedOut();
      throw error;
    }
    if (opts.raw) return response;
    if (response.status === 204) return null;
    const type = response.headers.get('Content-Type') || '';
    return type.includes('json') ? response.json() : response.text();
  };
  QAG.get = (path, opts) => QAG.api('GET', path, undefined, opts);
  QAG.post = (path, body, opts) => QAG.api('POST', path, body === undefined ? {} : body, opts);
  QAG.put = (path, body, opts) => QAG.api('PUT', path, body, opts);
  QAG.patch = (path, body, opts) => QAG.api('PATCH', path, body, opts);
  QAG.del = (path, opts) => QAG.api('DELETE', path, undefined, opts);

  /** A query string from an object, leaving out empty values: qs({q: 'x', tag: ''}) is '?q=x'. */
  QAG.qs = function qs(params) {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) {
      if (v === null || v === undefined || v === '') continue;
      if (Array.isArray(v)) v.forEach((x) => p.append(k, x));
      else p.append(k, v);
    }
    const s = p.toString();
    return s ? '?' + s : '';
  };

  /**
   * Reads a server-sent-event stream (GET path) with fetch, so the session's CSRF header goes along (EventSource
   * cannot send headers). onEvent({event, id, data}) for each event (data parsed as JSON when it is). Answers a
   * function that stops reading.
   */
  QAG.stream = function stream(path, onEvent, onError) {
    const controller = new AbortController();
    (async () => {
      try {
        const response = await QAG.api('GET', path, undefined,
          { raw: true, headers: { Accept: 'text/event-stream' }, signal: controller.signal });
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const ev = { event: 'message', id: null, data: '' };
            const data = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) continue;
              const i = line.indexOf(':');
              const field = i < 0 ? line : line.slice(0, i);
              const val = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
              if (field === 'event') ev.event = val;
              else if (field === 'id') ev.id = val;
              else if (field === 'data') data.push(val);
            }
            if (!data.length) continue;
            ev.data = data.join('\n');
            try { ev.data = JSON.parse(ev.data); } catch (e) { /* text */ }
            onEvent(ev);
          }
        }
      } catch (e) {
        if (!controller.signal.aborted && onError) onError(e);
      }
    })();
    return () => controller.abort();
  };

  // ---------------------------------------------------------------- who is signed in
  /** Whether the signed-in administrator's role allows a capability ('queries.write', 'access.write', ...). */
  QAG.can = function can(capability) {
    return !!(QAG.me && QAG.me.capabilities && QAG.me.capabilities.includes(capability));
  };

  // ---------------------------------------------------------------- screens and navigation
  /**
   * Registers a screen. spec: {path: '/queries/:name' (under /console), title: 'Query' or (params) => string,
   * nav: {label, order} to list it in the menu, capability: shown in the menu only to roles with it,
   * render: async (main, params, query) => optional cleanup function}.
   */
  QAG.screen = function screen(spec) {
    const names = [];
    const pattern = new RegExp('^' + spec.path.replace(/\/:([a-z_]+)/gi, (m, name) => {
      names.push(name);
      return '/([^/]+)';
    }) + '/?$');
    QAG.screens.push(Object.assign({ pattern, names }, spec));
  };

  /** A link to a Console address ('/queries/film'): followed without reloading the page. */
  QAG.link = function link(path, ...children) {
    return QAG.h('a', { href: QAG.base + path, 'data-link': true }, children.length ? children : path);
  };

  /** Goes to a Console address ('/keys'), adding it to the history unless replace. */
  QAG.go = function go(path, replace) {
    const url = path.startsWith(QAG.base) ? path : QAG.base + path;
    if (replace) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    if (!replace) window.scrollTo(0, 0);
    QAG.render();
  };

  document.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('a[data-link]');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    QAG.go(a.getAttribute('href'));
  });
  window.addEventListener('popstate', () => QAG.render());

  // ---------------------------------------------------------------- building blocks
  /** A labelled form field. spec: {label, name, type ('text', 'textarea', 'select', 'checkbox', 'password',
   * 'number', ...), value, options: [[value, label]] or [value], help, required, placeholder, rows, readonly}. */
  QAG.field = function field(spec) {
    const id = 'f-' + (spec.id || spec.name) + '-' + Math.random().toString(36).slice(2, 7);
    const common = { id, name: spec.name, required: spec.required, placeholder: spec.placeholder,
      readonly: spec.readonly, disabled: spec.disabled, autocomplete: spec.autocomplete || 'off',
      'aria-describedby': spec.help ? id + '-help' : null };
    let input;
    if (spec.type === 'textarea') {
      input = QAG.h('textarea', Object.assign({ rows: spec.rows || 4 }, common));
      input.value = spec.value == null ? '' : spec.value;
    } else if (spec.type === 'select') {
      input = QAG.h('select', common, (spec.options || []).map((o) => {
        const [v, l] = Array.isArray(o) ? o : [o, o];
        return QAG.h('option', { value: v, selected: String(v) === String(spec.value) }, l);
      }));
    } else if (spec.type === 'checkbox') {
      input = QAG.h('input', Object.assign({ type: 'checkbox', checked: !!spec.value }, common));
      return QAG.h('div', { class: 'field check' }, input, QAG.h('label', { for: id }, spec.label),
        spec.help ? QAG.h('small', { id: id + '-help' }, spec.help) : null);
    } else {
      input = QAG.h('input', Object.assign({ type: spec.type || 'text', value: spec.value == null ? '' : spec.value,
        min: spec.min, max: spec.max, step: spec.step }, common));
    }
    return QAG.h('div', { class: 'field' }, QAG.h('label', { for: id }, spec.label), input,
      spec.help ? QAG.h('small', { id: id + '-help' }, spec.help) : null);
  };

  /** The values of a form's named fields: checkboxes as booleans, number fields as numbers (empty: null). */
  QAG.formValues = function formValues(form) {
    const out = {};
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === 'checkbox') out[el.name] = el.checked;
      else if (el.type === 'number') out[el.name] = el.value === '' ? null : Number(el.value);
      else out[el.name] = el.value;
    }
    return out;
  };

  /**
   * A table. spec: {columns: [{label, value: (row) => string|node, class}], rows, empty: 'text when no rows',
   * caption}. A column's value may answer a node (a link, a badge, buttons).
   */
  QAG.table = function table(spec) {
    if (!spec.rows || !spec.rows.length) return QAG.h('p', { class: 'empty' }, spec.empty || 'Nothing here yet.');
    return QAG.h('div', { class: 'table-wrap' }, QAG.h('table', null,
      spec.caption ? QAG.h('caption', null, spec.caption) : null,
      QAG.h('thead', null, QAG.h('tr', null, spec.columns.map((c) => QAG.h('th', { scope: 'col', class: c.class },
        c.label)))),
      QAG.h('tbody', null, spec.rows.map((row) => QAG.h('tr', null, spec.columns.map((c) => {
        const v = c.value(row);
        return QAG.h('td', { class: c.class, 'data-label': c.label }, v === null || v === undefined ? '' : v);
      }))))));
  };

  /** A small label: badge('published', 'ok'); kinds: ok, warn, bad, info, muted. */
  QAG.badge = (text, kind) => QAG.h('span', { class: 'badge ' + (kind || 'muted') }, text);

  /** A button: button('Save', fn, {kind: 'primary'|'danger'|'plain', type, disabled, label}). */
  QAG.button = function button(text, onClick, opts) {
    opts = opts || {};
    return QAG.h('button', { type: opts.type || 'button', class: ['btn', opts.kind || 'plain'],
      disabled: opts.disabled, 'aria-label': opts.label, on: onClick ? { click: onClick } : null,
      dataset: opts.dataset }, text);
  };

  /** A section with a heading: section('Versions', ...children). */
  QAG.section = (title, ...children) => QAG.h('section', { class: 'card' }, QAG.h('h2', null, title), children);

  /** What went wrong, as the API said it: message, code, request id, and each bad field. */
  QAG.errorView = function errorView(err) {
    const e = err instanceof ApiError ? err : { message: String(err && err.message || err), code: 'client_error',
      errors: {} };
    const fields = Object.entries(e.errors || {});
    return QAG.h('div', { class: 'error', role: 'alert' },
      QAG.h('strong', null, e.message), ' ', QAG.h('code', { class: 'code' }, e.code),
      e.requestId ? QAG.h('small', null, ' request ', e.requestId) : null,
      fields.length ? QAG.h('ul', null, fields.map(([k, v]) => QAG.h('li', null, QAG.h('code', null, k), ': ',
        String(v)))) : null);
  };

  /** A short message at the top of the page, read by screen readers. kind: ok, bad, info. */
  QAG.notice = function notice(text, kind) {
    const area = document.getElementById('notices');
    if (!area) return;
    const n = QAG.h('div', { class: 'notice ' + (kind || 'ok'), role: kind === 'bad' ? 'alert' : 'status' }, text,
      QAG.button('Dismiss', () => n.remove(), { label: 'Dismiss message', kind: 'plain small' }));
    area.appendChild(n);
    setTimeout(() => n.remove(), 8000);
  };

  /** Asks before something that cannot be undone: answers a promise of true/false (a modal dialog). */
  QAG.confirm = function confirm(title, text, confirmLabel) {
    return new Promise((resolve) => {
      const dialog = QAG.h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title' },
        QAG.h('h2', { id: 'confirm-title' }, title), text ? QAG.h('p', null, text) : null,
        QAG.h('div', { class: 'actions' },
          QAG.button('Cancel', () => { dialog.close(); resolve(false); }),
          QAG.button(confirmLabel || 'Confirm', () => { dialog.close(); resolve(true); },
            { kind: 'danger', dataset: { confirm: 'yes' } })));
      dialog.addEventListener('close', () => { dialog.remove(); resolve(false); });
      document.body.appendChild(dialog);
      dialog.showModal();
    });
  };

  /** A secret shown once, with a copy button. */
  QAG.secretOnce = function secretOnce(label, secret) {
    const value = QAG.h('code', { class: 'secret', 'data-secret': true }, secret);
    const copy = QAG.button('Copy', async () => {
      try {
        await navigator.clipboard.writeText(secret);
        copy.textContent = 'Copied';
      } catch (e) {
        const range = document.createRange();
        range.selectNodeContents(value);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        copy.textContent = 'Selected: press Ctrl+C';
      }
    }, { label: 'Copy ' + label });
    return QAG.h('div', { class: 'secret-once', role: 'status' },
      QAG.h('p', null, QAG.h('strong', null, label), ': shown once; copy it now, the gateway keeps only its hash.'),
      value, ' ', copy);
  };

  /** A date-time from the API (ISO text or epoch millis) in the browser's locale; '' for none. */
  QAG.time = function time(v) {
    if (v === null || v === undefined || v === '') return '';
    const d = typeof v === 'number' ? new Date(v) : new Date(v);
    return isNaN(d) ? String(v) : d.toLocaleString();
  };

  /** A number with the browser's grouping; milliseconds with 'ms'. */
  QAG.num = (v) => (v === null || v === undefined ? '' : Number(v).toLocaleString());
  QAG.ms = (v) => (v === null || v === undefined ? '' : Number(v).toLocaleString(undefined,
    { maximumFractionDigits: 1 }) + ' ms');

  /**
   * An SQL editor (CodeMirror 5, highlighting SQL) over a textarea already in the page. Answers {value(),
   * setValue(text), editor}. The textarea keeps its label: CodeMirror's own input gets the label's text too.
   */
  QAG.sqlEditor = function sqlEditor(textarea, opts) {
    if (!window.CodeMirror) return { value: () => textarea.value, setValue: (t) => { textarea.value = t; } };
    const cm = window.CodeMirror.fromTextArea(textarea, Object.assign({ mode: 'text/x-sql', lineNumbers: true,
      lineWrapping: true, indentWithTabs: false, extraKeys: { Tab: false, 'Shift-Tab': false },
      screenReaderLabel: textarea.getAttribute('aria-label') ||
        (textarea.labels && textarea.labels[0] && textarea.labels[0].textContent) || 'SQL' }, opts || {}));
    cm.on('change', () => cm.save());
    return { value: () => cm.getValue(), setValue: (t) => cm.setValue(t), editor: cm };
  };

  /** Runs an async action from a button: disables it meanwhile, shows a failure in `out` (or as a notice). */
  QAG.action = function action(button, work, out) {
    return async (e) => {
      if (e) e.preventDefault();
      button.disabled = true;
      if (out) out.replaceChildren();
      try {
        await work();
      } catch (err) {
        if (out) out.replaceChildren(QAG.errorView(err));
        else QAG.notice(err.message + (err.code ? ' (' + err.code + ')' : ''), 'bad');
      } finally {
        button.disabled = false;
      }
    };
  };
})();
