package io.queryapigate.dialect.mongo;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.testkit.AbstractMongoDialectContractTest;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/** The Mongo contract against the test server (FerretDB in CI). */
class MongoDialectContractTest extends AbstractMongoDialectContractTest {
    private static final TestingMongo MONGO = new TestingMongo("qag_contract");

    @AfterAll
    static void closeClient() {
        MONGO.close();
    }

    @Override
    protected Dialect createDialect(int poolSize) {
        return MONGO.dialect(poolSize, Map.of());
    }

    @Override
    protected void replace(String collection, List<String> documents) {
        MONGO.replace(collection, documents);
    }

    @Override
    protected long count(String collection) {
        return MONGO.count(collection);
    }

    @Override
    protected java.net.InetSocketAddress serverAddress() {
        return MONGO.server.address();
    }

    @Override
    protected Dialect createDialect(String hostPort) {
        return TestingMongo.dialect("mongodb://" + hostPort + "/qag_contract", 1, Map.of());
    }

    @Override
    protected Dialect createUnreachableDialect() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        return TestingMongo.dialect("mongodb://127.0.0.1:" + port + "/qag_contract", 1,
                Map.of(MongoDialectConfig.SERVER_SELECTION_TIMEOUT, "500ms"));
    }
}
