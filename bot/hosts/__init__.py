"""What comes from other hosts, made safe. May import `bot.runtime`, `bot.scryfall`, `bot.serving`,
`bot.text`.

Downloads with a deadline, a rate, a byte cap and allowed hosts (download), the hosts each of Scryfall's files may
come from (origins), card images checked, decoded near their size and cached (imaging, images), and the mana
symbols' SVGs checked against an allowlist (svg) and drawn in the sandbox (symbols).
"""

from bot.hosts.download import Downloader, DownloadFailed, Limits, Stopped, check_host, host_of
from bot.hosts.images import DIRECTORY as IMAGES_DIRECTORY
from bot.hosts.images import CardImages, image_url
from bot.hosts.imaging import MAX_IMAGE_PIXELS, NotACardImage, check_image, thumbnails
from bot.hosts.origins import BULK_FILES, CARD_IMAGES, SYMBOL_SVGS, from_scryfall
from bot.hosts.symbols import DIRECTORY as SYMBOLS_DIRECTORY
from bot.hosts.symbols import PLAIN, SYMBOL, SymbolImage, SymbolsUnavailable, SymbolText
from bot.hosts.symbols import prepare as prepare_symbols
from bot.hosts.symbols import remove_interrupted as remove_interrupted_symbols

__all__ = [
    "BULK_FILES",
    "CARD_IMAGES",
    "IMAGES_DIRECTORY",
    "MAX_IMAGE_PIXELS",
    "PLAIN",
    "SYMBOL",
    "SYMBOLS_DIRECTORY",
    "SYMBOL_SVGS",
    "CardImages",
    "DownloadFailed",
    "Downloader",
    "Limits",
    "NotACardImage",
    "Stopped",
    "SymbolImage",
    "SymbolText",
    "SymbolsUnavailable",
    "check_host",
    "check_image",
    "from_scryfall",
    "host_of",
    "image_url",
    "prepare_symbols",
    "remove_interrupted_symbols",
    "thumbnails",
]
