from __future__ import annotations

from pathlib import Path

import pytest

from bot.rules.document import load_document
from bot.rules.index import RulesIndex
from bot.rules.sources import BUNDLED_EXCERPT
from tests.conftest import CR_DIR

CR_2026 = CR_DIR / "MagicCompRules-2026-01-16.txt"


@pytest.fixture(scope="session")
def full_index() -> RulesIndex:
    return RulesIndex(load_document(CR_2026))


@pytest.fixture(scope="session")
def excerpt_index() -> RulesIndex:
    return RulesIndex(load_document(BUNDLED_EXCERPT))


@pytest.fixture
def cr_2026() -> Path:
    return CR_2026
