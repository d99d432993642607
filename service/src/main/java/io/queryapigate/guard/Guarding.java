package io.queryapigate.guard;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardException;
import io.queryapigate.guard.GuardMask;
import io.queryapigate.guard.GuardOptions;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.SqlGuard;
import io.queryapigate.guard.TableName;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies the SQL guard for a caller on a connection: builds (and keeps) the guard options from the key's grants,
 * the server's write ceiling and the connection's SQL family and default namespace, and turns refusals into the
 * API's errors.
 */
public final class Guarding {
    private record OptionsKey(Grants grants, boolean admin, String connection, boolean readOnly) {}

    private final SqlGuard guard;
    private final boolean serverAllowsWrites;
    private final Cache<OptionsKey, GuardOptions> options = Caffeine.newBuilder().maximumSize(10_000).build();

    public Guarding(SqlGuard guard, boolean serverAllowsWrites) {
        this.guard = guard;
        this.serverAllowsWrites = serverAllowsWrites;
    }

    public boolean serverAllowsWrites() {
        return serverAllowsWrites;
    }

    /** Checks {@code jdbcSql} for this caller on this connection. */
    public GuardResult check(Caller caller, Connection connection, String jdbcSql) {
        GuardOptions o = options.get(new OptionsKey(caller.grants(), caller.admin(), connection.name(), false),
                k -> build(caller, connection, caller.canWrite(serverAllowsWrites)));
        return check(jdbcSql, o);
    }

    /**
     * Checks {@code jdbcSql} for this caller on this connection as a reader, whatever its write grant: a write is
     * refused as for a key without one ({@code read_only}). The MCP server's {@code execute_sql}.
     */
    public GuardResult checkReadOnly(Caller caller, Connection connection, String jdbcSql) {
        GuardOptions o = options.get(new OptionsKey(caller.grants(), caller.admin(), connection.name(), true),
                k -> build(caller, connection, false));
        return check(jdbcSql, o);
    }

    /** Classifies a saved query's SQL when it is saved: the publisher may write only where the server allows it. */
    public GuardResult checkForSaving(Connection connection, String jdbcSql) {
        GuardOptions o = (serverAllowsWrites ? GuardOptions.writer(connection.family())
                : GuardOptions.readOnly(connection.family())).withLexicalRules(connection.lexicalRules())
                .withDefaults(connection.namespace().catalog(), connection.namespace().schema())
                .withFileFunctions(connection.readsFiles());
        return check(jdbcSql, o);
    }

    /**
     * True when the caller is restricted in a way a saved query must be re-checked for on every call (a table
     * allow-list or masked columns); such a caller also sees no database error text.
     */
    public static boolean restricted(Caller caller) {
        return !caller.admin() && (caller.grants().allowedTables() != null || !caller.grants().mask().isEmpty());
    }

    private GuardResult check(String jdbcSql, GuardOptions o) {
        try {
            return guard.check(jdbcSql, o);
        } catch (GuardException e) {
            throw new ApiException(e.status(), e.code(), e.getMessage());
        }
    }

    private GuardOptions build(Caller caller, Connection connection, boolean writer) {
        GuardOptions o = writer ? GuardOptions.writer(connection.family()) : GuardOptions.readOnly(connection.family());
        o = o.withLexicalRules(connection.lexicalRules())
                .withDefaults(connection.namespace().catalog(), connection.namespace().schema())
                .withExtraFunctions(connection.allowedFunctions()).withAdministrator(caller.admin())
                .withFileFunctions(connection.readsFiles());
        if (!caller.admin()) {
            o = o.withAllowedTables(caller.grants().allowedTables())
                    .withMasks(masks(caller.grants().mask(), connection));
            if (writer) {
                o = o.withAllowedWriteOps(caller.grants().allowedWriteOps());
            }
        }
        return o;
    }

    /**
     * A key's masking rules as the guard traces them, tables resolved on this connection; by rule index (the schema
     * browser marks the same columns).
     */
    public static List<GuardMask> masks(List<MaskRule> rules, Connection connection) {
        List<GuardMask> out = new ArrayList<>();
        for (MaskRule r : rules) {
            int dot = r.column().lastIndexOf('.');
            TableName table = TableName.parse(r.column().substring(0, dot), connection.family(),
                    connection.lexicalRules(), connection.namespace().catalog(), connection.namespace().schema());
            out.add(new GuardMask(table, r.column().substring(dot + 1), r.isStrict()));
        }
        return out;
    }
}
