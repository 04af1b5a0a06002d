-- Core tables: small key/value settings (such as the command-sync hash).
-- The schema version is kept in the schema_version table, set with each migration.
CREATE TABLE IF NOT EXISTS meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

-- Scryfall's rate limits, shared by every process using this database: the earliest time (epoch seconds,
-- the server's clock) the next request of a class may leave, and until when a 429 silenced the class.
CREATE TABLE IF NOT EXISTS scryfall_budget (
    klass         TEXT PRIMARY KEY,
    next_at       DOUBLE PRECISION NOT NULL DEFAULT 0,
    paused_until  DOUBLE PRECISION NOT NULL DEFAULT 0
);
INSERT INTO scryfall_budget (klass) VALUES ('search'), ('other') ON CONFLICT (klass) DO NOTHING;
