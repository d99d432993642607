package io.queryapigate.dialect.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which comment of a CREATE TABLE text belongs to the table, to which column, and to nothing. */
class SqliteCommentsTest {

    @Test
    void tableColumnsAndConstraints() {
        SqliteComments c = SqliteComments.of("""
                CREATE TABLE item ( -- things for sale
                    -- shown to the customer
                    name  VARCHAR(40) NOT NULL,
                    "unit price" DECIMAL(8,2) NOT NULL, /* in euros */ -- before tax
                    [size] TEXT DEFAULT 'a -- b, c' , -- the size
                    plain INTEGER,
                    PRIMARY KEY (name) -- the key
                )""");
        assertThat(c.table()).contains("things for sale");
        assertThat(c.column("name")).contains("shown to the customer");
        assertThat(c.column("unit price")).contains("in euros before tax");
        assertThat(c.column("SIZE")).as("names compare as SQLite's do").contains("the size");
        assertThat(c.column("plain")).isEmpty();
        assertThat(c.column("primary")).isEmpty();
    }

    @Test
    void aCommentBeforeTheParenthesisAndTheLastColumnsBeforeTheClosingOne() {
        SqliteComments c = SqliteComments.of("CREATE TABLE t /* the t */ (a INT, b TEXT -- bee\n)");
        assertThat(c.table()).contains("the t");
        assertThat(c.column("a")).isEmpty();
        assertThat(c.column("b")).contains("bee");
    }

    @Test
    void noCommentsAtAll() {
        assertThat(SqliteComments.of("CREATE TABLE t (a INT, b TEXT)")).isSameAs(SqliteComments.NONE);
        assertThat(SqliteComments.of("CREATE VIEW v AS SELECT '--' AS a").column("a")).isEmpty();
    }
}
