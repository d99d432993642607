/*
 * API-key roles: the list (/roles) with its "New role" form, and a role's page (/roles/:name) with its grants (the
 * editor keys.js defines, QAG.grantsEditor), its keys and delete. Through /api/v1/roles.
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;

  function newRoleForm(onCreated, choices) {
    return QAG.grantsCreateForm({ kind: 'role', action: 'create-role', label: 'Create role',
      initial: { connections: [], queries: [] }, editor: { choices }, placeholder: 'reporting',
      help: '1-100 letters, digits, spaces, ".", "_" or "-"; unique on the server.' }, async (body) => {
      const role = await QAG.post('/api/v1/roles', body);
      QAG.notice('Created role ' + role.name + '.', 'ok');
      onCreated(role);
    });
  }

  QAG.screen({
    path: '/roles',
    title: 'Roles',
    nav: { label: 'Roles', order: 25 },
    capability: 'access.read',
    render: async (main) => {
      const writer = QAG.can('access.write');
      const listArea = h('div');
      const load = async () => {
        const roles = (await QAG.get('/api/v1/roles')).items || [];
        const table = QAG.table({ rows: roles, empty: 'No roles yet.', columns: [
          { label: 'Name', value: (r) => QAG.link('/roles/' + encodeURIComponent(r.name), r.name) },
          { label: 'Description', value: (r) => r.description || '' },
          { label: 'Grants', value: (r) => QAG.grantsSummary(r) },
          { label: 'Keys', class: 'num', value: (r) => QAG.num(r.keys_created) },
          { label: 'Managed by', value: (r) => (r.managed_by ? h('code', null, r.managed_by) : 'the API') },
        ] });
        const t = table.querySelector('table');
        if (t) t.classList.add('stack');
        QAG.fill(listArea, table);
      };
      QAG.fill(main, h('h1', null, 'Roles'));
      if (writer) {
        const choices = await QAG.grantChoices();
        const card = h('section', { class: 'card', hidden: true }, h('h2', null, 'New role'),
          newRoleForm((role) => QAG.go('/roles/' + encodeURIComponent(role.name)), choices));
        const toggle = QAG.button('New role', () => {
          card.hidden = !card.hidden;
          toggle.setAttribute('aria-expanded', String(!card.hidden));
          if (!card.hidden) card.querySelector('input[name=name]').focus();
        }, { kind: 'primary', dataset: { action: 'new-role' } });
        toggle.setAttribute('aria-expanded', 'false');
        QAG.fill(main, h('div', { class: 'key-head' }, h('h1', null, 'Roles'), toggle), card);
      }
      main.appendChild(h('section', { class: 'card' }, h('h2', null, 'Roles of this workspace'),
        h('p', { class: 'muted' }, 'A role is a named set of grants: a key made from it may do what the role allows, ' +
          'narrowed by its own fields, and changing the role changes its keys at once.'), listArea));
      await load();
    },
  });

  QAG.screen({
    path: '/roles/:name',
    title: (p) => 'Role ' + p.name,
    capability: 'access.read',
    render: async (main, params) => {
      const path = '/api/v1/roles/' + encodeURIComponent(params.name);
      const writer = QAG.can('access.write');
      let role = await QAG.get(path);
      const choices = writer ? await QAG.grantChoices() : null;

      const draw = () => {
        const fileOwned = !!role.managed_by;
        const facts = h('dl', { class: 'facts' },
          h('dt', null, 'Description'), h('dd', null, role.description || 'none'),
          h('dt', null, 'Grants'), h('dd', null, QAG.grantsSummary(role)),
          h('dt', null, 'Managed by'), h('dd', null, role.managed_by ? h('code', null, role.managed_by) : 'the API'),
          h('dt', null, 'Created'), h('dd', null, role.created_at, role.created_by ? ' by ' + role.created_by : ''),
          h('dt', null, 'Updated'), h('dd', null, role.updated_at, role.updated_by ? ' by ' + role.updated_by : ''));

        const grants = writer && !fileOwned ? QAG.grantsForm(role, { kind: 'role', choices }, async (changes) => {
          role = await QAG.patch(path, changes);
          QAG.notice('Saved role ' + role.name + ': its keys have the change now.', 'ok');
          draw();
        }) : h('div', null, fileOwned ? h('p', null, 'A configuration file owns this role: change it there.') : null,
          QAG.grantsReadOnly(role));

        const keys = (role.keys || []).map((k) => h('li', null, QAG.link('/keys/' + encodeURIComponent(k), k)));
        let actions = null;
        if (writer) {
          const errors = h('div');
          const del = QAG.button('Delete role', null, { kind: 'danger', dataset: { action: 'delete-role' },
            disabled: fileOwned });
          del.addEventListener('click', QAG.action(del, async () => {
            if (!(await QAG.confirm('Delete role ' + role.name + '?', 'Refused while keys are made from it.',
              'Delete'))) return;
            await QAG.del(path);
            QAG.notice('Deleted role ' + role.name + '.', 'ok');
            QAG.go('/roles');
          }, errors));
          actions = h('div', { class: 'actions' },
            h('a', { class: 'btn plain', href: QAG.base + '/keys?role=' + encodeURIComponent(role.name),
              'data-link': true, 'data-action': 'new-key-from-role' }, 'New key from this role'), del);
          actions = [actions, errors];
        }

        QAG.fill(main, h('h1', null, 'Role ', role.name), h('p', null, QAG.link('/roles', '← All roles')),
          QAG.section('Overview', facts, actions),
          QAG.section(writer && !fileOwned ? 'Grants' : 'Grants (read only)', grants),
          QAG.section('Keys made from it', keys.length ? h('ul', null, keys)
            : h('p', { class: 'empty' }, 'No key is made from this role.')));
      };
      draw();
    },
  });
})();
