"""CARD_DATA_AUTO_UPDATE: on unless turned off, so a deployed bot keeps its card data fresh."""

from __future__ import annotations

import pytest

from bot.config import Config
from bot.errors import ConfigError


@pytest.mark.parametrize(
    ("environ", "expected"),
    [({}, True), ({"CARD_DATA_AUTO_UPDATE": "1"}, True), ({"CARD_DATA_AUTO_UPDATE": "0"}, False)],
)
def test_auto_update_is_on_unless_set_to_0(environ, expected):
    assert Config.from_env(environ, load_dotenv=False).card_data_auto_update is expected


def test_a_nonsense_value_is_a_clear_error():
    with pytest.raises(ConfigError, match="CARD_DATA_AUTO_UPDATE must be 1 or 0"):
        Config.from_env({"CARD_DATA_AUTO_UPDATE": "maybe"}, load_dotenv=False)
