"""``cyclebot card NAME``, ``cycling [QUERY]`` and ``search QUERY``: the answers of /card, /cycling and
/search, as text.

No Discord token is needed; ``SCRYFALL_API_URL`` and ``BOT_DATA_DIR`` (for the cache and the local
copy of the cards) come from the environment. Answers come from the local copy when one is stored, else
from Scryfall's API; with neither, the command says in one sentence how to get the copy.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from bot.cards import render
from bot.cards.printed import printed_note
from bot.cards.query import DEFAULT_KIND, KINDS, QueryTooLong, cycling_query
from bot.config import Config
from bot.text import plural

if TYPE_CHECKING:
    from bot.scryfall import ScryfallError

DEFAULT_LIMIT = 100
SEARCH_PAGE = 50
EXIT_OK = 0
EXIT_FAILED = 1
NO_LOCAL_DATA = "error: no local card data yet, and Scryfall can't be reached: run `cyclebot cards update`."


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

    search = subparsers.add_parser("search", help="search cards in Scryfall's syntax, from the local copy")
    search.add_argument("--page", type=int, default=1, help="which page of results (50 cards a page)")
    search.add_argument("query", nargs="+", help='Scryfall search syntax, e.g. t:creature c:g pow>=3 o:"draw a card"')
    search.set_defaults(handler=search_command)

    symbols = subparsers.add_parser(
        "symbols", help="make the mana symbols' pictures from Scryfall's symbology (the bot does it once by itself)"
    )
    symbols.set_defaults(handler=symbols_command)


async def _source():
    """The card source of a terminal: the stored local copy when there is one (never refreshed
    here: ``cards update`` does that), Scryfall's API for the rest."""
    from bot.carddb import CardData
    from bot.cards.lookup import CardSource
    from bot.scryfall import ScryfallClient

    config = Config.from_env()
    card_data = await CardData.open(config.data_dir, config.scryfall_api_url, languages=config.card_languages)
    return CardSource(ScryfallClient.from_config(config), card_data)


async def _close(source) -> None:
    await source.client.close()
    if source.card_data is not None:
        await source.card_data.close()


def _failure(error: ScryfallError, source) -> int:
    from bot.scryfall import ScryfallUnavailable

    if isinstance(error, ScryfallUnavailable) and not source.card_data.loaded:
        print(NO_LOCAL_DATA, file=sys.stderr)
    else:
        print(f"error: {error.user_message()}", file=sys.stderr)  # a terminal: plain text, not Discord's
    return EXIT_FAILED


def card_command(args: argparse.Namespace) -> int:
    return asyncio.run(_card(" ".join(args.name), args.set_code))


async def _card(name: str, set_code: str | None) -> int:
    from bot.cards import misses
    from bot.scryfall import CardNotFound, ScryfallError

    source = await _source()
    try:
        answer = await source.named(name, set_code=set_code)
    except CardNotFound as error:
        print("error: " + await misses.miss_text(source, name, set_code, error, misses.TERMINAL), file=sys.stderr)
        return EXIT_FAILED
    except ScryfallError as error:
        return _failure(error, source)
    finally:
        await _close(source)
    note = printed_note(answer.printed, markdown=False)
    print(render.render_text(answer.card, shown=answer.shown, note=note))
    return EXIT_OK


def cycling_command(args: argparse.Namespace) -> int:
    extra = " ".join(args.query)
    try:
        cycling_query(args.kind, extra)
    except QueryTooLong as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILED
    return asyncio.run(_cycling(extra, args.kind, max(1, args.limit)))


async def _cycling(extra: str, kind: str, limit: int) -> int:
    from bot.carddb import QueryError
    from bot.cards.answers import as_card
    from bot.scryfall import CardNotFound, ScryfallError

    query = cycling_query(kind, extra)
    source = await _source()
    try:
        found = await source.cycling(kind, extra)
        cards = list(found.cards)
        next_page = found.next_page
        while len(cards) < limit and next_page:
            more = await source.next_page(next_page)
            cards.extend(more.cards)
            next_page = more.next_page
    except CardNotFound as error:
        print(f"No cards with {KINDS[kind].label} match that search.", file=sys.stderr)
        return _failure(error, source)
    except ScryfallError as error:
        return _failure(error, source)
    except QueryError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        await _close(source)
    total = found.total
    for warning in found.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    shown = cards[:limit]
    print(f"from {found.origin}", file=sys.stderr)  # stdout stays one header and one line per card
    print(f"{plural(total, 'card')} with {KINDS[kind].label} ({query})")
    for card in shown:
        print(render.cycling_result_line(as_card(card)))
    if total > len(shown):
        print(f"… showing {len(shown)} of {total}; use --limit to see more")
    return EXIT_OK


def search_command(args: argparse.Namespace) -> int:
    return asyncio.run(_search(" ".join(args.query), max(1, args.page)))


async def _search(query: str, page: int) -> int:
    from bot.carddb import QueryError, SearchPage
    from bot.scryfall import ScryfallError

    source = await _source()
    try:
        found = await source.search(query, page=page - 1, page_size=SEARCH_PAGE)
    except QueryError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILED
    except ScryfallError as error:
        return _failure(error, source)
    finally:
        await _close(source)
    for warning in found.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"from {found.origin if not isinstance(found, SearchPage) else 'the local copy'}", file=sys.stderr)
    if isinstance(found, SearchPage):
        print(f"{plural(found.total, 'card')} · page {found.page + 1}/{found.page_count}")
    else:
        print(f"{plural(found.total, 'card')} (Scryfall's first page)")
    for card in found.cards:
        print(render.search_result_line(card if isinstance(card, dict) else card.scryfall))
    return EXIT_OK if found.total else EXIT_FAILED


def symbols_command(args: argparse.Namespace) -> int:
    """Render every card symbol of Scryfall's symbology into ``BOT_DATA_DIR/symbols`` (kept: a second run, and
    the bot, use them as they are). The bot uploads them as its emoji when it starts."""
    import resvg_py  # noqa: F401  (what draws them: a Python without it hears so before anything is fetched)

    return asyncio.run(_symbols())


async def _symbols() -> int:
    from bot.hosts import SYMBOLS_DIRECTORY, SymbolsUnavailable, prepare_symbols
    from bot.scryfall import ScryfallClient, ScryfallError

    config = Config.from_env()
    client = ScryfallClient.from_config(config)
    try:
        images = await prepare_symbols(config.data_dir, client)
    except (ScryfallError, SymbolsUnavailable) as error:
        text = error.user_message() if isinstance(error, ScryfallError) else str(error)
        print(f"error: the mana symbols could not be made: {text}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        await client.close()
    print(f"{len(images)} mana symbols in {config.data_dir / SYMBOLS_DIRECTORY}")
    return EXIT_OK
