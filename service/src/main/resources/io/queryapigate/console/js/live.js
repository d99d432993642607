/*
 * Live events: the calls as they happen, from GET /events (Server-Sent Events read with QAG.stream, which sends the
 * session's CSRF header). The filters are the stream's own (query, status): changing one reopens the stream. Pausing
 * stops reading; resuming reads again from the last event shown (Last-Event-ID), so nothing in between is missed.
 * At most MAX_ROWS calls are kept, newest first.
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;
  const MAX_ROWS = 200;

  /** /events in the workspace the Console acts in (the stream is not under /api/v1, so QAG.wsPath leaves it). */
  function eventsPath(params) {
    const base = QAG.workspace && QAG.workspace !== 'default'
      ? '/w/' + encodeURIComponent(QAG.workspace) + '/events' : '/events';
    return base + QAG.qs(params);
  }

  function row(ev) {
    const e = ev.data.entry || {};
    const ok = e.status === 'success';
    return h('tr', { dataset: { eventId: ev.id || '', requestId: e.request_id || '' } },
      h('td', { 'data-label': 'Time' }, QAG.time(e.executed_at || ev.data.occurred_at)),
      h('td', { 'data-label': 'Query' }, e.query ? QAG.link('/queries/' + encodeURIComponent(e.query), e.query)
        : QAG.badge('ad-hoc', 'muted')),
      h('td', { 'data-label': 'Caller' }, e.key_name || ''),
      h('td', { 'data-label': 'Status', class: 'live-status' }, QAG.badge(String(e.http_status || e.status),
        ok ? 'ok' : 'bad'), e.code ? [' ', h('code', null, e.code)] : null),
      h('td', { 'data-label': 'Rows', class: 'num' }, e.rows === undefined ? '–' : QAG.num(e.rows)),
      h('td', { 'data-label': 'Duration', class: 'num' }, QAG.ms(e.duration_ms)),
      h('td', { 'data-label': 'Connection' }, e.connection_name || ''),
      h('td', { 'data-label': 'Via' }, e.transport || 'rest'));
  }

  QAG.screen({
    path: '/live',
    title: 'Live events',
    nav: { label: 'Live events', order: 40 },
    capability: 'observe',
    render: async (main) => {
      let stop = null;
      let paused = false;
      let lastId = null;
      let count = 0;
      const state = h('span', { class: 'live-state', role: 'status' }, 'Connecting…');
      const problem = h('div', { class: 'live-problem' });
      const tbody = h('tbody');
      const empty = h('p', { class: 'empty' }, 'Waiting for calls… every call this workspace answers shows up here'
        + ' as it happens.');
      const table = h('div', { class: 'table-wrap live-table', hidden: true }, h('table', { class: 'stack' },
        h('caption', { class: 'visually-hidden' }, 'Calls, newest first'),
        h('thead', null, h('tr', null, ['Time', 'Query', 'Caller', 'Status', 'Rows', 'Duration', 'Connection', 'Via']
          .map((l) => h('th', { scope: 'col', class: l === 'Rows' || l === 'Duration' ? 'num' : null }, l)))),
        tbody));
      const counter = h('span', { class: 'muted live-count' }, '');
      const filters = h('form', { class: 'toolbar live-filters', role: 'search', 'aria-label': 'Filter the calls' },
        QAG.field({ label: 'Query', name: 'query', placeholder: 'any saved query' }),
        QAG.field({ label: 'Status', name: 'status', type: 'select', options: [['', 'any'], ['success', 'success'],
          ['error', 'error'], ['200', '200'], ['400', '400'], ['403', '403'], ['404', '404'], ['429', '429'],
          ['500', '500'], ['503', '503']] }),
        QAG.button('Apply', null, { type: 'submit', dataset: { action: 'filter' } }));
      const pause = QAG.button('Pause', null, { dataset: { action: 'pause' } });
      const clear = QAG.button('Clear', () => {
        tbody.replaceChildren();
        count = 0;
        show();
      }, { dataset: { action: 'clear' } });

      function show() {
        table.hidden = !tbody.rows.length;
        empty.hidden = !!tbody.rows.length;
        counter.textContent = tbody.rows.length ? tbody.rows.length + ' shown (the newest ' + MAX_ROWS + ' are kept; '
          + count + ' received)' : '';
      }

      function open(resume) {
        if (stop) stop();
        problem.replaceChildren();
        const f = QAG.formValues(filters);
        const params = { query: f.query.trim(), status: f.status };
        if (resume && lastId) params.last_event_id = lastId;
        state.textContent = 'Live: new calls appear at the top.';
        state.className = 'live-state on';
        stop = QAG.stream(eventsPath(params), (ev) => {
          if (ev.id) lastId = ev.id;
          if (!ev.data || typeof ev.data !== 'object' || ev.data.type !== 'query.run') return;
          count++;
          tbody.insertBefore(row(ev), tbody.firstChild);
          while (tbody.rows.length > MAX_ROWS) tbody.lastChild.remove();
          show();
        }, (err) => {
          state.textContent = 'Stopped.';
          state.className = 'live-state off';
          problem.replaceChildren(QAG.errorView(err));
          pause.textContent = 'Resume';
          pause.dataset.action = 'resume';
          paused = true;
          stop = null;
        });
      }

      filters.addEventListener('submit', (e) => {
        e.preventDefault();
        tbody.replaceChildren();
        count = 0;
        lastId = null;
        show();
        paused = false;
        pause.textContent = 'Pause';
        pause.dataset.action = 'pause';
        open(false);
      });
      pause.addEventListener('click', () => {
        paused = !paused;
        pause.textContent = paused ? 'Resume' : 'Pause';
        pause.dataset.action = paused ? 'resume' : 'pause';
        if (paused) {
          if (stop) stop();
          stop = null;
          state.textContent = 'Paused: calls made meanwhile are shown when you resume.';
          state.className = 'live-state off';
        } else {
          open(true);
        }
      });

      QAG.fill(main, h('h1', null, 'Live events'),
        h('p', null, 'The calls of this workspace as they are answered: saved queries and ad-hoc SQL, refusals'
          + ' included. Never a parameter value, the SQL or a row. For older calls, see a query\'s run history.'),
        h('section', { class: 'card', 'aria-labelledby': 'live-filter-title' },
          h('h2', { id: 'live-filter-title' }, 'Filter'), filters,
          h('div', { class: 'row live-controls' }, pause, clear, state), problem),
        h('section', { class: 'card', 'aria-labelledby': 'live-calls-title' },
          h('h2', { id: 'live-calls-title' }, 'Calls'), counter, empty, table));
      show();
      open(false);
      return () => {
        if (stop) stop();
        stop = null;
      };
    },
  });
})();
