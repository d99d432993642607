package io.queryapigate.paging;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.sql.SqlDialectFamily;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Against a real embedded DuckDB: for statements with every kind of own window (literal and {@code ?} operands,
 * LIMIT/OFFSET/FETCH, UNION, CTE, trailing comments), the paged statement returns exactly rows
 * {@code [o, o + pageSize + 1)} of the statement's own result, so a page never widens the statement's window.
 */
class PagingDuckDbPropertiesTest {
    static final int ROWS = 57;
    static Connection db;
    static final EnumSet<PagedSql.Mode> MODES_SEEN = EnumSet.noneOf(PagedSql.Mode.class);

    @BeforeContainer
    static void open() throws SQLException {
        db = DriverManager.getConnection("jdbc:duckdb:");
        try (var st = db.createStatement()) {
            st.execute("CREATE TABLE t AS SELECT range::INTEGER AS id, 'v' || range AS v FROM range(1, " + (ROWS + 1) + ")");
        }
    }

    @AfterContainer
    static void close() throws SQLException {
        db.close();
        // the generator reaches every way of paging but the client-side one (generic family only)
        assertThat(MODES_SEEN).contains(PagedSql.Mode.APPENDED, PagedSql.Mode.NARROWED, PagedSql.Mode.WRAPPED);
    }

    /** A statement: its SQL and the values bound to its markers. */
    record Stmt(String sql, List<Integer> params) {}

    record Window(String text, List<Integer> params) {}

    @Provide
    Arbitrary<Stmt> statements() {
        Arbitrary<String> bases = Arbitraries.of(
                "SELECT id FROM t ORDER BY id",
                "SELECT id FROM t ORDER BY id DESC",
                "SELECT id FROM t WHERE id % 2 = 0 UNION ALL SELECT id FROM t WHERE id % 2 = 1 ORDER BY id",
                "WITH x AS (SELECT id FROM t WHERE id > 3) SELECT id FROM x ORDER BY id",
                "SELECT id FROM t WHERE id > ? ORDER BY id",
                "SELECT id FROM (SELECT id FROM t ORDER BY id LIMIT 40) s ORDER BY id",
                "SELECT id FROM t /* where's the LIMIT? */ ORDER BY id");
        Arbitrary<Integer> n = Arbitraries.integers().between(0, 70);
        Arbitrary<Integer> m = Arbitraries.integers().between(0, 70);
        Arbitrary<Window> windows = Combinators.combine(n, m, Arbitraries.integers().between(0, 15)).as((a, b, kind) ->
                switch (kind) {
                    case 0 -> new Window("", List.of());
                    case 1 -> new Window(" LIMIT " + a, List.of());
                    case 2 -> new Window(" LIMIT " + a + " OFFSET " + b, List.of());
                    case 3 -> new Window(" OFFSET " + b, List.of());
                    case 4 -> new Window(" LIMIT ALL", List.of());
                    case 5 -> new Window(" LIMIT ALL OFFSET " + b, List.of());
                    case 6 -> new Window(" OFFSET " + b + " ROWS FETCH NEXT " + a + " ROWS ONLY", List.of());
                    case 7 -> new Window(" FETCH FIRST " + a + " ROWS ONLY", List.of());
                    case 8 -> new Window(" FETCH FIRST ROW ONLY", List.of());
                    case 9 -> new Window(" LIMIT ?", List.of(a));
                    case 10 -> new Window(" LIMIT ? OFFSET ?", List.of(a, b));
                    case 11 -> new Window(" OFFSET ?", List.of(b));
                    case 12 -> new Window(" FETCH FIRST ? ROWS ONLY", List.of(a));
                    case 13 -> new Window(" LIMIT " + a + " OFFSET ?", List.of(b));
                    case 14 -> new Window(" OFFSET " + b + " LIMIT " + a, List.of());
                    default -> new Window(" LIMIT " + a + " /* c */ OFFSET " + b, List.of());
                });
        Arbitrary<String> tails = Arbitraries.of("", ";", " -- note", " /* c */ ;", "\n", "; -- done\n");
        Arbitrary<Integer> filter = Arbitraries.integers().between(0, 20);
        return Combinators.combine(bases, windows, tails, filter).as((base, w, tail, f) -> {
            List<Integer> params = new ArrayList<>();
            if (base.contains("> ?")) {
                params.add(f);
            }
            params.addAll(w.params());
            return new Stmt(base + w.text() + tail, params);
        });
    }

    static List<Integer> run(String sql, List<Integer> params) throws SQLException {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                ps.setInt(i + 1, params.get(i));
            }
            List<Integer> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getInt(1));
                }
            }
            return out;
        }
    }

    @Property(tries = 400)
    void aPageIsExactlyTheSliceOfTheStatementsOwnResult(@ForAll("statements") Stmt stmt,
            @ForAll("pages") int page, @ForAll("sizes") int size) throws SQLException {
        List<Integer> own = run(stmt.sql(), stmt.params());
        PageRequest request = new PageRequest(page, size);
        PagedSql paged = Paging.defaults().rewrite(stmt.sql(), request, SqlDialectFamily.DUCKDB);
        MODES_SEEN.add(paged.mode());
        List<Integer> rows = run(paged.sql(), stmt.params());
        if (paged.mode() == PagedSql.Mode.CLIENT) {
            rows = rows.subList((int) Math.min(paged.skip(), rows.size()), rows.size());
        }
        rows = rows.subList(0, Math.min(rows.size(), request.fetch()));
        int from = (int) Math.min(request.offset(), own.size());
        int to = (int) Math.min(request.offset() + request.fetch(), own.size());
        assertThat(rows).as("%s -> %s", stmt.sql(), paged.sql()).isEqualTo(own.subList(from, to));
        assertThat(own).containsAll(rows); // never wider than the statement's own window
    }

    @Provide
    Arbitrary<Integer> pages() {
        return Arbitraries.integers().between(1, 12);
    }

    @Provide
    Arbitrary<Integer> sizes() {
        return Arbitraries.integers().between(1, 15);
    }

    @Property(tries = 100)
    void genericFamilyPagesClientSideWithTheSameResult(@ForAll("statements") Stmt stmt, @ForAll("pages") int page,
            @ForAll("sizes") int size) throws SQLException {
        List<Integer> own = run(stmt.sql(), stmt.params());
        PageRequest request = new PageRequest(page, size);
        PagedSql paged = Paging.defaults().rewrite(stmt.sql(), request, SqlDialectFamily.GENERIC);
        assertThat(paged.mode()).isEqualTo(PagedSql.Mode.CLIENT);
        PagingTest.Collect target = new PagingTest.Collect();
        PageSink sink = paged.sink(target);
        sink.columns(List.of());
        for (Integer id : run(paged.sql(), stmt.params())) {
            if (!sink.row(new Object[] {id})) {
                break;
            }
        }
        int from = (int) Math.min(request.offset(), own.size());
        int to = (int) Math.min(request.offset() + size, own.size());
        assertThat(target.rows).isEqualTo(new ArrayList<Object>(own.subList(from, to)));
        assertThat(sink.hasMore()).isEqualTo(own.size() > request.offset() + size);
    }
}
