/*
 * Home: what the gateway did lately. The figures of the last hour and the last day come from
 * GET /api/v1/history/summary (added up in the store from the event log), the alerts from GET /api/v1/alerts, the
 * instances from GET /api/v1/instances (a server-wide role only).
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;

  /** Where an alert's target is looked at in the Console. */
  const TARGETS = { query: '/queries/', key: '/keys/', connection: '/connections/' };

  function percent(part, whole) {
    return whole ? ' (' + (100 * part / whole).toLocaleString(undefined, { maximumFractionDigits: 1 }) + '%)' : '';
  }

  function stat(name, label, value, kind) {
    return h('div', { class: ['stat', kind ? 'stat-' + kind : null], dataset: { stat: name } },
      h('span', { class: 'label' }, label), h('span', { class: 'value' }, value));
  }

  /** One window's figures: a heading, a grid of tiles, the status classes. */
  function windowSection(id, title, s) {
    const ms = (v) => (v === null || v === undefined ? '–' : QAG.ms(v));
    return h('section', { class: 'card home-window', dataset: { window: id }, 'aria-labelledby': 'home-' + id },
      h('h2', { id: 'home-' + id }, title),
      h('div', { class: 'grid home-stats' },
        stat('calls', 'Calls', QAG.num(s.calls)),
        stat('errors', 'Errors', QAG.num(s.errors) + percent(s.errors, s.calls), s.errors ? 'bad' : null),
        stat('p50', 'p50 latency', ms(s.p50_ms)),
        stat('p99', 'p99 latency', ms(s.p99_ms)),
        stat('cache_hits', 'Cache hits', QAG.num(s.cache_hits) + percent(s.cache_hits, s.calls)),
        stat('overloaded', 'Overloaded (503)', QAG.num(s.overloaded), s.overloaded ? 'warn' : null),
        stat('database_unavailable', 'DB unavailable', QAG.num(s.database_unavailable),
          s.database_unavailable ? 'warn' : null)),
      h('p', { class: 'muted home-status' }, 'By status: ',
        ['2xx', '3xx', '4xx', '5xx'].map((c, i) => [i ? ' · ' : '', h('span', { dataset: { status: c } }, c, ' ',
          h('strong', null, QAG.num(s.by_status[c])))]),
        ' · ad-hoc SQL ', h('strong', null, QAG.num(s.adhoc_calls)), ' · rows ', h('strong', null, QAG.num(s.rows))));
  }

  function busiest(day) {
    const table = QAG.table({
      caption: 'The five saved queries called most in the last 24 hours',
      columns: [
        { label: 'Query', value: (q) => (q.query ? QAG.link('/queries/' + encodeURIComponent(q.query), q.query)
          : h('span', { class: 'muted' }, '(deleted)')) },
        { label: 'Calls', value: (q) => QAG.num(q.calls), class: 'num' },
        { label: 'Errors', value: (q) => QAG.num(q.errors), class: 'num' },
        { label: 'Mean', value: (q) => QAG.ms(q.mean_ms), class: 'num' },
      ],
      rows: day.top_queries,
      empty: 'No saved query was called in the last 24 hours.',
    });
    const t = table.querySelector && table.querySelector('table');
    if (t) t.classList.add('stack');
    return h('section', { class: 'card', 'aria-labelledby': 'home-busiest' },
      h('h2', { id: 'home-busiest' }, 'Busiest queries'), table);
  }

  function alertsSection(alerts) {
    const kind = (sev) => (sev === 'critical' ? 'bad' : sev === 'warning' ? 'warn' : 'info');
    const body = alerts.items.length
      ? h('ul', { class: 'home-alerts' }, alerts.items.map((a) => {
        const target = a.target && TARGETS[a.target.type];
        const open = a.target && a.target.type === 'settings' ? [' ', QAG.link('/settings', 'Open settings')]
          : target && a.target.name ? [' ', QAG.link(target + encodeURIComponent(a.target.name),
            'Open ' + a.target.name)] : null;
        return h('li', { dataset: { alert: a.kind } }, QAG.badge(a.severity, kind(a.severity)), ' ',
          h('strong', null, a.title), a.detail ? h('span', { class: 'muted' }, ' ', a.detail) : null,
          a.since ? h('small', null, ' since ', QAG.time(a.since)) : null,
          open);
      }))
      : h('p', { class: 'home-ok' }, QAG.badge('OK', 'ok'), ' No alerts: nothing needs attention now.');
    return h('section', { class: 'card', id: 'home-alerts', 'aria-labelledby': 'home-alerts-title' },
      h('h2', { id: 'home-alerts-title' }, 'Alerts'), body,
      h('p', null, h('small', null, 'Checked ', QAG.time(alerts.checked_at),
        '. Alerts are worked out afresh on every visit and clear by themselves once their cause does.')));
  }

  function instancesSection(result) {
    let body;
    if (result instanceof Error) {
      body = result.code === 'role_forbidden'
        ? h('p', { class: 'muted' }, 'Only a server-wide role sees the server\'s instances.')
        : QAG.errorView(result);
    } else {
      const table = QAG.table({
        columns: [
          { label: 'Host', value: (i) => h('span', null, i.host, i.this ? [' ', QAG.badge('this one', 'info')] : null) },
          { label: 'PID', value: (i) => String(i.pid), class: 'num' },
          { label: 'Version', value: (i) => i.version },
          { label: 'Store', value: (i) => i.store },
          { label: 'Started', value: (i) => QAG.time(i.started_at) },
          { label: 'Heartbeat', value: (i) => QAG.time(i.last_seen) },
          { label: 'Status', value: (i) => QAG.badge(i.status, i.status === 'alive' ? 'ok' : 'bad') },
        ],
        rows: result.items,
        empty: 'No instance has written a heartbeat yet.',
      });
      const t = table.querySelector && table.querySelector('table');
      if (t) t.classList.add('stack');
      body = [table, result.problems.length ? h('ul', { class: 'home-problems' }, result.problems.map((p) =>
        h('li', null, QAG.badge(p.kind, 'warn'), ' ', p.message))) : null];
    }
    return h('section', { class: 'card', id: 'home-instances', 'aria-labelledby': 'home-instances-title' },
      h('h2', { id: 'home-instances-title' }, 'Instances'), body);
  }

  function onward() {
    const links = [['/queries', 'Saved queries', 'queries.read'], ['/live', 'Live events', 'observe'],
      ['/keys', 'API keys', 'access.read'], ['/connections', 'Connections', 'connections.read'],
      ['/audit', 'Audit log', 'observe'], ['/settings', 'Settings', 'settings.read']];
    return h('section', { class: 'card', 'aria-labelledby': 'home-onward' }, h('h2', { id: 'home-onward' }, 'Go on'),
      h('ul', { class: 'home-links' }, links.filter((l) => QAG.can(l[2])).map((l) => h('li', null,
        QAG.link(l[0], l[1])))));
  }

  /** Answers the promise's value, or the error it failed with (shown where the data goes). */
  const settle = (p) => p.catch((e) => e);

  QAG.screen({
    path: '/',
    title: 'Home',
    nav: { label: 'Home', order: 0 },
    render: async (main) => {
      const intro = h('p', null, 'Signed in as ', h('strong', null, QAG.me.name), ' (', QAG.me.role || 'no role',
        ') in the workspace ', h('strong', null, QAG.workspace), '.');
      if (!QAG.can('observe')) {
        QAG.fill(main, h('h1', null, 'Home'), intro, onward());
        return;
      }
      const [hour, day, alerts, instances] = await Promise.all([
        settle(QAG.get('/api/v1/history/summary?hours=1')), settle(QAG.get('/api/v1/history/summary?hours=24')),
        settle(QAG.get('/api/v1/alerts')), settle(QAG.get('/api/v1/instances'))]);
      const or = (value, build) => (value instanceof Error ? h('section', { class: 'card' }, QAG.errorView(value))
        : build(value));
      QAG.fill(main, h('h1', null, 'Home'), intro,
        h('div', { class: 'home-windows' }, or(hour, (s) => windowSection('hour', 'Last hour', s)),
          or(day, (s) => windowSection('day', 'Last 24 hours', s))),
        or(alerts, alertsSection),
        h('div', { class: 'split home-split' }, or(day, busiest), onward()),
        instancesSection(instances));
    },
  });
})();
