package io.queryapigate.dialect.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MongoQueryGuardTest {
    private static Map<String, Object> pipeline(Object... stages) {
        return Map.of("collection", "c", "pipeline", List.of(stages));
    }

    private static void refused(Object query, String code) {
        assertThatThrownBy(() -> MongoQueryGuard.check(query)).as(String.valueOf(query))
                .isInstanceOfSatisfying(MongoQueryGuard.Refused.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    @Test
    void readsAreAdmitted() {
        MongoQueryGuard.check(Map.of("collection", "c", "filter", Map.of("a", Map.of("$gt", 1)), "sort",
                Map.of("a", 1), "skip", 2, "limit", 10L));
        MongoQueryGuard.check(pipeline(Map.of("$match", Map.of()), Map.of("$lookup", Map.of("from", "d", "as", "x",
                "pipeline", List.of(Map.of("$project", Map.of("a", 1))))), Map.of("$facet", Map.of("f",
                List.of(Map.of("$count", "n"))))));
        // an operator's name as data is data
        MongoQueryGuard.check(Map.of("collection", "c", "filter", Map.of("a", "$where", "b", Map.of("$literal",
                "$out"))));
    }

    @Test
    void stagesThatWriteOrReadServerStateAreRefusedWherever() {
        refused(pipeline(Map.of("$out", "x")), "mongo_stage_forbidden");
        refused(pipeline(Map.of("$match", Map.of()), Map.of("$merge", Map.of("into", "x"))), "mongo_stage_forbidden");
        refused(pipeline(Map.of("$facet", Map.of("a", List.of(Map.of("$out", "x"))))), "mongo_stage_forbidden");
        refused(pipeline(Map.of("$lookup", Map.of("from", "d", "as", "x", "pipeline", List.of(Map.of("$facet",
                Map.of("a", List.of(Map.of("$merge", "x")))))))), "mongo_stage_forbidden");
        refused(pipeline(Map.of("$unionWith", Map.of("coll", "d", "pipeline", List.of(Map.of("$out", "x"))))),
                "mongo_stage_forbidden");
        refused(pipeline(Map.of("$currentOp", Map.of())), "mongo_stage_forbidden");
        refused(pipeline(Map.of("$changeStream", Map.of())), "mongo_stage_forbidden");
        // $out as a key outside a stage position (inside a $match) is refused too
        refused(pipeline(Map.of("$match", Map.of("$out", "x"))), "mongo_stage_forbidden");
    }

    @Test
    void serverSideJavaScriptIsRefusedAnywhere() {
        refused(Map.of("collection", "c", "filter", Map.of("$where", "true")), "mongo_operator_forbidden");
        refused(Map.of("collection", "c", "filter", Map.of("a", Map.of("$elemMatch", Map.of("$where", "1")))),
                "mongo_operator_forbidden");
        refused(Map.of("collection", "c", "projection", Map.of("x", Map.of("$function", Map.of()))),
                "mongo_operator_forbidden");
        refused(Map.of("collection", "c", "sort", Map.of("$function", 1)), "mongo_operator_forbidden");
        refused(pipeline(Map.of("$group", Map.of("_id", "$a", "x", Map.of("$accumulator", Map.of())))),
                "mongo_operator_forbidden");
    }

    @Test
    void malformedDocumentsAndSystemCollections() {
        refused("{}", "invalid_query");
        refused(Map.of("filter", Map.of()), "collection_required");
        refused(Map.of("collection", "system.users"), "collection_not_allowed");
        refused(Map.of("collection", "a$b"), "collection_not_allowed");
        refused(Map.of("collection", "c", "filter", List.of()), "invalid_query");
        refused(Map.of("collection", "c", "drop", true), "invalid_query");
        refused(Map.of("collection", "c", "filter", Map.of(), "pipeline", List.of()), "invalid_query");
        refused(Map.of("collection", "c", "pipeline", List.of(Map.of("$match", Map.of(), "$out", "x"))),
                "invalid_query");
        refused(Map.of("collection", "c", "skip", -1), "invalid_query");
        refused(Map.of("collection", "c", "limit", 1.5), "invalid_query");
    }

    @Test
    void placeholdersAreWholeStringLeaves() {
        assertThat(MongoQueryGuard.placeholders(Map.of("collection", "c", "filter", Map.of("a", ":x", "b",
                List.of(":y", ":x"), "c", "x:y", "d", ": z", ":k", 1)))).containsExactlyInAnyOrder("x", "y");
        assertThat(MongoQueryGuard.placeholder(":a_1")).isEqualTo("a_1");
        assertThat(MongoQueryGuard.placeholder(":1a")).isNull();
        assertThat(MongoQueryGuard.placeholder("::a")).isNull();
    }
}
