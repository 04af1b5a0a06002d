-- Goldfish games: one game a channel, its state as JSON text, guarded by a version number
-- (every write is UPDATE ... WHERE channel_id = $1 AND version = $2, so a stale write changes nothing).
-- Discord IDs are 64-bit: BIGINT. Timestamps are text in the same form as in SQLite.
CREATE TABLE IF NOT EXISTS goldfish_games (
    channel_id  BIGINT PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    owner_id    BIGINT NOT NULL,
    shared      INTEGER NOT NULL DEFAULT 0 CHECK (shared IN (0, 1)),
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    state       TEXT NOT NULL CHECK (state::json IS NOT NULL),
    created_at  TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    updated_at  TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
);

CREATE INDEX IF NOT EXISTS goldfish_games_guild ON goldfish_games (guild_id);

-- Per-player totals, updated in the same transaction as the game write that caused them.
-- /goldfish stats forget deletes the player's row.
CREATE TABLE IF NOT EXISTS goldfish_stats (
    user_id               BIGINT PRIMARY KEY,
    games                 BIGINT NOT NULL DEFAULT 0,
    cards_cycled          BIGINT NOT NULL DEFAULT 0,
    typecycling_searches  BIGINT NOT NULL DEFAULT 0,
    turns                 BIGINT NOT NULL DEFAULT 0,
    longest_game          BIGINT NOT NULL DEFAULT 0,
    updated_at            TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
);
