"""Questions about two effects meeting: the rules a judge reaches for when a question describes one.

A question that says "instead" describes a replacement effect (614.1a says effects using that word are
replacement effects); one that copies something asks about copiable values (707.2) or copied spells
(707.10); a creature that leaves the battlefield and comes back is a new object (400.7); a permanent that
becomes something else, or loses its abilities, is sorted out by the layers (613.1). These rules are rarely
reached by the words of a question, which speak of the cards instead, so the phrasing proposes them.

Each cue is the wording of a game situation, not of any one question; card text is read the same way
(a card that says "instead" carries a replacement effect).
"""

from __future__ import annotations

import re

CUES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), rules)
    for pattern, rules in (
        # Replacement and prevention effects, and several of them applying to one event (614.1, 615.1, 616.1).
        (r"\binstead\b", ("614.1a",)),
        (r"\bskip(?:s|ped|ping)?\b", ("614.1b",)),
        (r"\b(?:enters?|entering) (?:the battlefield )?(?:tapped|with)\b", ("614.1c",)),
        (r"\bprevent(?:s|ed|ion)?\b", ("615.1a",)),
        (r"\b(?:two|both|several|multiple|more than one) replacement\b|\breplacement effects?\b", ("616.1",)),
        # Copies of permanents and of spells (707).
        (r"\bcop(?:y|ies|ied|ying)\b(?! of (?:the|this) card\b)|\bclones?\b", ("707.2", "707.10")),
        # Face-down spells and permanents (708).
        (
            r"\bface[- ]?down\b|\bmorph(?:ed|s)?\b|\bmanifest(?:ed|s)?\b|\bdisguise[ds]?\b|\bcloak(?:ed|s)?\b",
            ("708.2",),
        ),
        # An object that changes zones becomes a new object (400.7).
        (
            r"\b(?:flicker(?:ed|s)?|blink(?:ed|s)?)\b|\b(?:leaves?|left|exiled?)\b.{0,60}\b(?:returns?|returned|"
            r"comes? back|came back)\b|\bnew object\b",
            ("400.7",),
        ),
        # Continuous effects that change what an object is, applied in layers (613).
        (
            r"\bbecomes? (?:an? )?(?:\d+/\d+ )?(?:creature|artifact|land|enchantment|copy)\b|\bbase power\b|"
            r"\blos(?:e|es|ing|t) all (?:other )?abilities\b|\blayers?\b|\btimestamps?\b|\bdependen(?:cy|t)\b|"
            r"\bswitch(?:es|ed)? (?:its )?power\b|\bgain(?:s|ed)? control\b",
            ("613.1",),
        ),
        # What a spell or ability does as it resolves, and what it remembers of an object that is gone (608.2).
        (
            r"\bfizzl(?:e|es|ed)\b|\billegal targets?\b|\btargets? (?:is|are) (?:gone|illegal|no longer)\b|"
            r"\bno longer (?:a )?legal\b",
            ("608.2b",),
        ),
        (r"\blast known\b|\bno longer on the battlefield\b|\bby the time it resolves\b", ("608.2h",)),
        # Abilities that trigger on leaving the battlefield "look back in time" (603.10a).
        (
            r"\b(?:dies|die|died|leaves the battlefield|put into (?:a|the|your|its owner.s) graveyard)\b.{0,80}"
            r"\b(?:at the same time|simultaneously|together|both)\b",
            ("603.10a",),
        ),
    )
)


def proposed(text: str) -> list[str]:
    """The rules the phrasing of ``text`` (a question, or a card's text) proposes, in order, without repeats."""
    found: dict[str, None] = {}
    for pattern, rules in CUES:
        if pattern.search(text):
            found.update(dict.fromkeys(rules))
    return list(found)
