/*
 * Connections: the list (where each comes from, its status and latency), one connection's settings (test, edit and
 * delete for API-managed ones; the YAML's are read-only), and a form to create one. Everything through
 * /api/v1/connections (resources/ConnectionsResource, docs/connections.md).
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;
  const MASK = '********';
  const PAGE = 50;
  // the dialects this build ships (no route lists the installed plugins: the server refuses one it lacks, naming it)
  const DIALECTS = ['duckdb', 'sqlite', 'postgres', 'mysql', 'mariadb', 'clickhouse', 'trino', 'h2', 'mongo', 'jdbc'];

  const enc = encodeURIComponent;
  const path = (name) => '/api/v1/connections/' + enc(name);

  /** Where a connection comes from: the YAML (read-only), a configuration directory's file, or the API. */
  function origin(c) {
    if (c.managed_by === 'config') return { text: 'YAML (read-only)', kind: 'muted', editable: false };
    if (c.managed_by && c.managed_by !== 'api') return { text: c.managed_by + ' (read-only)', kind: 'muted',
      editable: false };
    return { text: 'API-managed', kind: 'info', editable: true };
  }

  /** Whether the connection's own properties open it read-only (DuckDB's duckdb.read_only and the like). */
  function readOnly(c) {
    return Object.entries(c.properties || {}).some(([k, v]) => /(^|\.)read_?only$/i.test(k) &&
      String(v).toLowerCase() === 'true');
  }

  /** What a failed test means to an operator: "database unavailable" when the database could not be reached. */
  function failure(err) {
    const unreachable = err && (err.status === 502 || err.status === 503 || err.status === 504);
    return unreachable ? 'database unavailable' : 'test failed';
  }

  /** A status cell: tests the saved connection (POST /connections/test {name}) and shows the outcome. */
  function statusCell(name) {
    const cell = h('span', { class: 'conn-status', 'data-status': 'testing' }, QAG.badge('testing…', 'muted'));
    return { cell, run: async () => {
      try {
        const r = await QAG.post('/api/v1/connections/test', { name });
        cell.dataset.status = 'ok';
        QAG.fill(cell, QAG.badge('ok', 'ok'), ' ', h('span', { class: 'latency' }, QAG.ms(r.latency_ms)));
      } catch (err) {
        cell.dataset.status = 'failed';
        QAG.fill(cell, QAG.badge(failure(err), 'bad'), ' ', h('code', { class: 'status-code' }, err.code),
          err.message ? h('small', { class: 'status-detail' }, err.message) : null);
      }
    } };
  }

  /** Runs tasks a few at a time (a test opens a session on its database). */
  async function few(tasks, width) {
    const queue = tasks.slice();
    await Promise.all(Array.from({ length: Math.min(width, queue.length) }, async () => {
      while (queue.length) await queue.shift()();
    }));
  }

  /** The background health check's view (alerts), for roles that may not test: names failing now. */
  async function failingByAlerts() {
    const alerts = await QAG.get('/api/v1/alerts');
    return new Set((alerts.items || []).filter((a) => a.kind === 'connection_failing')
      .map((a) => (a.target && a.target.name) || a.id.replace(/^connection_failing:/, '')));
  }

  QAG.screen({
    path: '/connections', title: 'Connections', nav: { label: 'Connections', order: 30 },
    capability: 'connections.read',
    render: async (main, params, query) => {
      const listed = (await QAG.get('/api/v1/connections')).items || [];
      const canWrite = QAG.can('connections.write');
      const filter = QAG.field({ label: 'Find by name or dialect', name: 'q', type: 'search',
        value: query.get('q') || '' });
      const input = filter.querySelector('input');
      const out = h('div', { class: 'conn-list' });
      const note = h('p', { class: 'muted', id: 'conn-status-note' });
      let failing = null;
      if (canWrite) {
        note.textContent = 'Status: each connection is tested now (one session, the dialect\'s health check); ' +
          'latency is the health check\'s.';
      } else if (QAG.can('observe')) {
        note.textContent = 'Status: from the background health check (alerts). Testing needs connections.write.';
        try { failing = await failingByAlerts(); } catch (err) { out.before(QAG.errorView(err)); }
      } else {
        note.textContent = 'Status: testing a connection needs connections.write.';
      }
      let shown = PAGE;
      const draw = () => {
        const q = input.value.trim().toLowerCase();
        const matching = listed.filter((c) => !q || c.name.toLowerCase().includes(q) ||
          String(c.dialect).toLowerCase().includes(q));
        const rows = matching.slice(0, shown);
        const tests = [];
        const table = QAG.table({
          empty: q ? 'No connection matches.' : 'No connections yet.',
          columns: [
            { label: 'Name', value: (c) => QAG.link('/connections/' + enc(c.name), c.name) },
            { label: 'Dialect', value: (c) => h('code', null, c.dialect) },
            { label: 'From', value: (c) => { const o = origin(c); return QAG.badge(o.text, o.kind); } },
            { label: 'Status', value: (c) => {
              if (canWrite) {
                const s = statusCell(c.name);
                tests.push(s.run);
                return s.cell;
              }
              if (failing) {
                return failing.has(c.name) ? h('span', { class: 'conn-status', 'data-status': 'failed' },
                  QAG.badge('database unavailable', 'bad')) : h('span', { class: 'conn-status',
                  'data-status': 'ok' }, QAG.badge('no alert', 'ok'));
              }
              return h('span', { class: 'muted' }, 'not tested');
            } },
            { label: 'Pool', class: 'num', value: (c) => QAG.num(c.pool_size) },
            { label: 'Writes', value: (c) => (readOnly(c) ? QAG.badge('read-only', 'muted')
              : h('span', null, 'as keys allow')) },
            { label: 'Description', value: (c) => c.description || '' },
          ],
          rows,
        });
        const t = table.querySelector('table');
        if (t) {
          t.classList.add('stack', 'conn-table');
          rows.forEach((c, i) => { t.tBodies[0].rows[i].dataset.connection = c.name; });
        }
        QAG.fill(out, table, matching.length > shown ? h('div', { class: 'actions' },
          h('p', { class: 'muted' }, 'Showing ' + shown + ' of ' + matching.length + '.'),
          QAG.button('Show ' + PAGE + ' more', () => { shown += PAGE; draw(); })) : null);
        few(tests, 4);
      };
      input.addEventListener('input', () => {
        shown = PAGE;
        history.replaceState(null, '', QAG.base + '/connections' + QAG.qs({ q: input.value.trim() }));
        draw();
      });
      let deleted = null;
      if (canWrite) {
        const gone = ((await QAG.get('/api/v1/connections/deleted')).items || []).slice(0, 20);
        const out = h('div');
        const table = QAG.table({
          empty: 'No deleted connections.',
          columns: [
            { label: 'Name', value: (d) => h('code', null, d.name) },
            { label: 'Dialect', value: (d) => d.dialect },
            { label: 'Deleted', value: (d) => QAG.time(d.deleted_at) + ' by ' + (d.deleted_by || '?') },
            { label: 'Reason', value: (d) => d.reason || '' },
            { label: 'Restore', value: (d) => {
              const b = QAG.button('Restore', null, { kind: 'plain small', label: 'Restore ' + d.name,
                dataset: { action: 'restore', connection: d.name } });
              b.addEventListener('click', QAG.action(b, async () => {
                await QAG.post(path(d.name) + '/restore');
                QAG.notice('Connection ' + d.name + ' restored.', 'ok');
                await QAG.render();
              }, out));
              return b;
            } },
          ],
          rows: gone,
        });
        const t = table.querySelector('table');
        if (t) t.classList.add('stack');
        deleted = h('section', { class: 'card', 'aria-labelledby': 'conn-deleted-title' },
          h('h2', { id: 'conn-deleted-title' }, 'Deleted connections'),
          h('p', { class: 'muted' }, 'The 20 deleted last, newest first; restoring one opens it again with its ' +
            'descriptions.'), out, table);
      }
      QAG.fill(main,
        h('h1', null, 'Connections'),
        h('p', { class: 'conn-lead' }, 'The databases saved queries and ad-hoc SQL run on. Those declared in the YAML ' +
          'are read-only here; those created here are API-managed.'),
        h('div', { class: 'toolbar' }, filter,
          canWrite ? h('a', { class: 'btn primary', href: QAG.base + '/connections/new', 'data-link': true },
            'New connection') : null),
        h('section', { class: 'card', 'aria-labelledby': 'conn-list-title' },
          h('h2', { id: 'conn-list-title' }, 'All connections (' + listed.length + ')'), note, out), deleted);
      draw();
      return null;
    },
  });

  // ---------------------------------------------------------------- the form (create and edit)
  /** "key = value" lines from an object, and back. */
  const propsText = (o) => Object.entries(o || {}).map(([k, v]) => k + ' = ' + v).join('\n');
  function propsObject(text) {
    const o = {};
    for (const line of String(text || '').split('\n')) {
      if (!line.trim()) continue;
      const i = line.indexOf('=');
      if (i < 0) o[line.trim()] = '';
      else o[line.slice(0, i).trim()] = line.slice(i + 1).trim();
    }
    return o;
  }

  /** The form's fields for a connection (c: the one edited, or null for a new one). */
  function formFields(c, creating) {
    c = c || {};
    const dialect = QAG.field({ label: 'Dialect', name: 'dialect', value: c.dialect || '', required: true,
      help: 'The plugin that opens it: ' + DIALECTS.join(', ') + '.' });
    dialect.querySelector('input').setAttribute('list', 'conn-dialects');
    return [
      creating ? QAG.field({ label: 'Name', name: 'name', required: true, value: c.name || '',
        help: '1-100 letters, digits, ".", "_" or "-"; saved queries and keys name it.' }) : null,
      dialect,
      h('datalist', { id: 'conn-dialects' }, DIALECTS.map((d) => h('option', { value: d }))),
      QAG.field({ label: 'URL', name: 'url', required: true, value: c.url || '',
        help: 'A file under the home for DuckDB and SQLite (sales.duckdb; a SQLite file must exist), or a JDBC URL.' }),
      h('div', { class: 'split' },
        QAG.field({ label: 'User', name: 'user', value: c.user || '' }),
        QAG.field({ label: 'Password', name: 'password', type: 'password', value: c.password || '',
          autocomplete: 'new-password',
          help: c.password === MASK ? 'Stored and masked: leave the mask to keep it, clear it to remove it.'
            : 'A reference such as ${DB_PASSWORD} is stored as written; a literal is stored encrypted.' })),
      h('div', { class: 'split' },
        QAG.field({ label: 'Pool size', name: 'pool_size', type: 'number', min: 1, max: 1024,
          value: c.pool_size == null ? 8 : c.pool_size }),
        QAG.field({ label: 'Query timeout', name: 'query_timeout', value: c.query_timeout || '',
          placeholder: '30s', help: 'At most the server\'s limits.queryTimeout; empty: the server\'s.' })),
      QAG.field({ label: 'Properties', name: 'properties', type: 'textarea', rows: 3,
        value: propsText(c.properties), placeholder: 'duckdb.read_only = true',
        help: 'One "name = value" a line, handed to the dialect as the YAML\'s are.' }),
      QAG.field({ label: 'Description', name: 'description', type: 'textarea', rows: 2,
        value: c.description || '' }),
    ];
  }

  /** The API's body from the form: empty optional fields are null, properties an object. */
  function body(form, creating) {
    const v = QAG.formValues(form);
    const out = {
      dialect: v.dialect.trim(), url: v.url.trim(), user: v.user.trim() || null,
      password: v.password === '' ? null : v.password, pool_size: v.pool_size,
      query_timeout: v.query_timeout.trim() || null, properties: propsObject(v.properties),
      description: v.description.trim() || null,
    };
    if (creating) out.name = v.name.trim();
    return out;
  }

  /** Shows the API's field errors next to their fields (and clears earlier ones). */
  function fieldErrors(form, err) {
    form.querySelectorAll('.conn-field-error').forEach((e) => e.remove());
    form.querySelectorAll('[aria-invalid]').forEach((e) => {
      e.removeAttribute('aria-invalid');
      e.setAttribute('aria-describedby', (e.getAttribute('aria-describedby') || '').split(' ')
        .filter((id) => !id.endsWith('-err')).join(' '));
    });
    for (const [key, message] of Object.entries((err && err.errors) || {})) {
      const input = form.elements[key.split('.')[0]];
      if (!input || !input.id) continue;
      const id = input.id + '-err';
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', ((input.getAttribute('aria-describedby') || '') + ' ' + id).trim());
      input.closest('.field').appendChild(h('small', { class: 'conn-field-error', id, role: 'alert' },
        (key.includes('.') ? key + ' ' : '') + String(message)));
    }
  }

  /** The outcome of a test as shown: ok with latency and version, or what failed. */
  function testResult(r) {
    return h('p', { class: 'conn-test-result', 'data-status': 'ok', role: 'status' }, QAG.badge('ok', 'ok'), ' ',
      h('span', { class: 'latency' }, QAG.ms(r.latency_ms)), ' health check',
      r.server_version ? [' · ', h('code', null, r.server_version)] : null,
      ' · ', QAG.ms(r.elapsed_ms), ' in all');
  }
  function testFailed(out, err) {
    QAG.fill(out, h('p', { class: 'conn-test-result', 'data-status': 'failed' }, QAG.badge(failure(err), 'bad')),
      QAG.errorView(err));
  }

  QAG.screen({
    path: '/connections/new', title: 'New connection', capability: 'connections.write',
    render: async (main) => {
      if (!QAG.can('connections.write')) {
        QAG.fill(main, h('h1', null, 'New connection'),
          h('p', { class: 'notice info' }, 'Your role may not create connections (connections.write).'));
        return null;
      }
      const errors = h('div', { class: 'form-errors' });
      const tested = h('div', { class: 'conn-test-out', 'aria-live': 'polite' });
      const create = QAG.button('Create connection', null,
        { kind: 'primary', type: 'submit', dataset: { action: 'create-connection' } });
      const form = h('form', { class: 'card conn-form', 'aria-labelledby': 'conn-new-title', novalidate: true },
        h('h2', { id: 'conn-new-title' }, 'Settings'), formFields(null, true), errors, tested,
        h('div', { class: 'actions' }, create, null));
      const test = QAG.button('Test these settings', null, { dataset: { action: 'test' } });
      form.querySelector('.actions').appendChild(test);
      test.addEventListener('click', QAG.action(test, async () => {
        tested.replaceChildren();
        try {
          QAG.fill(tested, testResult(await QAG.post('/api/v1/connections/test', body(form, true))));
        } catch (err) {
          fieldErrors(form, err);
          testFailed(tested, err);
        }
      }));
      form.addEventListener('submit', QAG.action(create, async () => {
        try {
          const made = await QAG.post('/api/v1/connections', body(form, true));
          QAG.notice('Connection ' + made.name + ' created: live now.', 'ok');
          window.scrollTo(0, 0);
          QAG.go('/connections/' + enc(made.name));
        } catch (err) {
          fieldErrors(form, err);
          throw err;
        }
      }, errors));
      QAG.fill(main, h('h1', null, 'New connection'),
        h('p', { class: 'conn-lead' }, 'An API-managed connection, checked by the YAML\'s rules and opened by its ' +
          'dialect before it is saved. Test the settings first: nothing is saved by a test.'), form);
      form.elements.name.focus();
      return null;
    },
  });

  // ---------------------------------------------------------------- one connection
  QAG.screen({
    path: '/connections/:name', title: (p) => 'Connection ' + p.name, capability: 'connections.read',
    render: async (main, params) => {
      const response = await QAG.api('GET', path(params.name), undefined, { raw: true });
      let etag = response.headers.get('ETag');
      const c = await response.json();
      const o = origin(c);
      const canWrite = QAG.can('connections.write');
      const editable = o.editable && canWrite;

      const tested = h('div', { class: 'conn-test-out', 'aria-live': 'polite' });
      const test = canWrite ? QAG.button('Test connection', null, { dataset: { action: 'test' } }) : null;
      if (test) {
        test.addEventListener('click', QAG.action(test, async () => {
          QAG.fill(tested, h('p', { class: 'muted' }, 'Testing…'));
          try {
            QAG.fill(tested, testResult(await QAG.post('/api/v1/connections/test', { name: c.name })));
          } catch (err) {
            testFailed(tested, err);
          }
        }));
      }

      const facts = h('dl', { class: 'facts' }, [
        ['Dialect', h('code', null, c.dialect)], ['From', QAG.badge(o.text, o.kind)],
        ['URL', h('code', { class: 'wrap' }, c.url || '')], ['User', c.user || '—'],
        ['Password', c.password || '—'], ['Pool size', QAG.num(c.pool_size)],
        ['Query timeout', c.query_timeout || 'the server\'s'],
        ['Properties', Object.keys(c.properties || {}).length ? h('ul', { class: 'props' },
          Object.entries(c.properties).map(([k, v]) => h('li', null, h('code', null, k), ' = ', h('code', null, v))))
          : '—'],
        ['Allowed functions', (c.allowed_functions || []).length ? c.allowed_functions.join(', ') : '—'],
        ['Description', c.description || '—'],
        ['Created', c.created_at ? QAG.time(c.created_at) + ' by ' + (c.created_by || '?') : '—'],
        ['Changed', c.updated_at ? QAG.time(c.updated_at) + ' by ' + (c.updated_by || '?') : '—'],
      ].map(([k, v]) => [h('dt', null, k), h('dd', null, v)]));

      let settings;
      if (editable) {
        const errors = h('div', { class: 'form-errors' });
        const save = QAG.button('Save changes', null, { kind: 'primary', type: 'submit', dataset: { action: 'save' } });
        const form = h('form', { class: 'conn-form', novalidate: true }, formFields(c, false), errors,
          h('div', { class: 'actions' }, save));
        form.addEventListener('submit', QAG.action(save, async () => {
          try {
            const r = await QAG.api('PATCH', path(c.name), body(form, false),
              { raw: true, headers: etag ? { 'If-Match': etag } : {} });
            etag = r.headers.get('ETag');
            QAG.notice('Connection ' + c.name + ' saved.', 'ok');
            await QAG.render();
          } catch (err) {
            fieldErrors(form, err);
            throw err;
          }
        }, errors));
        settings = h('section', { class: 'card', 'aria-labelledby': 'conn-settings' },
          h('h2', { id: 'conn-settings' }, 'Settings'),
          h('p', { class: 'muted' }, 'Passwords are masked as the API masks them. A change to how it connects ' +
            'replaces its pool; running calls finish on the old one.'), form);
      } else {
        settings = h('section', { class: 'card', 'aria-labelledby': 'conn-settings' },
          h('h2', { id: 'conn-settings' }, 'Settings'),
          h('p', { class: 'notice info read-only-note' }, c.managed_by === 'config'
            ? 'Declared in the YAML file: read-only here. Change it in the file and restart the gateway.'
            : o.editable ? 'Your role may read this connection, not change it.'
              : 'Managed by ' + c.managed_by + ': read-only here; change that file.'), facts);
      }

      let danger = null;
      if (editable) {
        const out = h('div');
        const reason = QAG.field({ label: 'Reason for deleting', name: 'reason', required: true,
          help: 'Kept with the deleted connection (GET /api/v1/connections/deleted); it can be restored.' });
        const force = QAG.field({ label: 'Delete even if published saved queries run on it', name: 'force',
          type: 'checkbox' });
        const del = QAG.button('Delete connection', null, { kind: 'danger', dataset: { action: 'delete' } });
        const form = h('form', { class: 'delete-form', novalidate: true }, reason, force, out,
          h('div', { class: 'actions' }, del));
        del.addEventListener('click', QAG.action(del, async () => {
          const v = QAG.formValues(form);
          if (!(await QAG.confirm('Delete ' + c.name + '?', 'Saved queries on it stop answering until it is ' +
            'restored. Its descriptions are kept for a restore.', 'Delete'))) return;
          await QAG.api('DELETE', path(c.name) + (v.force ? '?force=true' : ''), { reason: v.reason },
            { headers: etag ? { 'If-Match': etag } : {} });
          QAG.notice('Connection ' + c.name + ' deleted.', 'ok');
          window.scrollTo(0, 0);
          QAG.go('/connections');
        }, out));
        danger = h('section', { class: 'card danger-zone', 'aria-labelledby': 'conn-delete' },
          h('h2', { id: 'conn-delete' }, 'Delete'), form);
      }

      QAG.fill(main,
        h('h1', null, 'Connection ', h('code', null, c.name)),
        h('div', { class: 'row conn-head' }, QAG.badge(o.text, o.kind), h('code', null, c.dialect),
          QAG.link('/connections/' + enc(c.name) + '/schema', 'Browse its schema'),
          QAG.link('/connections', 'All connections')),
        h('section', { class: 'card', 'aria-labelledby': 'conn-status' }, h('h2', { id: 'conn-status' }, 'Status'),
          canWrite ? h('p', { class: 'muted' }, 'A test opens one session, runs the dialect\'s health check and ' +
            'asks the server\'s version; nothing is saved.') : h('p', { class: 'muted' },
            'Testing a connection needs connections.write.'),
          tested, test ? h('div', { class: 'actions' }, test) : null),
        settings, danger);
      if (test) test.click();
      return null;
    },
  });
})();
