-- The example APIs' database (POST /api/v1/examples): a small film-rental shop, like the Python original's
-- examples.db, for DuckDB. Run once by the duckdb dialect through `duckdb.init_script` when the file does not exist.
-- Rentals are dated relative to the moment it runs (the last 120 days), so the "today" and "overdue" queries always
-- have something to show; every other value comes from integer arithmetic, so each run makes the same rows.
--
--   category 6, film 60, customer 200, address 200, store 3, staff 6, rental 20000, payment 20000

CREATE TABLE category (
    category_id INTEGER PRIMARY KEY,
    name        VARCHAR NOT NULL
);
INSERT INTO category VALUES (1, 'Action'), (2, 'Comedy'), (3, 'Documentary'), (4, 'Drama'), (5, 'Family'),
    (6, 'Sci-Fi');

CREATE TABLE film (
    film_id     INTEGER PRIMARY KEY,
    title       VARCHAR NOT NULL,
    category    VARCHAR NOT NULL,
    rating      VARCHAR NOT NULL,
    length      INTEGER NOT NULL,
    rental_rate DECIMAL(4,2) NOT NULL
);
INSERT INTO film
SELECT i,
       ['Crimson', 'Silent', 'Golden', 'Hidden', 'Electric', 'Midnight', 'Broken', 'Wild', 'Frozen', 'Distant'][1 + (i - 1) % 10]
           || ' ' || ['Harbor', 'Garden', 'Signal', 'Voyage', 'Mirror', 'Orchard', 'Citadel', 'Horizon', 'Lantern', 'Meadow'][1 + (i - 1) // 10],
       ['Action', 'Comedy', 'Documentary', 'Drama', 'Family', 'Sci-Fi'][1 + i % 6],
       ['G', 'PG', 'PG-13', 'R'][1 + (i * 7) % 4],
       70 + (i * 37) % 101,
       [0.99, 1.99, 2.99, 3.99][1 + (i * 11) % 4]
FROM range(1, 61) t(i);

CREATE TABLE customer (
    customer_id INTEGER PRIMARY KEY,
    first_name  VARCHAR NOT NULL,
    last_name   VARCHAR NOT NULL,
    email       VARCHAR NOT NULL,
    country     VARCHAR NOT NULL
);
INSERT INTO customer
SELECT i, f, l, lower(f || '.' || l || i || '@example.com'), c
FROM (SELECT i,
             ['Ava', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Isla', 'Jonas', 'Kira', 'Liam'][1 + (i * 5) % 12] AS f,
             ['Adams', 'Brooks', 'Chen', 'Diaz', 'Evans', 'Fischer', 'Gupta', 'Hughes', 'Ito', 'Jensen', 'Khan', 'Lopez'][1 + (i * 7) % 12] AS l,
             ['Australia', 'Brazil', 'Canada', 'Germany', 'India', 'Japan', 'Kenya', 'Norway', 'Spain', 'USA'][1 + (i * 3) % 10] AS c
      FROM range(1, 201) t(i));

CREATE TABLE address (
    address_id  INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customer (customer_id),
    city        VARCHAR NOT NULL,
    country     VARCHAR NOT NULL
);
INSERT INTO address
SELECT i, i,
       ['Sydney', 'Sao Paulo', 'Toronto', 'Berlin', 'Mumbai', 'Osaka', 'Nairobi', 'Oslo', 'Madrid', 'Austin'][1 + (i * 3) % 10],
       ['Australia', 'Brazil', 'Canada', 'Germany', 'India', 'Japan', 'Kenya', 'Norway', 'Spain', 'USA'][1 + (i * 3) % 10]
FROM range(1, 201) t(i);

CREATE TABLE store (
    store_id INTEGER PRIMARY KEY,
    city     VARCHAR NOT NULL,
    country  VARCHAR NOT NULL
);
INSERT INTO store VALUES (1, 'Toronto', 'Canada'), (2, 'Berlin', 'Germany'), (3, 'Austin', 'USA');

CREATE TABLE staff (
    staff_id   INTEGER PRIMARY KEY,
    first_name VARCHAR NOT NULL,
    last_name  VARCHAR NOT NULL,
    store_id   INTEGER NOT NULL REFERENCES store (store_id)
);
INSERT INTO staff VALUES (1, 'Grace', 'Ito', 1), (2, 'Dev', 'Khan', 1), (3, 'Jonas', 'Fischer', 2),
    (4, 'Elena', 'Diaz', 2), (5, 'Hiro', 'Brooks', 3), (6, 'Ava', 'Lopez', 3);

CREATE TABLE rental (
    rental_id   INTEGER PRIMARY KEY,
    film_id     INTEGER NOT NULL REFERENCES film (film_id),
    customer_id INTEGER NOT NULL REFERENCES customer (customer_id),
    rental_date TIMESTAMP NOT NULL,
    return_date TIMESTAMP,
    amount      DECIMAL(6,2) NOT NULL
);
-- popular films exist without one dwarfing the rest: film ids skew low
INSERT INTO rental
SELECT r.i, r.film_id, r.customer_id, r.rented,
       CASE WHEN r.rented + to_days(1 + r.i % 6) > now()::TIMESTAMP OR r.i % 100 = 0 THEN NULL
            ELSE r.rented + to_days(1 + r.i % 6) END,
       f.rental_rate
FROM (SELECT i,
             1 + CAST(floor(60 * power(((i * 7919) % 10007) / 10007.0, 1.6)) AS INTEGER) AS film_id,
             1 + (i * 104729) % 200 AS customer_id,
             date_trunc('second', now()::TIMESTAMP - to_seconds((i * 15485863) % (120 * 86400))) AS rented
      FROM range(1, 20001) t(i)) r
JOIN film f ON f.film_id = r.film_id;

CREATE TABLE payment (
    payment_id   INTEGER PRIMARY KEY,
    rental_id    INTEGER NOT NULL REFERENCES rental (rental_id),
    staff_id     INTEGER NOT NULL REFERENCES staff (staff_id),
    amount       DECIMAL(6,2) NOT NULL,
    payment_date TIMESTAMP NOT NULL
);
INSERT INTO payment SELECT rental_id, rental_id, 1 + (rental_id * 13) % 6, amount, rental_date FROM rental;
