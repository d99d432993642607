SELECT f.film_id, f.title, f.release_year, f.rating, f.rental_rate, f.length,
       count(r.rental_id) AS rentals
FROM film f LEFT JOIN rental r ON r.film_id = f.film_id
WHERE f.film_id = ?
GROUP BY ALL
