package io.queryapigate.examples;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the example APIs consist of, as the Python original's {@code examples.py} has them: four scenarios, each a
 * collection of saved queries and a key shaped like the one that would front it, and a fifth key reaching two
 * collections. The SQL is the original's, written for DuckDB (the examples' database is a DuckDB file here).
 */
final class ExampleApis {
    static final String CONNECTION = "examples";
    static final String AUTHOR = "queryapigate-examples";
    private static final String FILM_JOIN = "FROM rental r JOIN film f ON f.film_id = r.film_id";
    private static final List<String> CATEGORIES = List.of("Action", "Comedy", "Documentary", "Drama", "Family",
            "Sci-Fi");

    /** One example query: its name, description, SQL, parameter rules, cache TTL and tags (after "example"). */
    record Query(String name, String description, String sql, Map<String, Object> parameters, int cacheTtl,
            List<String> tags) {}

    /** One scenario: its collection, its queries and its key's name and rate limit. */
    record Scenario(String collection, List<Query> queries, String key, String rateLimit) {}

    /** A key that is no scenario's own: the collections it reaches. */
    record ExtraKey(String name, List<String> collections, String rateLimit) {}

    static final List<Scenario> SCENARIOS = List.of(
            new Scenario("examples-reporting", List.of(
                    query("example_monthly_revenue", "Rentals and revenue per month, newest first",
                            "SELECT strftime(rental_date, '%Y-%m') AS month, COUNT(*) AS rentals,"
                                    + " ROUND(SUM(amount), 2) AS revenue FROM rental"
                                    + " WHERE rental_date >= current_date - :months * INTERVAL 1 MONTH"
                                    + " GROUP BY month ORDER BY month DESC",
                            params("months", rule("int", 1, 24, 6, "How many months back to include")), 0),
                    query("example_top_films", "Most-rented films, optionally within one category",
                            "SELECT * FROM (SELECT f.title, f.category, f.rating, COUNT(*) AS rentals,"
                                    + " RANK() OVER (ORDER BY COUNT(*) DESC) AS rank " + FILM_JOIN
                                    + " WHERE (:category IS NULL OR f.category = :category)"
                                    + " GROUP BY f.film_id, f.title, f.category, f.rating)"
                                    + " WHERE rank <= :top_n ORDER BY rank, title",
                            params("top_n", rule("int", 1, 50, 10, "How many films"),
                                    "category", Map.of("type", "str", "enum", CATEGORIES, "required", false,
                                            "description", "Only this category (omit for all)")), 0),
                    query("example_revenue_by_category", "Revenue per film category over the last N days",
                            "SELECT f.category, COUNT(*) AS rentals, ROUND(SUM(r.amount), 2) AS revenue "
                                    + FILM_JOIN + " WHERE r.rental_date >= current_date - :days * INTERVAL 1 DAY"
                                    + " GROUP BY f.category ORDER BY revenue DESC",
                            params("days", rule("int", 1, 120, 30, "Window size in days")), 0)),
                    "example-reporting", "200/hour"),
            new Scenario("examples-dashboard", List.of(
                    query("example_kpi_rentals_today", "Rentals and revenue so far today (UTC)",
                            "SELECT COUNT(*) AS rentals_today, ROUND(COALESCE(SUM(amount), 0), 2) AS revenue_today"
                                    + " FROM rental WHERE CAST(rental_date AS DATE) = current_date",
                            Map.of(), 30, "kpi"),
                    query("example_kpi_active_rentals", "Rentals that are currently out",
                            "SELECT COUNT(*) AS active_rentals FROM rental WHERE return_date IS NULL",
                            Map.of(), 30, "kpi"),
                    query("example_kpi_overdue", "Rentals out for more than 7 days",
                            "SELECT COUNT(*) AS overdue FROM rental WHERE return_date IS NULL"
                                    + " AND rental_date < CAST(now() AS TIMESTAMP) - INTERVAL 7 DAY",
                            Map.of(), 30, "kpi"),
                    query("example_recent_rentals", "The latest rentals, for a live feed",
                            "SELECT r.rental_id, f.title, c.first_name || ' ' || c.last_name AS customer,"
                                    + " r.rental_date " + FILM_JOIN + " JOIN customer c ON c.customer_id ="
                                    + " r.customer_id WHERE r.rental_date >= CAST(now() AS TIMESTAMP)"
                                    + " - :hours * INTERVAL 1 HOUR ORDER BY r.rental_date DESC, r.rental_id DESC",
                            params("hours", rule("int", 1, 168, 24, "How many hours back")), 30)),
                    "example-dashboard", "600/minute"),
            new Scenario("examples-export", List.of(
                    query("example_all_rentals", "Every rental with its payment, staff and store - about 20,000"
                                    + " rows. Run it with ?stream=true&format=csv to export it in constant memory",
                            "SELECT r.rental_id, r.rental_date, r.return_date, r.amount, f.title, f.category,"
                                    + " c.first_name || ' ' || c.last_name AS customer, c.country,"
                                    + " s.first_name || ' ' || s.last_name AS staff, st.city AS store_city "
                                    + FILM_JOIN + " JOIN customer c ON c.customer_id = r.customer_id"
                                    + " JOIN payment p ON p.rental_id = r.rental_id"
                                    + " JOIN staff s ON s.staff_id = p.staff_id"
                                    + " JOIN store st ON st.store_id = s.store_id ORDER BY r.rental_id",
                            Map.of(), 0),
                    query("example_rentals_since", "Rentals from a date onward - for incremental exports",
                            "SELECT r.rental_id, r.rental_date, r.amount, f.title " + FILM_JOIN
                                    + " WHERE CAST(r.rental_date AS DATE) >= CAST(:since AS DATE)"
                                    + " ORDER BY r.rental_id",
                            params("since", Map.of("type", "str", "pattern", "\\d{4}-\\d{2}-\\d{2}", "default",
                                    "2000-01-01", "description", "YYYY-MM-DD")), 0)),
                    "example-export", "20/hour"),
            new Scenario("examples-partner", List.of(
                    query("example_film_lookup", "One film and how it is doing - for a partner integration",
                            "SELECT f.film_id, f.title, f.category, f.rating, f.length,"
                                    + " COUNT(*) FILTER (WHERE r.rental_date >= CAST(now() AS TIMESTAMP)"
                                    + " - INTERVAL 30 DAY) AS rentals_last_30_days,"
                                    + " COUNT(*) FILTER (WHERE r.return_date IS NULL) AS currently_rented "
                                    + FILM_JOIN + " WHERE f.film_id = :film_id"
                                    + " GROUP BY f.film_id, f.title, f.category, f.rating, f.length",
                            params("film_id", Map.of("type", "int", "min", 1, "description", "The film to look up")),
                            0),
                    query("example_film_search", "Find films by part of the title",
                            "SELECT film_id, title, category, rating FROM film"
                                    + " WHERE title LIKE '%' || :text || '%' ORDER BY title",
                            params("text", Map.of("type", "str", "min_length", 2, "max_length", 30, "pattern",
                                    "[A-Za-z ]+", "description", "Letters and spaces only")), 0)),
                    "example-partner", "60/minute"));

