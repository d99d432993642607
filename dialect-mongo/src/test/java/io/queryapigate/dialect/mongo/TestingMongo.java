package io.queryapigate.dialect.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.TestServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.Document;

/** The tests' MongoDB-protocol server, a database of their own on it, and a plain driver client to prepare it. */
final class TestingMongo implements AutoCloseable {
    final TestServers.Server server = TestServers.mongo();
    final String database;
    private final MongoClient client;

    TestingMongo(String database) {
        this.database = database;
        this.client = MongoClients.create(server.url());
    }

    MongoDatabase db() {
        return client.getDatabase(database);
    }

    void replace(String collection, List<String> documents) {
        db().getCollection(collection).drop();
        if (!documents.isEmpty()) {
            db().getCollection(collection).insertMany(documents.stream().map(Document::parse).toList());
        }
    }

    long count(String collection) {
        return db().getCollection(collection).countDocuments();
    }

    String url() {
        return server.url() + "/" + database;
    }

    Dialect dialect(int poolSize, Map<String, String> properties) {
        return dialect(url(), poolSize, properties);
    }

    static Dialect dialect(String url, int poolSize, Map<String, String> properties) {
        return new MongoDialectFactory().create(new DialectContext("test", url, Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 10_000, poolSize, Path.of(".")), properties);
    }

    @Override
    public void close() {
        client.close();
    }
}
