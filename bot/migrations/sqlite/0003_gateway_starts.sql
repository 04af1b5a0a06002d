-- Nothing to keep here: a SQLite database serves one process, which spaces its own gateway session
-- starts. PostgreSQL's 0003 adds the table that processes sharing a database take turns from.
SELECT 1;
