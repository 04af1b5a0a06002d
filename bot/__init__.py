"""Cyclebot: a Discord bot for Magic: The Gathering players."""

__version__ = "0.1.0"
BOT_NAME = "Cyclebot"
