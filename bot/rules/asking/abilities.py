"""What kind of ability each sentence of a card is, and what kind of thing a question asks, read as a judge reads them.

One reviewable data file holds both (``bot/data/card-abilities.toml``): for each kind of ability or effect, the
pattern its sentences match ("If … would …, … instead" is a replacement effect), and the rules a judge opens for it
(614.1a); for each kind of thing a question asks (whether something triggers, who controls what, whether an action
is allowed …), its cue words and the families of kinds that answer it. :mod:`bot.rules.asking.cards` reads each
named card with it; ``scripts/check_phrasings.py`` checks every rule it cites against an edition.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

ABILITIES = Path(__file__).resolve().parents[2] / "data" / "card-abilities.toml"
REMINDER = re.compile(r"\([^()]*\)")
# The card itself, as today's Oracle text names it ("this creature", "this Aura"), and as older text did (its name).
SELF = re.compile(
    r"\bthis (?:creature|artifact|enchantment|land|permanent|planeswalker|spell|card|vehicle|aura|equipment|saga|"
    r"battle|class|case|room|token|siege)\b"
)
SENTENCE_END = re.compile(r"(?<=[.!])\s+(?=[^\s)])")
QUOTED = re.compile(r'"([^"]+)"')


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of ability or effect: its name, its family, the rules a judge opens for it, and how it is read."""

    name: str
    group: str
    rules: tuple[str, ...]
    pattern: re.Pattern[str] | None = None
    type_word: str = ""  # read from the type line instead ("legendary")


@dataclass(frozen=True, slots=True)
class Ask:
    """A kind of thing a question asks, its cue words, and the families of kinds whose rules answer it."""

    name: str
    cues: re.Pattern[str]
    joins: frozenset[str]


@dataclass(frozen=True, slots=True)
class Reading:
    """One kind found on a card, and the sentence it was read from ("" for the type line)."""

    kind: Kind
    sentence: str


class AbilityError(ValueError):
    """The data file does not have the documented shape."""


@functools.cache
def load(path: Path = ABILITIES) -> tuple[tuple[Kind, ...], tuple[Ask, ...]]:
    """The kinds and asks of the data file, in its order; :class:`AbilityError` when it is malformed."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        kinds = tuple(
            Kind(
                entry["name"],
                entry["group"],
                tuple(entry["rules"]),
                re.compile(entry["pattern"]) if "pattern" in entry else None,
                entry.get("type", ""),
            )
            for entry in data.get("kind", [])
        )
        asks = tuple(
            Ask(entry["name"], re.compile(entry["cues"]), frozenset(entry["joins"])) for entry in data.get("ask", [])
        )
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, re.error) as error:
        raise AbilityError(f"{path.name}: {error}") from error
    if any((kind.pattern is None) == (not kind.type_word) or not kind.rules for kind in kinds):
        raise AbilityError(f"{path.name}: each kind needs rules and either a pattern or a type")
    return kinds, asks


def cited_rules(path: Path = ABILITIES) -> dict[str, tuple[str, ...]]:
    """Every rule the data file cites, with the kinds citing it (for checking them against an edition)."""
    found: dict[str, tuple[str, ...]] = {}
    for kind in load(path)[0]:
        for number in kind.rules:
            found[number] = (*found.get(number, ()), kind.name)
    return found


def sentences(text: str, name: str = "") -> list[str]:
    """A card's text as the patterns read it: lower case, reminder text out, the card itself written "~", one
    sentence a line ("When this creature enters, …" → "when ~ enters, …")."""
    text = REMINDER.sub(" ", text).lower().replace("’", "'")
    if name:
        for part in {name.lower(), name.lower().split(",")[0]}:
            if len(part) >= 3:
                text = text.replace(part, "~")
    text = SELF.sub("~", text)
    out = []
    for line in text.split("\n"):
        out += [" ".join(part.split()) for part in SENTENCE_END.split(line) if part.strip()]
    # An ability a card grants in quotes ('it has "When this creature becomes the target …"') is read too.
    return out + [" ".join(quoted.split()) for line in out for quoted in QUOTED.findall(line)]


def read_card(text: str, type_line: str = "", name: str = "") -> list[Reading]:
    """The kinds of ability and effect ``text`` (a card's Oracle text, every face's) holds, each once, in the order
    of the data file."""
    kinds, _asks = load()
    lines = sentences(text, name)
    types = set(re.findall(r"[a-z]+", type_line.lower().split("—")[0]))
    found: list[Reading] = []
    for kind in kinds:
        if kind.type_word:
            if kind.type_word in types:
                found.append(Reading(kind, ""))
            continue
        sentence = next((line for line in lines if kind.pattern.search(line)), None)
        if sentence is not None:
            found.append(Reading(kind, sentence))
    return found


def asks_of(question: str) -> list[Ask]:
    """What kinds of thing ``question`` asks, by its cue words."""
    lowered = question.lower()
    return [ask for ask in load()[1] if ask.cues.search(lowered)]
