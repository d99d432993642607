package io.queryapigate.output.format;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * Without a logback configuration, tests log at DEBUG, and parquet-java logs several DEBUG lines per page and
 * value: enough to slow writing a hundredfold. The service runs at Dropwizard's INFO; Parquet's loggers are set to
 * WARN here (and only they, as other test classes share the JVM).
 */
final class TestingLogging {
    private TestingLogging() {}

    static void quiet() {
        if (LoggerFactory.getLogger("org.apache.parquet") instanceof Logger parquet) {
            parquet.setLevel(Level.WARN);
        }
    }
}
