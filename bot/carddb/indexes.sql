-- Built after the rows are in: one sort instead of an index update per row.
CREATE INDEX cards_id ON cards(id);
CREATE INDEX cards_norm ON cards(norm);
CREATE INDEX names_norm ON names(norm);
CREATE INDEX name_tails_tail ON name_tails(tail);
CREATE INDEX cycling_kinds_kind ON cycling_kinds(kind, card);
CREATE INDEX rulings_oracle ON rulings(oracle_id, published_at);
CREATE INDEX cards_oracle ON cards(oracle_id);
CREATE INDEX search_cards_set ON search_cards(set_code);
ANALYZE;
