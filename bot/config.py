"""Typed configuration, read once from the environment (and an optional .env file)."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from bot.errors import ConfigError

DEFAULT_SCRYFALL_API_URL = "https://api.scryfall.com"
# Wizards' page linking the current Magic Tournament Rules and Infraction Procedure Guide.
DEFAULT_JUDGE_DOCS_URL = "https://wpn.wizards.com/en/rules-documents"
# Where decks linked from these sites are read (a player's link always names the site itself).
DEFAULT_ARCHIDEKT_URL = "https://archidekt.com"
DEFAULT_TAPPEDOUT_URL = "https://tappedout.net"
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"", "0", "false", "no", "off"})
DATABASE_SCHEMES = ("postgresql://", "postgres://")
DEFAULT_RULES_LLM_TIMEOUT = 5.0
# An answer waits on the model at most this long: Discord shows "thinking…" meanwhile, and people stop waiting.
MAX_RULES_LLM_TIMEOUT = 60.0


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


def _id_list(environ: Mapping[str, str], name: str) -> frozenset[int]:
    """Discord IDs separated by commas or spaces (``123,456``); empty when unset."""
    parts = environ.get(name, "").replace(",", " ").split()
    if not all(part.isdigit() for part in parts):
        raise ConfigError(f"{name} must be Discord IDs separated by commas (got {environ.get(name)!r})")
    return frozenset(int(part) for part in parts)


def _database_url(environ: Mapping[str, str]) -> Secret | None:
    value = environ.get("DATABASE_URL", "").strip()
    if not value:
        return None
    if not value.startswith(DATABASE_SCHEMES):
        scheme = value.split("://", 1)[0] if "://" in value else "no scheme"
        # Only the scheme: the rest may hold a password.
        raise ConfigError(
            f"DATABASE_URL must start with postgresql:// (got {scheme!r}); leave it unset to keep the data in "
            "SQLite in BOT_DATA_DIR"
        )
    return Secret(value)


def redact_database_url(url: str) -> str:
    """``url`` with its password replaced by ``***``: what logs and status pages may show."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _optional_url(environ: Mapping[str, str], name: str, schemes: tuple[str, ...]) -> str | None:
    value = environ.get(name, "").strip().rstrip("/")
    if value and not value.startswith(schemes):
        raise ConfigError(f"{name} must start with {' or '.join(schemes)} (got {value!r})")
    return value or None


def _rules_llm(environ: Mapping[str, str]) -> dict:
    """RULES_LLM_URL, RULES_LLM_MODEL, RULES_LLM_KEY and RULES_LLM_TIMEOUT: the optional model that picks."""
    url = _optional_url(environ, "RULES_LLM_URL", ("http://", "https://"))
    model = environ.get("RULES_LLM_MODEL", "").strip() or None
    key = environ.get("RULES_LLM_KEY", "").strip()
    timeout_text = environ.get("RULES_LLM_TIMEOUT", "").strip()
    try:
        timeout = float(timeout_text) if timeout_text else DEFAULT_RULES_LLM_TIMEOUT
    except ValueError:
        timeout = -1.0
    if not 0 < timeout <= MAX_RULES_LLM_TIMEOUT:
        raise ConfigError(
            f"RULES_LLM_TIMEOUT must be seconds, more than 0 and at most {MAX_RULES_LLM_TIMEOUT:g} "
            f"(got {timeout_text!r})"
        )
    if url and not model:
        raise ConfigError("RULES_LLM_URL needs RULES_LLM_MODEL, the name of the model the endpoint serves")
    return {
        "rules_llm_url": url,
        "rules_llm_model": model if url else None,
        "rules_llm_key": Secret(key) if key else None,
        "rules_llm_timeout": timeout,
    }


