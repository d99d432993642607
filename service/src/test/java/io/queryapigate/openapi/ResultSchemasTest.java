package io.queryapigate.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.openapi.CallableQueries.Callable;
import io.queryapigate.store.SavedQueryRow;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The component names of the saved queries' schemas: readable, valid component keys, unique, and not moved by newer queries. */
class ResultSchemasTest {
    private static Callable query(long id, String name) {
        return new Callable(new SavedQueryRow(id, name, 1, 0, 0, null, "default"), null, null, Set.of(), null,
                List.of(), null);
    }

    @Test
    void aQueryNameBecomesPascalCaseWithRow() {
        Map<String, String> names = ResultSchemas.names(List.of(query(1, "film"), query(2, "films by rating"),
                query(3, "rentals_by_customer"), query(4, "2024-sales"), query(5, "été"), query(6, "naïve.tëst")),
                Set.of());
        assertThat(names).containsExactlyInAnyOrderEntriesOf(Map.of("film", "Film", "films by rating", "FilmsByRating",
                "rentals_by_customer", "RentalsByCustomer", "2024-sales", "Query2024Sales", "été", "T",
                "naïve.tëst", "NaVeTSt"));
        assertThat(names.values()).allMatch(n -> n.matches("[A-Za-z][A-Za-z0-9]*"));
    }

    @Test
    void namesThatMeetAreNumberedInTheOrderTheQueriesWereSaved() {
        List<Callable> queries = List.of(query(7, "films by rating"), query(3, "films_by_rating"),
                query(9, "Films-By-Rating"), query(5, "films by rating 2"));
        Map<String, String> names = ResultSchemas.names(queries, Set.of());
        assertThat(names).containsExactlyInAnyOrderEntriesOf(Map.of("films_by_rating", "FilmsByRating",
                "films by rating 2", "FilmsByRating2", "films by rating", "FilmsByRating3",
                "Films-By-Rating", "FilmsByRating4"));
        assertThat(ResultSchemas.names(queries.reversed(), Set.of())).as("whatever order they are listed in")
                .isEqualTo(names);
    }

    @Test
    void namesTheDocumentAlreadyUsesAreNotGiven() {
        assertThat(ResultSchemas.names(List.of(query(1, "error"), query(2, "api key"), query(3, "catalog")),
                Set.of("ErrorPage", "Error", "CatalogRows")))
                .containsExactlyInAnyOrderEntriesOf(Map.of("error", "Error2", "api key", "ApiKey", "catalog", "Catalog2"));
    }
}
