"""Card lookups and cycling searches: rendering, query building and inline references, free of Discord."""
