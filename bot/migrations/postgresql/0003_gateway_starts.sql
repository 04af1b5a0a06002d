-- Discord's session start limit, shared by every process using this database: for each bucket
-- (shard id % max_concurrency), the earliest time (epoch seconds, the server's clock) its next
-- gateway session may start (see bot/storage/starts.py).
CREATE TABLE IF NOT EXISTS gateway_starts (
    bucket   INTEGER PRIMARY KEY,
    next_at  DOUBLE PRECISION NOT NULL DEFAULT 0
);