    static final List<ExtraKey> EXTRA_KEYS = List.of(new ExtraKey("example-executive",
            List.of("examples-reporting", "examples-dashboard"), "300/hour"));

    private ExampleApis() {}

    /** Every example query's name, scenario by scenario. */
    static List<String> queryNames() {
        return SCENARIOS.stream().flatMap(s -> s.queries().stream()).map(Query::name).toList();
    }

    /** Every example key's name: each scenario's, then the extra ones. */
    static List<String> keyNames() {
        List<String> names = new java.util.ArrayList<>(SCENARIOS.stream().map(Scenario::key).toList());
        EXTRA_KEYS.forEach(k -> names.add(k.name()));
        return names;
    }

    /** The queries a key reaches: its scenario's, or those of the collections an extra key names. */
    static List<String> queriesOf(String key) {
        List<String> collections = SCENARIOS.stream().filter(s -> s.key().equals(key)).map(Scenario::collection)
                .toList();
        if (collections.isEmpty()) {
            collections = EXTRA_KEYS.stream().filter(k -> k.name().equals(key)).findFirst().orElseThrow()
                    .collections();
        }
        List<String> names = new java.util.ArrayList<>();
        for (Scenario s : SCENARIOS) {
            if (collections.contains(s.collection())) {
                s.queries().forEach(q -> names.add(q.name()));
            }
        }
        return names;
    }

    private static Query query(String name, String description, String sql, Map<String, Object> parameters,
            int cacheTtl, String... tags) {
        return new Query(name, description, sql, parameters, cacheTtl, List.of(tags));
    }

    private static Map<String, Object> params(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    private static Map<String, Object> rule(String type, int min, int max, int dflt, String description) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.put("min", min);
        m.put("max", max);
        m.put("default", dflt);
        m.put("description", description);
        return m;
    }
}
