package io.queryapigate.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.mongodb.client.MongoDatabase;
import io.queryapigate.testing.Http.Reply;
import java.util.ArrayList;
import java.util.List;
import org.bson.Document;

/**
 * The MongoDB ITs' fixture: a {@code people} collection (ids 1 to 5 named {@code p1}..{@code p5}, aged 21 to 25,
 * even ids in Oslo, odd in Rome, and id 6 named {@code $gt}, an operator's name, aged 99, in Oslo) and a {@code
 * secrets} collection no test may read; and the ids an answer holds.
 */
public final class MongoPeople {
    private MongoPeople() {}

    /** Writes the two collections into {@code db}. */
    public static void seed(MongoDatabase db) {
        List<Document> people = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            people.add(new Document("_id", i).append("name", "p" + i).append("age", 20 + i).append("city",
                    i % 2 == 0 ? "Oslo" : "Rome"));
        }
        people.add(new Document("_id", 6).append("name", "$gt").append("age", 99).append("city", "Oslo"));
        db.getCollection("people").insertMany(people);
        db.getCollection("secrets").insertOne(new Document("token", "s3cr3t"));
    }

    /** The {@code _id}s of a 200 answer's rows, in order; none for the original's no-rows message. */
    public static List<Integer> ids(Reply r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<Integer> ids = new ArrayList<>();
        JsonNode json = r.json();
        if (json.has("message")) {
            return ids;
        }
        for (JsonNode row : json) {
            ids.add(row.get("_id").asInt());
        }
        return ids;
    }
}