def _shards(environ: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0-1", "0,2", "3"): how many shards the bot has in all, and which run here."""
    count_text, ids_text = environ.get("SHARD_COUNT", "").strip(), environ.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError(f"SHARD_IDS needs SHARD_COUNT, the number of shards in all processes (got {ids_text!r})")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards, 1 or more (got {count_text!r})")
    count = int(count_text)
    if not ids_text:
        return count, tuple(range(count))
    ids: list[int] = []
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise ConfigError(f"SHARD_IDS must be shard numbers like 0-1 or 0,2 (got {ids_text!r})")
        ids.extend(range(int(first), int(last if dash else first) + 1))
    if not ids or len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS must name each shard once (got {ids_text!r})")
    if max(ids) >= count:
        raise ConfigError(f"SHARD_IDS must be between 0 and {count - 1} for SHARD_COUNT={count} (got {ids_text!r})")
    return count, tuple(sorted(ids))


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
    # Where the judges' documents (MTR, IPG) are found, and whether to keep them current (daily); like the rules,
    # on by default from the environment, off for a Config built in code.
    judge_docs_url: str = DEFAULT_JUDGE_DOCS_URL
    judge_docs_auto_update: bool = False
    archidekt_url: str = DEFAULT_ARCHIDEKT_URL
    tappedout_url: str = DEFAULT_TAPPEDOUT_URL
    guild_id: int | None = None
    # The shards this process runs (shard_ids) out of the bot's shard_count. From the environment, neither set
    # means every shard Discord recommends (shard_count None: asked at start); a Config built in code runs one
    # shard and asks Discord nothing.
    shard_count: int | None = 1
    shard_ids: tuple[int, ...] | None = None
    log_level: str = "INFO"
    inline_cards: bool = False
    # Channels where inline [[card]] stays quiet: another card bot answers the same syntax there.
    inline_quiet_channels: frozenset[int] = frozenset()
    # Keep the local copy of Scryfall's card data fresh (at start, then every 12 hours). On by default
    # from the environment; a Config built in code (embedding, tests) reaches for the network only if asked.
    card_data_auto_update: bool = False
    # The languages whose printed names cards answer to besides English (CARD_LANGUAGES: "all" or Scryfall's codes,
    # as written; words naming no language are said once in the log at start and ignored). Empty: English only.
    card_languages: tuple[str, ...] = ()
    # Review every finished goldfish game in the background (seconds of the simulation pool's time each). On by
    # default from the environment; a Config built in code (embedding, tests) asks for it.
    goldfish_reviews: bool = False
    # Show mana symbols as the application's emoji (made once from Scryfall's symbology and uploaded to Discord).
    # On by default from the environment (MANA_EMOJI); a Config built in code reaches for neither unless asked.
    mana_emoji: bool = False
    # Advanced: where discord.py finds Discord's REST API and gateway (a proxy, or a fake in tests).
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    # PostgreSQL shared by several processes (postgresql://user:password@host:port/db); unset: SQLite in data_dir.
    database_url: Secret | None = field(default=None, repr=False)
    # An operator's language model behind an OpenAI-compatible chat endpoint, asked to pick among the ranking's
    # rules (bot/rules/ranking/picker.py). Unset: no request is ever made.
    rules_llm_url: str | None = None
    rules_llm_model: str | None = None
    rules_llm_key: Secret | None = field(default=None, repr=False)
    rules_llm_timeout: float = DEFAULT_RULES_LLM_TIMEOUT

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
        shard_count, shard_ids = _shards(environ)
        discord_api_base = _optional_url(environ, "DISCORD_API_BASE", ("http://", "https://"))
        discord_gateway_url = _optional_url(environ, "DISCORD_GATEWAY_URL", ("ws://", "wss://"))
        return cls(
            token=Secret(token) if token else None,
            data_dir=Path(environ.get("BOT_DATA_DIR", "").strip() or "data"),
            scryfall_api_url=api_url,
            rules_file=Path(rules_file) if rules_file else None,
            rules_url=environ.get("RULES_URL", "").strip() or None,
            rules_auto_update=_flag(environ, "RULES_AUTO_UPDATE", default=True),
            judge_docs_url=_optional_url(environ, "JUDGE_DOCS_URL", ("http://", "https://")) or DEFAULT_JUDGE_DOCS_URL,
            judge_docs_auto_update=_flag(environ, "JUDGE_DOCS_AUTO_UPDATE", default=True),
            archidekt_url=_optional_url(environ, "ARCHIDEKT_URL", ("http://", "https://")) or DEFAULT_ARCHIDEKT_URL,
            tappedout_url=_optional_url(environ, "TAPPEDOUT_URL", ("http://", "https://")) or DEFAULT_TAPPEDOUT_URL,
            guild_id=_optional_int(environ, "DISCORD_GUILD_ID"),
            shard_count=shard_count,
            shard_ids=shard_ids,
            log_level=log_level,
            inline_cards=_flag(environ, "INLINE_CARDS"),
            inline_quiet_channels=_id_list(environ, "INLINE_QUIET_CHANNELS"),
            # On unless set to 0: a bot without fresh card data falls back to the rate-limited API.
            card_data_auto_update="CARD_DATA_AUTO_UPDATE" not in environ or _flag(environ, "CARD_DATA_AUTO_UPDATE"),
            card_languages=tuple(environ.get("CARD_LANGUAGES", "").replace(",", " ").split()),
            mana_emoji=_flag(environ, "MANA_EMOJI", default=True),
            goldfish_reviews=_flag(environ, "GOLDFISH_REVIEWS", default=True),
            discord_api_base=discord_api_base,
            discord_gateway_url=discord_gateway_url,
            database_url=_database_url(environ),
            **_rules_llm(environ),
        )

    def require_token(self) -> Secret:
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN is not set. Put the bot token from the Discord Developer Portal "
                "in the environment or in a .env file (see the README)."
            )
        return self.token

    @property
    def shards_elsewhere(self) -> bool:
        """Whether some of the bot's shards run in other processes (SHARD_IDS names only some of them)."""
        return self.shard_ids is not None and set(self.shard_ids) != set(range(self.shard_count or 0))

    @property
    def database_path(self) -> Path:
        return self.data_dir / "bot.sqlite3"

    @property
    def database_label(self) -> str:
        """Where the shared state lives, without the password: for logs, /about and health."""
        if self.database_url:
            return f"PostgreSQL {redact_database_url(str(self.database_url))}"
        return f"SQLite {self.database_path}"

    @property
    def secrets(self) -> tuple[str, ...]:
        """What must never reach a log: the bot token, the database password and the language model's key."""
        found = [str(self.token)] if self.token else []
        if self.rules_llm_key:
            found.append(str(self.rules_llm_key))
        if self.database_url:
            password = urlsplit(str(self.database_url)).password
            if password:
                found += [password, unquote(password)]
        return tuple(found)


