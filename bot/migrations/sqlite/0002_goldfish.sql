-- Goldfish games: one game a channel, its state as JSON, guarded by a version number
-- (every write is UPDATE ... WHERE channel_id = ? AND version = ?, so a stale write changes nothing).
CREATE TABLE IF NOT EXISTS goldfish_games (
    channel_id  INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    owner_id    INTEGER NOT NULL,
    shared      INTEGER NOT NULL DEFAULT 0 CHECK (shared IN (0, 1)),
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    state       TEXT NOT NULL CHECK (json_valid(state)),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE INDEX IF NOT EXISTS goldfish_games_guild ON goldfish_games (guild_id);

-- Per-player totals, updated in the same transaction as the game write that caused them.
-- /goldfish stats forget deletes the player's row.
CREATE TABLE IF NOT EXISTS goldfish_stats (
    user_id               INTEGER PRIMARY KEY,
    games                 INTEGER NOT NULL DEFAULT 0,
    cards_cycled          INTEGER NOT NULL DEFAULT 0,
    typecycling_searches  INTEGER NOT NULL DEFAULT 0,
    turns                 INTEGER NOT NULL DEFAULT 0,
    longest_game          INTEGER NOT NULL DEFAULT 0,
    updated_at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
