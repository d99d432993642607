/*
 * Saved queries: the list (search, tag and state filters, paged in the browser) and a query's page (facts, versions,
 * a line diff between two versions, publish / unpublish / roll back / delete, cache settings and entries, run
 * history paged by the API's cursor). The designer (/designer, /designer/NAME) is another file's: these screens only
 * link to it.
 */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;
  const PAGE = 25;
  const HISTORY_PAGE = 20;

  const enc = encodeURIComponent;
  const queryPath = (name) => '/api/v1/queries/' + enc(name);

  /** The state of a query as a badge: published (with its version) or unpublished. */
  function stateBadges(q) {
    return h('span', { class: 'q-state' },
      q.published_version != null ? QAG.badge('published', 'ok') : QAG.badge('unpublished', 'warn'),
      q.has_draft ? QAG.badge('draft v' + q.latest_version, 'info') : null);
  }

  function tagBadges(tags) {
    return (tags || []).length ? h('span', { class: 'q-tags' }, tags.map((t) => QAG.badge(t, 'muted'))) : null;
  }

  /** A table whose rows stack at a phone's width. */
  function stackTable(spec) {
    const t = QAG.table(spec);
    const table = t.querySelector && t.querySelector('table');
    if (table) table.classList.add('stack');
    return t;
  }

  // ---------------------------------------------------------------- the list
  QAG.screen({
    path: '/queries',
    title: 'Queries',
    nav: { label: 'Queries', order: 10 },
    capability: 'queries.read',
    render: async (main, params, query) => {
      const state = { search: query.get('search') || '', tag: query.get('tag') || '',
        status: query.get('status') || '', page: Math.max(1, Number(query.get('page')) || 1) };
      const out = h('div', { class: 'q-results', 'aria-live': 'polite' });
      const search = QAG.field({ label: 'Search', name: 'search', type: 'search', value: state.search,
        placeholder: 'name, description or tag' });
      const statusField = QAG.field({ label: 'State', name: 'status', type: 'select', value: state.status,
        options: [['', 'Any'], ['published', 'Published'], ['unpublished', 'Unpublished'],
          ['draft', 'With a draft']] });
      const tagField = QAG.field({ label: 'Tag', name: 'tag', type: 'select', value: state.tag,
        options: [['', 'Any tag']].concat(state.tag ? [[state.tag, state.tag]] : []) });
      const form = h('form', { class: 'toolbar q-search', role: 'search', 'aria-label': 'Filter queries' },
        search, tagField, statusField, QAG.button('Search', null, { type: 'submit' }));
      let items = [];
      let loaded = 0;

      function remember() {
        const s = QAG.qs({ search: state.search, tag: state.tag, status: state.status,
          page: state.page > 1 ? state.page : '' });
        history.replaceState(null, '', QAG.base + '/queries' + s);
      }

      function tagOptions() {
        const select = tagField.querySelector('select');
        const tags = new Set(items.flatMap((q) => q.tags || []));
        if (state.tag) tags.add(state.tag);
        QAG.fill(select, h('option', { value: '' }, 'Any tag'),
          [...tags].sort().map((t) => h('option', { value: t, selected: t === state.tag }, t)));
      }

      function show() {
        const rows = state.tag ? items.filter((q) => (q.tags || []).includes(state.tag)) : items;
        const pages = Math.max(1, Math.ceil(rows.length / PAGE));
        state.page = Math.min(state.page, pages);
        const first = (state.page - 1) * PAGE;
        const shown = rows.slice(first, first + PAGE);
        const pager = rows.length > PAGE ? h('nav', { class: 'q-pager row', 'aria-label': 'Pages of queries' },
          QAG.button('Previous', () => { state.page -= 1; remember(); show(); },
            { disabled: state.page <= 1, dataset: { page: 'previous' } }),
          h('span', null, 'Page ' + state.page + ' of ' + pages),
          QAG.button('Next', () => { state.page += 1; remember(); show(); },
            { disabled: state.page >= pages, dataset: { page: 'next' } })) : null;
        QAG.fill(out,
          h('p', { class: 'muted q-count' }, rows.length === 0 ? 'No saved query matches.'
            : 'Showing ' + (first + 1) + '–' + (first + shown.length) + ' of ' + rows.length + ' saved quer'
              + (rows.length === 1 ? 'y' : 'ies') + (rows.length > PAGE ? ', ' + PAGE + ' a page' : '') + '.'),
          stackTable({
            rows: shown,
            empty: state.search || state.tag || state.status ? 'Nothing matches these filters.'
              : 'No saved queries yet.',
            columns: [
              { label: 'Name', value: (q) => QAG.link('/queries/' + enc(q.name), q.name), class: 'q-name' },
              { label: 'Connection', value: (q) => q.connection_name },
              { label: 'State', value: stateBadges },
              { label: 'Version', value: (q) => 'v' + (q.published_version != null ? q.published_version
                : q.latest_version) + ' of ' + q.version_count, class: 'num' },
              { label: 'Tags', value: (q) => tagBadges(q.tags) },
              { label: 'Description', value: (q) => q.description, class: 'q-desc' },
              { label: 'Last change', value: (q) => q.updated_at, class: 'q-when' },
            ],
          }), pager);
      }

      async function load() {
        const ticket = ++loaded;
        try {
          const answer = await QAG.get('/api/v1/queries' + QAG.qs({ search: state.search, status: state.status }));
          if (ticket !== loaded) return;
          items = answer.items || [];
          tagOptions();
          show();
        } catch (err) {
          if (ticket === loaded) QAG.fill(out, QAG.errorView(err));
        }
      }

      let timer = null;
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        Object.assign(state, QAG.formValues(form), { page: 1 });
        remember();
        load();
      });
      search.querySelector('input').addEventListener('input', () => {
        clearTimeout(timer);
        timer = setTimeout(() => form.requestSubmit(), 300);
      });
      tagField.querySelector('select').addEventListener('change', () => {
        state.tag = tagField.querySelector('select').value;
        state.page = 1;
        remember();
        show();
      });
      statusField.querySelector('select').addEventListener('change', () => form.requestSubmit());

      QAG.fill(main,
        h('div', { class: 'q-head' }, h('h1', null, 'Queries'),
          QAG.can('queries.write') ? h('a', { class: 'btn primary', href: QAG.base + '/designer', 'data-link': true,
            'data-action': 'new' }, 'New query') : null),
        h('p', { class: 'muted' }, 'The saved queries of this workspace: each is served at ', h('code', null,
          '/q/NAME'), ' once a version is published. The search looks in names, descriptions and tags.'),
        h('section', { class: 'card', 'aria-labelledby': 'q-list-title' },
          h('h2', { id: 'q-list-title' }, 'Saved queries'), form, out));
      await load();
      return () => clearTimeout(timer);
    },
  });

  // ---------------------------------------------------------------- line diff
  /** The lines of a and b as [kind, text] with kind ' ', '-' or '+' (a longest common subsequence). */
  function lineDiff(a, b) {
    const x = a.split('\n');
    const y = b.split('\n');
    if (x.length * y.length > 4000000) {
      return x.map((l) => ['-', l]).concat(y.map((l) => ['+', l]));
    }
    const n = x.length;
    const m = y.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    const out = [];
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (x[i] === y[j]) { out.push([' ', x[i]]); i++; j++; }
      else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push(['-', x[i++]]);
      else out.push(['+', y[j++]]);
    }
    while (i < n) out.push(['-', x[i++]]);
    while (j < m) out.push(['+', y[j++]]);
    return out;
  }

  /** JSON with its object keys sorted, two spaces of indent: stable text to diff. */
  function stableJson(v) {
    const sort = (o) => (Array.isArray(o) ? o.map(sort) : o && typeof o === 'object'
      ? Object.fromEntries(Object.keys(o).sort().map((k) => [k, sort(o[k])])) : o);
    return JSON.stringify(sort(v === undefined ? null : v), null, 2);
  }

  function diffView(label, a, b) {
    const lines = lineDiff(a, b);
    const changed = lines.filter((l) => l[0] !== ' ').length;
    return h('div', { class: 'q-diff-part' },
      h('h3', null, label, ' ', changed ? QAG.badge(changed + ' line' + (changed === 1 ? '' : 's') + ' changed',
        'info') : QAG.badge('unchanged', 'muted')),
      h('pre', { class: 'q-diff', tabindex: '0', role: 'group', 'aria-label': label + ': removed lines start with -, added'
        + ' lines with +' },
      lines.map(([kind, text]) => {
        const line = (kind === ' ' ? '  ' : kind + ' ') + text + '\n';
        if (kind === '-') return h('del', { class: 'q-line del' }, line);
        if (kind === '+') return h('ins', { class: 'q-line add' }, line);
        return h('span', { class: 'q-line same' }, line);
      })));
  }

  function versionText(v) {
    return v.sql != null ? v.sql : stableJson(v.mongo);
  }

  /** The diff of two versions: the statement, the parameters, and the other fields that differ. */
  function compare(a, b) {
    const fields = [['connection_name', 'Connection'], ['description', 'Description'], ['tags', 'Tags'],
      ['cache_ttl', 'Cache TTL (s)'], ['author', 'Author'], ['agent_writes', 'Agent writes'], ['mcp', 'MCP']];
    const show = (v) => (Array.isArray(v) ? v.join(', ') : v === null || v === undefined || v === '' ? '(none)'
      : String(v));
    const differ = fields.filter(([f]) => stableJson(a[f]) !== stableJson(b[f]));
    return h('div', { class: 'q-compare', dataset: { from: a.version, to: b.version } },
      diffView(a.sql != null || b.sql != null ? 'SQL' : 'Statement', versionText(a), versionText(b)),
      diffView('Parameters', stableJson(a.parameters || {}), stableJson(b.parameters || {})),
      h('h3', null, 'Other fields'),
      differ.length ? stackTable({ rows: differ, columns: [
        { label: 'Field', value: (f) => f[1] },
        { label: 'v' + a.version, value: (f) => show(a[f[0]]) },
        { label: 'v' + b.version, value: (f) => show(b[f[0]]) },
      ] }) : h('p', { class: 'empty' }, 'No other field differs.'));
  }

  // ---------------------------------------------------------------- a query's page
  /** The query's detail and its ETag (sent back in If-Match so a change made meanwhile is not overwritten). */
  async function loadQuery(name) {
    const response = await QAG.api('GET', queryPath(name), undefined, { raw: true });
    return { q: await response.json(), etag: response.headers.get('ETag') };
  }

  function ruleText(rule) {
    const parts = [];
    for (const k of ['min', 'max', 'min_length', 'max_length', 'pattern', 'from_claim']) {
      if (rule[k] !== undefined && rule[k] !== null) parts.push(k + ' ' + rule[k]);
    }
    if (Array.isArray(rule.enum)) parts.push('one of ' + rule.enum.join(', '));
    return parts.join('; ');
  }

  function exampleValue(rule) {
    if (Array.isArray(rule.enum) && rule.enum.length) return rule.enum[0];
    switch (rule.type) {
      case 'integer': case 'number': case 'decimal': return rule.min != null ? rule.min : 1;
      case 'boolean': return 'true';
      case 'date': return '2024-01-01';
      case 'timestamp': return '2024-01-01T00:00:00';
      default: return 'x'.repeat(Math.max(1, rule.min_length || 1));
    }
  }

  function exampleCurl(name, version) {
    const args = {};
    for (const [p, rule] of Object.entries((version && version.parameters) || {})) {
      const r = typeof rule === 'object' && rule ? rule : { type: rule };
      if (r.from_claim) continue;
      if (r.required === false || r.default !== undefined) continue;
      args[p] = exampleValue(r);
    }
    return 'curl -H "X-API-Key: $QAG_KEY" \'' + location.origin + '/q/' + enc(name) + QAG.qs(args) + '\'';
  }

  QAG.screen({
    path: '/queries/:name',
    title: (p) => 'Query ' + p.name,
    capability: 'queries.read',
    render: async (main, params, query) => {
      const name = params.name;
      let loaded;
      try {
        loaded = await loadQuery(name);
      } catch (err) {
        if (err instanceof QAG.ApiError && err.status === 401) throw err;
        QAG.fill(main, h('h1', null, 'Query ', h('span', { class: 'q-title' }, name)), QAG.errorView(err),
          h('p', null, QAG.link('/queries', '← All queries')));
        return null;
      }
      const { q, etag } = loaded;
      const canWrite = QAG.can('queries.write');
      const byVersion = new Map(q.versions.map((v) => [v.version, v]));
      const served = q.published_version != null ? byVersion.get(q.published_version) : null;
      const shown = served || byVersion.get(q.latest_version);
      const out = h('div', { class: 'q-out' });
      let stopped = false;

      const reload = async (message) => {
        if (message) QAG.notice(message, 'ok');
        if (stopped) return;
        await QAG.render();
        window.scrollTo(0, 0);
      };
      const ifMatch = () => ({ headers: { 'If-Match': etag || '*' } });

      function actionButton(text, action, work, opts) {
        const b = QAG.button(text, null, Object.assign({}, opts || {}, { dataset: Object.assign({ action },
          (opts && opts.dataset) || {}) }));
        b.addEventListener('click', QAG.action(b, work, out));
        return b;
      }

      const publish = (v, verb) => actionButton(verb === 'rollback' ? 'Roll back to v' + v : 'Publish v' + v,
        verb, async () => {
          if (verb === 'rollback' && !await QAG.confirm('Roll back ' + name + '?', 'Callers of /q/' + name
            + ' get version ' + v + ' from their next call; v' + q.published_version + ' is kept.',
          'Roll back to v' + v)) return;
          await QAG.post(queryPath(name) + '/publish', { version: v }, ifMatch());
          await reload(verb === 'rollback' ? 'Rolled back: version ' + v + ' is served.'
            : 'Version ' + v + ' is published.');
        }, { kind: verb === 'rollback' ? 'plain' : 'primary', dataset: { version: String(v) } });

      // ---- header and actions
      const actions = canWrite ? h('div', { class: 'actions q-actions' },
        h('a', { class: 'btn plain', href: QAG.base + '/designer/' + enc(name), 'data-link': true,
          'data-action': 'edit' }, 'Edit in the designer'),
        q.has_draft ? publish(q.latest_version, 'publish') : null,
        q.published_version != null ? actionButton('Unpublish', 'unpublish', async () => {
          if (!await QAG.confirm('Unpublish ' + name + '?', 'Callers of /q/' + name + ' get 404 until a version'
            + ' is published again. Versions and history are kept.', 'Unpublish')) return;
          await QAG.post(queryPath(name) + '/unpublish', {}, ifMatch());
          await reload(name + ' is unpublished.');
        }) : null,
        actionButton('Delete', 'delete', async () => {
          if (!await QAG.confirm('Delete ' + name + '?', 'Its ' + q.version_count + ' version(s) and run history'
            + ' are deleted; /q/' + name + ' stops answering. This cannot be undone.', 'Delete')) return;
          await QAG.del(queryPath(name), ifMatch());
          QAG.notice(name + ' was deleted.', 'ok');
          QAG.go('/queries');
        }, { kind: 'danger' })) : null;

      // ---- facts
      const facts = h('dl', { class: 'facts q-facts' },
        h('dt', null, 'Endpoint'), h('dd', null, h('code', null, q.endpoint),
          q.published_version == null ? h('span', { class: 'muted' }, ' (answers 404 until a version is published)')
            : null),
        h('dt', null, 'State'), h('dd', null, stateBadges(q)),
        h('dt', null, 'Served version'), h('dd', null, q.published_version != null ? 'v' + q.published_version
          : 'none'),
        h('dt', null, 'Latest version'), h('dd', null, 'v' + q.latest_version + ' (' + q.version_count
          + ' in all)'),
        h('dt', null, 'Connection'), h('dd', null, QAG.link('/connections/' + enc(q.connection_name),
          q.connection_name)),
        h('dt', null, 'Type'), h('dd', null, q.query_type),
        h('dt', null, 'Collection'), h('dd', null, q.collection || 'none'),
        h('dt', null, 'Tags'), h('dd', null, tagBadges(q.tags) || 'none'),
        h('dt', null, 'Description'), h('dd', null, q.description || 'none'),
        h('dt', null, 'Cache'), h('dd', null, q.cache_ttl ? q.cache_ttl + ' s' : 'off'),
        h('dt', null, 'Created'), h('dd', null, q.created_at),
        h('dt', null, 'Last change'), h('dd', null, q.updated_at),
        h('dt', null, 'Last call'), h('dd', null, q.last_used_at || 'never (in the kept history)'));

      const paramRows = Object.entries(shown.parameters || {}).map(([p, r]) => [p,
        typeof r === 'object' && r ? r : { type: r }]);
      const statement = h('section', { class: 'card', 'aria-labelledby': 'q-sql-title' },
        h('h2', { id: 'q-sql-title' }, served ? 'Published SQL (v' + served.version + ')'
          : 'SQL of the latest draft (v' + shown.version + ', not published)'),
        h('pre', { class: 'q-sql', tabindex: '0', role: 'group', 'aria-labelledby': 'q-sql-title' },
          h('code', null, versionText(shown))),
        h('h3', null, 'Parameters'),
        stackTable({ rows: paramRows, empty: 'No parameters.', columns: [
          { label: 'Name', value: (r) => h('code', null, r[0]) },
          { label: 'Type', value: (r) => r[1].type },
          { label: 'Required', value: (r) => (r[1].from_claim ? 'from the caller\'s claim'
            : r[1].required === false || r[1].default !== undefined ? 'no' : 'yes') },
          { label: 'Default', value: (r) => (r[1].default === undefined || r[1].default === null ? ''
            : String(r[1].default)) },
          { label: 'Rules', value: (r) => ruleText(r[1]) },
          { label: 'Description', value: (r) => r[1].description || '' },
        ] }),
        h('h3', null, 'Call it'),
        h('pre', { class: 'q-curl', tabindex: '0', role: 'group', 'aria-label': 'Example call' },
          h('code', null, exampleCurl(name, shown))),
        h('p', { class: 'muted' }, 'With a key granted this query in ', h('code', null, 'QAG_KEY'),
          '; add ', h('code', null, '&format=csv'), ' or page with ', h('code', null, 'page_size'), '.'));

      // ---- versions
      const versionsTable = stackTable({
        rows: q.versions.slice().reverse(),
        columns: [
          { label: 'Version', value: (v) => 'v' + v.version, class: 'num' },
          { label: 'Status', value: (v) => QAG.badge(v.status, v.status === 'published' ? 'ok'
            : v.status === 'draft' ? 'info' : 'muted') },
          { label: 'Author', value: (v) => v.author },
          { label: 'Description', value: (v) => v.description, class: 'q-desc' },
          { label: 'Saved', value: (v) => v.created_at, class: 'q-when' },
          { label: 'Runs kept', value: (v) => QAG.num(v.run_count), class: 'num' },
          canWrite ? { label: 'Actions', value: (v) => (v.status === 'draft' ? publish(v.version, 'publish')
            : v.status === 'previous' ? publish(v.version, 'rollback') : h('span', { class: 'muted' }, 'served')) }
            : null,
        ].filter(Boolean),
      });
      const versionsRow = versionsTable.querySelectorAll ? versionsTable.querySelectorAll('tbody tr') : [];
      q.versions.slice().reverse().forEach((v, i) => { if (versionsRow[i]) versionsRow[i].dataset.version = v.version; });

      // ---- diff
      const numbers = q.versions.map((v) => v.version);
      const wantTo = Number(query.get('to')) || q.latest_version;
      const wantFrom = Number(query.get('from')) || (numbers.length > 1 ? numbers[numbers.length - 2]
        : q.latest_version);
      const options = numbers.slice().reverse().map((n) => [n, 'v' + n + ' (' + byVersion.get(n).status + ')']);
      const diffOut = h('div', { class: 'q-diff-out', 'aria-live': 'polite' });
      const diffForm = h('form', { class: 'toolbar', 'aria-label': 'Choose two versions' },
        QAG.field({ label: 'From version', name: 'from', type: 'select', options, value: wantFrom }),
        QAG.field({ label: 'To version', name: 'to', type: 'select', options, value: wantTo }),
        QAG.button('Compare', null, { type: 'submit', dataset: { compare: 'versions' } }));
      const showDiff = (from, to) => {
        const a = byVersion.get(from);
        const b = byVersion.get(to);
        QAG.fill(diffOut, a && b ? compare(a, b) : QAG.errorView(new Error('No such version')));
      };
      diffForm.addEventListener('submit', (e) => {
        e.preventDefault();
        const f = QAG.formValues(diffForm);
        history.replaceState(null, '', QAG.base + '/queries/' + enc(name) + QAG.qs({ from: f.from, to: f.to }));
        showDiff(Number(f.from), Number(f.to));
      });
      if (numbers.length > 1) showDiff(wantFrom, wantTo);

      // ---- cache
      const cacheOut = h('div');
      const cacheForm = canWrite ? h('form', { class: 'toolbar q-cache-form', 'aria-label': 'Cache settings' },
        QAG.field({ label: 'Cache TTL of v' + shown.version + ' (seconds)', name: 'cache_ttl', type: 'number',
          min: 0, step: 1, value: shown.cache_ttl || '',
          help: 'How long answers are kept and served again; empty or 0 turns caching off. Applies from the next'
            + ' call.' })) : null;
      if (cacheForm) {
        const save = QAG.button('Save cache setting', null, { type: 'submit', kind: 'primary',
          dataset: { action: 'save-cache' } });
        cacheForm.appendChild(save);
        cacheForm.addEventListener('submit', QAG.action(save, async () => {
          const ttl = QAG.formValues(cacheForm).cache_ttl;
          await QAG.patch(queryPath(name) + '/versions/' + shown.version, { cache_ttl: ttl ? ttl : null },
            ifMatch());
          await reload(ttl ? 'Answers of v' + shown.version + ' are cached for ' + ttl + ' s.'
            : 'Caching is off for v' + shown.version + '.');
        }, cacheOut));
      }
      const entriesOut = h('div', { class: 'q-entries' });
      async function loadEntries() {
        if (!QAG.can('cache.read')) {
          QAG.fill(entriesOut, h('p', { class: 'muted' }, 'Your role cannot read the response cache.'));
          return;
        }
        try {
          const all = (await QAG.get('/api/v1/cache/entries')).items || [];
          const mine = all.filter((e) => e.meta && e.meta.name === name);
          const evict = (e) => {
            const b = QAG.button('Evict', null, { kind: 'plain small', dataset: { action: 'evict' },
              label: 'Evict the cached answer of v' + e.meta.version + ' page ' + (e.meta.page || 1) });
            b.addEventListener('click', QAG.action(b, async () => {
              await QAG.del('/api/v1/cache/entries/' + enc(e.key));
              QAG.notice('Evicted one cached answer of ' + name + '.', 'ok');
              await loadEntries();
            }, cacheOut));
            return b;
          };
          const evictAll = QAG.can('cache.write') && mine.length ? QAG.button('Evict all ' + mine.length, null,
            { kind: 'danger', dataset: { action: 'evict-all' } }) : null;
          if (evictAll) {
            evictAll.addEventListener('click', QAG.action(evictAll, async () => {
              for (const e of mine) await QAG.del('/api/v1/cache/entries/' + enc(e.key));
              QAG.notice('Evicted ' + mine.length + ' cached answer(s) of ' + name + '.', 'ok');
              await loadEntries();
            }, cacheOut));
          }
          QAG.fill(entriesOut, h('h3', null, 'Cached answers now'), stackTable({
            rows: mine.slice(0, 50),
            empty: 'No answer of this query is cached now.',
            columns: [
              { label: 'Version', value: (e) => 'v' + e.meta.version, class: 'num' },
              { label: 'Format', value: (e) => e.meta.format || '' },
              { label: 'Page', value: (e) => e.meta.page == null ? '' : String(e.meta.page), class: 'num' },
              { label: 'Size', value: (e) => QAG.num(e.size_bytes) + ' B', class: 'num' },
              { label: 'Expires in', value: (e) => QAG.num(e.ttl_remaining_s) + ' s', class: 'num' },
              QAG.can('cache.write') ? { label: 'Actions', value: evict } : null,
            ].filter(Boolean),
          }), mine.length > 50 ? h('p', { class: 'muted' }, 'The 50 that expire first of ' + mine.length + '.')
            : null, evictAll ? h('div', { class: 'actions' }, evictAll) : null);
        } catch (err) {
          QAG.fill(entriesOut, QAG.errorView(err));
        }
      }

      // ---- run history
      const historyOut = h('div', { class: 'q-history', 'aria-live': 'polite' });
      const cursors = [''];
      let historyPage = 0;
      const historyFilter = QAG.field({ label: 'Status', name: 'status', type: 'select', value: '',
        options: [['', 'Any'], ['success', 'Succeeded'], ['error', 'Failed']] });
      const versionFilter = QAG.field({ label: 'Version', name: 'version', type: 'select', value: '',
        options: [['', 'Any']].concat(numbers.slice().reverse().map((n) => [n, 'v' + n])) });
      const historyForm = h('form', { class: 'toolbar', 'aria-label': 'Filter runs' }, historyFilter,
        versionFilter, QAG.button('Refresh', null, { type: 'submit', dataset: { refresh: 'history' } }));
      async function loadHistory() {
        const f = QAG.formValues(historyForm);
        historyOut.setAttribute('aria-busy', 'true');
        try {
          const page = await QAG.get(queryPath(name) + '/history' + QAG.qs({ limit: HISTORY_PAGE,
            status: f.status, version: f.version, cursor: cursors[historyPage] }));
          if (stopped) return;
          const items = page.items || [];
          if (page.next_cursor) cursors[historyPage + 1] = page.next_cursor;
          else cursors.length = historyPage + 1;
          QAG.fill(historyOut, stackTable({
            rows: items,
            empty: historyPage ? 'No older runs.' : 'No run of this query is kept yet.',
            columns: [
              { label: 'When', value: (r) => r.executed_at, class: 'q-when' },
              { label: 'Version', value: (r) => (r.version == null ? '' : 'v' + r.version), class: 'num' },
              { label: 'Status', value: (r) => h('span', null, QAG.badge(r.status === 'success' ? 'ok'
                : 'error', r.status === 'success' ? 'ok' : 'bad'), ' ', String(r.http_status || ''),
                r.code ? h('code', { class: 'q-code' }, r.code) : null) },
              { label: 'Duration', value: (r) => QAG.ms(r.duration_ms), class: 'num' },
              { label: 'Rows', value: (r) => (r.rows == null ? '' : QAG.num(r.rows)), class: 'num' },
              { label: 'Caller', value: (r) => r.key_name || '' },
              { label: 'Via', value: (r) => r.transport || '' },
              { label: 'Request', value: (r) => h('code', { class: 'q-rid' }, r.request_id || '') },
            ],
          }), h('nav', { class: 'row q-pager', 'aria-label': 'Pages of runs' },
            QAG.button('Newer', () => { historyPage -= 1; loadHistory(); },
              { disabled: historyPage === 0, dataset: { page: 'newer' } }),
            h('span', null, 'Page ' + (historyPage + 1) + ', ' + HISTORY_PAGE + ' runs a page, newest first'),
            QAG.button('Older', () => { historyPage += 1; loadHistory(); },
              { disabled: !page.next_cursor, dataset: { page: 'older' } })));
        } catch (err) {
          QAG.fill(historyOut, QAG.errorView(err));
        } finally {
          historyOut.removeAttribute('aria-busy');
        }
      }
      historyForm.addEventListener('submit', (e) => {
        e.preventDefault();
        historyPage = 0;
        cursors.length = 1;
        loadHistory();
      });
      historyForm.querySelectorAll('select').forEach((s) => s.addEventListener('change',
        () => historyForm.requestSubmit()));

      QAG.fill(main,
        h('div', { class: 'q-head' }, h('h1', null, 'Query ', h('span', { class: 'q-title' }, name)),
          stateBadges(q)),
        h('p', null, QAG.link('/queries', '← All queries')),
        actions, out,
        h('section', { class: 'card', 'aria-labelledby': 'q-facts-title' },
          h('h2', { id: 'q-facts-title' }, 'About'), facts),
        statement,
        h('section', { class: 'card', id: 'versions', 'aria-labelledby': 'q-versions-title' },
          h('h2', { id: 'q-versions-title' }, 'Versions'), versionsTable),
        h('section', { class: 'card', id: 'diff', 'aria-labelledby': 'q-diff-title' },
          h('h2', { id: 'q-diff-title' }, 'Compare versions'),
          numbers.length > 1 ? [diffForm, diffOut]
            : h('p', { class: 'empty' }, 'Only one version: nothing to compare yet.')),
        h('section', { class: 'card', id: 'cache', 'aria-labelledby': 'q-cache-title' },
          h('h2', { id: 'q-cache-title' }, 'Cache'),
          cacheForm || h('p', null, 'Answers of v' + shown.version + ' are ', shown.cache_ttl
            ? 'cached for ' + shown.cache_ttl + ' s.' : 'not cached.'), cacheOut, entriesOut),
        h('section', { class: 'card', id: 'history', 'aria-labelledby': 'q-history-title' },
          h('h2', { id: 'q-history-title' }, 'Run history'),
          h('p', { class: 'muted' }, 'The calls of this query kept in the event log (each version\'s newest, for'
            + ' the retention the server sets).'), historyForm, historyOut));
      await Promise.all([loadEntries(), loadHistory()]);
      return () => { stopped = true; };
    },
  });
})();
