"""Configuration comes from the environment; the token never shows itself."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_SCRYFALL_API_URL, Config, RedactingFormatter
from bot.errors import ConfigError


def test_defaults():
    config = Config.from_env({})
    assert config.token is None
    assert config.data_dir == Path("data")
    assert config.scryfall_api_url == DEFAULT_SCRYFALL_API_URL
    assert config.rules_file is None and config.guild_id is None
    assert config.log_level == "INFO" and config.inline_cards is False


def test_every_setting_is_read():
    config = Config.from_env(
        {
            "DISCORD_TOKEN": " abc.def ",
            "BOT_DATA_DIR": "/srv/bot",
            "SCRYFALL_API_URL": "http://127.0.0.1:8080/",
            "RULES_FILE": "cr.txt",
            "RULES_URL": "http://127.0.0.1/cr.txt",
            "DISCORD_GUILD_ID": "123456789012345678",
            "LOG_LEVEL": "debug",
            "INLINE_CARDS": "1",
        }
    )
    assert config.token == "abc.def"
    assert config.data_dir == Path("/srv/bot")
    assert config.scryfall_api_url == "http://127.0.0.1:8080"
    assert config.rules_file == Path("cr.txt")
    assert config.rules_url == "http://127.0.0.1/cr.txt"
    assert config.guild_id == 123456789012345678
    assert config.log_level == "DEBUG" and config.inline_cards is True


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DISCORD_GUILD_ID", "@everyone"),
        ("LOG_LEVEL", "LOUD"),
        ("INLINE_CARDS", "maybe"),
        ("SCRYFALL_API_URL", "ftp://scryfall"),
    ],
)
def test_invalid_values_are_refused_with_their_name(name, value):
    with pytest.raises(ConfigError, match=name):
        Config.from_env({name: value})


def test_missing_token_is_a_config_error():
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        Config.from_env({}).require_token()


def test_token_never_appears_in_repr_or_str_of_the_config():
    config = Config.from_env({"DISCORD_TOKEN": "super.secret.token"})
    assert "super.secret.token" not in repr(config)
    assert "super.secret.token" not in str(config)
    assert "super.secret.token" not in repr(config.token)


def test_redacting_formatter_hides_the_token_in_log_records():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "token is %s", ("super.secret",), None)
    assert RedactingFormatter("%(message)s", ("super.secret",)).format(record) == "token is [redacted]"


def test_interaction_tokens_and_message_text_are_redacted_even_in_tracebacks():
    payload = {"t": "INTERACTION_CREATE", "d": {"token": "aW50ZXJhY3Rpb24", "message": {"content": "it's my deck"}}}
    url = "/api/v10/webhooks/1234/aW50ZXJhY3Rpb24/messages/@original"
    try:
        raise RuntimeError("POST /api/v10/interactions/99/aW50ZXJhY3Rpb24/callback failed")
    except RuntimeError:
        record = logging.LogRecord("x", logging.DEBUG, __file__, 1, "event %s at %s", (payload, url), sys.exc_info())
    line = RedactingFormatter("%(message)s").format(record)
    assert "aW50ZXJhY3Rpb24" not in line and "my deck" not in line
    assert "INTERACTION_CREATE" in line and "/webhooks/1234/[redacted]/messages" in line
    assert "RuntimeError" in line and "/interactions/99/[redacted]/callback" in line


def test_goldfish_reviews_are_on_from_the_environment_unless_switched_off():
    assert Config.from_env({}).goldfish_reviews is True
    assert Config.from_env({"GOLDFISH_REVIEWS": "0"}).goldfish_reviews is False
    assert Config().goldfish_reviews is False  # a Config built in code asks for the background work
