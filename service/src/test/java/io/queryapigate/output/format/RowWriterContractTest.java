package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What every writer promises the HTTP layer. */
class RowWriterContractTest {

    @BeforeAll
    static void quiet() {
        TestingLogging.quiet();
    }

    /** A response stream that records whether someone closed it. */
    static final class Response extends ByteArrayOutputStream {
        boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    @ParameterizedTest
    @EnumSource(OutputFormat.class)
    void neverClosesTheCallersStreamAndEndsOnce(OutputFormat format) {
        Response out = new Response();
        RowWriter w = format.newWriter(out);
        assertThat(w.format()).isEqualTo(format);
        w.columns(SampleRows.COLUMNS);
        for (Object[] row : SampleRows.rows()) {
            assertThat(w.row(row)).isTrue();
        }
        assertThat(w.rows()).isEqualTo(4);
        w.finish();
        int size = out.size();
        assertThat(size).isPositive();
        assertThat(out.closed).isFalse();
        w.finish();
        w.abort("late");
        assertThat(out.size()).isEqualTo(size); // nothing after the end
        assertThatThrownBy(() -> w.row(SampleRows.rows().get(0))).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @EnumSource(OutputFormat.class)
    void lifecycleMisuseIsRefused(OutputFormat format) {
        RowWriter w = format.newWriter(new ByteArrayOutputStream());
        assertThatThrownBy(() -> w.row(new Object[0])).isInstanceOf(IllegalStateException.class);
        w.columns(SampleRows.COLUMNS);
        assertThatThrownBy(() -> w.columns(SampleRows.COLUMNS)).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @EnumSource(value = OutputFormat.class, names = {"JSON", "NDJSON", "CSV", "TSV", "XML", "YAML"})
    void textFormatsLetRowsLeaveBeforeTheEnd(OutputFormat format) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = format.newWriter(out);
        w.columns(SampleRows.COLUMNS);
        w.row(SampleRows.rows().get(0));
        w.flush();
        int afterOne = out.size();
        assertThat(afterOne).isPositive();
        w.row(SampleRows.rows().get(1));
        w.flush();
        assertThat(out.size()).isGreaterThan(afterOne);
    }

    @ParameterizedTest
    @EnumSource(OutputFormat.class)
    void aBrokenConnectionSurfacesAsUncheckedIo(OutputFormat format) {
        OutputStream gone = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        RowWriter w = format.newWriter(gone);
        assertThatThrownBy(() -> {
            w.columns(SampleRows.COLUMNS);
            for (int i = 0; i < 200_000; i++) { // enough to fill any library buffer
                w.row(SampleRows.rows().get(i % 4));
            }
            w.finish();
        }).isInstanceOf(UncheckedIOException.class);
    }
}
