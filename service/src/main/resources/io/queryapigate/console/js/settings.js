/*
 * Settings: the server's effective configuration (GET /api/v1/settings), read-only, by section. The API never sends
 * a secret: the administrator key, the masking key and the metrics token are shown as "configured" or not, and
 * credentials in URLs as ***. With secrets.rotate, stored connection passwords can be checked and re-encrypted under
 * the first secret key (POST /api/v1/settings/rekey).
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;

  function sectionView(s, filter) {
    const rows = s.rows.filter((r) => !filter || [r.label, r.description, r.config, r.env, r.value]
      .some((t) => t && t.toLowerCase().includes(filter)));
    if (!rows.length) return null;
    const table = QAG.table({
      caption: s.description,
      columns: [
        { label: 'Setting', value: (r) => h('span', null, h('strong', null, r.label), h('br'),
          h('small', null, r.description)) },
        { label: 'Value', value: (r) => h('code', { class: 'settings-value' }, r.value) },
        { label: 'Source', value: (r) => QAG.badge(r.source === 'config' ? 'from the YAML' : 'default',
          r.source === 'config' ? 'info' : 'muted') },
        { label: 'Key', value: (r) => h('span', null, h('code', null, r.config),
          r.env ? [h('br'), h('small', null, 'Python: ', r.env)] : null) },
      ],
      rows,
    });
    table.querySelector('table').classList.add('stack', 'settings-table');
    return h('section', { class: 'card', dataset: { section: s.id }, 'aria-labelledby': 'settings-' + s.id },
      h('h2', { id: 'settings-' + s.id }, s.title), table);
  }

  function rekeyReport(r) {
    return h('dl', { class: 'facts settings-rekey' },
      h('dt', null, 'Secret keys'), h('dd', null, QAG.num(r.keys)),
      h('dt', null, 'Stored passwords'), h('dd', null, QAG.num(r.values)),
      h('dt', null, 'Under an older key'), h('dd', null, QAG.num(r.under_old_keys)),
      h('dt', null, 'Undecryptable'), h('dd', null, (r.undecryptable || []).map((u) => u.name).join(', ') || 'none'),
      r.rekeyed === undefined ? null : [h('dt', null, 'Re-encrypted now'), h('dd', null, QAG.num(r.rekeyed))]);
  }

  function rekeySection() {
    const out = h('div', { class: 'settings-rekey-out', 'aria-live': 'polite' });
    const check = QAG.button('Check stored passwords', null, { dataset: { action: 'rekey-check' } });
    const rekey = QAG.button('Re-encrypt under the first key', null, { kind: 'danger', dataset: { action: 'rekey' } });
    check.addEventListener('click', QAG.action(check, async () => {
      out.replaceChildren(rekeyReport(await QAG.post('/api/v1/settings/rekey', { check: true })));
    }, out));
    rekey.addEventListener('click', QAG.action(rekey, async () => {
      if (!await QAG.confirm('Re-encrypt stored passwords?', 'Every connection password stored sealed is'
        + ' re-encrypted under the first key of QUERYAPIGATE_SECRET_KEY, in one transaction.', 'Re-encrypt')) return;
      const done = await QAG.post('/api/v1/settings/rekey', {});
      out.replaceChildren(rekeyReport(done));
      QAG.notice('Re-encrypted ' + done.rekeyed + ' stored password(s).', 'ok');
    }, out));
    return h('section', { class: 'card', 'aria-labelledby': 'settings-secrets' },
      h('h2', { id: 'settings-secrets' }, 'Stored passwords'),
      h('p', null, 'Connection passwords created through the API are stored sealed with QUERYAPIGATE_SECRET_KEY.'
        + ' After adding a new first key, re-encrypt them under it; then the old key can be removed.'),
      h('div', { class: 'actions' }, check, rekey), out);
  }

  QAG.screen({
    path: '/settings',
    title: 'Settings',
    nav: { label: 'Settings', order: 90 },
    capability: 'settings.read',
    render: async (main) => {
      const settings = await QAG.get('/api/v1/settings');
      const list = h('div', { class: 'settings-sections' });
      const search = QAG.field({ label: 'Find a setting', name: 'q', type: 'search',
        placeholder: 'timeout, cache, limits.maxWait…' });
      const input = search.querySelector('input');
      const draw = () => {
        const f = input.value.trim().toLowerCase();
        const shown = settings.items.map((s) => sectionView(s, f)).filter(Boolean);
        QAG.fill(list, shown.length ? shown : h('p', { class: 'empty' }, 'No setting matches.'));
      };
      input.addEventListener('input', draw);
      QAG.fill(main, h('h1', null, 'Settings'),
        h('p', null, 'The effective configuration of this server, read-only: change it in the YAML and restart.'
          + ' Secrets are never shown, only whether they are configured.'),
        h('div', { class: 'toolbar settings-search', role: 'search' }, search),
        list, QAG.can('secrets.rotate') ? rekeySection() : null);
      draw();
    },
  });
})();
