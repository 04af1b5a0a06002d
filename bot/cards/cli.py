"""``python -m bot card NAME`` and ``python -m bot cycling [QUERY]``: the same answers as /card and /cycling, as text.

No Discord token is needed; ``SCRYFALL_API_URL`` and ``BOT_DATA_DIR`` (for the cache) come from the environment.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from bot.cards import render
from bot.cards.query import DEFAULT_KIND, KINDS, QueryTooLong, cycling_query
from bot.config import Config

if TYPE_CHECKING:
    from bot.scryfall import ScryfallError

DEFAULT_LIMIT = 100
EXIT_OK = 0
EXIT_FAILED = 1


def register(subparsers: argparse._SubParsersAction) -> None:
    card = subparsers.add_parser("card", help="look a card up on Scryfall and print it")
    card.add_argument("name", nargs="+", help="card name; partial or misspelt names work")
    card.add_argument("--set", dest="set_code", metavar="CODE", help="set code, e.g. akh")
    card.set_defaults(handler=card_command)

    cycling = subparsers.add_parser("cycling", help="list cards with cycling, with their cycling costs")
    cycling.add_argument(
        "--kind",
        choices=sorted(KINDS),
        default=DEFAULT_KIND,
        help="which cycling: " + "; ".join(f"{k.value} = {k.label}" for k in KINDS.values()),
    )
    cycling.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help="print at most this many cards")
    cycling.add_argument("query", nargs="*", help="more Scryfall search terms, e.g. c:r cmc<=3")
    cycling.set_defaults(handler=cycling_command)


def _client():
    from bot.scryfall import ScryfallClient

    return ScryfallClient.from_config(Config.from_env())


def _failure(error: ScryfallError) -> int:
    print(f"error: {error.user_message()}", file=sys.stderr)  # a terminal: plain text, not Discord's
    return EXIT_FAILED


def card_command(args: argparse.Namespace) -> int:
    return asyncio.run(_card(" ".join(args.name), args.set_code))


async def _card(name: str, set_code: str | None) -> int:
    from bot.scryfall import ScryfallError

    client = _client()
    try:
        answer = await client.named(name, set_code=set_code, fuzzy=True)
    except ScryfallError as error:
        return _failure(error)
    finally:
        await client.close()
    print(render.render_text(answer.data, stale=answer.stale))
    return EXIT_OK


def cycling_command(args: argparse.Namespace) -> int:
    extra = " ".join(args.query)
    try:
        query = cycling_query(args.kind, extra)
    except QueryTooLong as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILED
    return asyncio.run(_cycling(query, args.kind, max(1, args.limit)))


async def _cycling(query: str, kind: str, limit: int) -> int:
    from bot.scryfall import CardNotFound, ScryfallError

    client = _client()
    try:
        answer = await client.search(query, order="name")
        page = answer.data
        cards = list(page.get("data") or [])
        while len(cards) < limit and page.get("has_more") and page.get("next_page"):
            page = (await client.next_page(page["next_page"])).data
            cards.extend(page.get("data") or [])
    except CardNotFound as error:
        print(f"No cards with {KINDS[kind].label} match that search.", file=sys.stderr)
        return _failure(error)
    except ScryfallError as error:
        return _failure(error)
    finally:
        await client.close()
    total = int(answer.data.get("total_cards") or len(cards))
    for warning in answer.data.get("warnings") or []:
        print(f"warning: {warning}", file=sys.stderr)
    shown = cards[:limit]
    noun = "card" if total == 1 else "cards"
    print(f"{total} {noun} with {KINDS[kind].label} ({query})")
    for card in shown:
        print(render.cycling_result_line(card))
    if total > len(shown):
        print(f"… showing {len(shown)} of {total}; use --limit to see more")
    return EXIT_OK
