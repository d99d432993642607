package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hadoop is a compile-time dependency only (scope provided): this runs the Parquet writer in a class loader that
 * cannot see any {@code org.apache.hadoop} class, as in the shaded service jar.
 */
class ParquetWithoutHadoopTest {

    /** Loads every non-JDK class afresh from the test class path, refusing Hadoop's. */
    static final class NoHadoopLoader extends ClassLoader {
        private final ClassLoader source = ParquetWithoutHadoopTest.class.getClassLoader();

        NoHadoopLoader() {
            super("no-hadoop", ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (name.startsWith("org.apache.hadoop.")) {
                    throw new ClassNotFoundException(name + " (hidden: Hadoop is not on the service's class path)");
                }
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try {
                        c = getParent().loadClass(name);
                    } catch (ClassNotFoundException e) {
                        c = findClass(name);
                    }
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            try (InputStream in = source.getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }

        @Override
        protected URL findResource(String name) {
            return name.startsWith("org/apache/hadoop/") ? null : source.getResource(name);
        }

        @Override
        protected Enumeration<URL> findResources(String name) throws IOException {
            return source.getResources(name);
        }
    }

    /** Runs inside the isolated loader. */
    public static byte[] writeSample(String codec) {
        return SampleRows.write(OutputFormat.PARQUET, WriterOptions.DEFAULTS.withParquetCompression(codec));
    }

    @ParameterizedTest
    @ValueSource(strings = {"snappy", "zstd", "none"})
    void writesWithoutAnyHadoopClass(String codec) throws Exception {
        NoHadoopLoader loader = new NoHadoopLoader();
        assertThatThrownBy(() -> Class.forName("org.apache.hadoop.conf.Configuration", true, loader))
                .isInstanceOf(ClassNotFoundException.class);
        Class<?> self = Class.forName(ParquetWithoutHadoopTest.class.getName(), true, loader);
        assertThat(self.getClassLoader()).isSameAs(loader);
        java.lang.reflect.Method write = self.getMethod("writeSample", String.class);
        write.setAccessible(true); // the class is package-private, and its package here is another loader's
        byte[] bytes = (byte[]) write.invoke(null, codec);
        TestingLogging.quiet();
        ParquetReading.Result result = ParquetReading.read(bytes);
        assertThat(result.rows()).hasSize(4);
        assertThat(result.rows().get(0).getLong("id", 0)).isEqualTo(Long.MAX_VALUE);
    }
}
