/*
 * Administrators (/administrators, /administrators/:name) and your own personal admin tokens (/account): the
 * named administrators of docs/identity.md, through /api/v1/administrators. Owners (admins.read / admins.write)
 * see and change everyone; any administrator lists, issues and revokes their own tokens (self).
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;

  /** The roles an administrator may hold server-wide; '' is none (roles in workspaces only). */
  QAG.ADMIN_ROLES = [['owner', 'owner'], ['admin', 'admin'], ['developer', 'developer'], ['auditor', 'auditor']];
  const SERVER_ROLES = QAG.ADMIN_ROLES.concat([['', 'none (roles in workspaces only)']]);

  /** QAG.table whose table turns into stacked rows at a phone's width (and takes `classes`). */
  QAG.stackedTable = function stackedTable(spec, ...classes) {
    const out = QAG.table(spec);
    const table = out.querySelector('table');
    if (table) table.classList.add('stack', ...classes);
    return out;
  };

  const path = (name) => '/api/v1/administrators/' + encodeURIComponent(name);
  const activeBadge = (a) => (a.active ? QAG.badge('active', 'ok') : QAG.badge('deactivated', 'bad'));
  const roleBadge = (role) => (role ? QAG.badge(role, 'info') : QAG.badge('workspaces only', 'muted'));
  const sso = (a) => (a.sso ? 'linked (' + a.sso.issuer + ')' : 'no');

  QAG.screen({
    path: '/administrators',
    title: 'Administrators',
    nav: { label: 'Administrators', order: 60 },
    capability: 'admins.read',
    render: async (main) => {
      const list = h('div');
      if (!QAG.can('admins.read')) {
        QAG.fill(main, h('h1', null, 'Administrators'), QAG.section('All administrators',
          h('p', { class: 'notice info' }, 'Your role does not have ', h('code', null, 'admins.read'),
            ': only owners see the administrators. ', QAG.link('/account', 'Your own tokens'), ' are yours to manage.')));
        return;
      }
      QAG.fill(main, h('h1', null, 'Administrators'),
        h('p', { class: 'muted' }, 'People who administer this gateway, each with a role and personal tokens. ',
          QAG.link('/account', 'Your own tokens'), '.'),
        QAG.section('All administrators', list),
        QAG.can('admins.write') ? createForm() : null);
      try {
        const answer = await QAG.get('/api/v1/administrators', { anyWorkspace: true });
        QAG.fill(list, QAG.stackedTable({
          columns: [
            { label: 'Name', value: (a) => QAG.link('/administrators/' + encodeURIComponent(a.name), a.name) },
            { label: 'Role', value: (a) => roleBadge(a.role) },
            { label: 'Status', value: activeBadge },
            { label: 'SSO', value: sso },
            { label: 'Tokens', value: (a) => QAG.num(a.tokens), class: 'num' },
            { label: 'Workspaces', value: (a) => Object.entries(a.workspaces || {}).map(([w, r]) => w + ': ' + r)
              .join(', ') || '—' },
            { label: 'Last seen', value: (a) => QAG.time(a.last_seen_at) || 'never' },
          ],
          rows: answer.items,
          empty: 'No named administrators yet: only the administrator key signs in.',
        }));
      } catch (err) {
        QAG.fill(list, QAG.errorView(err));
      }
    },
  });

  function createForm() {
    const out = h('div');
    const submit = QAG.button('Create administrator', null,
      { kind: 'primary', type: 'submit', dataset: { action: 'create-admin' } });
    const form = h('form', { class: 'admin-create' },
      h('div', { class: 'row admin-fields' },
        QAG.field({ label: 'Name', name: 'name', required: true,
          help: 'Letters, digits, spaces, . _ -; they sign in with a token you issue next.' }),
        QAG.field({ label: 'Role', name: 'role', type: 'select', options: SERVER_ROLES, value: 'auditor',
          help: 'auditor (also called viewer) reads; developer writes queries; admin and owner administer.' }),
        QAG.field({ label: 'Email (optional)', name: 'email', type: 'email' })),
      out, h('div', { class: 'actions' }, submit));
    form.addEventListener('submit', QAG.action(submit, async () => {
      const v = QAG.formValues(form);
      const created = await QAG.post('/api/v1/administrators',
        { name: v.name.trim(), role: v.role || null, email: v.email.trim() || null }, { anyWorkspace: true });
      QAG.notice('Administrator ' + created.name + ' created: issue them a token to sign in.', 'ok');
      QAG.go('/administrators/' + encodeURIComponent(created.name));
    }, out));
    return QAG.section('Create an administrator', form);
  }

  QAG.screen({
    path: '/administrators/:name',
    title: (p) => p.name + ' · Administrators',
    render: async (main, params) => {
      const name = params.name;
      const self = QAG.me.via !== 'break-glass' && QAG.me.name === name;
      QAG.fill(main, h('h1', null, name), h('p', null, QAG.link('/administrators', 'All administrators')));
      if (QAG.can('admins.read')) {
        const details = h('div');
        main.appendChild(QAG.section('Details', details));
        try {
          const a = await QAG.get(path(name), { anyWorkspace: true });
          QAG.fill(details, facts(a));
          if (QAG.can('admins.write')) main.appendChild(editForm(a));
        } catch (err) {
          QAG.fill(details, QAG.errorView(err));
          return;
        }
      } else if (!self) {
        main.appendChild(QAG.section('Details', h('p', { class: 'notice info' }, 'Your role does not have ',
          h('code', null, 'admins.read'), ': only owners see other administrators.')));
        return;
      }
      main.appendChild(await tokensSection(name, self || QAG.can('admins.write'),
        self ? 'Your personal tokens' : 'Personal tokens'));
    },
  });

  QAG.screen({
    path: '/account',
    title: 'Your tokens',
    nav: { label: 'Your tokens', order: 61 },
    capability: 'self',
    render: async (main) => {
      QAG.fill(main, h('h1', null, 'Your tokens'));
      if (QAG.me.via === 'break-glass') {
        main.appendChild(QAG.section('Personal tokens', h('p', null, 'You signed in with the administrator key ',
          '(auth.adminKey), which is nobody in particular and holds no personal tokens. ',
          QAG.can('admins.read') ? ['Create a named administrator under ', QAG.link('/administrators',
            'Administrators'), ' and issue their token there.'] : null)));
        return;
      }
      main.appendChild(h('p', { class: 'muted' }, 'Signed in as ', h('strong', null, QAG.me.name),
        ' with the role ', QAG.me.role || 'none', '. A token signs in to the Console and calls the management API',
        ' as you; revoke one you no longer use.'));
      main.appendChild(await tokensSection(QAG.me.name, true, 'Your personal tokens'));
    },
  });

  function facts(a) {
    const row = (k, v) => [h('dt', null, k), h('dd', null, v)];
    return h('dl', { class: 'facts' },
      row('Role', roleBadge(a.role)), row('Status', activeBadge(a)), row('Email', a.email || '—'),
      row('SSO', sso(a)), row('Workspaces', Object.entries(a.workspaces || {}).map(([w, r]) => w + ': ' + r)
        .join(', ') || '—'),
      row('Created', QAG.time(a.created_at) + ' by ' + (a.created_by || '?')),
      row('Last seen', QAG.time(a.last_seen_at) || 'never'));
  }

  function editForm(a) {
    const out = h('div');
    const submit = QAG.button('Save', null, { kind: 'primary', type: 'submit', dataset: { action: 'save-admin' } });
    const form = h('form', null,
      h('div', { class: 'row admin-fields' },
        QAG.field({ label: 'Role', name: 'role', type: 'select', options: SERVER_ROLES, value: a.role || '' }),
        QAG.field({ label: 'Email', name: 'email', type: 'email', value: a.email || '' })),
      QAG.field({ label: 'Active', name: 'active', type: 'checkbox', value: a.active,
        help: 'Unticked: every token and console session of theirs stops at once; ticking again restores the tokens.' }),
      out, h('div', { class: 'actions' }, submit));
    form.addEventListener('submit', QAG.action(submit, async () => {
      const v = QAG.formValues(form);
      if (!v.active && a.active && !(await QAG.confirm('Deactivate ' + a.name + '?',
        'Their tokens and console sessions stop working at once.', 'Deactivate'))) return;
      await QAG.patch(path(a.name), { role: v.role || null, email: v.email.trim() || null, active: v.active },
        { anyWorkspace: true });
      QAG.notice('Saved ' + a.name + '.', 'ok');
      await QAG.render();
    }, out));
    return QAG.section('Role and status', form);
  }

  /** The tokens of `name`, with issue and revoke when `manage`. */
  async function tokensSection(name, manage, title) {
    const list = h('div');
    const issued = h('div', { class: 'issued' });
    const section = QAG.section(title, issued, list, manage ? issueForm() : null);
    async function load() {
      try {
        const answer = await QAG.get(path(name) + '/tokens', { anyWorkspace: true });
        QAG.fill(list, QAG.stackedTable({
          columns: [
            { label: 'Token', value: (t) => h('code', null, t.id) },
            { label: 'Label', value: (t) => t.label || '—' },
            { label: 'Created', value: (t) => QAG.time(t.created_at) },
            { label: 'Expires', value: (t) => (t.expired ? QAG.badge('expired ' + t.expires_at, 'bad')
              : t.expires_at || 'never') },
            { label: 'Last used', value: (t) => QAG.time(t.last_used_at) || 'never' },
            manage ? { label: 'Actions', value: (t) => revokeButton(t) } : null,
          ].filter(Boolean),
          rows: answer.items,
          empty: 'No tokens: issue one to sign in.',
        }));
      } catch (err) {
        QAG.fill(list, QAG.errorView(err));
      }
    }
    function revokeButton(t) {
      const b = QAG.button('Revoke', null, { kind: 'danger small', dataset: { action: 'revoke-token', token: t.id },
        label: 'Revoke token ' + t.id });
      b.addEventListener('click', QAG.action(b, async () => {
        if (!(await QAG.confirm('Revoke ' + t.id + '?', 'It stops working at its next request, on every instance.',
          'Revoke'))) return;
        await QAG.del(path(name) + '/tokens/' + encodeURIComponent(t.id), { anyWorkspace: true });
        QAG.notice('Revoked ' + t.id + '.', 'ok');
        await load();
      }));
      return b;
    }
    function issueForm() {
      const out = h('div');
      const submit = QAG.button('Issue a token', null,
        { kind: 'primary', type: 'submit', dataset: { action: 'issue-token' } });
      const form = h('form', { class: 'token-issue' },
        h('h3', null, 'Issue a token'),
        h('div', { class: 'row admin-fields' },
          QAG.field({ label: 'Label (optional)', name: 'label', placeholder: 'laptop' }),
          QAG.field({ label: 'Last day it works (optional, UTC)', name: 'expires_at', type: 'date' })),
        out, h('div', { class: 'actions' }, submit));
      form.addEventListener('submit', QAG.action(submit, async () => {
        const v = QAG.formValues(form);
        const body = {};
        if (v.label.trim()) body.label = v.label.trim();
        if (v.expires_at) body.expires_at = v.expires_at;
        const t = await QAG.post(path(name) + '/tokens', body, { anyWorkspace: true });
        QAG.fill(issued, QAG.secretOnce('Token ' + t.id + ' for ' + name, t.secret));
        form.reset();
        await load();
      }, out));
      return form;
    }
    await load();
    return section;
  }
})();
