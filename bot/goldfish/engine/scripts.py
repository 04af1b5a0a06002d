"""One script per card: everything the engine models about a card, declared next to its name.

In the spirit of Forge's card scripts: a card's "when you cycle this" trigger (702.29c), what it
searches for, whether it lets you pay {X}, its "whenever you cycle" payoff (702.29d), its static
cost changes and what happens when it enters, all in one :class:`CardScript`. A script sees the game
through the effects API alone (:class:`~bot.goldfish.engine.model.Effects`: gain life, deal damage, create
tokens, pay, search, untap), never through the engine's game itself.

Targets are chosen as a goldfish player would: damage goes to the opponent, who controls no
creatures, so "target creature" effects meant for the opponent's creatures do nothing.
Any other ability that refers to cycling or discarding is reported as not modelled.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.cycling import abilities_in_text
from bot.goldfish.engine.model import CycleChoices, Effects, Event

Trigger = Callable[[Effects, CycleChoices], list[Event]]
PayoffEffect = Callable[[Effects, CycleChoices, int], list[Event]]


@dataclass(frozen=True)
class Payoff:
    """A triggered ability of a permanent that triggers on cycling (and maybe discarding)."""

    text: str
    effect: PayoffEffect
    another: bool = False
    discard: bool = False


@dataclass(frozen=True)
class CardScript:
    """What the engine models of one card; a card without a script only cycles (and lands make mana)."""

    name: str
    when_cycled: Trigger | None = None
    searches: tuple[str, ...] = ()
    pays_x: bool = False
    payoff: Payoff | None = None
    cycling_reduction: int = 0
    free_cycling_hand_size: int | None = None
    on_enter: Callable[[Effects, str], list[Event]] | None = None
    on_cast: Callable[[Effects, str, int], list[Event]] | None = None
    upkeep_from_graveyard: tuple[str, ...] = ()


# ------------------------------------------------------------------ building blocks


def gain(amount: int) -> Trigger:
    return lambda game, choices: game.gain_life(amount, choices.name)


def damage_opponent(amount: int) -> Trigger:
    return lambda game, choices: game.damage_opponent(amount, choices.name)


def token(name: str, power: int, toughness: int, description: str) -> Trigger:
    return lambda game, choices: game.create_tokens(1, name, power, toughness, description, choices.name)


def search_to(where: str, *searches: str) -> Trigger:
    return lambda game, choices: game.search_library(choices, searches, to=where, source=choices.name, rule="702.29c")


def nothing_to_target(text: str) -> PayoffEffect:
    return lambda game, choices, source: [Event("trigger", text, "702.29d")]


def may_pay_one(name: str, missed: str, effect: Callable[[Effects], list[Event]]) -> PayoffEffect:
    """The optional "you may pay {1}" of Lightning Rift and Drake Haven, then the effect."""

    def resolve(game: Effects, choices: CycleChoices, source: int) -> list[Event]:
        paid = game.pay_mana(("1",)) if choices.pay else None
        if paid is None:
            why = "you chose not to pay {1}" if not choices.pay else "no untapped land to pay {1}"
            return [Event("trigger", f"{name}: {why}, {missed}", "702.29d")]
        return [Event("mana", f"Paid {{1}} for {name} ({paid})", "107.3"), *effect(game)]

    return resolve


def decree_of_justice(game: Effects, choices: CycleChoices) -> list[Event]:
    if choices.x <= 0:
        return [Event("trigger", "Decree of Justice: you paid no {X}, so no Soldiers", "702.29c")]
    paid = game.pay_mana(("1",) * choices.x)
    if paid is None:  # checked before the cycle began
        raise AssertionError("Decree of Justice's X was checked as payable")
    events = [Event("mana", f"Paid {{{choices.x}}} for Decree of Justice's X ({paid})", "107.3")]
    return events + game.create_tokens(choices.x, "Soldier", 1, 1, "1/1 white Soldier", choices.name)


def decree_angels(game: Effects, name: str, x: int) -> list[Event]:
    if x <= 0:
        return [Event("cast", f"{name}: X is 0, so no Angels", "107.3")]
    return game.create_tokens(x, "Angel", 4, 4, "4/4 white Angel with flying", name)


def slice_and_dice(game: Effects, choices: CycleChoices) -> list[Event]:
    if game.creatures():
        return [Event("trigger", "Slice and Dice: declined, it would only damage your own creatures", "702.29c")]
    return [Event("trigger", "Slice and Dice deals 1 damage to each creature: there are none", "702.29c")]


# ------------------------------------------------------------------ the cards

SCRIPTS: dict[str, CardScript] = {
    script.name: script
    for script in (
        # "When you cycle this card" (702.29c)
        CardScript("Renewed Faith", when_cycled=gain(2)),
        CardScript("Solar Blast", when_cycled=damage_opponent(1)),
        CardScript("Decree of Justice", when_cycled=decree_of_justice, pays_x=True, on_cast=decree_angels),
        # "{3}{W}{W}: Return Eternal Dragon from your graveyard to your hand. Activate only during your upkeep."
        CardScript("Eternal Dragon", upkeep_from_graveyard=("W", "W", "1", "1", "1")),
        CardScript("Slice and Dice", when_cycled=slice_and_dice),
        CardScript("Krosan Tusker", when_cycled=search_to("hand", "basic land"), searches=("basic land",)),
        CardScript(
            "Shefet Monitor",
            when_cycled=search_to("battlefield", "basic land", "Desert"),
            searches=("basic land", "Desert"),
        ),
        CardScript("Stir the Sands", when_cycled=token("Zombie", 2, 2, "2/2 black Zombie")),
        CardScript("Vizier of Tumbling Sands", when_cycled=lambda game, choices: game.untap_best_land(choices.name)),
        # "Whenever you cycle (or discard) a card" payoffs on the battlefield (702.29d)
        CardScript(
            "Lightning Rift",
            payoff=Payoff(
                "Whenever a player cycles a card, you may pay {1}: 2 damage",
                may_pay_one("Lightning Rift", "no damage", lambda game: game.damage_opponent(2, "Lightning Rift")),
            ),
        ),
        CardScript(
            "Drake Haven",
            payoff=Payoff(
                "Whenever you cycle or discard a card, you may pay {1}: a 2/2 Drake",
                may_pay_one(
                    "Drake Haven",
                    "no Drake",
                    lambda game: game.create_tokens(1, "Drake", 2, 2, "2/2 blue Drake with flying", "Drake Haven"),
                ),
                discard=True,
            ),
        ),
        CardScript(
            "Astral Slide",
            payoff=Payoff(
                "Whenever a player cycles a card, you may exile target creature",
                nothing_to_target("Astral Slide: no creature exiled (the opponent controls none)"),
            ),
        ),
        CardScript(
            "Archfiend of Ifnir",
            payoff=Payoff(
                "Whenever you cycle or discard another card, a -1/-1 counter on each opposing creature",
                nothing_to_target("Archfiend of Ifnir: the opponent controls no creatures to get -1/-1 counters"),
                another=True,
                discard=True,
            ),
        ),
        CardScript(
            "Zenith Seeker",
            payoff=Payoff(
                "Whenever you cycle or discard a card, target creature gains flying",
                nothing_to_target("Zenith Seeker: a creature gains flying until end of turn (no effect here)"),
                discard=True,
            ),
        ),
        # Statics that change cycling costs (601.2f)
        # "Cycling abilities you activate cost up to {2} less to activate" (generic mana only).
        CardScript("Fluctuator", cycling_reduction=2),
        # "As long as you have seven or more cards in hand, you may pay {0} rather than pay cycling costs."
        CardScript(
            "New Perspectives",
            free_cycling_hand_size=7,
            on_enter=lambda game, name: game.draw(3, f"{name} enters"),
        ),
    )
}

NO_SCRIPT = CardScript("")


def script_for(name: str) -> CardScript:
    return SCRIPTS.get(name, NO_SCRIPT)


MODELLED: frozenset[str] = frozenset(SCRIPTS)

REMINDER = re.compile(r"\([^()]*\)")
CYCLING_RELATED = re.compile(r"\bcycl|\bdiscard (?:a|another) card\b", re.IGNORECASE)


def ability_lines(card: Mapping[str, Any]) -> list[str]:
    faces = card.get("card_faces") or [card]
    lines = []
    for face in faces:
        for line in (face.get("oracle_text") or "").splitlines():
            line = REMINDER.sub("", line).strip()
            if line:
                lines.append(line)
    return lines


KEYWORD_LINE = re.compile(
    r"^(?:(?:flying|trample|vigilance|haste|reach|first strike|deathtouch|lifelink|menace|defender|flash|\w+walk)"
    r"(?:, )?)+$|^echo\b|^(?:\w+ ?)?(?:land)?cycling\b|^\w+cycling\b",
    re.IGNORECASE,
)


def unmodelled_spell_text(card: Mapping[str, Any]) -> list[str]:
    """What a card does when cast or on the battlefield that the engine does not model: its front face's lines
    other than keywords, cycling and echo (all modelled or irrelevant against a goldfish)."""
    if card.get("name") in MODELLED:
        return []
    faces = card.get("card_faces") or [card]
    # The half or face that is cast: a split card's left half, an adventurer's creature, a flip card unflipped
    # (their text is on the faces: the card itself has none, which read as a card doing nothing).
    front = faces[0]
    lines = []
    for line in (front.get("oracle_text") or "").splitlines():
        line = REMINDER.sub("", line).strip()
        if line and not KEYWORD_LINE.match(line) and not abilities_in_text(line):
            lines.append(line)
    return lines


def unmodelled_text(card: Mapping[str, Any]) -> list[str]:
    """The card's abilities about cycling or discarding that the engine does not model.

    Cycling abilities themselves are always modelled; what a spell does when cast is reported
    separately (:func:`unmodelled_spell_text`).
    """
    if card.get("name") in MODELLED:
        return []
    found = []
    for line in ability_lines(card):
        if abilities_in_text(line) and "cycle" not in line.lower():
            continue  # the cycling keyword line itself
        if CYCLING_RELATED.search(line):
            found.append(line)
    return found
