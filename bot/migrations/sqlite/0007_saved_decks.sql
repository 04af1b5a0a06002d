-- Decks players save with /deck save, each private to its player: one row a deck, its name unique per player
-- regardless of case (name_key is the name folded), its count in each section (JSON, for the list and the
-- autocomplete) and the deck itself (JSON: its sections and cards). /deck delete removes them.
CREATE TABLE IF NOT EXISTS saved_decks (
    user_id     INTEGER NOT NULL,
    name_key    TEXT NOT NULL,
    name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    main_count  INTEGER NOT NULL CHECK (main_count >= 0),
    counts      TEXT NOT NULL CHECK (json_valid(counts)),
    deck        TEXT NOT NULL CHECK (json_valid(deck)),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, name_key)
);
