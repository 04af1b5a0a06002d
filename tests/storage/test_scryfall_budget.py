"""One Scryfall budget for every process sharing a PostgreSQL database: two clients, each with its own pool (as two
processes would have), against the fake Scryfall that flags any breach of the published limits."""

from __future__ import annotations

import asyncio

import pytest

from bot.scryfall import RateLimited, ScryfallClient
from bot.scryfall.limiter import DEFAULT_PAUSE_SECONDS, PostgresBudget
from bot.storage.postgres import PostgresDatabase


@pytest.fixture
async def shared_clients(fake_scryfall, postgres_url, tmp_path):
    """Two Scryfall clients with separate caches and separate database pools, sharing one budget table."""
    loop = asyncio.get_running_loop()
    made: list[tuple[PostgresDatabase, ScryfallClient]] = []
    for n in range(2):
        db = await PostgresDatabase.open(postgres_url)
        budget = PostgresBudget(db.pool, loop)
        client = ScryfallClient(fake_scryfall.base_url, tmp_path / f"cache{n}", timeout=2.0, budget=budget)
        made.append((db, client))
    yield [client for _, client in made]
    for db, client in made:
        await client.close()
        await db.close()


async def test_two_processes_together_never_exceed_two_searches_or_ten_requests_a_second(shared_clients, fake_scryfall):
    first, second = shared_clients
    names = [card["name"] for card in fake_scryfall.cards[:6]]
    lookups = [first.named(name, fuzzy=False) for name in names[:3]] + [
        second.named(name, fuzzy=False) for name in names[3:]
    ]
    others = [client.autocomplete(prefix) for client in shared_clients for prefix in ("dra", "cyc", "lan", "pla")]
    answers = await asyncio.gather(*lookups, *others)

    assert all(answers), "every lookup was answered"
    assert len(fake_scryfall.requests_to("^/cards/named")) == 6
    assert fake_scryfall.violations == [] and fake_scryfall.statuses(429) == []
    assert fake_scryfall.max_rate("search") <= 2
    assert fake_scryfall.max_rate("all") <= 10
    times = sorted(r.time for r in fake_scryfall.requests if r.klass == "search")
    assert min(b - a for a, b in zip(times, times[1:], strict=False)) >= 0.5


async def test_a_429_seen_by_one_process_pauses_the_other_for_at_least_30_seconds(shared_clients, fake_scryfall):
    first, second = shared_clients
    fake_scryfall.fail_next(429, path="^/cards/named$")
    with pytest.raises(RateLimited) as caught:
        await first.named("Pendrell Drake")
    assert caught.value.retry_after >= DEFAULT_PAUSE_SECONDS
    sent = len(fake_scryfall.requests)
    await asyncio.sleep(0.2)  # the pause is written to the database without holding up the answer

    with pytest.raises(RateLimited) as other:
        await second.named("Drifting Meadow")
    assert other.value.retry_after >= DEFAULT_PAUSE_SECONDS - 1
    assert second.paused_for("search") >= DEFAULT_PAUSE_SECONDS - 1
    assert len(fake_scryfall.requests) == sent, "the paused class sent nothing from either process"
    assert await second.autocomplete("drake"), "the other class is not paused"
    assert fake_scryfall.violations == []
