from __future__ import annotations

import pytest

from tests.docs.examples import Generated, generate


@pytest.fixture(scope="session")
def generated() -> Generated:
    """Every example of every page, run once for the session (the same run ``make docs-examples`` does)."""
    return generate()
