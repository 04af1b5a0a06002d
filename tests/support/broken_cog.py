"""A test-only extension that cannot load."""

raise ImportError("this extension is broken on purpose")
