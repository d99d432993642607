-- QueryAPIGate demo database for DuckDB: a small film-rental shop.
--
-- Run once by the duckdb dialect through `duckdb.init_script`, when the connection's database file does not exist
-- yet (config/quickstart.yml: connection `demo`, file `${home}/demo.duckdb`); the dialect then opens the file
-- read-only. Delete the file to rebuild it on the next start.
--
-- Deterministic: every value comes from range() and integer arithmetic (no random(), no current time), so every
-- run of this file produces the same rows.
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

CREATE TABLE film (
    film_id      INTEGER PRIMARY KEY,
    title        VARCHAR NOT NULL,
    release_year INTEGER NOT NULL,
    rating       VARCHAR NOT NULL,
    rental_rate  DECIMAL(4,2) NOT NULL,
    length       INTEGER NOT NULL
);

INSERT INTO film
SELECT
    k + 1 AS film_id,
    -- (k * 7) % 20 picks k's residue mod 20 and (11 * (k / 20) + 3 * (k % 20)) % 25 then differs for every k / 20,
    -- so the 300 titles are all different
    ['FROSTY', 'ACADEMY', 'BRAVE', 'CHILLING', 'DANCING', 'EPIC', 'FLYING', 'GOLDEN', 'HIDDEN', 'ITALIAN',
     'JUMPING', 'KARATE', 'LOST', 'MIDNIGHT', 'NORTHERN', 'OCEAN', 'PURPLE', 'QUIET', 'RIVER', 'SILENT'][1 + (k * 7) % 20]
        || ' ' ||
    ['ARMAGEDDON', 'AFFAIR', 'BANDIT', 'CASTLE', 'DRAGON', 'EXPRESS', 'FALCON', 'GARDEN', 'HARBOR', 'ISLAND',
     'JOURNEY', 'KINGDOM', 'LEGEND', 'MOUNTAIN', 'NIGHTMARE', 'ORCHARD', 'PIRATE', 'QUEST', 'ROCKET', 'SECRET',
     'TEMPLE', 'UNIVERSE', 'VOYAGE', 'WARRIOR', 'ZEPHYR'][1 + (11 * (k // 20) + 3 * (k % 20)) % 25] AS title,
    1990 + (k * 11) % 35 AS release_year,
    ['PG-13', 'G', 'PG', 'R', 'NC-17'][1 + (k * 3) % 5] AS rating,
    CAST([2.99, 0.99, 4.99][1 + k % 3] AS DECIMAL(4,2)) AS rental_rate,
    46 + ((k + 1) * 53) % 140 AS length
FROM (SELECT CAST(range AS INTEGER) AS k FROM range(0, 300)) AS films
ORDER BY film_id;

CREATE TABLE customer (
    customer_id INTEGER PRIMARY KEY,
    first_name  VARCHAR NOT NULL,
    last_name   VARCHAR NOT NULL,
    email       VARCHAR NOT NULL,
    active      BOOLEAN NOT NULL,
    created_at  TIMESTAMP NOT NULL
);

INSERT INTO customer
SELECT
    i AS customer_id,
    first_name,
    last_name,
    lower(first_name) || '.' || lower(last_name) || '.' || i || '@example.com' AS email,
    i % 17 <> 0 AS active,
    TIMESTAMP '2023-01-01 09:00:00' + to_days((i * 97) % 365) + to_minutes((i * 41) % 600) AS created_at
FROM (
    SELECT
        i,
        ['MARY', 'JOHN', 'PATRICIA', 'ROBERT', 'LINDA', 'MICHAEL', 'BARBARA', 'WILLIAM', 'ELIZABETH', 'DAVID',
         'JENNIFER', 'RICHARD', 'MARIA', 'JOSEPH', 'SUSAN', 'THOMAS', 'MARGARET', 'CHARLES', 'DOROTHY', 'DANIEL'][1 + (i - 1) % 20]
            AS first_name,
        ['NGUYEN', 'SMITH', 'GARCIA', 'MUELLER', 'ROSSI', 'TANAKA', 'DUBOIS', 'KOWALSKI', 'SILVA', 'OKAFOR',
         'JOHANSSON', 'PATEL', 'KIM', 'LOPEZ', 'MARTIN', 'WANG', 'NOVAK', 'EVANS', 'COHEN', 'IVANOV'][1 + ((i - 1) * 7) % 20]
            AS last_name
    FROM (SELECT CAST(range AS INTEGER) AS i FROM range(1, 201)) AS ids
) AS people
ORDER BY customer_id;

CREATE TABLE rental (
    rental_id   INTEGER PRIMARY KEY,
    film_id     INTEGER NOT NULL REFERENCES film (film_id),
    customer_id INTEGER NOT NULL REFERENCES customer (customer_id),
    rental_date TIMESTAMP NOT NULL,
    return_date TIMESTAMP,
    amount      DECIMAL(6,2) NOT NULL
);

INSERT INTO rental
SELECT
    r.i AS rental_id,
    r.film_id,
    r.customer_id,
    r.rental_date,
    CASE WHEN r.i % 23 = 0 THEN NULL
         ELSE r.rental_date + to_days(1 + (r.i * 11) % 7) + to_minutes((r.i * 17) % 600) END AS return_date,
    CAST(f.rental_rate * (1 + r.i % 3) AS DECIMAL(6,2)) AS amount
FROM (
    SELECT
        i,
        1 + (i * 7919) % 300 AS film_id,
        1 + (i * 13) % 200 AS customer_id,
        TIMESTAMP '2024-01-01 10:00:00' + to_days((i * 37) % 366) + to_minutes((i * 131) % 720) AS rental_date
    FROM (SELECT CAST(range AS INTEGER) AS i FROM range(1, 5001)) AS ids
) AS r
JOIN film AS f ON f.film_id = r.film_id
ORDER BY rental_id;
