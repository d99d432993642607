/*
 * The query designer: /designer (a new query) and /designer/:name (a new version of one, from its latest). The SQL in
 * CodeMirror, the parameter rules (one row per parameter, the fields POST /api/v1/queries takes), "Run with these
 * parameters" (POST /api/v1/queries/preview: the unsaved SQL run as the saved query would run, read-only, a page at a
 * time, with the guard's verdict or its refusal), "Save as draft" and "Publish".
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;

  /** The rule types POST /api/v1/queries takes (canonical names) and the names a saved version shows. */
  const TYPES = [['int', 'integer'], ['float', 'number'], ['decimal', 'decimal'], ['str', 'text'],
    ['bool', 'boolean'], ['date', 'date'], ['timestamp', 'timestamp']];
  const TYPE_OF = { integer: 'int', bigint: 'int', number: 'float', double: 'float', numeric: 'decimal',
    string: 'str', text: 'str', boolean: 'bool', datetime: 'timestamp' };
  const NUMERIC = new Set(['int', 'float', 'decimal']);
  const PREVIEW_PAGE = 10;

  /** A rule's value as a saved version answers it, as the text of its field. */
  function text(v) {
    if (v === null || v === undefined) return '';
    return Array.isArray(v) ? v.join(', ') : String(v);
  }

  /** A typed value for a rule field: numbers for numeric rules, true/false for bool, text otherwise. */
  function typed(type, raw) {
    const v = raw.trim();
    if (NUMERIC.has(type) && v !== '' && !isNaN(Number(v))) return Number(v);
    if (type === 'bool' && (v === 'true' || v === 'false')) return v === 'true';
    return v;
  }

  /** One parameter's rule row: its fields are named as the rule's JSON fields ("parameter" is its name). */
  function ruleRow(name, rule, onRemove) {
    rule = rule || {};
    const type = TYPE_OF[rule.type] || rule.type || 'str';
    const row = h('fieldset', { class: 'param-rule', dataset: { param: name || '' } },
      h('legend', null, name ? 'Parameter ' + name : 'New parameter'),
      h('div', { class: 'rule-fields' },
        QAG.field({ label: 'Name', name: 'parameter', value: name || '', required: true }),
        QAG.field({ label: 'Type', name: 'type', type: 'select', value: type, options: TYPES }),
        QAG.field({ label: 'Default', name: 'default', value: text(rule.default),
          help: 'Used when the caller sends none' }),
        QAG.field({ label: 'Minimum', name: 'min', value: text(rule.min) }),
        QAG.field({ label: 'Maximum', name: 'max', value: text(rule.max) }),
        QAG.field({ label: 'Min length', name: 'min_length', type: 'number', min: 0, value: rule.min_length }),
        QAG.field({ label: 'Max length', name: 'max_length', type: 'number', min: 0, value: rule.max_length }),
        QAG.field({ label: 'Pattern', name: 'pattern', value: text(rule.pattern), help: 'A regular expression (text)' }),
        QAG.field({ label: 'Allowed values', name: 'enum', value: text(rule.enum), help: 'Comma-separated' }),
        QAG.field({ label: 'Description', name: 'description', value: text(rule.description) })),
      h('div', { class: 'row' },
        QAG.field({ label: 'Required', name: 'required', type: 'checkbox',
          value: rule.required !== undefined ? rule.required : rule.default === undefined }),
        QAG.button('Remove', () => onRemove(row), { kind: 'plain small', dataset: { action: 'remove-parameter' },
          label: 'Remove parameter ' + (name || '') })),
      h('div', { class: 'row-errors' }));
    const nameInput = row.querySelector('[name=parameter]');
    nameInput.addEventListener('input', () => {
      row.dataset.param = nameInput.value.trim();
      row.querySelector('legend').textContent = nameInput.value.trim() ? 'Parameter ' + nameInput.value.trim()
        : 'New parameter';
    });
    return row;
  }

  /** The rules as POST /api/v1/queries takes them: {name: {type, required, default, ...}}, only fields given. */
  function rulesOf(list) {
    const out = {};
    for (const row of list.querySelectorAll('fieldset.param-rule')) {
      const get = (n) => row.querySelector('[name=' + n + ']');
      const name = get('parameter').value.trim();
      const type = get('type').value;
      const rule = { type };
      for (const key of ['min', 'max', 'default']) {
        if (get(key).value.trim() !== '') rule[key] = key === 'default' ? typed(type, get(key).value)
          : typed('decimal', get(key).value);
      }
      for (const key of ['min_length', 'max_length']) {
        if (get(key).value !== '') rule[key] = Number(get(key).value);
      }
      for (const key of ['pattern', 'description']) {
        if (get(key).value.trim() !== '') rule[key] = get(key).value.trim();
      }
      if (get('enum').value.trim() !== '') {
        rule.enum = get('enum').value.split(',').map((v) => typed(type, v)).filter((v) => v !== '');
      }
      if (rule.default === undefined) rule.required = get('required').checked;
      out[name] = rule;
    }
    return out;
  }

  /** Clears the field errors shown, then shows each of the API's `errors` next to its field or parameter row. */
  function showFieldErrors(form, list, errors) {
    for (const old of [...form.querySelectorAll('.field-error'), ...list.querySelectorAll('.field-error')]) {
      old.remove();
    }
    for (const el of [...form.querySelectorAll('[aria-invalid]'), ...list.querySelectorAll('[aria-invalid]')]) {
      el.removeAttribute('aria-invalid');
    }
    for (const [key, message] of Object.entries(errors || {})) {
      const row = [...list.querySelectorAll('fieldset.param-rule')].find((r) => r.dataset.param === key);
      const input = row ? row.querySelector('[name=parameter]') : form.querySelector('[name="' + key + '"]');
      const note = h('p', { class: 'field-error', id: 'err-' + Math.random().toString(36).slice(2, 8) },
        h('code', null, key), ': ', String(message));
      if (row) row.querySelector('.row-errors').appendChild(note);
      else if (input) input.closest('.field').appendChild(note);
      else continue;
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', note.id);
      }
    }
  }

  /** The guard's verdict and the page of rows a preview answered, or the refusal. */
  function previewView(answer, onPage) {
    const v = answer.verdict;
    const rows = answer.rows || [];
    const columns = rows.length ? Object.keys(rows[0]) : [];
    return h('div', { class: 'preview-result' },
      h('p', { class: 'verdict allowed', dataset: { verdict: 'allowed' } },
        QAG.badge('Allowed', 'ok'), ' The guard reads this as a ', h('strong', { dataset: { kind: v.kind } },
          v.kind), ' statement', v.tables.length ? [' of ', v.tables.map((t, i) => [i ? ', ' : '',
          h('code', null, t)])] : null, '.'),
      h('p', { class: 'preview-stats' },
        h('span', null, h('strong', { class: 'row-count' }, QAG.num(answer.row_count)), ' rows on this page'),
        h('span', null, 'page ', QAG.num(answer.page), answer.has_more ? ', more follow' : ', the last'),
        h('span', null, QAG.ms(answer.duration_ms)),
        h('span', null, 'on ', h('code', null, answer.connection_name))),
      QAG.table({ caption: 'Preview rows', columns: columns.map((c) => ({ label: c,
        value: (r) => (r[c] === null ? h('span', { class: 'muted' }, 'null') : typeof r[c] === 'object'
          ? JSON.stringify(r[c]) : String(r[c])) })), rows, empty: 'The statement answered no rows.' }),
      h('div', { class: 'actions' },
        answer.page > 1 ? QAG.button('Previous page', () => onPage(answer.page - 1),
          { dataset: { action: 'previous-page' } }) : null,
        answer.has_more ? QAG.button('Next page', () => onPage(answer.page + 1),
          { dataset: { action: 'next-page' } }) : null));
  }

  function refusedView(err) {
    return h('div', { class: 'preview-result' },
      h('p', { class: 'verdict refused', dataset: { verdict: 'refused' } }, QAG.badge('Refused', 'bad'), ' ',
        h('code', { class: 'refusal-code' }, err.code || 'error'), err.status ? ' (HTTP ' + err.status + ')' : ''),
      QAG.errorView(err));
  }

  async function render(main, params) {
    const editing = params.name ? decodeURIComponent(params.name) : null;
    QAG.fill(main, h('h1', null, editing ? 'Edit query ' + editing : 'New query'));
    if (!QAG.can('queries.write')) {
      main.appendChild(h('p', null, 'Your role may read saved queries but not change them. See ',
        QAG.link('/queries', 'Queries'), '.'));
      return;
    }
    let version = null;
    let detail = null;
    const [connections] = await Promise.all([
      QAG.get('/api/v1/connections').catch((e) => { main.appendChild(QAG.errorView(e)); return { items: [] }; }),
      (async () => {
        if (!editing) return;
        try {
          detail = await QAG.get('/api/v1/queries/' + encodeURIComponent(editing));
          version = await QAG.get('/api/v1/queries/' + encodeURIComponent(editing) + '/versions/'
            + detail.latest_version);
        } catch (e) {
          main.appendChild(QAG.errorView(e));
        }
      })(),
    ]);
    if (editing && !version) return;
    if (version && version.query_type === 'mongo') {
      main.appendChild(h('p', null, 'This is a MongoDB query: change it through the API (',
        h('code', null, 'POST /api/v1/queries/' + editing + '/versions'), ').'));
      return;
    }
    const names = (connections.items || []).map((c) => c.name);
    const intro = editing
      ? h('p', null, 'Saving adds version ', String(detail.latest_version + 1), ' of ',
        QAG.link('/queries/' + encodeURIComponent(editing), editing), ' as a draft, from version ',
        String(detail.latest_version), '; publishing serves it at ', h('code', null, '/q/' + editing), '.')
      : h('p', null, 'Write the SQL, declare its parameters, run it with values to see what callers will get,'
        + ' then save it as a draft and publish it.');

    // ------------------------------------------------------------ the definition
    const form = h('form', { class: 'designer-form', novalidate: true, 'aria-label': 'Query definition' },
      h('div', { class: 'designer-meta' },
        QAG.field({ label: 'Name', name: 'name', value: editing || '', required: true, readonly: !!editing,
          help: editing ? 'A saved query keeps its name' : 'Letters, digits, spaces, . _ -; called at /q/NAME' }),
        QAG.field({ label: 'Connection', name: 'connection_name', type: 'select',
          value: version ? version.connection_name : (names.includes('demo') ? 'demo' : names[0]),
          options: names }),
        QAG.field({ label: 'Tags', name: 'tags', value: version ? (version.tags || []).join(', ') : '',
          help: 'Comma-separated' }),
        QAG.field({ label: 'Cache TTL (seconds)', name: 'cache_ttl', type: 'number', min: 0,
          value: version && version.cache_ttl ? version.cache_ttl : '', help: 'Empty or 0: not cached' })),
      QAG.field({ label: 'Description', name: 'description', value: version ? version.description : '' }),
      QAG.field({ label: 'SQL', name: 'sql', type: 'textarea', rows: 8, value: version ? version.sql : '',
        required: true, help: 'Parameters are :name markers' }));
    let editor = null; // CodeMirror measures its place: made once the form is in the page

    // ------------------------------------------------------------ the parameter rules
    const list = h('div', { class: 'param-list' });
    const removeRow = (row) => {
      row.remove();
      syncValues();
    };
    const addRow = (name, rule) => {
      const row = ruleRow(name, rule, removeRow);
      list.appendChild(row);
      row.querySelector('[name=parameter]').addEventListener('input', syncValues);
      return row;
    };
    for (const [name, rule] of Object.entries((version && version.parameters) || {})) addRow(name, rule);
    const detectOut = h('div');
    const addButton = QAG.button('Add parameter', () => {
      addRow('', null).querySelector('[name=parameter]').focus();
      syncValues();
    }, { dataset: { action: 'add-parameter' } });
    const detectButton = QAG.button('Add the SQL\'s markers', null, { dataset: { action: 'detect-parameters' } });
    detectButton.addEventListener('click', QAG.action(detectButton, async () => {
      const answer = await QAG.post('/api/v1/queries/validate', { sql: editor.value(),
        connection_name: form.elements.connection_name.value });
      const known = new Set([...list.querySelectorAll('fieldset.param-rule')].map((r) => r.dataset.param));
      const added = answer.placeholders.filter((p) => !known.has(p));
      added.forEach((p) => addRow(p, { type: 'str' }));
      syncValues();
      QAG.fill(detectOut, h('p', { role: 'status', class: 'muted' }, added.length
        ? 'Added ' + added.join(', ') + '.' : 'Every marker of the SQL has a rule.'));
    }, detectOut));

    // ------------------------------------------------------------ the preview
    const valuesBox = h('div', { class: 'param-values' });
    const values = {};
    function syncValues() {
      for (const input of valuesBox.querySelectorAll('input')) values[input.name] = input.value;
      const names = [...list.querySelectorAll('fieldset.param-rule')].map((r) => r.dataset.param).filter(Boolean);
      QAG.fill(valuesBox, names.length ? names.map((n) => QAG.field({ label: 'Value of ' + n, name: n,
        value: values[n] || '', id: 'value-' + n })) : h('p', { class: 'muted' }, 'No parameters declared.'));
    }
    syncValues();
    const previewOut = h('div', { class: 'preview-out', 'aria-live': 'polite' });
    let page = 1;
    const runButton = QAG.button('Run with these parameters', null, { kind: 'primary',
      dataset: { action: 'preview' } });
    async function runPreview(p) {
      page = p;
      const given = {};
      for (const input of valuesBox.querySelectorAll('input')) {
        if (input.value !== '') given[input.name] = input.value;
      }
      runButton.disabled = true;
      previewOut.setAttribute('aria-busy', 'true');
      QAG.fill(previewOut, h('p', { class: 'muted' }, 'Running page ' + p + '...'));
      try {
        const answer = await QAG.post('/api/v1/queries/preview', { connection_name: form.elements.connection_name
          .value, sql: editor.value(), parameters: rulesOf(list), params: given, page, page_size: PREVIEW_PAGE });
        showFieldErrors(form, list, {});
        QAG.fill(previewOut, previewView(answer, (n) => runPreview(n)));
      } catch (err) {
        if (!(err instanceof QAG.ApiError)) throw err;
        showFieldErrors(form, list, err.code === 'invalid_parameters' ? err.errors : {});
        QAG.fill(previewOut, refusedView(err));
      } finally {
        runButton.disabled = false;
        previewOut.removeAttribute('aria-busy');
      }
    }
    runButton.addEventListener('click', () => runPreview(1).catch((e) => QAG.fill(previewOut, QAG.errorView(e))));

    // ------------------------------------------------------------ saving and publishing
    const saveOut = h('div', { class: 'save-out' });
    let saved = editing ? { name: editing, version: null } : null;
    const publishButton = QAG.button('Publish', null, { dataset: { action: 'publish' }, disabled: true });
    const saveButton = QAG.button('Save as draft', null, { kind: 'primary', dataset: { action: 'save' } });
    function definition() {
      const f = QAG.formValues(form);
      const body = { sql: editor.value(), connection_name: f.connection_name, description: f.description,
        tags: f.tags.split(',').map((t) => t.trim()).filter(Boolean), parameters: rulesOf(list), publish: false };
      if (f.cache_ttl !== null) body.cache_ttl = f.cache_ttl;
      if (!editing) body.name = f.name.trim();
      return body;
    }
    saveButton.addEventListener('click', QAG.action(saveButton, async () => {
      const body = definition();
      let answer;
      try {
        answer = saved
          ? await QAG.post('/api/v1/queries/' + encodeURIComponent(saved.name) + '/versions', body)
          : await QAG.post('/api/v1/queries', body);
      } catch (err) {
        showFieldErrors(form, list, err.errors);
        throw err;
      }
      showFieldErrors(form, list, {});
      saved = { name: answer.name, version: answer.created_version || answer.latest_version };
      publishButton.disabled = false;
      publishButton.textContent = 'Publish version ' + saved.version;
      QAG.fill(saveOut, h('div', { class: 'notice ok', role: 'status' },
        h('span', null, 'Saved version ', String(saved.version), ' of ',
          QAG.link('/queries/' + encodeURIComponent(saved.name), saved.name), ' as a draft.'),
        answer.warnings ? h('ul', null, answer.warnings.map((w) => h('li', null, w))) : null));
      if (!editing) history.replaceState(null, '', QAG.base + '/designer/' + encodeURIComponent(saved.name));
    }, saveOut));
    publishButton.addEventListener('click', QAG.action(publishButton, async () => {
      const answer = await QAG.post('/api/v1/queries/' + encodeURIComponent(saved.name) + '/publish',
        { version: saved.version });
      QAG.fill(saveOut, h('div', { class: 'notice ok', role: 'status' },
        h('span', null, 'Published version ', String(answer.published_version), ' of ',
          QAG.link('/queries/' + encodeURIComponent(saved.name), saved.name), ': callers get it at ',
          h('code', null, '/q/' + saved.name), '.')));
      publishButton.disabled = true;
    }, saveOut));

    QAG.append(main, [intro,
      h('section', { class: 'card' }, h('h2', null, 'Definition'), form),
      h('section', { class: 'card' }, h('h2', null, 'Parameters'),
        h('p', { class: 'muted' }, 'One rule per :name marker of the SQL. A parameter with a default is optional.'),
        list, h('div', { class: 'actions' }, addButton, detectButton), detectOut),
      h('section', { class: 'card' }, h('h2', null, 'Run with these parameters'),
        h('p', { class: 'muted' }, 'Runs the unsaved SQL as the saved query would run for you, read-only, '
          + PREVIEW_PAGE + ' rows a page: a write is refused, never run.'),
        valuesBox, h('div', { class: 'actions' }, runButton), previewOut),
      h('section', { class: 'card' }, h('h2', null, 'Save'),
        h('div', { class: 'actions' }, saveButton, publishButton), saveOut)]);
    editor = QAG.sqlEditor(form.querySelector('textarea[name=sql]'));
  }

  QAG.screen({ path: '/designer', title: 'New query', nav: { label: 'New query', order: 12 },
    capability: 'queries.write', render });
  QAG.screen({ path: '/designer/:name', title: (p) => 'Edit ' + decodeURIComponent(p.name),
    capability: 'queries.write', render });
})();
