/*
 * AI agents: the writes they asked for (/approvals, /approvals/:id; GET /api/v1/write-requests, approve, reject),
 * the MCP server (/mcp; /api/v1/mcp/status and /tools) and what agents used (/usage; /api/v1/usage/agents and
 * /api/v1/usage/quotas).
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;
  const PAST = 50;
  const STATUS_KIND = { pending: 'warn', approved: 'info', running: 'info', done: 'ok', failed: 'bad',
    rejected: 'bad', expired: 'muted' };

  const wrPath = (id) => '/api/v1/write-requests/' + encodeURIComponent(id);
  const statusBadge = (s) => QAG.badge(s, STATUS_KIND[s] || 'muted');

  /** Explains why a screen shows nothing to a role without the capability it needs. */
  function cannot(capability, what) {
    return h('p', { class: 'notice info' }, 'Your role does not have ', h('code', null, capability), ', which ',
      what, '.');
  }

  /** One write request in full: what will run, exactly, and the decision buttons when it is pending. */
  function requestCard(r, onDecided) {
    const facts = h('dl', { class: 'facts' },
      h('dt', null, 'Status'), h('dd', null, statusBadge(r.status)),
      h('dt', null, 'Query'), h('dd', null, QAG.link('/queries/' + encodeURIComponent(r.query), r.query),
        ' version ' + r.version),
      h('dt', null, 'Asked by'), h('dd', null, r.caller),
      h('dt', null, 'Connection'), h('dd', null, r.connection || ''),
      h('dt', null, 'Mode'), h('dd', null, (r.mode || '') + ', at most ' + QAG.num(r.max_affected_rows) + ' row(s)'),
      h('dt', null, 'Asked'), h('dd', null, QAG.time(r.created_at)),
      h('dt', null, 'Expires'), h('dd', null, QAG.time(r.expires_at)),
      r.decided_by ? [h('dt', null, 'Decided'), h('dd', null, r.decided_by + ' (' + (r.decided_via || '') + '), ' +
        QAG.time(r.decided_at))] : null,
      r.reason ? [h('dt', null, 'Reason'), h('dd', null, r.reason)] : null,
      r.result ? [h('dt', null, 'Result'), h('dd', null, h('code', null, JSON.stringify(r.result)))] : null);
    const out = h('div');
    let decide = null;
    if (r.status === 'pending' && QAG.can('writes.approve')) {
      const reason = QAG.field({ label: 'Reason for a rejection (optional; the agent is told)', name: 'reason',
        id: 'reason-' + r.id });
      const approve = QAG.button('Approve', null, { kind: 'primary', dataset: { action: 'approve', id: r.id },
        label: 'Approve ' + r.id });
      const reject = QAG.button('Reject', null, { kind: 'danger', dataset: { action: 'reject', id: r.id },
        label: 'Reject ' + r.id });
      approve.addEventListener('click', QAG.action(approve, async () => {
        if (!(await QAG.confirm('Approve ' + r.id + '?', 'The agent may then run exactly this SQL with exactly'
          + ' these arguments, once, before it expires.', 'Approve'))) return;
        await QAG.post(wrPath(r.id) + '/approve', {});
        QAG.notice('Approved ' + r.id + '.', 'ok');
        await onDecided();
      }, out));
      reject.addEventListener('click', QAG.action(reject, async () => {
        const text = reason.querySelector('input').value.trim();
        await QAG.post(wrPath(r.id) + '/reject', text ? { reason: text } : {});
        QAG.notice('Rejected ' + r.id + '.', 'ok');
        await onDecided();
      }, out));
      decide = h('div', { class: 'decide' }, reason, h('div', { class: 'actions' }, approve, reject));
    }
    return h('article', { class: 'card write-request', dataset: { id: r.id } },
      h('h3', null, h('code', null, r.id)), h('div', { class: 'wr-body' }, facts, h('div', null,
        h('h4', null, 'SQL it runs'), h('pre', { class: 'sql' }, r.sql || ''),
        h('h4', null, 'Arguments, exactly'), h('pre', { class: 'args' }, JSON.stringify(r.arguments || {})),
        out, decide)));
  }

  QAG.screen({
    path: '/approvals',
    title: 'Agent writes',
    nav: { label: 'Agent writes', order: 55 },
    capability: 'observe',
    render: async (main) => {
      QAG.fill(main, h('h1', null, 'Agent writes'), h('p', { class: 'muted' }, 'Writes AI agents asked to make',
        ' through saved queries marked agent_writes (approval mode). Nothing runs until a person approves the exact',
        ' SQL and arguments shown; the agent then calls again with the same arguments.'));
      if (!QAG.can('writes.approve')) {
        main.appendChild(QAG.section('Waiting for a decision', cannot('writes.approve',
          'lists and decides the writes agents ask for (owners and admins)')));
        return;
      }
      const pending = h('div');
      const past = h('div');
      main.append(QAG.section('Waiting for a decision', pending), QAG.section('Decided and expired', past));
      const load = async () => {
        try {
          const waiting = await QAG.get('/api/v1/write-requests?status=pending&limit=100');
          QAG.fill(pending, waiting.items.length ? waiting.items.map((r) => requestCard(r, load))
            : h('p', { class: 'empty' }, 'No write is waiting for a decision.'),
          waiting.items.length >= 100 ? h('small', null, 'The oldest 100 are not shown: decide these first.') : null);
        } catch (err) {
          QAG.fill(pending, QAG.errorView(err));
        }
        try {
          const all = await QAG.get('/api/v1/write-requests?limit=' + PAST);
          QAG.fill(past, QAG.table({
            columns: [
              { label: 'Request', value: (r) => QAG.link('/approvals/' + encodeURIComponent(r.id), r.id) },
              { label: 'Status', value: (r) => statusBadge(r.status) },
              { label: 'Query', value: (r) => r.query + ' v' + r.version },
              { label: 'Asked by', value: (r) => r.caller },
              { label: 'Asked', value: (r) => QAG.time(r.created_at) },
              { label: 'Decided by', value: (r) => r.decided_by || '—' },
            ],
            rows: all.items.filter((r) => r.status !== 'pending'),
            empty: 'No decided or expired write requests yet.',
          }), h('small', null, 'The newest ' + PAST + ' requests.'));
        } catch (err) {
          QAG.fill(past, QAG.errorView(err));
        }
      };
      await load();
    },
  });

  QAG.screen({
    path: '/approvals/:id',
    title: (p) => p.id + ' · Agent writes',
    render: async (main, params) => {
      const body = h('div');
      QAG.fill(main, h('h1', null, 'Write request ' + params.id), h('p', null, QAG.link('/approvals',
        'All agent writes')), h('section', { 'aria-label': 'The request' }, h('h2', { class: 'visually-hidden' },
        'The request'), body));
      const load = async () => {
        try {
          QAG.fill(body, requestCard(await QAG.get(wrPath(params.id)), load));
        } catch (err) {
          QAG.fill(body, QAG.errorView(err));
        }
      };
      await load();
    },
  });

  QAG.screen({
    path: '/mcp',
    title: 'MCP',
    nav: { label: 'MCP', order: 57 },
    capability: 'observe',
    render: async (main) => {
      const status = h('div');
      const tools = h('div');
      QAG.fill(main, h('h1', null, 'MCP server'), h('p', { class: 'muted' }, 'The Model Context Protocol server',
        ' AI agents call: each saved query they are granted is a tool, with the ad-hoc tools when their grant allows.'),
      QAG.section('Status', status), QAG.section('Tools you would see', tools));
      try {
        const s = await QAG.get('/api/v1/mcp/status');
        const row = (k, v) => [h('dt', null, k), h('dd', null, v)];
        QAG.fill(status, h('div', { class: 'grid' },
          stat('Served', s.enabled ? QAG.badge('enabled', 'ok') : QAG.badge('disabled', 'bad')),
          stat('Tools', QAG.num(s.tools && s.tools.total)),
          stat('Saved-query tools', QAG.num(s.tools && s.tools.saved_queries)),
          stat('Rows per call at most', QAG.num(s.max_rows))),
        h('dl', { class: 'facts' },
          row('Endpoint', h('code', null, location.origin + (s.path || '/mcp'))),
          row('Transport', (s.transport || '') + (s.stateless ? ', stateless' : '')),
          row('Over stdio', s.stdio ? 'yes' : 'no'),
          row('Protocol versions', (s.protocol_versions || []).join(', ')),
          row('OAuth', s.oauth ? h('span', null, 'resource ', h('code', null, s.oauth.resource_url), ', server ',
            h('code', null, s.oauth.authorization_server), s.oauth.scope ? ', scope ' + s.oauth.scope : '')
            : 'off: agents send an API key')));
      } catch (err) {
        QAG.fill(status, QAG.errorView(err));
      }
      try {
        const t = await QAG.get('/api/v1/mcp/tools');
        const table = QAG.stackedTable({
          columns: [
            { label: 'Tool', value: (x) => h('code', null, x.name) },
            { label: 'Kind', value: (x) => QAG.badge(x.kind, x.kind === 'ad-hoc' ? 'warn' : 'info') },
            { label: 'Parameters', value: (x) => (x.params || []).join(', ') || '—' },
            { label: 'Reads only', value: (x) => (x.read_only ? 'yes' : 'no') },
            { label: 'Description', value: (x) => h('span', { class: 'tool-description' }, x.description || '') },
          ],
          rows: t.items,
          empty: 'No tools for you: no saved query is published for MCP.',
        });
        QAG.fill(tools, h('p', { class: 'muted' }, 'The catalog as ', h('strong', null, t.key), ' sees it; a key sees',
          ' the tools its grants allow.'), table);
      } catch (err) {
        QAG.fill(tools, QAG.errorView(err));
      }
    },
  });

  function stat(label, value) {
    return h('div', { class: 'stat' }, h('span', { class: 'label' }, label), h('span', { class: 'value' }, value));
  }

  QAG.screen({
    path: '/usage',
    title: 'Usage',
    nav: { label: 'Usage', order: 58 },
    capability: 'observe',
    render: async (main, params, query) => {
      const hours = query.get('hours') || '24';
      const agents = h('div');
      const quotas = h('div', { class: 'quota-usage' });
      const choose = QAG.field({ label: 'Window', name: 'hours', type: 'select', value: hours,
        options: [['1', 'last hour'], ['24', 'last 24 hours'], ['168', 'last 7 days'], ['720', 'last 30 days']] });
      choose.querySelector('select').addEventListener('change', (e) => QAG.go('/usage' + QAG.qs({ hours:
        e.target.value }), true));
      QAG.fill(main, h('h1', null, 'Usage'),
        QAG.section('AI agents', h('div', { class: 'toolbar' }, choose), agents),
        QAG.section('Quotas', quotas));
      try {
        const u = await QAG.get('/api/v1/usage/agents' + QAG.qs({ hours }));
        const table = QAG.stackedTable({
          caption: 'MCP calls from ' + QAG.time(u.since) + ' to ' + QAG.time(u.until)
            + (u.truncated ? ' (only the newest 100,000 calls read)' : ''),
          columns: [
            { label: 'Agent', value: (a) => a.agent },
            { label: 'Calls', value: (a) => QAG.num(a.calls), class: 'num' },
            { label: 'Rows', value: (a) => QAG.num(a.rows), class: 'num' },
            { label: 'Errors', value: (a) => QAG.num(a.errors), class: 'num' },
            { label: 'Ad hoc', value: (a) => QAG.num(a.adhoc_calls), class: 'num' },
            { label: 'Queries', value: (a) => Object.entries(a.queries || {}).map(([q, n]) => q + ' ×' + n)
              .join(', ') || '—' },
            { label: 'Refusals', value: (a) => Object.entries(a.refusals || {}).map(([c, n]) => c + ' ×' + n)
              .join(', ') || '—' },
            { label: 'Writes', value: (a) => Object.entries(a.writes || {}).filter(([, n]) => n)
              .map(([s, n]) => s + ' ' + n).join(', ') || '—' },
            { label: 'Last seen', value: (a) => QAG.time(a.last_seen) },
          ],
          rows: u.items,
          empty: 'No agent called the MCP server in this window.',
        });
        QAG.fill(agents, table);
      } catch (err) {
        QAG.fill(agents, QAG.errorView(err));
      }
      if (!QAG.can('access.read')) {
        QAG.fill(quotas, cannot('access.read', 'reads API keys and their quotas'));
        return;
      }
      try {
        const q = await QAG.get('/api/v1/usage/quotas');
        const table = QAG.stackedTable({
          columns: [
            { label: 'Key', value: (x) => QAG.link('/keys/' + encodeURIComponent(x.caller), x.caller) },
            { label: 'Per', value: (x) => x.per + ' / ' + x.period },
            { label: 'Calls', value: (x) => QAG.num(x.calls) + (x.calls_limit != null ? ' of '
              + QAG.num(x.calls_limit) : ''), class: 'num' },
            { label: 'Rows', value: (x) => QAG.num(x.rows) + (x.rows_limit != null ? ' of '
              + QAG.num(x.rows_limit) : ''), class: 'num' },
            { label: 'Resets', value: (x) => QAG.time(x.resets_at) },
          ],
          rows: q.items,
          empty: 'No key of this workspace has a quota.',
        });
        QAG.fill(quotas, table);
      } catch (err) {
        QAG.fill(quotas, QAG.errorView(err));
      }
    },
  });
})();
