from __future__ import annotations

import fcntl
import os
import pickle

import pytest

from tests.docs.examples import Generated, generate


@pytest.fixture(scope="session")
def generated(tmp_path_factory) -> Generated:
    """Every example of every page, run once for the test run (the same run ``make docs-examples`` does).

    Under pytest-xdist the workers share one run: the first to ask runs the examples, the others read its result.
    """
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return generate()
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, shared by its workers
    with open(shared / "docs-examples.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        cache = shared / "docs-examples.pickle"
        if cache.exists():
            return pickle.loads(cache.read_bytes())
        result = generate()
        cache.write_bytes(pickle.dumps(result))
        return result
