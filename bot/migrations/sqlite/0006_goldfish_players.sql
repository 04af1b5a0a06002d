-- Goldfish games keyed by channel and player: each player can have their own game in a channel, beside the
-- channel's shared game (player_id 0), which anyone there can play. A game from before is its owner's game in its
-- channel, or the channel's shared game if it was shared, so everyone finds it where they did.
-- SQLite can't change a primary key in place: the table is built again and the rows copied.
CREATE TABLE goldfish_games_by_player (
    channel_id  INTEGER NOT NULL,
    player_id   INTEGER NOT NULL CHECK (player_id >= 0),
    guild_id    INTEGER NOT NULL,
    owner_id    INTEGER NOT NULL,
    shared      INTEGER NOT NULL DEFAULT 0 CHECK (shared IN (0, 1)),
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    state       TEXT NOT NULL CHECK (json_valid(state)),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (channel_id, player_id),
    CHECK ((shared = 1) = (player_id = 0))
);

INSERT INTO goldfish_games_by_player
    (channel_id, player_id, guild_id, owner_id, shared, version, state, created_at, updated_at)
SELECT channel_id, CASE WHEN shared = 1 THEN 0 ELSE owner_id END, guild_id, owner_id, shared, version, state,
       created_at, updated_at
FROM goldfish_games;

DROP TABLE goldfish_games;
ALTER TABLE goldfish_games_by_player RENAME TO goldfish_games;
CREATE INDEX IF NOT EXISTS goldfish_games_guild ON goldfish_games (guild_id);
