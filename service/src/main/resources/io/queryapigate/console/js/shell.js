/*
 * The frame around every screen: sign-in, the header (workspace, who is signed in, sign-out), the menu, and the
 * router that shows the screen for the address. Starts the Console once every file has registered its screens.
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;
  let cleanup = null;
  let session = null;

  /** Who is signed in, in the chosen workspace ({@code GET /api/v1/me}); null when nobody is. */
  async function loadMe() {
    QAG.me = await QAG.get('/api/v1/me', { quiet401: true });
    return QAG.me;
  }

  /** Forgets who was signed in and shows the sign-in screen: the session ended (401) or was ended. */
  QAG.signedOut = function signedOut(message) {
    if (!QAG.me && !message) return;
    QAG.me = null;
    showSignIn(message || 'Your session has ended: sign in again.');
  };

  function showSignIn(message) {
    document.title = 'Sign in · QueryAPIGate Console';
    const app = document.getElementById('app');
    const out = h('div', { class: 'form-errors' });
    const secret = QAG.field({ label: 'Administrator key or personal admin token', name: 'secret', type: 'password',
      required: true, autocomplete: 'current-password',
      help: 'The key of the YAML (auth.adminKey) or a token an owner issued you (qagadm_...). It is sent once to' +
        ' start a session and kept nowhere: the browser holds only the session cookie.' });
    const submit = QAG.button('Sign in', null, { kind: 'primary', type: 'submit' });
    const form = h('form', { class: 'card', 'aria-labelledby': 'signin-title' }, secret, out, h('div',
      { class: 'actions' }, submit));
    form.addEventListener('submit', QAG.action(submit, async () => {
      const body = { secret: QAG.formValues(form).secret };
      await QAG.api('POST', '/auth/console/sign-in', body, { anyWorkspace: true, quiet401: true });
      await start();
    }, out));
    const sso = session && session.sso ? h('div', { class: 'card sso' },
      h('p', null, 'Or sign in through your organisation\'s identity provider.'),
      h('a', { class: 'btn primary', href: '/auth/sso/login?return_to=' + encodeURIComponent(location.pathname) },
        'Sign in with SSO')) : null;
    QAG.fill(app, h('main', { id: 'main', class: 'signin' },
      h('h1', { id: 'signin-title' }, 'QueryAPIGate Console'),
      message ? h('p', { class: 'notice info', role: 'status' }, message) : null,
      form, sso));
    form.querySelector('input').focus();
  }

  async function signOut() {
    try {
      await QAG.post('/auth/logout', {}, { anyWorkspace: true, quiet401: true });
    } catch (e) {
      // the session had ended already
    }
    QAG.me = null;
    sessionStorage.removeItem('qag.workspace');
    showSignIn('Signed out.');
  }

  async function workspaces() {
    const names = new Set(['default', QAG.workspace]);
    Object.keys((QAG.me && QAG.me.workspaces) || {}).forEach((w) => names.add(w));
    if (QAG.can('workspaces.read')) {
      try {
        const listed = await QAG.get('/api/v1/workspaces', { anyWorkspace: true });
        (listed.workspaces || listed || []).forEach((w) => names.add(w.name || w));
      } catch (e) {
        // the menu still lists the ones known
      }
    }
    return [...names].sort();
  }

  async function frame() {
    const app = document.getElementById('app');
    const nav = h('nav', { id: 'menu', 'aria-label': 'Console' }, h('ul', null,
      QAG.screens.filter((s) => s.nav && (!s.capability || QAG.can(s.capability)))
        .sort((a, b) => (a.nav.order ?? 50) - (b.nav.order ?? 50))
        .map((s) => h('li', null, QAG.link(s.path, s.nav.label)))));
    const menuButton = h('button', { type: 'button', class: 'btn plain menu-toggle', 'aria-controls': 'menu',
      'aria-expanded': 'false' }, 'Menu');
    menuButton.addEventListener('click', () => {
      const open = menuButton.getAttribute('aria-expanded') !== 'true';
      menuButton.setAttribute('aria-expanded', String(open));
      nav.classList.toggle('open', open);
    });
    nav.addEventListener('click', (e) => {
      if (e.target.closest('a')) {
        menuButton.setAttribute('aria-expanded', 'false');
        nav.classList.remove('open');
      }
    });
    const wsSelect = h('select', { id: 'workspace', 'aria-label': 'Workspace' },
      (await workspaces()).map((w) => h('option', { value: w, selected: w === QAG.workspace }, w)));
    wsSelect.addEventListener('change', async () => {
      QAG.workspace = wsSelect.value;
      sessionStorage.setItem('qag.workspace', QAG.workspace);
      await loadMe();
      await frame();
    });
    const who = h('span', { class: 'who' }, h('strong', null, QAG.me.name), ' ',
      QAG.badge(QAG.me.role || 'no role', 'info'));
    QAG.fill(app,
      h('a', { class: 'skip', href: '#main' }, 'Skip to content'),
      h('header', { class: 'top' }, menuButton, QAG.link('/', h('span', { class: 'brand' }, 'QueryAPIGate')),
        h('label', { class: 'ws' }, h('span', { class: 'visually-hidden' }, 'Workspace'), wsSelect),
        who, QAG.button('Sign out', signOut, { kind: 'plain', dataset: { action: 'sign-out' } })),
      h('div', { class: 'layout' }, nav, h('div', { class: 'content' },
        h('div', { id: 'notices', 'aria-live': 'polite' }),
        h('main', { id: 'main', tabindex: '-1' }))));
    await QAG.render();
  }

  /** Shows the screen for the address in the location bar. */
  QAG.render = async function render() {
    const main = document.getElementById('main');
    if (!QAG.me || !main || main.closest('.signin')) return;
    if (cleanup) {
      try { cleanup(); } catch (e) { /* a screen's own leftovers */ }
      cleanup = null;
    }
    let path = location.pathname.startsWith(QAG.base) ? location.pathname.slice(QAG.base.length) : '/';
    if (path === '') path = '/';
    const query = new URLSearchParams(location.search);
    let found = null;
    let params = {};
    for (const s of QAG.screens) {
      const m = s.pattern.exec(path);
      if (m) {
        found = s;
        s.names.forEach((n, i) => { params[n] = decodeURIComponent(m[i + 1]); });
        break;
      }
    }
    for (const a of document.querySelectorAll('#menu a')) {
      const target = a.getAttribute('href').slice(QAG.base.length) || '/';
      const current = target === '/' ? path === '/' : path === target || path.startsWith(target + '/');
      if (current) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    main.replaceChildren();
    if (!found) {
      document.title = 'Not found · QueryAPIGate Console';
      QAG.fill(main, h('h1', null, 'No such page'), h('p', null, 'Nothing in the Console is at ', h('code', null,
        location.pathname), '. ', QAG.link('/', 'Go home'), '.'));
      return;
    }
    const title = typeof found.title === 'function' ? found.title(params) : found.title;
    document.title = title + ' · QueryAPIGate Console';
    main.dataset.screen = found.path;
    main.setAttribute('aria-busy', 'true');
    try {
      cleanup = (await found.render(main, params, query)) || null;
    } catch (err) {
      if (err instanceof QAG.ApiError && err.status === 401) return;
      main.appendChild(QAG.errorView(err));
    } finally {
      main.removeAttribute('aria-busy');
    }
    if (document.activeElement === document.body || !document.activeElement) main.focus({ preventScroll: true });
  };

  async function start() {
    QAG.workspace = sessionStorage.getItem('qag.workspace') || 'default';
    try {
      await loadMe();
    } catch (e) {
      if (QAG.workspace !== 'default') {
        QAG.workspace = 'default';
        sessionStorage.removeItem('qag.workspace');
        try { await loadMe(); } catch (again) { QAG.me = null; }
      } else {
        QAG.me = null;
      }
    }
    if (!QAG.me) {
      showSignIn();
      return;
    }
    await frame();
  }

  /** Starts the Console: after every screen file ran (this file is last in bundle.txt's order of scripts). */
  QAG.start = async function () {
    try {
      session = await QAG.get('/auth/session', { anyWorkspace: true, quiet401: true });
    } catch (e) {
      session = { sso: false, signed_in: false };
    }
    if (!session.signed_in) {
      showSignIn();
      return;
    }
    await start();
  };
})();