# Interaction tokens are credentials for 15 minutes: in webhook and callback URLs, and in gateway payloads.
_TOKEN_IN_URL = re.compile(r"(/(?:webhooks/\d+|interactions/\d+)/)[^/\s?'\"]+")
# A field whose value is a credential or what someone wrote, in JSON ("key": "…") or a Python repr ('key': '…').
_PRIVATE_FIELD = re.compile(
    r"""(?P<key>["'](?:token|content|value)["']\s*:\s*)(?P<q>["'])(?:\\.|(?!(?P=q)).)*(?P=q)""", re.DOTALL
)
REDACTED = "[redacted]"


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` without interaction tokens, message text, option values or any of ``secrets``."""
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    text = _TOKEN_IN_URL.sub(rf"\1{REDACTED}", text)
    return _PRIVATE_FIELD.sub(rf"\g<key>\g<q>{REDACTED}\g<q>", text)


class RedactingFormatter(logging.Formatter):
    """Formats a record, then removes what must never reach a log: the bot token, interaction tokens and the text
    people wrote. It works on the finished line, so tracebacks and any logger's arguments are covered too."""

    def __init__(self, fmt: str, secrets: tuple[str, ...] = ()) -> None:
        super().__init__(fmt)
        self._secrets = tuple(secret for secret in secrets if secret)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self._secrets)


def setup_logging(config: Config) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s", config.secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(config.log_level)
    # Request bodies (discord.http) and every SQL statement with its parameters (aiosqlite) are payloads, not
    # events: a game's whole state, people's text. Their INFO and above still show.
    for noisy in ("discord.http", "aiosqlite", "asyncpg"):
        logging.getLogger(noisy).setLevel(max(logging.INFO, root.level))
