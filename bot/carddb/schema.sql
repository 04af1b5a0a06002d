-- The local card database: one file, built whole by the importer and swapped in atomically,
-- then only ever read. There are no migrations: a new format is a new import.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE cards (
    rowid            INTEGER PRIMARY KEY,
    id               TEXT NOT NULL,      -- Scryfall's id of the card object
    oracle_id        TEXT,
    name             TEXT NOT NULL,
    norm             TEXT NOT NULL,      -- bot.text.normalise(name)
    layout           TEXT NOT NULL,
    extra            TEXT,               -- why it is not a real card (token, playtest...), NULL for a real card
    mana_cost        TEXT,
    type_line        TEXT,
    oracle_text      TEXT,
    keywords         TEXT NOT NULL,      -- JSON array
    power            TEXT,
    toughness        TEXT,
    loyalty          TEXT,
    colors           TEXT NOT NULL,      -- JSON array (of every face for multi-faced cards)
    color_identity   TEXT NOT NULL,      -- JSON array
    legalities       TEXT NOT NULL,      -- JSON object
    prices           TEXT NOT NULL,      -- JSON object, as of meta.prices_date
    image_uris       TEXT,               -- JSON object (the front face's for double-faced cards)
    faces            TEXT NOT NULL,      -- JSON array of the faces' own fields, empty for one face
    set_code         TEXT NOT NULL,
    set_name         TEXT,
    collector_number TEXT,
    rarity           TEXT,
    scryfall_uri     TEXT,
    released_at      TEXT,
    cycling          TEXT NOT NULL,      -- JSON array of bot.cycling abilities
    -- raw: the card object as Scryfall sent it, JSON, zlib-compressed.
    -- Format 3 added the last three (a format 2 copy gains them in place: bot.carddb.migrate): games, the JSON
    -- array of this printing's games ("paper", "arena", "mtgo"...); digital, whether this printing is online
    -- only; digital_only, whether the card itself exists only online (names.is_digital_only).
    raw              BLOB NOT NULL,
    games            TEXT NOT NULL DEFAULT '[]',
    digital          INTEGER NOT NULL DEFAULT 0,
    digital_only     INTEGER NOT NULL DEFAULT 0
);

-- Every name a card answers to: its full name (is_face 0) and each face's name (is_face 1).
CREATE TABLE names (
    norm    TEXT NOT NULL,
    card    INTEGER NOT NULL REFERENCES cards(rowid),
    is_face INTEGER NOT NULL
);

-- Every name from each of its words on ("bolt" for "lightning bolt"), for autocomplete.
CREATE TABLE name_tails (
    tail TEXT NOT NULL,
    card INTEGER NOT NULL REFERENCES cards(rowid)
);

CREATE TABLE cycling_kinds (
    kind TEXT NOT NULL,
    card INTEGER NOT NULL REFERENCES cards(rowid)
);

-- Scryfall's rulings (its rulings bulk file), for the cards imported: one row per ruling.
CREATE TABLE rulings (
    oracle_id    TEXT NOT NULL,
    source       TEXT NOT NULL,      -- "wotc" or "scryfall"
    published_at TEXT NOT NULL,
    comment      TEXT NOT NULL
);

-- What /search tests (bot.carddb.query.facts): one narrow row a card, numbers of each face of a
-- multi-faced card, Oracle text in tables of its own, legalities as bit masks, so a query scans a few
-- megabytes and never decodes JSON.
CREATE TABLE search_cards (
    rowid        INTEGER PRIMARY KEY,  -- cards.rowid
    norm         TEXT NOT NULL,
    name         TEXT NOT NULL,        -- lower case; then each face's name, a line each
    extra        TEXT,
    layout       TEXT NOT NULL,
    set_code     TEXT NOT NULL,
    rarity       INTEGER NOT NULL,     -- vocab.RARITIES
    cmc          REAL NOT NULL,
    colors       INTEGER NOT NULL,     -- bit mask, vocab.COLOUR_BITS
    identity     INTEGER NOT NULL,
    color_order  INTEGER NOT NULL,
    power        REAL,                 -- the front face's; the others' in search_faces
    toughness    REAL,
    loyalty      REAL,
    defense      REAL,
    types        TEXT NOT NULL,        -- each face's type line, lower case, a line each
    mana_cost    TEXT NOT NULL,        -- the front face's
    released     TEXT NOT NULL,
    usd          REAL,
    eur          REAL,
    tix          REAL,
    edhrec       INTEGER,
    flags        INTEGER NOT NULL,     -- vocab.FLAG_BITS
    keywords     TEXT NOT NULL,        -- lower case, a line each, with a line break before and after
    legal        INTEGER NOT NULL,     -- formats where legal or restricted, a bit each (meta.formats)
    banned       INTEGER NOT NULL,
    restricted   INTEGER NOT NULL,
    produces     INTEGER NOT NULL      -- the mana it can make: colour bits, and 32 for colourless
);

-- Each face of a multi-faced card (a card of one face has none here).
CREATE TABLE search_faces (
    card      INTEGER NOT NULL,
    mana_cost TEXT NOT NULL,
    power     REAL,
    toughness REAL,
    loyalty   REAL,
    defense   REAL,
    cmc       REAL NOT NULL
);

-- Oracle text, lower case, each face's a line: without reminder text, the same with the card's own
-- name as ~, and whole (for fo:). A card without text has no row.
CREATE TABLE search_oracle (rowid INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE search_tilde (rowid INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE search_full (rowid INTEGER PRIMARY KEY, text TEXT NOT NULL);
