/*
 * API keys: the list (/keys) with its "New key" form, and a key's page (/keys/:name) with its grants, rotation,
 * revocation and activity. The grants editor (QAG.grantsEditor) is shared with the roles screens (roles.js).
 * Everything goes through /api/v1/api-keys, /api/v1/roles, /api/v1/history and /api/v1/usage/quotas.
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;
  const PAGE = 50; // keys shown at a time in the list ("Show more" adds as many)
  const ACTIVITY = 25; // a key's recent calls shown

  // ---------------------------------------------------------------- the grants editor (keys and roles)
  const split = (text) => String(text || '').split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
  const lines = (list) => (Array.isArray(list) ? list.join('\n') : '');
  const orNull = (list) => (list.length ? list : null);
  let uid = 0;

  /** The connections and saved queries a grant may name, for the editor's check boxes (null when not readable). */
  QAG.grantChoices = async function grantChoices() {
    const names = async (path, capability) => {
      if (!QAG.can(capability)) return null;
      try {
        return ((await QAG.get(path)).items || []).map((i) => i.name).sort();
      } catch (e) {
        return null;
      }
    };
    const [connections, queries] = await Promise.all([names('/api/v1/connections', 'connections.read'),
      names('/api/v1/queries', 'queries.read')]);
    return { connections, queries };
  };

  // "*" or a list of names as check boxes (one "All" box first), or a text field when the names cannot be listed
  function namePicker(field, legend, current, known, help) {
    const all = current === '*';
    const picked = Array.isArray(current) ? current : [];
    if (!known) {
      const f = QAG.field({ label: legend, name: field, value: all ? '*' : picked.join(', '),
        help: help + ' Comma-separated names, or * for all.' });
      return { el: f, value: () => {
        const v = split(f.querySelector('input').value);
        return v.length === 1 && v[0] === '*' ? '*' : v;
      } };
    }
    const names = Array.from(new Set(known.concat(picked))).sort();
    const box = (value, label, checked) => {
      const id = 'g-' + field + '-' + (++uid);
      return h('div', { class: 'field check' }, h('input', { type: 'checkbox', id, name: field, value, checked }),
        h('label', { for: id }, label));
    };
    const allBox = box('*', 'All (*)', all);
    const boxes = names.map((n) => box(n, n, all || picked.includes(n)));
    const sync = () => {
      const on = allBox.querySelector('input').checked;
      boxes.forEach((b) => { b.querySelector('input').disabled = on; });
    };
    allBox.querySelector('input').addEventListener('change', sync);
    const el = h('fieldset', null, h('legend', null, legend), h('small', null, help),
      h('div', { class: 'choices' }, allBox, boxes, names.length ? null : h('span', { class: 'empty' }, 'none yet')));
    sync();
    return { el, value: () => (allBox.querySelector('input').checked ? '*'
      : boxes.map((b) => b.querySelector('input')).filter((i) => i.checked).map((i) => i.value)) };
  }

  function maskRule(rule) {
    const r = rule || {};
    const row = h('div', { class: 'mask-rule' },
      QAG.field({ label: 'Column', name: 'column', value: r.column, placeholder: 'table.column' }),
      QAG.field({ label: 'Action', name: 'action', type: 'select', value: r.action || 'null',
        options: [['null', 'null (blank it)'], ['fixed', 'fixed value'], ['last', 'keep last N'], ['hash', 'hash']] }),
      QAG.field({ label: 'Value (fixed)', name: 'value', value: r.value }),
      QAG.field({ label: 'Keep (last)', name: 'keep', type: 'number', value: r.keep, min: 0, max: 64 }),
      QAG.field({ label: 'Strict', name: 'strict', type: 'checkbox', value: r.strict }));
    row.appendChild(QAG.button('Remove', () => row.remove(), { kind: 'plain small',
      label: 'Remove masking rule ' + (r.column || ''), dataset: { action: 'remove-mask' } }));
    return row;
  }

  /**
   * A form's worth of grant fields. g: the key's or role's answer (or {} for a new one); opts: {kind: 'key'|'role',
   * choices (QAG.grantChoices()), roles (names, keys only)}. Answers {el, value()}: value() is the JSON body of
   * every field as the API takes it (lists left empty are null: no restriction), throwing on input it cannot read.
   */
  QAG.grantsEditor = function grantsEditor(g, opts) {
    g = g || {};
    opts = opts || {};
    const choices = opts.choices || {};
    const key = opts.kind !== 'role';
    const conns = namePicker('connections', 'Connections', g.connections, choices.connections,
      'The connections its ad-hoc SQL may use.');
    const queries = namePicker('queries', 'Saved queries', g.queries, choices.queries,
      'The saved queries it may run (/q/NAME).');
    const q = g.quota || {};
    const masks = h('div', { class: 'mask-rules' }, (g.mask || []).map(maskRule));
    const f = {};
    const field = (spec) => {
      const el = QAG.field(spec);
      f[spec.name] = el.querySelector('input, select, textarea');
      return el;
    };
    const el = h('div', { class: 'grants' },
      key ? h('div', { class: 'cols' },
        opts.roles ? field({ label: 'Role', name: 'role', type: 'select', value: g.role || '',
          options: [['', '(none: its own grants only)']].concat(opts.roles.map((r) => [r, r])),
          help: 'Made from a role, the key may do what the role allows, narrowed by the fields below.' }) : null,
        field({ label: 'Expires on', name: 'expires_at', type: 'date', value: g.expires_at || '',
          help: 'Valid through that day (UTC). Empty: never.' }))
        : field({ label: 'Description', name: 'description', type: 'textarea', rows: 2, value: g.description || '' }),
      h('div', { class: 'cols' }, conns.el, queries.el),
      h('fieldset', null, h('legend', null, 'SQL and tables'),
        field({ label: 'Ad-hoc SQL (POST /execute_sql)', name: 'adhoc_sql', type: 'checkbox', value: g.adhoc_sql }),
        field({ label: 'Writes (INSERT, UPDATE, ...)', name: 'allow_writes', type: 'checkbox', value: g.allow_writes }),
        h('div', { class: 'cols' },
          field({ label: 'Allowed write operations', name: 'allowed_write_ops', type: 'textarea', rows: 2,
            value: lines(g.allowed_write_ops), help: 'One a line (insert, update, delete, ...). Empty: any.' }),
          field({ label: 'Allowed tables', name: 'allowed_tables', type: 'textarea', rows: 2,
            value: lines(g.allowed_tables), help: 'table, schema.table or catalog.schema.table, one a line. Empty: any.' }))),
      h('fieldset', null, h('legend', null, 'Masking rules'),
        h('small', null, 'Columns blanked, replaced, shortened or hashed in every answer.'), masks,
        h('div', { class: 'actions' }, QAG.button('Add masking rule', () => masks.appendChild(maskRule()),
          { kind: 'plain small', dataset: { action: 'add-mask' } }))),
      h('fieldset', null, h('legend', null, 'Network, limits and quota'),
        h('div', { class: 'cols' },
          field({ label: 'Allowed IP ranges', name: 'allowed_ips', type: 'textarea', rows: 2,
            value: lines(g.allowed_ips), help: 'Addresses or CIDR blocks, one a line. Empty: any address.' }),
          field({ label: 'Rate limit', name: 'rate_limit', value: g.rate_limit || '', placeholder: '60/minute',
            help: 'N/second, minute, hour, day or month. Empty: none.' }),
          field({ label: 'Max rows per call', name: 'max_rows', type: 'number', min: 1, value: g.max_rows }),
          field({ label: 'Max concurrent calls', name: 'max_concurrent', type: 'number', min: 1,
            value: g.max_concurrent }),
          field({ label: 'Query timeout (seconds)', name: 'query_timeout', type: 'number', min: 0.1, step: 0.1,
            value: g.query_timeout })),
        h('div', { class: 'cols' },
          field({ label: 'Quota: calls', name: 'quota.calls', type: 'number', min: 1, value: q.calls }),
          field({ label: 'Quota: rows', name: 'quota.rows', type: 'number', min: 1, value: q.rows }),
          field({ label: 'Quota period', name: 'quota.per', type: 'select', value: q.per || 'day',
            options: [['day', 'per day'], ['month', 'per month']] }))),
      key ? field({ label: 'Claims (JSON)', name: 'claims', type: 'textarea', rows: 2,
        value: g.claims && Object.keys(g.claims).length ? JSON.stringify(g.claims) : '',
        help: 'Fixed values for from_claim parameters, e.g. {"org_id": "acme"}. Empty: none.' }) : null);

    const num = (input) => (input.value === '' ? null : Number(input.value));
    const value = () => {
      const out = {
        connections: conns.value(),
        queries: queries.value(),
        adhoc_sql: f.adhoc_sql.checked,
        allow_writes: f.allow_writes.checked,
        allowed_write_ops: orNull(split(f.allowed_write_ops.value).map((s) => s.toLowerCase())),
        allowed_tables: orNull(split(f.allowed_tables.value)),
        allowed_ips: orNull(split(f.allowed_ips.value)),
        mask: orNull(Array.from(masks.querySelectorAll('.mask-rule')).map((row) => {
          const v = (n) => row.querySelector('[name="' + n + '"]');
          const rule = { column: v('column').value.trim(), action: v('action').value };
          if (rule.action === 'fixed') rule.value = v('value').value;
          if (rule.action === 'last') rule.keep = num(v('keep'));
          if (v('strict').checked) rule.strict = true;
          return rule;
        }).filter((r) => r.column)),
        rate_limit: f.rate_limit.value.trim() || null,
        max_rows: num(f.max_rows),
        max_concurrent: num(f.max_concurrent),
        query_timeout: num(f.query_timeout),
        quota: null,
      };
      const calls = num(f['quota.calls']);
      const rows = num(f['quota.rows']);
      if (calls !== null || rows !== null) {
        out.quota = { per: f['quota.per'].value };
        if (calls !== null) out.quota.calls = calls;
        if (rows !== null) out.quota.rows = rows;
      }
      if (key) {
        if (f.role) out.role = f.role.value || null;
        out.expires_at = f.expires_at.value || null;
        const claims = f.claims.value.trim();
        if (claims) {
          try {
            out.claims = JSON.parse(claims);
          } catch (e) {
            throw new Error('Claims must be a JSON object, such as {"org_id": "acme"}: ' + e.message);
          }
        } else {
          out.claims = null;
        }
      } else {
        out.description = f.description.value.trim() || null;
      }
      return out;
    };
    return { el, value };
  };

  // the same value as the editor writes it, to send only what changed
  function normal(v) {
    if (v === undefined || v === null) return 'null';
    if (Array.isArray(v)) return v.length ? '[' + v.map(normal).join(',') + ']' : 'null';
    if (typeof v === 'object') {
      const keys = Object.keys(v).filter((k) => v[k] !== null && v[k] !== false).sort();
      return keys.length ? '{' + keys.map((k) => k + ':' + normal(v[k])).join(',') + '}' : 'null';
    }
    return JSON.stringify(v);
  }

  /** The fields of `next` that differ from `before` (a key's or role's answer): a PATCH body. */
  QAG.grantChanges = function grantChanges(before, next) {
    const out = {};
    for (const [k, v] of Object.entries(next)) {
      const was = k === 'connections' || k === 'queries' ? JSON.stringify(before[k] || [])
        : normal(before[k] === '' ? null : before[k]);
      const now = k === 'connections' || k === 'queries' ? JSON.stringify(v) : normal(v);
      if (was !== now) out[k] = v;
    }
    return out;
  };

  /**
   * The grants editor in a form with "Save grants" (data-action save-grants). save(changes) gets the fields that
   * differ from `record` (a PATCH body); a failure is shown under the form.
   */
  QAG.grantsForm = function grantsForm(record, opts, save) {
    const editor = QAG.grantsEditor(record, opts);
    const errors = h('div');
    const button = QAG.button('Save grants', null, { kind: 'primary', type: 'submit',
      dataset: { action: 'save-grants' } });
    const form = h('form', { class: 'grants-form', novalidate: true }, editor.el, errors,
      h('div', { class: 'actions' }, button));
    form.addEventListener('submit', QAG.action(button, async () => {
      const changes = QAG.grantChanges(record, editor.value());
      if (!Object.keys(changes).length) {
        QAG.notice('Nothing changed.', 'info');
        return;
      }
      await save(changes);
    }, errors));
    return form;
  };

  const GRANT_FIELDS = ['connections', 'queries', 'adhoc_sql', 'allow_writes', 'allowed_write_ops', 'allowed_tables',
    'allowed_ips', 'mask', 'rate_limit', 'quota', 'max_rows', 'max_concurrent', 'query_timeout'];
  /** A key's or role's grant fields as the API gives them, read only. */
  QAG.grantsReadOnly = (g) => h('pre', { class: 'grants-json' },
    JSON.stringify(Object.fromEntries(GRANT_FIELDS.map((k) => [k, g[k] === undefined ? null : g[k]])), null, 2));

  /** A line saying what a key or role may do: "queries film · connections * · ad-hoc SQL · 10/minute". */
  QAG.grantsSummary = function grantsSummary(g) {
    const parts = [];
    const names = (label, v) => {
      if (v === '*') parts.push([label + ' ', h('code', null, 'all')]);
      else if (Array.isArray(v) && v.length) parts.push([label + ' ', h('code', null, v.slice(0, 3).join(', ')),
        v.length > 3 ? ' +' + (v.length - 3) : '']);
    };
    names('queries', g.queries);
    names('connections', g.connections);
    if (g.adhoc_sql) parts.push('ad-hoc SQL');
    if (g.allow_writes) parts.push('writes');
    if (g.allowed_tables && g.allowed_tables.length) parts.push(g.allowed_tables.length + ' tables');
    if (g.mask && g.mask.length) parts.push(g.mask.length + ' masked');
    if (g.allowed_ips && g.allowed_ips.length) parts.push('IPs ' + g.allowed_ips.join(', '));
    if (g.rate_limit) parts.push(g.rate_limit);
    if (g.max_rows) parts.push('≤ ' + QAG.num(g.max_rows) + ' rows');
    if (g.quota) parts.push('quota ' + [g.quota.calls ? QAG.num(g.quota.calls) + ' calls' : null,
      g.quota.rows ? QAG.num(g.quota.rows) + ' rows' : null].filter(Boolean).join(', ') + '/' + g.quota.per);
    if (!parts.length) return h('span', { class: 'grants-summary' }, 'nothing granted');
    return h('span', { class: 'grants-summary' }, parts.map((p, i) => [i ? ' · ' : '', p]));
  };

  /** A key's state: revoked, expired or active. */
  QAG.keyState = function keyState(k) {
    if (!k.active) return QAG.badge('revoked', 'bad');
    if (k.expired) return QAG.badge('expired', 'warn');
    return QAG.badge('active', 'ok');
  };

  async function roleNames() {
    try {
      return ((await QAG.get('/api/v1/roles')).items || []).map((r) => r.name);
    } catch (e) {
      return [];
    }
  }

  // ---------------------------------------------------------------- /keys
  /**
   * A "new key" or "new role" form: a name and the grants editor. spec: {kind: 'key'|'role', initial, editor (the
   * editor's opts), action (data-action of its submit button), label, placeholder, help}; create(body) sends it.
   */
  QAG.grantsCreateForm = function grantsCreateForm(spec, create) {
    const editor = QAG.grantsEditor(spec.initial, Object.assign({ kind: spec.kind }, spec.editor));
    const errors = h('div');
    const submit = QAG.button(spec.label, null, { kind: 'primary', type: 'submit',
      dataset: { action: spec.action } });
    const form = h('form', { class: 'new-' + spec.kind, novalidate: true },
      QAG.field({ label: 'Name', name: 'name', required: true, placeholder: spec.placeholder, help: spec.help }),
      editor.el, errors, h('div', { class: 'actions' }, submit));
    form.addEventListener('submit', QAG.action(submit, async () => {
      const body = editor.value();
      for (const k of ['role', 'claims', 'description']) if (k in body && !body[k]) delete body[k];
      body.name = form.elements.name.value.trim();
      await create(body);
      form.reset();
    }, errors));
    return form;
  };

  function newKeyForm(out, onCreated, choices, roles, role) {
    // made from a role, the key starts with all of the role's reach ("*": the role's), else with none
    return QAG.grantsCreateForm({ kind: 'key', action: 'create-key', label: 'Create key',
      initial: { role: role || null, connections: role ? '*' : [], queries: role ? '*' : [] },
      editor: { choices, roles }, placeholder: 'reporting-app',
      help: '1-100 letters, digits, spaces, ".", "_" or "-".' }, async (body) => {
      const created = await QAG.post('/api/v1/api-keys', body);
      QAG.fill(out, QAG.secretOnce('The secret of ' + created.name, created.secret),
        h('p', null, 'Send it in the ', h('code', null, 'X-API-Key'), ' header. ',
          QAG.link('/keys/' + encodeURIComponent(created.name), 'Open ' + created.name), '.'));
      onCreated(created);
    });
  }

  QAG.screen({
    path: '/keys',
    title: 'API keys',
    nav: { label: 'API keys', order: 20 },
    capability: 'access.read',
    render: async (main, params, query) => {
      const writer = QAG.can('access.write');
      const listArea = h('div');
      const created = h('div', { 'aria-live': 'polite' });
      const search = QAG.field({ label: 'Search', name: 'search', type: 'search', value: query.get('q') || '',
        placeholder: 'name or role' });
      search.classList.add('keys-search');
      let keys = [];
      let shown = PAGE;

      const draw = () => {
        const q = search.querySelector('input').value.trim().toLowerCase();
        const rows = keys.filter((k) => !q || k.name.toLowerCase().includes(q) || (k.role || '').toLowerCase()
          .includes(q));
        const table = QAG.table({ rows: rows.slice(0, shown), empty: q ? 'No key matches "' + q + '".'
          : 'No API keys yet.', columns: [
          { label: 'Name', value: (k) => QAG.link('/keys/' + encodeURIComponent(k.name), k.name) },
          { label: 'Role', value: (k) => (k.role ? QAG.link('/roles/' + encodeURIComponent(k.role), k.role)
            : h('span', { class: 'muted' }, 'none')) },
          { label: 'Grants', value: (k) => QAG.grantsSummary(k.effective_grants || k) },
          { label: 'State', value: QAG.keyState },
          { label: 'Expires', class: 'nowrap', value: (k) => k.expires_at || 'never' },
          { label: 'Last used', class: 'nowrap', value: (k) => k.last_used_at || 'never' },
          { label: 'Calls', class: 'num', value: (k) => QAG.num(k.usage ? k.usage.queries : 0) },
        ] });
        const t = table.querySelector('table');
        if (t) t.classList.add('stack');
        QAG.fill(listArea, h('p', { class: 'muted' }, rows.length + (rows.length === 1 ? ' key' : ' keys') +
          (q ? ' match' : '') + (rows.length > shown ? ', the first ' + shown + ' shown' : '') + '.'), table,
          rows.length > shown ? h('div', { class: 'more' }, QAG.button('Show ' + Math.min(PAGE, rows.length - shown)
            + ' more', () => { shown += PAGE; draw(); })) : null);
      };
      const load = async () => {
        keys = ((await QAG.get('/api/v1/api-keys')).items || []).sort((a, b) => a.name.localeCompare(b.name));
        draw();
      };
      search.querySelector('input').addEventListener('input', () => { shown = PAGE; draw(); });

      if (writer) {
        const [choices, roles] = await Promise.all([QAG.grantChoices(), roleNames()]);
        const card = h('section', { class: 'card new-key-card', hidden: !query.get('role') }, h('h2', null, 'New key'),
          newKeyForm(created, () => load().catch((e) => QAG.fill(listArea, QAG.errorView(e))), choices, roles,
            query.get('role')));
        const toggle = QAG.button('New key', () => {
          card.hidden = !card.hidden;
          toggle.setAttribute('aria-expanded', String(!card.hidden));
          if (!card.hidden) card.querySelector('input[name=name]').focus();
        }, { kind: 'primary', dataset: { action: 'new-key' } });
        toggle.setAttribute('aria-expanded', String(!card.hidden));
        QAG.fill(main, h('div', { class: 'key-head' }, h('h1', null, 'API keys'), toggle), created, card);
      } else {
        QAG.fill(main, h('h1', null, 'API keys'));
      }
      main.appendChild(h('section', { class: 'card' }, h('h2', null, 'Keys'),
        h('p', { class: 'muted' }, 'Scoped keys callers send in X-API-Key. Each grants saved queries, connections ' +
          'and limits; a key made from a role gets the role\'s. Secrets are shown once, when made or rotated.'),
        h('div', { class: 'toolbar' }, search), listArea));
      await load();
    },
  });

  // ---------------------------------------------------------------- /keys/:name
  const count = (n, word) => QAG.num(n) + ' ' + word + (n === 1 ? '' : 's');

  function activity(name) {
    const area = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
    (async () => {
      if (!QAG.can('observe')) {
        QAG.fill(area, h('p', { class: 'muted' }, 'Your role cannot read the run history.'));
        return;
      }
      try {
        const page = await QAG.get('/api/v1/history' + QAG.qs({ key: name, limit: ACTIVITY }));
        const table = QAG.table({ rows: page.items || [], empty: 'No calls with this key yet.', columns: [
          { label: 'When', class: 'nowrap', value: (r) => r.executed_at },
          { label: 'What', value: (r) => (r.query ? QAG.link('/queries/' + encodeURIComponent(r.query), r.query)
            : r.kind === 'adhoc' ? 'ad-hoc SQL' : '(refused before a query)') },
          { label: 'Status', value: (r) => QAG.badge(String(r.http_status || r.status),
            r.status === 'success' ? 'ok' : 'bad') },
          { label: 'Code', value: (r) => (r.code ? h('code', null, r.code) : '') },
          { label: 'Rows', class: 'num', value: (r) => QAG.num(r.rows) },
          { label: 'Time', class: 'num', value: (r) => QAG.ms(r.duration_ms) },
        ] });
        const t = table.querySelector('table');
        if (t) t.classList.add('stack');
        QAG.fill(area, h('p', { class: 'muted' }, 'Its newest calls (at most ' + ACTIVITY + '), from the run ' +
          'history (GET /api/v1/history?key=' + name + ').'), table);
      } catch (e) {
        QAG.fill(area, QAG.errorView(e));
      }
    })();
    return area;
  }

  function quotaView(name) {
    const area = h('div');
    (async () => {
      try {
        const items = (await QAG.get('/api/v1/usage/quotas' + QAG.qs({ key: name }))).items || [];
        const u = items.find((i) => i.caller === name) || items[0];
        if (!u) {
          QAG.fill(area, h('p', { class: 'muted' }, 'No quota.'));
          return;
        }
        const meter = (label, used, limit) => (limit ? [h('dt', null, label),
          h('dd', null, QAG.num(used) + ' of ' + QAG.num(limit) + ' ',
            h('meter', { class: 'quota-bar', min: 0, max: limit, value: Math.min(used, limit),
              'aria-label': label + ' used' }))] : null);
        QAG.fill(area, h('dl', { class: 'facts' },
          h('dt', null, 'Period'), h('dd', null, u.period || u.per, ' (from ', u.period_start, ', resets ',
            u.resets_at, ')'),
          meter('Calls', u.calls, u.calls_limit), meter('Rows', u.rows, u.rows_limit)));
      } catch (e) {
        QAG.fill(area, QAG.errorView(e));
      }
    })();
    return area;
  }

  QAG.screen({
    path: '/keys/:name',
    title: (p) => 'API key ' + p.name,
    capability: 'access.read',
    render: async (main, params) => {
      const path = '/api/v1/api-keys/' + encodeURIComponent(params.name);
      const writer = QAG.can('access.write');
      let key = await QAG.get(path);
      const [choices, roles] = writer ? await Promise.all([QAG.grantChoices(), roleNames()]) : [null, null];
      const shown = h('div', { 'aria-live': 'polite' });

      const draw = () => {
        const facts = h('dl', { class: 'facts' },
          h('dt', null, 'State'), h('dd', null, QAG.keyState(key), key.revoked_at ? ' since ' + key.revoked_at : ''),
          h('dt', null, 'Prefix'), h('dd', null, h('code', null, key.prefix)),
          h('dt', null, 'Role'), h('dd', null, key.role ? QAG.link('/roles/' + encodeURIComponent(key.role), key.role)
            : 'none'),
          h('dt', null, 'Expires'), h('dd', null, key.expires_at || 'never'),
          h('dt', null, 'Created'), h('dd', null, key.created_at),
          h('dt', null, 'Last used'), h('dd', null, key.last_used_at || 'never'),
          key.previous_expires_at ? [h('dt', null, 'Previous secret'),
            h('dd', null, 'works until ' + key.previous_expires_at)] : null,
          h('dt', null, 'Calls (event log)'), h('dd', null, [count(key.usage.queries, 'call'),
            count(key.usage.errors, 'error'), count(key.usage.rows, 'row')].join(', ')),
          h('dt', null, 'Effective limits'), h('dd', null, 'up to ' + QAG.num(key.effective_limits.max_rows.page) +
            ' rows a page, ' + key.effective_limits.query_timeout + ' s timeout' +
            (key.effective_limits.max_concurrent ? ', ' + key.effective_limits.max_concurrent + ' at once' : '')));

        const grants = writer ? QAG.grantsForm(key, { kind: 'key', choices, roles }, async (changes) => {
          key = await QAG.patch(path, changes);
          QAG.notice('Saved the grants of ' + key.name + ' (' + Object.keys(changes).join(', ') + ').', 'ok');
          draw();
        }) : h('div', null, h('p', null, QAG.grantsSummary(key)), QAG.grantsReadOnly(key));

        let controls = null;
        if (writer) {
          const errors = h('div');
          const grace = QAG.field({ label: 'Old secret keeps working for (minutes)', name: 'grace_minutes',
            type: 'number', value: 60, min: 0, max: 10080 });
          const rotate = QAG.button('Rotate secret', null, { kind: 'primary', dataset: { action: 'rotate' } });
          rotate.addEventListener('click', QAG.action(rotate, async () => {
            const v = grace.querySelector('input').value;
            const answer = await QAG.post(path + '/rotate', v === '' ? {} : { grace_minutes: Number(v) });
            const { secret } = answer;
            delete answer.secret;
            key = answer;
            draw();
            QAG.fill(shown, QAG.secretOnce('The new secret of ' + key.name, secret), h('p', null,
              key.previous_expires_at ? 'The old secret keeps working until ' + key.previous_expires_at + '.'
                : 'The old secret stopped working now.'));
          }, errors));
          const buttons = [];
          if (key.previous_expires_at) {
            const end = QAG.button('End the old secret now', null, { kind: 'danger',
              dataset: { action: 'end-previous' } });
            end.addEventListener('click', QAG.action(end, async () => {
              key = await QAG.del(path + '/previous');
              QAG.notice('The previous secret of ' + key.name + ' no longer works.', 'ok');
              draw();
            }, errors));
            buttons.push(end);
          }
          if (key.active) {
            const revoke = QAG.button('Revoke', null, { kind: 'danger', dataset: { action: 'revoke' } });
            revoke.addEventListener('click', QAG.action(revoke, async () => {
              if (!(await QAG.confirm('Revoke ' + key.name + '?', 'Every call with this key is refused from now ' +
                'on (401). You can restore it later.', 'Revoke'))) return;
              key = await QAG.patch(path, { active: false });
              QAG.notice('Revoked ' + key.name + '.', 'ok');
              draw();
            }, errors));
            buttons.push(revoke);
          } else {
            const restore = QAG.button('Restore', null, { dataset: { action: 'restore' } });
            restore.addEventListener('click', QAG.action(restore, async () => {
              key = await QAG.patch(path, { active: true });
              QAG.notice('Restored ' + key.name + '.', 'ok');
              draw();
            }, errors));
            buttons.push(restore);
          }
          const del = QAG.button('Delete', null, { kind: 'danger', dataset: { action: 'delete' } });
          del.addEventListener('click', QAG.action(del, async () => {
            if (!(await QAG.confirm('Delete ' + key.name + '?', 'The key is gone for good: anything using it ' +
              'stops at once, and its name may be used again.', 'Delete'))) return;
            await QAG.del(path);
            QAG.notice('Deleted ' + key.name + '.', 'ok');
            QAG.go('/keys');
          }, errors));
          buttons.push(del);
          controls = QAG.section('Secret and state',
            h('p', { class: 'muted' }, 'Rotating makes a new secret, shown once; the old one keeps working for the ' +
              'grace period (60 minutes unless you say otherwise, 0 stops it at once, at most a week).'),
            h('div', { class: 'rotate-form' }, grace, rotate), h('div', { class: 'actions' }, buttons), errors);
        }

        QAG.fill(main, h('div', { class: 'key-head' }, h('h1', null, 'API key ', key.name), QAG.keyState(key)),
          h('p', null, QAG.link('/keys', '← All keys')), shown,
          QAG.section('Overview', facts, key.effective_grants ? h('p', null, 'Through role ', h('strong', null,
            key.role), ' it may: ', QAG.grantsSummary(key.effective_grants)) : null),
          QAG.section(writer ? 'Grants' : 'Grants (read only)', grants),
          controls,
          QAG.section('Recent activity', activity(key.name)),
          key.quota || key.usage_this_period ? QAG.section('Quota this period', quotaView(key.name)) : null);
      };
      draw();
    },
  });
})();
