-- How goldfish tables are shown: a player's choice for their own games (scope 'user') and a server's for
-- every game in it (scope 'guild'); pictures 0 means text only. No row: the default, pictures on.
CREATE TABLE IF NOT EXISTS goldfish_views (
    scope       TEXT NOT NULL CHECK (scope IN ('user', 'guild')),
    subject_id  BIGINT NOT NULL,
    pictures    INTEGER NOT NULL CHECK (pictures IN (0, 1)),
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (scope, subject_id)
);
