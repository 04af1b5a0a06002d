"""Exceptions whose message is meant for the person who asked."""


class UserFacingError(Exception):
    """An error whose text is safe and useful to show to the user as it is."""


class ConfigError(Exception):
    """The bot's configuration is missing or invalid."""
