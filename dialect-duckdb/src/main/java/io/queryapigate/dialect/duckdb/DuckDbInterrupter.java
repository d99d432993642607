package io.queryapigate.dialect.duckdb;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBConnection;

/**
 * Interrupts whatever a DuckDB connection is running.
 *
 * <p>DuckDB's JDBC driver (1.5.6) makes {@link Statement#cancel()} a no-op unless the statement is inside {@code
 * execute()}: while a streaming {@code ResultSet.next()} computes the next rows, or while {@code prepareStatement}
 * runs the leading statements of a multi-statement string, nothing stops it, and the driver's own {@code
 * DuckDBConnection.interrupt()} waits for the lock those calls hold. The native interrupt behind both only sets a
 * flag on the connection's client context, which is safe from any thread, so this class calls it directly.
 *
 * <p>It reaches two package-private members of the driver; if a later driver renames them, {@link #available()}
 * turns false, interrupts fall back to {@link Statement#cancel()}, and the dialect's tests (which check this class
 * and a long fetch) fail, so an upgrade cannot silently weaken the time limit.
 */
final class DuckDbInterrupter {
    private static final MethodHandle NATIVE_INTERRUPT;
    private static final VarHandle CONNECTION_REF;

    static {
        MethodHandle interrupt = null;
        VarHandle connRef = null;
        try {
            Class<?> nativeClass = Class.forName("org.duckdb.DuckDBNative", true, DuckDBConnection.class.getClassLoader());
            interrupt = MethodHandles.privateLookupIn(nativeClass, MethodHandles.lookup())
                    .findStatic(nativeClass, "duckdb_jdbc_interrupt", MethodType.methodType(void.class, ByteBuffer.class));
            connRef = MethodHandles.privateLookupIn(DuckDBConnection.class, MethodHandles.lookup())
                    .findVarHandle(DuckDBConnection.class, "connRef", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            interrupt = null;
            connRef = null;
        }
        NATIVE_INTERRUPT = interrupt;
        CONNECTION_REF = connRef;
    }

    private DuckDbInterrupter() {}

    /**
     * Whether the native interrupt is reachable in this driver version.
     *
     * @return true when {@link #interrupt} can stop fetches and prepares too
     */
    static boolean available() {
        return NATIVE_INTERRUPT != null;
    }

    /**
     * Interrupts the connection's running work. The caller guarantees that {@code connection} is not closed
     * concurrently (the dialect closes it only after the call's time limit is closed).
     *
     * @param connection the connection
     * @param statement the statement being executed, or null before it exists
     * @throws SQLException when the fallback {@link Statement#cancel()} fails
     */
    static void interrupt(DuckDBConnection connection, Statement statement) throws SQLException {
        if (NATIVE_INTERRUPT != null) {
            ByteBuffer ref = (ByteBuffer) CONNECTION_REF.getVolatile(connection);
            if (ref != null) {
                try {
                    NATIVE_INTERRUPT.invokeExact(ref);
                } catch (Throwable t) {
                    throw new SQLException("DuckDB interrupt failed", t);
                }
                return;
            }
        }
        if (statement != null) {
            statement.cancel();
        }
    }
}
