"""Helpers for the tests: fakes of the services the bot talks to, and test-only extensions."""
