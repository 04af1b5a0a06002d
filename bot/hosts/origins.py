"""Where each kind of file may come from: Scryfall's files from Scryfall's hosts, and from nowhere else.

A host here is a host and its port (:func:`bot.hosts.download.host_of`: ``data.scryfall.io``, or
``127.0.0.1:8123``), checked for every address a listing names and for every redirect, before anything is sent
there. Scryfall serves its bulk files from one host, its symbols' SVGs from another and its card images from a
third; the address the operator configured for its API (``SCRYFALL_API_URL``: Scryfall itself, a proxy, or a test
double) may serve any of them, on its own port and no other. A listing that points a download anywhere else (another
host, another port of the same machine) is refused, whatever it names.
"""

from __future__ import annotations

from bot.hosts.download import host_of

BULK_FILES = "data.scryfall.io"  # the bulk data: oracle cards, all cards, rulings
SYMBOL_SVGS = "svgs.scryfall.io"
CARD_IMAGES = "cards.scryfall.io"


def from_scryfall(files: str, api_url: str) -> frozenset[str]:
    """The hosts Scryfall's ``files`` (one of the hosts above) may come from: that host, and the configured API's."""
    return frozenset({files, host_of(api_url)})
