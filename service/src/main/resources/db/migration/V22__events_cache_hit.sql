-- Whether a call was answered from the response cache: 1 for a hit, NULL otherwise (GET /api/v1/history/summary
-- counts them).
ALTER TABLE events ADD COLUMN cache_hit SMALLINT;
