-- Goldfish games keyed by channel and player: each player can have their own game in a channel, beside the
-- channel's shared game (player_id 0), which anyone there can play. A game from before is its owner's game in its
-- channel, or the channel's shared game if it was shared, so everyone finds it where they did.
ALTER TABLE goldfish_games ADD COLUMN player_id BIGINT;
UPDATE goldfish_games SET player_id = CASE WHEN shared = 1 THEN 0 ELSE owner_id END;
ALTER TABLE goldfish_games ALTER COLUMN player_id SET NOT NULL;
ALTER TABLE goldfish_games DROP CONSTRAINT goldfish_games_pkey;
ALTER TABLE goldfish_games ADD PRIMARY KEY (channel_id, player_id);
ALTER TABLE goldfish_games ADD CONSTRAINT goldfish_games_player CHECK (player_id >= 0 AND (shared = 1) = (player_id = 0));
