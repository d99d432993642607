/*
 * Workspaces (/workspaces, /workspaces/:name) and their members, through /api/v1/workspaces. Owners
 * (workspaces.write) create them; members are changed by an owner of the server or of that workspace.
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;
  const any = { anyWorkspace: true };
  const path = (name) => '/api/v1/workspaces/' + encodeURIComponent(name);
  // default exists from the start: its creation time is the epoch
  const created = (w) => (w.created_at && new Date(w.created_at).getTime() > 0
    ? QAG.time(w.created_at) + (w.created_by ? ' by ' + w.created_by : '') : 'built in');

  QAG.screen({
    path: '/workspaces',
    title: 'Workspaces',
    nav: { label: 'Workspaces', order: 65 },
    capability: 'workspaces.read',
    render: async (main) => {
      const list = h('div');
      QAG.fill(main, h('h1', null, 'Workspaces'),
        h('p', { class: 'muted' }, 'Each workspace owns its connections, saved queries, API keys and roles; ',
          'administrators get a role in one as members. Switch the workspace the Console acts in at the top.'),
        QAG.section('All workspaces', list),
        QAG.can('workspaces.write') ? createForm() : null);
      try {
        const answer = await QAG.get('/api/v1/workspaces', any);
        QAG.fill(list, QAG.table({
          columns: [
            { label: 'Name', value: (w) => QAG.link('/workspaces/' + encodeURIComponent(w.name), w.name) },
            { label: 'Description', value: (w) => w.description || '—' },
            { label: 'Members', value: (w) => QAG.num(w.members), class: 'num' },
            { label: 'Created', value: created },
          ],
          rows: answer.items,
          empty: 'No workspaces.',
        }));
      } catch (err) {
        QAG.fill(list, QAG.errorView(err));
      }
    },
  });

  function createForm() {
    const out = h('div');
    const submit = QAG.button('Create workspace', null,
      { kind: 'primary', type: 'submit', dataset: { action: 'create-workspace' } });
    const form = h('form', null,
      h('div', { class: 'row admin-fields' },
        QAG.field({ label: 'Name', name: 'name', required: true,
          help: 'Letters, digits, . _ -, starting with a letter or digit; it appears in URLs (/w/NAME/...).' }),
        QAG.field({ label: 'Description (optional)', name: 'description' })),
      out, h('div', { class: 'actions' }, submit));
    form.addEventListener('submit', QAG.action(submit, async () => {
      const v = QAG.formValues(form);
      const body = { name: v.name.trim() };
      if (v.description.trim()) body.description = v.description.trim();
      const created = await QAG.post('/api/v1/workspaces', body, any);
      QAG.notice('Workspace ' + created.name + ' created: add its members.', 'ok');
      QAG.go('/workspaces/' + encodeURIComponent(created.name));
    }, out));
    return QAG.section('Create a workspace', form);
  }

  QAG.screen({
    path: '/workspaces/:name',
    title: (p) => p.name + ' · Workspaces',
    render: async (main, params) => {
      const name = params.name;
      const details = h('div');
      const members = h('div');
      const count = h('dd');
      QAG.fill(main, h('h1', null, 'Workspace ' + name), h('p', null, QAG.link('/workspaces', 'All workspaces')),
        QAG.section('Details', details));
      let w;
      try {
        w = await QAG.get(path(name), any);
      } catch (err) {
        QAG.fill(details, QAG.errorView(err));
        return;
      }
      QAG.fill(details, h('dl', { class: 'facts' },
        h('dt', null, 'Description'), h('dd', null, w.description || '—'),
        h('dt', null, 'Created'), h('dd', null, created(w)),
        h('dt', null, 'Members'), count));
      // an owner of the server or of this workspace changes its members (the server checks it again)
      const manage = QAG.can('workspaces.write') || ((QAG.me.workspaces || {})[name] === 'owner');
      main.appendChild(QAG.section('Members', members, manage ? await addForm() : null));

      async function load() {
        try {
          const answer = await QAG.get(path(name) + '/members', any);
          count.textContent = QAG.num(answer.items.length);
          QAG.fill(members, QAG.table({
            columns: [
              { label: 'Administrator', value: (m) => (QAG.can('admins.read')
                ? QAG.link('/administrators/' + encodeURIComponent(m.admin), m.admin) : m.admin) },
              { label: 'Role', value: (m) => QAG.badge(m.role, 'info') },
              { label: 'Added', value: (m) => QAG.time(m.created_at) + (m.added_by ? ' by ' + m.added_by : '') },
              manage ? { label: 'Actions', value: removeButton } : null,
            ].filter(Boolean),
            rows: answer.items,
            empty: 'No members yet.',
          }));
        } catch (err) {
          QAG.fill(members, QAG.errorView(err));
        }
      }

      function removeButton(m) {
        const b = QAG.button('Remove', null, { kind: 'danger small', label: 'Remove ' + m.admin,
          dataset: { action: 'remove-member', admin: m.admin } });
        b.addEventListener('click', QAG.action(b, async () => {
          if (!(await QAG.confirm('Remove ' + m.admin + ' from ' + name + '?',
            'They lose their role in this workspace at their next request.', 'Remove'))) return;
          await QAG.del(path(name) + '/members/' + encodeURIComponent(m.admin), any);
          QAG.notice('Removed ' + m.admin + ' from ' + name + '.', 'ok');
          await load();
        }));
        return b;
      }

      async function addForm() {
        let who;
        let names = null;
        if (QAG.can('admins.read')) {
          try {
            names = (await QAG.get('/api/v1/administrators', any)).items.map((a) => a.name);
          } catch (e) {
            names = null; // typed in instead
          }
        }
        who = names && names.length
          ? QAG.field({ label: 'Administrator', name: 'admin', type: 'select', options: names })
          : QAG.field({ label: 'Administrator', name: 'admin', required: true, help: 'Their name.' });
        const out = h('div');
        const submit = QAG.button('Add member', null,
          { kind: 'primary', type: 'submit', dataset: { action: 'add-member' } });
        const form = h('form', null, h('h3', null, 'Add or change a member'),
          h('div', { class: 'row admin-fields' }, who,
            QAG.field({ label: 'Role in ' + name, name: 'role', type: 'select', options: QAG.ADMIN_ROLES,
              value: 'developer' })),
          out, h('div', { class: 'actions' }, submit));
        form.addEventListener('submit', QAG.action(submit, async () => {
          const v = QAG.formValues(form);
          await QAG.put(path(name) + '/members/' + encodeURIComponent(v.admin.trim()), { role: v.role }, any);
          QAG.notice(v.admin + ' is ' + v.role + ' in ' + name + '.', 'ok');
          await load();
        }, out));
        return form;
      }

      await load();
    },
  });
})();
