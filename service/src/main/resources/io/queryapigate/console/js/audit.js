/*
 * The audit log (/audit): administrative changes from GET /api/v1/audit, newest first, filtered and paged (50 an
 * page, by the API's cursor), and the hash chain's verification (GET /api/v1/audit/verify).
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;
  const PAGE = 50;
  const FILTERS = ['actor', 'action', 'target', 'since', 'until'];

  /** The changes of an entry, short: "role: auditor → owner; email: x". */
  function changes(c) {
    if (c === null || c === undefined) return '';
    if (typeof c !== 'object') return String(c);
    const show = (v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
    return Object.entries(c).map(([k, v]) => {
      if (v && typeof v === 'object' && !Array.isArray(v) && ('from' in v || 'to' in v)) {
        return k + ': ' + show(v.from) + ' → ' + show(v.to);
      }
      return k + ': ' + show(v);
    }).join('; ');
  }

  QAG.screen({
    path: '/audit',
    title: 'Audit log',
    nav: { label: 'Audit log', order: 50 },
    capability: 'observe',
    render: async (main, params, query) => {
      const filters = {};
      FILTERS.forEach((f) => { filters[f] = query.get(f) || ''; });
      const cursor = query.get('cursor') || '';
      const entries = h('div');
      const pager = h('div', { class: 'actions' });
      const form = h('form', { class: 'toolbar audit-filters', role: 'search', 'aria-label': 'Filter the audit log' },
        QAG.field({ label: 'Actor', name: 'actor', value: filters.actor, placeholder: 'admin' }),
        h('div', { class: 'field' }, h('label', { for: 'audit-action' }, 'Action'),
          h('input', { id: 'audit-action', name: 'action', value: filters.action, list: 'audit-actions',
            placeholder: 'create_admin', autocomplete: 'off' }), h('datalist', { id: 'audit-actions' })),
        QAG.field({ label: 'Target', name: 'target', value: filters.target }),
        QAG.field({ label: 'Since', name: 'since', value: filters.since, placeholder: 'YYYY-MM-DD' }),
        QAG.field({ label: 'Until', name: 'until', value: filters.until, placeholder: 'YYYY-MM-DD HH:MM:SS' }),
        h('div', { class: 'actions' }, QAG.button('Filter', null, { kind: 'primary', type: 'submit' }),
          QAG.button('Clear', () => QAG.go('/audit'))));
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const v = QAG.formValues(form);
        const next = {};
        FILTERS.forEach((f) => { next[f] = (v[f] || '').trim(); });
        QAG.go('/audit' + QAG.qs(next));
      });
      QAG.fill(main, h('h1', null, 'Audit log'),
        h('p', { class: 'muted' }, 'Every administrative change, written in the same transaction as the change and',
          ' chained by hashes. Since and until take a date, a server time (YYYY-MM-DD HH:MM:SS) or an ISO instant;',
          ' actor, action and target match exactly.'),
        verifySection(),
        QAG.section('Entries', form, entries, pager));
      try {
        const answer = await QAG.get('/api/v1/audit' + QAG.qs(Object.assign({ limit: PAGE, cursor }, filters)));
        const datalist = form.querySelector('datalist');
        (answer.actions || []).forEach((a) => datalist.appendChild(h('option', { value: a })));
        const table = QAG.stackedTable({
          caption: answer.total !== undefined && answer.total !== null
            ? QAG.num(answer.total) + ' matching entr' + (answer.total === 1 ? 'y' : 'ies') : null,
          columns: [
            { label: 'When', value: (e) => QAG.time(e.at_ms) || e.timestamp },
            { label: 'Who', value: (e) => [e.actor, e.via ? h('small', null, ' (' + e.via + ')') : null] },
            { label: 'Action', value: (e) => h('code', null, e.action) },
            { label: 'Target', value: (e) => [e.target || '', e.workspace && e.workspace !== 'default'
              ? h('small', null, ' in ' + e.workspace) : null] },
            { label: 'Changes', value: (e) => h('span', { class: 'audit-changes' }, changes(e.changes)) },
            { label: 'Seq', value: (e) => QAG.num(e.seq), class: 'num' },
          ],
          rows: answer.items,
          empty: 'No entries match.',
        }, 'audit');
        QAG.fill(entries, table);
        if (cursor) {
          pager.appendChild(QAG.button('Newest entries', () => QAG.go('/audit' + QAG.qs(filters))));
        }
        if (answer.next_cursor) {
          pager.appendChild(QAG.button('Older entries', () => QAG.go('/audit' + QAG.qs(Object.assign({},
            filters, { cursor: answer.next_cursor }))), { kind: 'primary' }));
        }
        pager.appendChild(h('small', null, 'Up to ' + PAGE + ' entries a page, newest first.'));
      } catch (err) {
        QAG.fill(entries, QAG.errorView(err));
      }
    },
  });

  function verifySection() {
    const out = h('div', { class: 'verify-result', 'aria-live': 'polite' });
    const button = QAG.button('Verify the chain', null, { kind: 'primary', dataset: { action: 'verify' } });
    button.addEventListener('click', QAG.action(button, async () => {
      QAG.fill(out, h('p', null, 'Verifying…'));
      const r = await QAG.get('/api/v1/audit/verify');
      const shown = ['intact', 'break', 'entries', 'first_seq', 'last_seq'];
      const rest = Object.entries(r).filter(([k]) => !shown.includes(k));
      if (r.intact) {
        QAG.fill(out, h('p', { class: 'verdict' }, QAG.badge('ok', 'ok'), ' ', h('span', null,
          h('strong', null, 'The chain is intact'), ': ', QAG.num(r.entries), ' entries checked',
          r.first_seq !== undefined && r.first_seq !== null ? ', seq ' + r.first_seq + ' to ' + r.last_seq : '', '.')),
        detail(rest));
      } else {
        const b = r.break || {};
        QAG.fill(out, h('div', { class: 'error', role: 'alert' }, h('strong', null,
          'The chain is broken at seq ' + b.seq + ': ' + (b.problem || 'unknown problem')),
        detail(Object.entries(b).filter(([k]) => !['seq', 'problem'].includes(k)))), detail(rest));
      }
    }, out));
    return QAG.section('Chain verification', h('div', { class: 'verify-row' }, button,
      h('p', { class: 'muted' }, 'Walks the hash chain from its anchor: an entry edited or removed in the store',
        ' shows as a break.')), out);
  }

  function detail(pairs) {
    if (!pairs.length) return null;
    return h('details', null, h('summary', null, 'Details'), h('dl', { class: 'facts' }, pairs.map(([k, v]) => [
      h('dt', null, k.replace(/_/g, ' ')), h('dd', null, v !== null && typeof v === 'object' ? JSON.stringify(v)
        : String(v))])));
  }
})();
