-- Core tables: small key/value settings (such as the command-sync hash).
-- The schema version is PRAGMA user_version, set with each migration.
CREATE TABLE IF NOT EXISTS meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
