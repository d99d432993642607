/*
 * The schema browser: a connection's schemas, tables and columns with their types, read from its database's
 * catalogue (GET /api/v1/connections/{name}/schema), and what each means (its descriptions), editable in place for
 * roles with connections.write (PATCH /api/v1/connections/{name}/descriptions).
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;
  const enc = encodeURIComponent;
  const TABLES_SHOWN = 200;

  // ---------------------------------------------------------------- choosing a connection
  QAG.screen({
    path: '/schema', title: 'Schema', nav: { label: 'Schema', order: 35 }, capability: 'connections.read',
    render: async (main) => {
      const listed = (await QAG.get('/api/v1/connections')).items || [];
      QAG.fill(main, h('h1', null, 'Schema'),
        h('p', { class: 'conn-lead' }, 'Choose a connection to browse its tables and columns, and to read or write ' +
          'what they mean.'),
        h('section', { class: 'card', 'aria-labelledby': 'schema-pick' }, h('h2', { id: 'schema-pick' },
          'Connections'), listed.length ? h('ul', { class: 'schema-pick' }, listed.map((c) => h('li', null,
          QAG.link('/connections/' + enc(c.name) + '/schema', c.name), ' ', h('code', null, c.dialect),
          c.description ? h('span', { class: 'muted' }, ' — ' + c.description) : null)))
          : h('p', { class: 'empty' }, 'No connections yet.')));
      return null;
    },
  });

  // ---------------------------------------------------------------- one connection's schema
  /** The description editor in place: the text, and for writers an Edit button that turns it into a field. */
  function describedCell(spec) {
    // spec: {connection, schema, table, column, description, label, multiline, onSaved}
    const cell = h('div', { class: 'schema-desc' });
    const show = () => {
      const text = spec.description ? h('span', { class: 'schema-desc-text' }, spec.description)
        : h('span', { class: 'schema-desc-text muted' }, 'No description');
      QAG.fill(cell, text, QAG.can('connections.write') ? QAG.button('Edit', edit,
        { kind: 'plain small', label: 'Edit the description of ' + spec.label, dataset: { edit: spec.label } })
        : null);
    };
    const edit = () => {
      const out = h('div');
      const field = QAG.field({ label: 'Description of ' + spec.label, name: 'description',
        type: 'textarea', rows: spec.multiline ? 5 : 2,
        value: spec.description || '', help: 'Empty removes it. At most ' + (spec.table ? '2,000' : '20,000') +
          ' characters.' });
      const save = QAG.button('Save', null, { kind: 'primary small', type: 'submit',
        dataset: { action: 'save-description' } });
      const cancel = QAG.button('Cancel', () => show(), { kind: 'plain small' });
      const form = h('form', { class: 'schema-desc-form', novalidate: true }, field, out,
        h('div', { class: 'actions' }, save, cancel));
      form.addEventListener('submit', QAG.action(save, async () => {
        const value = form.elements.description.value.trim();
        const item = { table: spec.table, column: spec.column, description: value || null };
        if (spec.table && spec.schema) item.schema = spec.schema;
        await QAG.patch('/api/v1/connections/' + enc(spec.connection) + '/descriptions', { items: [item] });
        spec.description = value || null;
        show();
        QAG.notice('Description of ' + spec.label + ' saved.', 'ok');
        if (spec.onSaved) spec.onSaved(spec.description);
        const again = cell.querySelector('button');
        if (again) again.focus();
      }, out));
      form.addEventListener('keydown', (e) => { if (e.key === 'Escape') show(); });
      QAG.fill(cell, form);
      form.elements.description.focus();
    };
    show();
    return cell;
  }

  const qualified = (t) => (t.schema ? t.schema + '.' : '') + t.name;

  QAG.screen({
    path: '/connections/:name/schema', title: (p) => 'Schema of ' + p.name, capability: 'connections.read',
    render: async (main, params, query) => {
      const name = params.name;
      // the menu marks Schema here, not Connections (whose address this one is under)
      for (const a of document.querySelectorAll('#menu a')) {
        if (a.getAttribute('href') === QAG.base + '/schema') a.setAttribute('aria-current', 'page');
        else a.removeAttribute('aria-current');
      }
      const head = h('div', { class: 'row conn-head' }, QAG.link('/connections/' + enc(name), 'Connection ' + name),
        QAG.link('/schema', 'Other connections'));
      const refresh = QAG.button('Read the catalogue again', null, { kind: 'plain' });
      let schema;
      try {
        schema = await QAG.get('/api/v1/connections/' + enc(name) + '/schema' + QAG.qs({
          refresh: query.get('refresh') === 'true' ? 'true' : '' }));
      } catch (err) {
        QAG.fill(main, h('h1', null, 'Schema of ', h('code', null, name)), head,
          err.status === 503 ? h('p', { class: 'notice bad' }, 'The database is unavailable: its schema cannot ' +
            'be read now.') : null, QAG.errorView(err));
        return null;
      }
      const tables = schema.tables || [];
      const schemas = [...new Set(tables.map((t) => t.schema || ''))].sort();
      let selected = tables.find((t) => qualified(t) === query.get('table') || t.name === query.get('table')) ||
        null;

      const filter = QAG.field({ label: 'Find a table', name: 'table-filter', type: 'search' });
      const input = filter.querySelector('input');
      const list = h('div', { class: 'schema-tables' });
      const detail = h('section', { class: 'card schema-detail', 'aria-labelledby': 'schema-table-title',
        'aria-live': 'polite' });

      const drawList = () => {
        const q = input.value.trim().toLowerCase();
        const matching = tables.filter((t) => !q || qualified(t).toLowerCase().includes(q));
        const groups = schemas.map((s) => [s, matching.filter((t) => (t.schema || '') === s)])
          .filter(([, ts]) => ts.length);
        let budget = TABLES_SHOWN;
        QAG.fill(list, groups.length ? groups.map(([s, ts]) => {
          const some = ts.slice(0, Math.max(budget, 0));
          budget -= some.length;
          return some.length ? h('div', { class: 'schema-group' },
            h('h3', null, s ? 'Schema ' : '', s ? h('code', null, s) : 'Tables'),
            h('ul', null, some.map((t) => h('li', null, h('a', {
              href: QAG.base + '/connections/' + enc(name) + '/schema?table=' + enc(qualified(t)),
              'aria-current': t === selected ? 'true' : null, dataset: { table: qualified(t) },
              on: { click: (e) => { e.preventDefault(); select(t); } } }, t.name),
            t.type && t.type !== 'table' ? [' ', QAG.badge(t.type, 'muted')] : null)))) : null;
        }) : h('p', { class: 'empty' }, q ? 'No table matches.' : 'This database has no tables.'),
        matching.length > TABLES_SHOWN ? h('p', { class: 'muted' }, 'Showing the first ' + TABLES_SHOWN + ' of ' +
          matching.length + ': narrow with the search.') : null);
      };

      const drawDetail = () => {
        if (!selected) {
          QAG.fill(detail, h('h2', { id: 'schema-table-title' }, 'Columns'),
            h('p', { class: 'empty' }, 'Choose a table to see its columns.'));
          return;
        }
        const t = selected;
        const label = qualified(t);
        const columns = (t.columns || []).slice().sort((a, b) => (a.position || 0) - (b.position || 0));
        const table = QAG.table({
          empty: 'No columns.',
          caption: columns.length + ' column' + (columns.length === 1 ? '' : 's') + ' of ' + label,
          columns: [
            { label: 'Column', class: 'schema-col-name', value: (col) => h('span', null, h('code', null, col.name),
              col.primary_key ? [' ', QAG.badge('key', 'info')] : null,
              col.masked ? [' ', QAG.badge('masked: ' + col.mask, 'warn')] : null) },
            { label: 'Type', value: (col) => h('code', null, col.type || '') },
            { label: 'Null', class: 'nowrap', value: (col) => (col.nullable === false ? 'not null' : 'nullable') },
            { label: 'Comment', value: (col) => col.comment || '' },
            { label: 'Description', class: 'schema-desc-col', value: (col) => describedCell({ connection: name,
              schema: t.schema, table: t.name, column: col.name, description: col.description,
              label: label + '.' + col.name, onSaved: (d) => { col.description = d; } }) },
          ],
          rows: columns,
        });
        const tbl = table.querySelector('table');
        if (tbl) {
          tbl.classList.add('stack', 'schema-columns');
          columns.forEach((col, i) => { tbl.tBodies[0].rows[i].dataset.column = col.name; });
        }
        QAG.fill(detail,
          h('h2', { id: 'schema-table-title' }, t.type === 'view' ? 'View ' : 'Table ', h('code', null, label)),
          t.comment ? h('p', { class: 'muted' }, 'Database comment: ', t.comment) : null,
          h('h3', null, 'Description'),
          describedCell({ connection: name, schema: t.schema, table: t.name, column: null,
            description: t.description, label: 'table ' + label, onSaved: (d) => { t.description = d; } }),
          table);
      };

      const select = (t) => {
        selected = t;
        history.replaceState(null, '', QAG.base + '/connections/' + enc(name) + '/schema?table=' +
          enc(qualified(t)));
        drawList();
        drawDetail();
        const heading = detail.querySelector('h2');
        if (heading) {
          heading.setAttribute('tabindex', '-1');
          heading.focus();
        }
      };

      input.addEventListener('input', drawList);
      refresh.addEventListener('click', () => QAG.go('/connections/' + enc(name) + '/schema' +
        QAG.qs({ refresh: 'true', table: selected ? qualified(selected) : '' }), true));

      const notes = h('section', { class: 'card', 'aria-labelledby':
        'schema-notes' }, h('h2', { id: 'schema-notes' }, 'Notes on this connection'),
      h('p', { class: 'muted' }, 'Free text for the people and tools writing SQL on it: how tables join, ' +
        'what to avoid.'),
      describedCell({ connection: name, table: null, column: null, description: schema.notes || null,
        label: 'the connection\'s notes', multiline: true }));

      QAG.fill(main,
        h('h1', null, 'Schema of ', h('code', null, name)), head,
        h('div', { class: 'schema-meta' }, h('p', { class: 'muted' }, h('code', null, schema.dialect), ' · ',
          QAG.num(tables.length) + ' tables and views in ' + schemas.length + ' schema' +
          (schemas.length === 1 ? '' : 's'), schema.described_at ? ' · read ' + schema.described_at : null,
          schema.truncated ? ' · truncated at the dialect\'s bound' : null), refresh),
        h('div', { class: 'schema-layout' },
          h('section', { class: 'card schema-nav', 'aria-labelledby': 'schema-tables-title' },
            h('h2', { id: 'schema-tables-title' }, 'Tables'), filter, list),
          detail),
        notes);
      drawList();
      drawDetail();
      return null;
    },
  });
})();
