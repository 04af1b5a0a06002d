"""DATABASE_URL: only PostgreSQL URLs, and the password never shows (config repr, labels, logs, errors)."""

from __future__ import annotations

import logging

import pytest

from bot.config import Config, RedactingFormatter
from bot.errors import ConfigError

URL = "postgresql://cyclebot:s3cr%40t-pass@db.example:5432/cyclebot"


def test_without_database_url_the_bot_keeps_sqlite_in_the_data_dir(tmp_path):
    config = Config.from_env({"BOT_DATA_DIR": str(tmp_path)}, load_dotenv=False)
    assert config.database_url is None
    assert config.database_label == f"SQLite {tmp_path / 'bot.sqlite3'}"


@pytest.mark.parametrize("url", [URL, "postgres://bot@localhost/cyclebot"])
def test_a_postgresql_url_is_taken_and_shown_without_its_password(url):
    config = Config.from_env({"DATABASE_URL": f"  {url} "}, load_dotenv=False)
    assert config.database_url == url
    assert "s3cr" not in repr(config) and "s3cr" not in config.database_label
    assert config.database_label.startswith("PostgreSQL postgres")


def test_the_label_names_the_server_and_user_but_not_the_password():
    label = Config(database_url=URL).database_label
    assert label == "PostgreSQL postgresql://cyclebot:***@db.example:5432/cyclebot"


@pytest.mark.parametrize(
    "url", ["mysql://root:hunter2@db/cyclebot", "sqlite:///data/bot.sqlite3", "db.example:5432", "http://x"]
)
def test_other_schemes_are_refused_with_the_remedy_and_without_the_rest_of_the_url(url):
    with pytest.raises(ConfigError, match="DATABASE_URL must start with postgresql://") as caught:
        Config.from_env({"DATABASE_URL": url}, load_dotenv=False)
    assert "hunter2" not in str(caught.value) and "unset" in str(caught.value)


def test_logs_never_show_the_database_password_plain_or_url_encoded():
    config = Config(database_url=URL)
    formatter = RedactingFormatter("%(message)s", config.secrets)
    for shown in (URL, "password s3cr@t-pass was refused"):
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "connecting with %s", (shown,), None)
        line = formatter.format(record)
        assert "s3cr" not in line and "[redacted]" in line
