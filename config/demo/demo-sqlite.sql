-- QueryAPIGate demo database for SQLite: the same small film-rental shop as demo-duckdb.sql, row for row.
--
-- Run once by the sqlite dialect through `sqlite.init_script`, when the connection's database file does not exist
-- yet (config/quickstart.yml: connection `demo_sqlite`, file `${home}/demo.sqlite`); read calls then open the file
-- read-only. Delete the file to rebuild it on the next start.
--
-- Deterministic: every value comes from a counting recursive CTE and integer arithmetic (no random(), no current
-- time), so every run of this file produces the same rows; SQLite has no arrays, so the name lists are JSON arrays
-- read with json_extract (0-based where DuckDB's lists are 1-based).
--
--   film       300 rows  film_id 1..300, titles all different, release_year 1990..2024, rating G/PG/PG-13/R/NC-17,
--                        rental_rate 0.99/2.99/4.99, length 46..185 minutes
--   customer   200 rows  customer_id 1..200, 11 inactive (every 17th), created during 2023
--   rental    5000 rows  rental_id 1..5000 during 2024, 217 not returned yet (return_date NULL: every 23rd),
--                        sum(amount) = 26568.99
--
-- Fixed points the README's examples rely on:
--   film 1      'FROSTY ARMAGEDDON', 1990, PG-13, rental_rate 2.99, 99 minutes, rented 16 times
--   customer 1  MARY NGUYEN, mary.nguyen.1@example.com, active, 25 rentals

BEGIN;

CREATE TABLE film (
    film_id      INTEGER PRIMARY KEY,
    title        VARCHAR NOT NULL,
    release_year INTEGER NOT NULL,
    rating       VARCHAR NOT NULL,
    rental_rate  DECIMAL(4,2) NOT NULL, -- stored as a REAL; read back with two decimals
    length       INTEGER NOT NULL -- minutes
);

INSERT INTO film
WITH RECURSIVE films(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM films WHERE k < 299)
SELECT
    k + 1 AS film_id,
    json_extract('["FROSTY","ACADEMY","BRAVE","CHILLING","DANCING","EPIC","FLYING","GOLDEN","HIDDEN","ITALIAN",'
        || '"JUMPING","KARATE","LOST","MIDNIGHT","NORTHERN","OCEAN","PURPLE","QUIET","RIVER","SILENT"]',
        '$[' || ((k * 7) % 20) || ']')
        || ' ' ||
    json_extract('["ARMAGEDDON","AFFAIR","BANDIT","CASTLE","DRAGON","EXPRESS","FALCON","GARDEN","HARBOR","ISLAND",'
        || '"JOURNEY","KINGDOM","LEGEND","MOUNTAIN","NIGHTMARE","ORCHARD","PIRATE","QUEST","ROCKET","SECRET",'
        || '"TEMPLE","UNIVERSE","VOYAGE","WARRIOR","ZEPHYR"]',
        '$[' || ((11 * (k / 20) + 3 * (k % 20)) % 25) || ']') AS title,
    1990 + (k * 11) % 35 AS release_year,
    json_extract('["PG-13","G","PG","R","NC-17"]', '$[' || ((k * 3) % 5) || ']') AS rating,
    json_extract('[2.99,0.99,4.99]', '$[' || (k % 3) || ']') AS rental_rate,
    46 + ((k + 1) * 53) % 140 AS length
FROM films
ORDER BY film_id;

CREATE TABLE customer (
    customer_id INTEGER PRIMARY KEY,
    first_name  VARCHAR NOT NULL,
    last_name   VARCHAR NOT NULL,
    email       VARCHAR NOT NULL,
    active      BOOLEAN NOT NULL, -- 1 or 0
    created_at  TIMESTAMP NOT NULL -- UTC, as SQLite's datetime() writes it
);

INSERT INTO customer
WITH RECURSIVE ids(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM ids WHERE i < 200),
people AS (
    SELECT
        i,
        json_extract('["MARY","JOHN","PATRICIA","ROBERT","LINDA","MICHAEL","BARBARA","WILLIAM","ELIZABETH","DAVID",'
            || '"JENNIFER","RICHARD","MARIA","JOSEPH","SUSAN","THOMAS","MARGARET","CHARLES","DOROTHY","DANIEL"]',
            '$[' || ((i - 1) % 20) || ']') AS first_name,
        json_extract('["NGUYEN","SMITH","GARCIA","MUELLER","ROSSI","TANAKA","DUBOIS","KOWALSKI","SILVA","OKAFOR",'
            || '"JOHANSSON","PATEL","KIM","LOPEZ","MARTIN","WANG","NOVAK","EVANS","COHEN","IVANOV"]',
            '$[' || (((i - 1) * 7) % 20) || ']') AS last_name
    FROM ids
)
SELECT
    i AS customer_id,
    first_name,
    last_name,
    lower(first_name) || '.' || lower(last_name) || '.' || i || '@example.com' AS email,
    i % 17 <> 0 AS active,
    datetime('2023-01-01 09:00:00', '+' || ((i * 97) % 365) || ' days', '+' || ((i * 41) % 600) || ' minutes')
        AS created_at
FROM people
ORDER BY customer_id;

CREATE TABLE rental (
    rental_id   INTEGER PRIMARY KEY,
    film_id     INTEGER NOT NULL REFERENCES film (film_id),
    customer_id INTEGER NOT NULL REFERENCES customer (customer_id),
    rental_date TIMESTAMP NOT NULL,
    return_date TIMESTAMP, -- NULL while the film is out
    amount      DECIMAL(6,2) NOT NULL
);

INSERT INTO rental
WITH RECURSIVE ids(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM ids WHERE i < 5000),
r AS (
    SELECT
        i,
        1 + (i * 7919) % 300 AS film_id,
        1 + (i * 13) % 200 AS customer_id,
        datetime('2024-01-01 10:00:00', '+' || ((i * 37) % 366) || ' days', '+' || ((i * 131) % 720) || ' minutes')
            AS rental_date
    FROM ids
)
SELECT
    r.i AS rental_id,
    r.film_id,
    r.customer_id,
    r.rental_date,
    CASE WHEN r.i % 23 = 0 THEN NULL
         ELSE datetime(r.rental_date, '+' || (1 + (r.i * 11) % 7) || ' days', '+' || ((r.i * 17) % 600) || ' minutes')
    END AS return_date,
    round(f.rental_rate * (1 + r.i % 3), 2) AS amount
FROM r
JOIN film AS f ON f.film_id = r.film_id
ORDER BY rental_id;

CREATE INDEX rental_customer ON rental (customer_id);
CREATE INDEX rental_film ON rental (film_id);

COMMIT;
