-- The trace a call was part of (32 hex digits), when tracing is on; NULL otherwise.
ALTER TABLE events ADD COLUMN trace_id VARCHAR(32);
ALTER TABLE run_history ADD COLUMN trace_id VARCHAR(32);
