from __future__ import annotations

import pytest

from bot.scryfall import ScryfallClient
from tests.support.waits import CEILING


@pytest.fixture
async def make_client(fake_scryfall, data_dir):
    """Clients for the fake Scryfall with test-sized backoff and pause; the timeout out of the way unless a test
    checks it (a busy machine can keep the fake from answering for a second or more)."""
    clients: list[ScryfallClient] = []

    def make(**kwargs) -> ScryfallClient:
        kwargs.setdefault("timeout", CEILING)
        kwargs.setdefault("backoff", 0.01)
        kwargs.setdefault("pause_seconds", 1.0)
        client = ScryfallClient(fake_scryfall.base_url, data_dir, **kwargs)
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()


@pytest.fixture
def client(make_client) -> ScryfallClient:
    return make_client()
