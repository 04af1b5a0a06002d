"""Typed configuration, read once from the environment (and an optional .env file)."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.errors import ConfigError

DEFAULT_SCRYFALL_API_URL = "https://api.scryfall.com"
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"", "0", "false", "no", "off"})


class Secret(str):
    """A string that never shows itself in a repr or a format of the config."""

    def __repr__(self) -> str:
        return "Secret('**********')"


def _flag(environ: Mapping[str, str], name: str, default: bool = False) -> bool:
    value = environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ConfigError(f"{name} must be 1 or 0 (got {value!r})")


def _optional_int(environ: Mapping[str, str], name: str) -> int | None:
    value = environ.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit():
        raise ConfigError(f"{name} must be a number (a Discord ID), got {value!r}")
    return int(value)


def _optional_url(environ: Mapping[str, str], name: str, schemes: tuple[str, ...]) -> str | None:
    value = environ.get(name, "").strip().rstrip("/")
    if value and not value.startswith(schemes):
        raise ConfigError(f"{name} must start with {' or '.join(schemes)} (got {value!r})")
    return value or None


@dataclass(frozen=True)
class Config:
    token: Secret | None = field(default=None, repr=False)
    data_dir: Path = Path("data")
    scryfall_api_url: str = DEFAULT_SCRYFALL_API_URL
    rules_file: Path | None = None
    rules_url: str | None = None
    # Download the full rules in the background when none are configured. RULES_AUTO_UPDATE defaults to on;
    # a Config built in code (tests, tools) stays off the network unless it asks.
    rules_auto_update: bool = False
    guild_id: int | None = None
    log_level: str = "INFO"
    inline_cards: bool = False
    # Advanced: where discord.py finds Discord's REST API and gateway (a proxy, or a fake in tests).
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, load_dotenv: bool = True) -> Config:
        """Build the config from ``environ`` (default: the process environment plus ``.env``)."""
        if environ is None:
            if load_dotenv:
                from dotenv import load_dotenv as _load

                # The .env of the directory the bot is started from; real environment variables win.
                _load(Path.cwd() / ".env", override=False)
            environ = os.environ
        token = environ.get("DISCORD_TOKEN", "").strip()
        log_level = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if log_level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)} (got {log_level!r})")
        api_url = environ.get("SCRYFALL_API_URL", "").strip().rstrip("/") or DEFAULT_SCRYFALL_API_URL
        if not api_url.startswith(("http://", "https://")):
            raise ConfigError(f"SCRYFALL_API_URL must be an http(s) URL (got {api_url!r})")
        rules_file = environ.get("RULES_FILE", "").strip()
        discord_api_base = _optional_url(environ, "DISCORD_API_BASE", ("http://", "https://"))
        discord_gateway_url = _optional_url(environ, "DISCORD_GATEWAY_URL", ("ws://", "wss://"))
        return cls(
            token=Secret(token) if token else None,
            data_dir=Path(environ.get("BOT_DATA_DIR", "").strip() or "data"),
            scryfall_api_url=api_url,
            rules_file=Path(rules_file) if rules_file else None,
            rules_url=environ.get("RULES_URL", "").strip() or None,
            rules_auto_update=_flag(environ, "RULES_AUTO_UPDATE", default=True),
            guild_id=_optional_int(environ, "DISCORD_GUILD_ID"),
            log_level=log_level,
            inline_cards=_flag(environ, "INLINE_CARDS"),
            discord_api_base=discord_api_base,
            discord_gateway_url=discord_gateway_url,
        )

    def require_token(self) -> Secret:
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN is not set. Put the bot token from the Discord Developer Portal "
                "in the environment or in a .env file (see the README)."
            )
        return self.token

    @property
    def database_path(self) -> Path:
        return self.data_dir / "bot.sqlite3"


class RedactingFilter(logging.Filter):
    """Replaces a secret wherever it would appear in a log record, should anything ever log it."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self._secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self._secret in message:
            record.msg = message.replace(self._secret, "[redacted]")
            record.args = None
        return True


def setup_logging(config: Config) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s"))
    if config.token:
        handler.addFilter(RedactingFilter(str(config.token)))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(config.log_level)
    logging.getLogger("discord.http").setLevel(max(logging.INFO, root.level))
