-- Goldfish results: one row a finished game (won, lost, or ended by hand) per player, for the trend that
-- /goldfish stats show gives (median kill turn per deck over recent games). /goldfish stats forget deletes them.
-- game_id is the channel id and the game's creation time, so a game recorded twice (ended after an undo) keeps one row.
CREATE TABLE IF NOT EXISTS goldfish_results (
    user_id       INTEGER NOT NULL,
    game_id       TEXT NOT NULL,
    deck_key      TEXT NOT NULL,
    deck_name     TEXT NOT NULL,
    result        TEXT NOT NULL CHECK (result IN ('won', 'lost', 'stopped')),
    turns         INTEGER NOT NULL,
    cards_cycled  INTEGER NOT NULL,
    ended_at      TEXT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);

CREATE INDEX IF NOT EXISTS goldfish_results_recent ON goldfish_results (user_id, ended_at);
