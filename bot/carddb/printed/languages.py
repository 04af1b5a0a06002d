"""The languages Scryfall prints names in, how an operator names them (``CARD_LANGUAGES``) and how Discord names a
player's (an interaction's ``locale``).

Scryfall's codes (https://scryfall.com/docs/api/languages): ``en`` and the ten languages most of its printings are
in, which ``all`` chooses, and a few printed on a handful of promotional cards, chosen only by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

ENGLISH = "en"
# The languages ``all`` chooses: every set of them holds thousands of printed names.
MAIN = {
    "de": "German",
    "fr": "French",
    "it": "Italian",
    "es": "Spanish",
    "pt": "Portuguese",
    "ja": "Japanese",
    "ko": "Korean",
    "ru": "Russian",
    "zhs": "Simplified Chinese",
    "zht": "Traditional Chinese",
}
# Printed on a few promotional cards each: chosen only when named.
RARE = {
    "he": "Hebrew",
    "la": "Latin",
    "grc": "Ancient Greek",
    "ar": "Arabic",
    "sa": "Sanskrit",
    "ph": "Phyrexian",
    "qya": "Quenya",
}
NAMES = {**MAIN, **RARE}
ALL = "all"
# Discord's client languages (an interaction's ``locale``) whose cards Scryfall prints, as Scryfall's codes.
LOCALES = {
    "de": "de",
    "fr": "fr",
    "it": "it",
    "es-ES": "es",
    "es-419": "es",
    "pt-BR": "pt",
    "ja": "ja",
    "ko": "ko",
    "ru": "ru",
    "zh-CN": "zhs",
    "zh-TW": "zht",
}


@dataclass(frozen=True)
class Choice:
    """The languages an operator chose, in Scryfall's codes and in order, and the words of the setting that name
    none (said once in the log and otherwise ignored)."""

    codes: tuple[str, ...]
    unknown: tuple[str, ...] = ()


def choose(words: Iterable[str]) -> Choice:
    """``CARD_LANGUAGES`` read: ``all``, or Scryfall's codes (``de, fr ja``), case and English aside; nothing for
    English only."""
    codes: list[str] = []
    unknown: list[str] = []
    for word in words:
        code = word.strip().lower()
        if not code or code == ENGLISH:
            continue
        found = list(MAIN) if code == ALL else [code] if code in NAMES else []
        if not found:
            unknown.append(word.strip())
        codes += [each for each in found if each not in codes]
    return Choice(tuple(codes), tuple(dict.fromkeys(unknown)))


def language_name(code: str) -> str:
    """``German`` for ``de``; the code itself for one Scryfall added since."""
    return NAMES.get(code, code)


def of_locale(locale: object) -> str | None:
    """The Scryfall code of a Discord locale (``discord.Locale`` or its value: ``"es-419"`` → ``"es"``), or None for
    English and the languages Scryfall prints no cards in."""
    value = str(getattr(locale, "value", locale) or "")
    return LOCALES.get(value) or LOCALES.get(value.split("-")[0])
