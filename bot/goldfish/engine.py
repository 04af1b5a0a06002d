"""Goldfish engine: rules-exact solitaire games for practising cycling (CR 702.29), with no Discord code.

The opponent starts at 20 life and does nothing. Lands are played; non-land spells are not cast
(this is cycling practice), with one exception: the payoff permanents whose abilities the engine
models (Astral Slide, Lightning Rift, Drake Haven, Fluctuator, …) can be cast with ``cast`` so that
their triggers and static abilities work. Every random step uses the game's own seeded
``random.Random``, so a game is replayed from its seed and its action log.

API notes (additions to the first published contract, all backwards compatible):

* ``Game.cycle`` takes ``find`` (library card iid) / ``find_nothing`` for a typecycling search or a
  "when you cycle" search (Krosan Tusker); with neither, the first candidate (by name) is found.
  ``x`` is the value of ``{X}`` in the cost, or of the X a "when you cycle" trigger lets you pay
  (Decree of Justice). ``sacrifice`` picks the land for ``Cycling—Sacrifice a land`` (default: the
  land whose loss keeps the most mana). ``pay`` says whether optional "you may pay {1}" triggers
  (Lightning Rift, Drake Haven) are paid when mana is available.
* ``Game.cast_options`` / ``Game.cast`` for the modelled payoff permanents.
* ``Game.apply(action)`` applies one action-log entry (``replay`` uses it); ``Game.drew_from_empty``
  is the pending 121.4 loss until state-based actions are checked.
* ``Game.unmodelled_text(name)`` lists the abilities of a card that the engine does not model.
* ``Deck.key`` is the preset key (``None`` for a deck read from a decklist).
* Zones hold ``CardInstance``; the battlefield holds ``Permanent`` (tokens too).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot.cycling import CyclingAbility, cycling_abilities, mana_symbols, matches_search, type_words
from bot.goldfish import abilities
from bot.goldfish.mana import (
    cost_symbols,
    cost_text,
    enters_tapped,
    explain_shortfall,
    land_colours,
    plan_payment,
    symbol_text,
)


class IllegalAction(Exception):
    """An action the rules do not allow now; ``str(e)`` is the reason. The game is unchanged."""


@dataclass
class CardInstance:
    """One card of the game; ``iid`` is unique within a game, data is ``game.cards[name]``."""

    iid: int
    name: str


@dataclass
class Permanent:
    """A permanent on the battlefield: a land, a cast payoff or a token."""

    iid: int
    name: str
    tapped: bool = False
    token: bool = False
    power: int | None = None
    toughness: int | None = None
    entered_turn: int = 0
    damage: int = 0


@dataclass
class Event:
    """Something that happened, with the rule behind it: ``("draw", "Drew Flame Jet", "121.1")``."""

    kind: str
    text: str
    rule: str | None = None


@dataclass
class CycleOption:
    """One cycling ability of one card in hand, affordable or not (then ``reason`` says why)."""

    iid: int
    name: str
    ability_index: int
    label: str
    affordable: bool
    reason: str | None
    is_typecycling: bool
    search: str | None


@dataclass
class CastOption:
    """A payoff permanent in hand that the engine can cast."""

    iid: int
    name: str
    cost: str
    affordable: bool
    reason: str | None


@dataclass
class Deck:
    """A deck: card data by name and ``(count, name)`` entries."""

    name: str
    cards: dict[str, dict]
    entries: list[tuple[int, str]]
    key: str | None = None

    def size(self) -> int:
        return sum(count for count, _ in self.entries)


@dataclass
class Game:
    """A goldfish game. Phases: ``"mulligan"`` (keep or mulligan), ``"main"``, ``"over"``."""

    seed: int
    deck_name: str
    cards: dict[str, dict]
    library: list[CardInstance] = field(default_factory=list)
    hand: list[CardInstance] = field(default_factory=list)
    graveyard: list[CardInstance] = field(default_factory=list)
    exile: list[CardInstance] = field(default_factory=list)
    battlefield: list[Permanent] = field(default_factory=list)
    life: int = 20
    opponent_life: int = 20
    turn: int = 0
    on_the_play: bool = True
    land_played: bool = False
    mulligans: int = 0
    phase: str = "mulligan"
    result: str | None = None
    log: list[str] = field(default_factory=list)
    actions: list[dict] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    version: int = 0
    deck_key: str | None = None
    deck_entries: list[tuple[int, str]] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random, repr=False, compare=False)

    drew_from_empty: bool = False
    iid_names: dict[int, str] = field(default_factory=dict, repr=False)

    # ----------------------------------------------------------------- setup

    @classmethod
    def new(cls, deck: Deck, *, seed: int, on_the_play: bool = True) -> Game:
        """Shuffle the deck with ``random.Random(seed)``, draw seven; phase ``"mulligan"``."""
        if deck.size() == 0:
            raise IllegalAction("The deck is empty.")
        game = cls(
            seed=seed,
            deck_name=deck.name,
            cards=deck.cards,
            on_the_play=on_the_play,
            deck_key=deck.key,
            deck_entries=[(count, name) for count, name in deck.entries],
            rng=random.Random(seed),
            stats=dict.fromkeys(STAT_KEYS, 0),
        )
        iid = 0
        for count, name in deck.entries:
            if name not in deck.cards:
                raise IllegalAction(f"The deck lists {name!r} but has no card data for it.")
            for _ in range(count):
                iid += 1
                game.iid_names[iid] = name
                game.library.append(CardInstance(iid, name))
        game.rng.shuffle(game.library)
        game._draw_opening()
        game.log.append(f"Game {seed}: {deck.name}, {'on the play' if on_the_play else 'on the draw'}.")
        game.log.append("Drew an opening hand of seven (103.5): keep or mulligan.")
        return game

    def _draw_opening(self) -> None:
        self.hand, self.library = self.library[:7], self.library[7:]

    def mulligan(self) -> list[Event]:
        """London mulligan (103.5): shuffle the hand back, draw seven again."""
        self._require_phase("mulligan", "You can only mulligan before keeping a hand.")
        if self.mulligans >= 7:
            raise IllegalAction("You have already taken seven mulligans; keep this hand.")
        self.library.extend(self.hand)
        self.hand = []
        self.rng.shuffle(self.library)
        self._draw_opening()
        self.mulligans += 1
        events = [
            Event(
                "mulligan",
                f"Mulligan {self.mulligans}: shuffled the hand away and drew seven; on keeping, "
                f"put {self.mulligans} on the bottom",
                "103.5",
            )
        ]
        return self._done({"do": "mulligan"}, events)

    def keep(self, bottom: list[int] | tuple[int, ...] = ()) -> list[Event]:
        """Keep the hand, putting one card per mulligan (iids in ``bottom``) on the bottom; turn 1 begins."""
        self._require_phase("mulligan", "You have already kept a hand.")
        bottom = [int(b) for b in bottom]
        if len(bottom) != self.mulligans:
            raise IllegalAction(
                f"After {self.mulligans} mulligan(s) put exactly {self.mulligans} card(s) on the bottom (103.5); "
                f"you chose {len(bottom)}."
            )
        if len(set(bottom)) != len(bottom):
            raise IllegalAction("Choose each card to put on the bottom only once.")
        in_hand = {card.iid for card in self.hand}
        for iid in bottom:
            if iid not in in_hand:
                raise IllegalAction(f"Card #{iid} is not in your hand.")
        for iid in bottom:
            card = self._take(self.hand, iid)
            self.library.append(card)
        names = ", ".join(self.iid_names[i] for i in bottom)
        text = f"Kept {len(self.hand)} card(s)" + (f", put {names} on the bottom" if bottom else "")
        events = [Event("mulligan", text, "103.5")]
        self.turn = 1
        self.stats["turns"] = 1
        self.phase = "main"
        events.append(Event("turn", "Turn 1: untap, upkeep, draw, main", "500.1"))
        if self.on_the_play:
            events.append(Event("draw", "Skipped the first draw: you are on the play", "103.8a"))
        else:
            events += self._draw(1, "draw step")
        events += self._check_sba()
        return self._done({"do": "keep", "bottom": bottom}, events)

    # --------------------------------------------------------------- cycling

    def _cycling(self, name: str) -> list[CyclingAbility]:
        return cycling_abilities(self.cards[name])

    def _find_ability(self, iid: int, ability_index: int) -> tuple[CardInstance, CyclingAbility]:
        card = next((c for c in self.hand if c.iid == iid), None)
        if card is None:
            name = self.iid_names.get(iid)
            if name is None:
                raise IllegalAction(f"There is no card #{iid} in this game.")
            zone = self._zone_of(iid)
            raise IllegalAction(f"{name} is {zone}: cycling works only while the card is in your hand (702.29a).")
        abilities = self._cycling(card.name)
        if not abilities:
            raise IllegalAction(f"{card.name} has no cycling ability.")
        if not 0 <= ability_index < len(abilities):
            raise IllegalAction(f"{card.name} has {len(abilities)} cycling ability(ies); choose 1–{len(abilities)}.")
        return card, abilities[ability_index]

    def _free_cycling(self) -> str | None:
        for permanent in self.battlefield:
            size = abilities.FREE_CYCLING_HAND_SIZE.get(permanent.name)
            if size is not None and not permanent.token and len(self.hand) >= size:
                return permanent.name
        return None

    def _reduction(self) -> tuple[int, list[str]]:
        total, sources = 0, []
        for permanent in self.battlefield:
            amount = abilities.COST_REDUCTIONS.get(permanent.name)
            if amount and not permanent.token:
                total += amount
                sources.append(permanent.name)
        return total, sources

    def _cycle_cost(self, ability: CyclingAbility, x: int) -> tuple[tuple[str, ...], int, str | None, str]:
        """(mana symbols to pay, life, sacrifice, description) after cost changes (601.2f)."""
        free = self._free_cycling()
        if free:
            return (), 0, None, f"{{0}} instead of {ability.cost} ({free})"
        cost = ability.cost
        reduction, sources = self._reduction()
        symbols = cost_symbols(cost.mana, x=x, reduction=reduction) if cost.mana else ()
        if cost.life:
            text = f"{cost.life} life"
        elif cost.sacrifice:
            text = f"sacrifice a {cost.sacrifice}"
        else:
            text = cost_text(symbols)
            if reduction and cost_symbols(cost.mana, x=x) != symbols:
                text += f" ({ability.cost} reduced by {', '.join(sources)})"
        return symbols, cost.life, cost.sacrifice, text

    def _cost_problem(self, iid: int, symbols: tuple[str, ...], life: int, sacrifice: str | None) -> str | None:
        if life and self.life < life:
            return f"it costs {life} life and you have {self.life} (119.4)"
        if sacrifice:
            if not any(self._is_sacrificable(p, sacrifice) for p in self.battlefield):
                return f"it needs you to sacrifice a {sacrifice} and you control none"
        if symbols and plan_payment(symbols, self._sources()) is None:
            return explain_shortfall(symbols, self._sources())
        return None

    def _is_sacrificable(self, permanent: Permanent, what: str) -> bool:
        if permanent.token:
            return what in ("creature", "permanent") and permanent.power is not None
        return what == "permanent" or what in type_words(self.cards[permanent.name].get("type_line") or "")

    def _searches(self, name: str, ability: CyclingAbility) -> tuple[str, ...]:
        if ability.search:
            return (ability.search,)
        return abilities.SELF_SEARCHES.get(name, ())

    def cycle_options(self) -> list[CycleOption]:
        """Every cycling ability of every card in hand, affordable or not (with the reason).

        ``search`` is the card type a typecycling ability (or a "when you cycle" search such as
        Krosan Tusker's) looks for. Costs assume ``x = 0``.
        """
        options = []
        for card in self.hand:
            for index, ability in enumerate(self._cycling(card.name)):
                reason = None
                if self.phase != "main":
                    reason = "the game is over" if self.phase == "over" else "keep a hand first"
                else:
                    symbols, life, sacrifice, _ = self._cycle_cost(ability, 0)
                    reason = self._cost_problem(card.iid, symbols, life, sacrifice)
                searches = self._searches(card.name, ability)
                options.append(
                    CycleOption(
                        iid=card.iid,
                        name=card.name,
                        ability_index=index,
                        label=str(ability),
                        affordable=reason is None,
                        reason=reason,
                        is_typecycling=ability.is_typecycling,
                        search=" or ".join(searches) if searches else None,
                    )
                )
        return options

    def _matching(self, searches: tuple[str, ...]) -> list[CardInstance]:
        return [c for c in self.library if any(matches_search(self.cards[c.name], s) for s in searches)]

    def search_candidates(self, iid: int, ability_index: int = 0) -> list[CardInstance]:
        """Library cards (the first of each distinct name, sorted by name) the ability's search could find."""
        card, ability = self._find_ability(iid, ability_index)
        seen: dict[str, CardInstance] = {}
        for candidate in self._matching(self._searches(card.name, ability)):
            seen.setdefault(candidate.name, candidate)
        return [seen[name] for name in sorted(seen)]

    def cycle(
        self,
        iid: int,
        ability_index: int = 0,
        *,
        find: int | None = None,
        find_nothing: bool = False,
        x: int = 0,
        sacrifice: int | None = None,
        pay: bool = True,
    ) -> list[Event]:
        """Activate a cycling ability of a card in hand (702.29a).

        The cost is paid (mana, life or a sacrifice, plus discarding the card), so the card is in
        the graveyard before anything resolves. The cycling ability goes on the stack; the card's
        own "when you cycle" trigger (702.29c) and the payoffs' "whenever you cycle" triggers
        (702.29d, once per cycle) go above it and resolve first; then the ability draws a card, or
        for typecycling (702.29e) searches for a card of the type, reveals it, puts it in hand and
        shuffles. ``find`` is the iid of the library card to find (see ``search_candidates``);
        ``find_nothing=True`` finds nothing by choice; with neither, the first candidate is found.
        """
        self._require_phase("main", self._not_main_reason())
        card, ability = self._find_ability(iid, ability_index)
        x = int(x)
        if x < 0:
            raise IllegalAction("X can't be negative.")
        if x and not ability.cost.has_x and card.name not in abilities.SELF_X:
            raise IllegalAction(f"{card.name}'s {ability} has no {{X}} to choose.")
        cost_x = x if ability.cost.has_x else 0
        trigger_x = x if card.name in abilities.SELF_X else 0
        symbols, life, sacrifice_what, cost_description = self._cycle_cost(ability, cost_x)
        problem = self._cost_problem(iid, symbols, life, sacrifice_what)
        if problem:
            raise IllegalAction(f"You can't cycle {card.name}: {problem}.")
        if trigger_x and plan_payment(symbols + ("1",) * trigger_x, self._sources()) is None:
            raise IllegalAction(
                f"You can't pay {cost_text(symbols)} for {ability} and {{{trigger_x}}} for X: "
                f"you have {len(self._sources())} untapped land(s)."
            )
        sacrificed: Permanent | None = None
        if sacrifice_what:
            if sacrifice is not None:
                sacrificed = next((p for p in self.battlefield if p.iid == sacrifice), None)
                if sacrificed is None or not self._is_sacrificable(sacrificed, sacrifice_what):
                    raise IllegalAction(f"Card #{sacrifice} is not a {sacrifice_what} you control.")
        elif sacrifice is not None:
            raise IllegalAction(f"{card.name}'s {ability} doesn't ask you to sacrifice anything.")
        searches = self._searches(card.name, ability)
        if (find is not None or find_nothing) and not searches:
            raise IllegalAction(f"{card.name}'s {ability} doesn't search your library.")
        if find is not None:
            if find_nothing:
                raise IllegalAction("Choose a card to find or find nothing, not both.")
            found = next((c for c in self.library if c.iid == find), None)
            if found is None or found not in self._matching(searches):
                raise IllegalAction(f"Card #{find} is not a {' or '.join(searches)} card in your library.")

        # Everything is legal: pay the costs (601.2g–h). The discard is part of the cost (702.29a).
        events: list[Event] = []
        if symbols:
            tapped = self._pay_mana(symbols)
            events.append(Event("mana", f"Paid {cost_text(symbols)}: {tapped}", "601.2g"))
        if life:
            self.life -= life
            self.stats["life_paid"] += life
        if sacrifice_what:
            if sacrificed is None:
                sacrificed = self._default_sacrifice(sacrifice_what)
            self._remove_permanent(sacrificed)
            events.append(Event("sacrifice", f"Sacrificed {sacrificed.name}", "701.21a"))
        self._take(self.hand, card.iid)
        self.graveyard.append(card)
        self.stats["cards_cycled"] += 1
        if ability.is_typecycling:
            self.stats["typecycling_searches"] += 1
        rule = "702.29e" if ability.is_typecycling else "702.29a"
        events.append(Event("cycle", f"Cycled {card.name} ({ability}): paid {cost_description}, discarded it", rule))

        ctx = abilities.CycleContext(
            iid=card.iid,
            name=card.name,
            x=trigger_x,
            find=find,
            find_nothing=find_nothing,
            pay=pay,
            typecycling=ability.is_typecycling,
        )
        # Triggers go on the stack above the cycling ability, so they resolve before its draw.
        triggers: list[tuple[str, Callable[[], list[Event]]]] = []
        if card.name in abilities.SELF_TRIGGERS:
            handler = abilities.SELF_TRIGGERS[card.name]
            triggers.append(
                (f'{card.name}\'s "when you cycle" ability (from the graveyard)', lambda: handler(self, ctx))
            )
        for line in abilities.unmodelled_text(self.cards[card.name]):
            events.append(Event("unmodelled", f"{card.name}: not modelled by the engine, resolve it yourself: {line}"))
        for permanent in list(self.battlefield):
            payoff = abilities.PAYOFFS.get(permanent.name)
            if payoff is None or permanent.token or (payoff.another and permanent.iid == card.iid):
                continue
            triggers.append(
                (f'{permanent.name} ("{payoff.text}")', lambda p=payoff, s=permanent.iid: p.handler(self, ctx, s))
            )
        if triggers:
            also = " (typecycling is cycling, 702.29f)" if ability.is_typecycling else ""
            events.append(
                Event(
                    "stack",
                    f"{len(triggers)} trigger(s) go on the stack above the cycling ability and resolve first{also}: "
                    + "; ".join(label for label, _ in triggers),
                    "702.29c" if card.name in abilities.SELF_TRIGGERS else "702.29d",
                )
            )
        events += self._check_sba()
        for label, resolve in triggers:
            if self.phase == "over":
                break
            events.append(Event("trigger", f"Resolving {label}", "702.29c" if "graveyard" in label else "702.29d"))
            events += resolve()
            events += self._check_sba()
        if self.phase != "over":
            if ability.is_typecycling:
                events += self._search_library(ctx, searches, to="hand", source=card.name, rule="702.29e")
            else:
                events += self._draw(1, f"cycling {card.name}")
            events += self._check_sba()
        action: dict[str, Any] = {"do": "cycle", "iid": iid}
        if ability_index:
            action["ability"] = ability_index
        if find is not None:
            action["find"] = find
        if find_nothing:
            action["find_nothing"] = True
        if x:
            action["x"] = x
        if sacrifice is not None:
            action["sacrifice"] = sacrifice
        if not pay:
            action["pay"] = False
        return self._done(action, events)

    def _default_sacrifice(self, what: str) -> Permanent:
        candidates = [p for p in self.battlefield if self._is_sacrificable(p, what)]
        return min(candidates, key=lambda p: (not p.tapped, len(self._colours(p)), p.iid))

    # ----------------------------------------------------------- lands, mana

    def is_land(self, name: str) -> bool:
        """Whether the card named ``name`` is a land (its front face, for double-faced cards); tokens are not."""
        card = self.cards.get(name)
        if card is None:
            return False
        type_line = card.get("type_line") or ""
        return "land" in type_line.split("//")[0].lower().split()

    def playable_lands(self) -> list[CardInstance]:
        """Lands in hand that can be played now (one land per turn, main phase)."""
        if self.phase != "main" or self.land_played:
            return []
        return [c for c in self.hand if self.is_land(c.name)]

    def play_land(self, iid: int) -> list[Event]:
        """Play a land from hand (305.2: one per turn)."""
        self._require_phase("main", self._not_main_reason())
        card = next((c for c in self.hand if c.iid == iid), None)
        if card is None:
            raise IllegalAction(f"Card #{iid} is not in your hand.")
        if not self.is_land(card.name):
            raise IllegalAction(f"{card.name} is not a land (this engine casts no spells except the payoffs).")
        if self.land_played:
            raise IllegalAction("You have already played a land this turn (305.2).")
        self._take(self.hand, iid)
        events = self._enter_land(card, "Played")
        self.land_played = True
        self.stats["lands_played"] += 1
        events += self._check_sba()
        return self._done({"do": "play", "iid": iid}, events)

    def _enter_land(self, card: CardInstance, verb: str) -> list[Event]:
        tapped = enters_tapped(self.cards[card.name])
        self.battlefield.append(Permanent(card.iid, card.name, tapped=tapped, entered_turn=self.turn))
        return [Event("land", f"{verb} {card.name}" + (" (it enters tapped)" if tapped else ""), "305.1")]

    def _colours(self, permanent: Permanent) -> frozenset[str]:
        if permanent.token or permanent.name not in self.cards:
            return frozenset()
        card = self.cards[permanent.name]
        if not self.is_land(permanent.name):
            return frozenset()
        return _land_colours_cached(permanent.name, card.get("type_line") or "", card.get("oracle_text") or "")

    def _sources(self) -> list[tuple[int, frozenset[str]]]:
        return [(p.iid, c) for p in self.battlefield if not p.tapped and (c := self._colours(p))]

    def _pay_mana(self, symbols: tuple[str, ...]) -> str | None:
        plan = plan_payment(symbols, self._sources())
        if plan is None:
            return None
        names = []
        for permanent in self.battlefield:
            if permanent.iid in plan:
                permanent.tapped = True
                names.append(permanent.name)
        self.stats["mana_spent"] += len(symbols)
        return "tapped " + ", ".join(names)

    def _pay_optional(self, symbols: tuple[str, ...], pay: bool) -> str | None:
        return self._pay_mana(symbols) if pay else None

    def available_mana(self) -> str:
        """The mana the untapped lands can make, one symbol per land: ``"{W}{W/R}{C}"``."""
        return "".join(symbol_text(colours) for _, colours in self._sources())

    # ------------------------------------------------------------- casting

    def _cast_symbols(self, name: str) -> tuple[str, ...]:
        return cost_symbols(mana_symbols(self.cards[name].get("mana_cost") or ""))

    def cast_options(self) -> list[CastOption]:
        """The modelled payoff permanents in hand and whether they can be paid for."""
        options = []
        for card in self.hand:
            if card.name not in abilities.CASTABLE:
                continue
            symbols = self._cast_symbols(card.name)
            reason = None
            if self.phase != "main":
                reason = self._not_main_reason()
            elif symbols and plan_payment(symbols, self._sources()) is None:
                reason = explain_shortfall(symbols, self._sources())
            options.append(CastOption(card.iid, card.name, cost_text(symbols), reason is None, reason))
        return options

    def cast(self, iid: int) -> list[Event]:
        """Cast a modelled payoff permanent from hand for its mana cost; it resolves at once (no opponent)."""
        self._require_phase("main", self._not_main_reason())
        card = next((c for c in self.hand if c.iid == iid), None)
        if card is None:
            raise IllegalAction(f"Card #{iid} is not in your hand.")
        if card.name not in abilities.CASTABLE:
            raise IllegalAction(
                f"{card.name} can't be cast here: this engine is for cycling practice and casts only the "
                "payoffs whose abilities it models."
            )
        symbols = self._cast_symbols(card.name)
        if symbols and plan_payment(symbols, self._sources()) is None:
            raise IllegalAction(f"You can't cast {card.name}: {explain_shortfall(symbols, self._sources())}.")
        events = []
        tapped = self._pay_mana(symbols) if symbols else "no mana"
        self._take(self.hand, iid)
        data = self.cards[card.name]
        power, toughness = _int_or_none(data.get("power")), _int_or_none(data.get("toughness"))
        self.battlefield.append(Permanent(iid, card.name, power=power, toughness=toughness, entered_turn=self.turn))
        events.append(Event("cast", f"Cast {card.name} for {cost_text(symbols)} ({tapped}); it resolves", "601.2"))
        enters = abilities.ENTERS.get(card.name)
        if enters:
            events += self._check_sba()
            events += enters(self, card.name)
        events += self._check_sba()
        return self._done({"do": "cast", "iid": iid}, events)

    # ---------------------------------------------------------------- turns

    def next_turn(self) -> list[Event]:
        """End the turn and play the next: untap (502.3), upkeep, draw (504.1), main.

        Before the turn ends, your creatures that have been under your control since the turn
        began attack; the opponent does not block (goldfish).
        """
        self._require_phase("main", self._not_main_reason())
        events = []
        attackers = [p for p in self.battlefield if p.power is not None and p.entered_turn < self.turn]
        damage = sum(max(0, p.power or 0) for p in attackers)
        if damage:
            self.opponent_life -= damage
            self.stats["damage_dealt"] += damage
            names = ", ".join(p.name for p in attackers)
            events.append(Event("combat", f"Attacked with {names}: {damage} damage to the opponent", "510.1"))
            events += self._check_sba()
            if self.phase == "over":
                return self._done({"do": "next"}, events)
        for permanent in self.battlefield:
            permanent.damage = 0
        self.turn += 1
        self.stats["turns"] = self.turn
        self.land_played = False
        for permanent in self.battlefield:
            permanent.tapped = False
        events.append(Event("turn", f"Turn {self.turn}: untapped your permanents", "502.3"))
        events += self._draw(1, "draw step")
        events += self._check_sba()
        return self._done({"do": "next"}, events)

    # --------------------------------------------------------------- effects

    def _draw(self, count: int, reason: str) -> list[Event]:
        events = []
        for _ in range(count):  # one card at a time (121.2)
            if not self.library:
                self.drew_from_empty = True
                events.append(
                    Event(
                        "draw",
                        f"Tried to draw ({reason}) from an empty library: you lose when state-based actions are "
                        "next checked",
                        "121.4",
                    )
                )
                continue
            card = self.library.pop(0)
            self.hand.append(card)
            self.stats["cards_drawn"] += 1
            events.append(Event("draw", f"Drew {card.name} ({reason})", "121.1"))
        return events

    def _gain_life(self, amount: int, source: str) -> list[Event]:
        self.life += amount
        self.stats["life_gained"] += amount
        return [Event("life", f"{source}: you gain {amount} life ({self.life})", "119.3")]

    def _damage_opponent(self, amount: int, source: str) -> list[Event]:
        self.opponent_life -= amount
        self.stats["damage_dealt"] += amount
        return [Event("damage", f"{source} deals {amount} damage to the opponent ({self.opponent_life})", "120.3")]

    def _create_tokens(self, count: int, name: str, power: int, toughness: int, description: str, source: str):
        for _ in range(count):
            iid = max(self.iid_names) + 1
            self.iid_names[iid] = f"{name} token"
            self.battlefield.append(
                Permanent(iid, f"{name} token", token=True, power=power, toughness=toughness, entered_turn=self.turn)
            )
        self.stats["tokens"] += count
        return [Event("token", f"{source}: created {count} {description} token(s)", "111.1")]

    def _search_library(
        self, ctx: abilities.CycleContext, searches: tuple[str, ...], *, to: str, source: str, rule: str
    ) -> list[Event]:
        wanted = " or ".join(searches)
        candidates = self._matching(searches)
        found = None
        if ctx.find is not None:
            found = next((c for c in candidates if c.iid == ctx.find), None)
        elif not ctx.find_nothing and candidates:
            found = min(candidates, key=lambda c: (c.name, self.library.index(c)))
        events = []
        if found is None:
            why = "by choice" if ctx.find_nothing else "none left in the library"
            events.append(Event("search", f"{source}: searched for a {wanted} card and found nothing ({why})", rule))
        else:
            self._take(self.library, found.iid)
            if to == "hand":
                self.hand.append(found)
                events.append(
                    Event(
                        "search",
                        f"{source}: searched for a {wanted} card, revealed {found.name} and put it into your hand "
                        "(a search, not a draw: 121.5)",
                        rule,
                    )
                )
            else:
                events.append(Event("search", f"{source}: searched for a {wanted} card: {found.name}", rule))
                events += self._enter_land(found, "Put onto the battlefield:")
        self.rng.shuffle(self.library)
        events.append(Event("shuffle", "Shuffled your library", rule))
        return events

    def _untap_best_land(self, source: str) -> list[Event]:
        tapped = [p for p in self.battlefield if p.tapped and self._colours(p)]
        if not tapped:
            return [Event("trigger", f"{source}: no tapped land to untap", "702.29c")]
        best = max(tapped, key=lambda p: (len(self._colours(p)), -p.iid))
        best.tapped = False
        return [Event("untap", f"{source}: untapped {best.name}", "702.29c")]

    def _check_sba(self) -> list[Event]:
        """State-based actions (704), checked whenever a player would receive priority."""
        if self.phase == "over":
            return []
        events = []
        dead = [
            p for p in self.battlefield if p.toughness is not None and (p.toughness <= 0 or p.damage >= p.toughness)
        ]
        for permanent in dead:
            self._remove_permanent(permanent)
            events.append(Event("dies", f"{permanent.name} dies", "704.5g"))
        if self.drew_from_empty:
            self._end("lost: drew from an empty library (704.5b)")
            events.append(Event("loss", "You lose: you drew from an empty library", "704.5b"))
        elif self.life <= 0:
            self._end("lost: life total 0 or less (704.5a)")
            events.append(Event("loss", f"You lose: your life total is {self.life}", "704.5a"))
        elif self.opponent_life <= 0:
            self._end(f"won: the opponent is at {self.opponent_life} life on turn {self.turn} (704.5a)")
            events.append(
                Event("win", f"You win on turn {self.turn}: the opponent is at {self.opponent_life}", "704.5a")
            )
        return events

    def _end(self, result: str) -> None:
        self.phase = "over"
        self.result = result

    def _remove_permanent(self, permanent: Permanent) -> None:
        self.battlefield.remove(permanent)
        if not permanent.token:
            self.graveyard.append(CardInstance(permanent.iid, permanent.name))

    # --------------------------------------------------------------- helpers

    def _take(self, zone: list, iid: int):
        for index, item in enumerate(zone):
            if item.iid == iid:
                return zone.pop(index)
        raise IllegalAction(f"Card #{iid} is not there.")

    def _zone_of(self, iid: int) -> str:
        for label, zone in (
            ("in your library", self.library),
            ("in your graveyard", self.graveyard),
            ("in exile", self.exile),
            ("on the battlefield", self.battlefield),
        ):
            if any(item.iid == iid for item in zone):
                return label
        return "not in your hand"

    def _not_main_reason(self) -> str:
        if self.phase == "over":
            return f"The game is over ({self.result})."
        return "Keep a hand (or mulligan) first."

    def _require_phase(self, phase: str, reason: str) -> None:
        if self.phase == "over":
            raise IllegalAction(f"The game is over ({self.result}).")
        if self.phase != phase:
            raise IllegalAction(reason)

    def _done(self, action: dict, events: list[Event]) -> list[Event]:
        self.actions.append(action)
        self.version += 1
        self.log.extend(event.text for event in events)
        return events

    def unmodelled_text(self, name: str) -> list[str]:
        """The abilities of a card (oracle text lines) about cycling or discarding that the engine does not model."""
        card = self.cards.get(name)
        return abilities.unmodelled_text(card) if card else []

    # --------------------------------------------------------- persistence

    def to_dict(self) -> dict[str, Any]:
        """A compact JSON-safe snapshot, including the RNG state."""
        version, state, gauss = self.rng.getstate()
        names = sorted(set(self.iid_names.values()))
        index = {name: i for i, name in enumerate(names)}
        data: dict[str, Any] = {
            "format": 1,
            "seed": self.seed,
            "deck": self.deck_name,
            "key": self.deck_key,
            "entries": [[count, name] for count, name in self.deck_entries],
            "names": names,
            "iids": [index[self.iid_names[i]] for i in sorted(self.iid_names)],
            "library": [c.iid for c in self.library],
            "hand": [c.iid for c in self.hand],
            "graveyard": [c.iid for c in self.graveyard],
            "exile": [c.iid for c in self.exile],
            "battlefield": [
                [p.iid, int(p.tapped), int(p.token), p.power, p.toughness, p.entered_turn, p.damage]
                for p in self.battlefield
            ],
            "life": self.life,
            "opponent_life": self.opponent_life,
            "turn": self.turn,
            "on_the_play": self.on_the_play,
            "land_played": self.land_played,
            "mulligans": self.mulligans,
            "phase": self.phase,
            "result": self.result,
            "drew_from_empty": self.drew_from_empty,
            "log": list(self.log),
            "actions": [dict(a) for a in self.actions],
            "stats": dict(self.stats),
            "version": self.version,
            "rng": [version, list(state), gauss],
        }
        if self.deck_key is None:
            data["cards"] = self.cards
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The exact game ``to_dict`` saved."""
        key = data.get("key")
        if key is not None:
            from bot.goldfish.decks import preset_decks

            cards = preset_decks()[key].cards
        else:
            cards = data["cards"]
        names = data["names"]
        iid_names = {i + 1: names[n] for i, n in enumerate(data["iids"])}
        rng = random.Random()
        version, state, gauss = data["rng"]
        rng.setstate((version, tuple(state), gauss))

        def instances(iids: list[int]) -> list[CardInstance]:
            return [CardInstance(i, iid_names[i]) for i in iids]

        return cls(
            seed=data["seed"],
            deck_name=data["deck"],
            cards=cards,
            library=instances(data["library"]),
            hand=instances(data["hand"]),
            graveyard=instances(data["graveyard"]),
            exile=instances(data["exile"]),
            battlefield=[
                Permanent(i, iid_names[i], bool(t), bool(k), p, th, e, d)
                for i, t, k, p, th, e, d in data["battlefield"]
            ],
            life=data["life"],
            opponent_life=data["opponent_life"],
            turn=data["turn"],
            on_the_play=data["on_the_play"],
            land_played=data["land_played"],
            mulligans=data["mulligans"],
            phase=data["phase"],
            result=data["result"],
            log=list(data["log"]),
            actions=[dict(a) for a in data["actions"]],
            stats=dict(data["stats"]),
            version=data["version"],
            deck_key=key,
            deck_entries=[(count, name) for count, name in data["entries"]],
            rng=rng,
            drew_from_empty=data["drew_from_empty"],
            iid_names=iid_names,
        )

    @classmethod
    def replay(cls, deck: Deck, seed: int, on_the_play: bool, actions: list[dict]) -> Game:
        """A new game from the seed with the action log applied again; equals the live game."""
        game = cls.new(deck, seed=seed, on_the_play=on_the_play)
        for action in actions:
            game.apply(action)
        return game

    def apply(self, action: dict) -> list[Event]:
        """Apply one entry of an action log (``{"do": "cycle", "iid": 12, ...}``)."""
        kind = action.get("do")
        if kind == "mulligan":
            return self.mulligan()
        if kind == "keep":
            return self.keep(action.get("bottom", ()))
        if kind == "cycle":
            return self.cycle(
                action["iid"],
                action.get("ability", 0),
                find=action.get("find"),
                find_nothing=action.get("find_nothing", False),
                x=action.get("x", 0),
                sacrifice=action.get("sacrifice"),
                pay=action.get("pay", True),
            )
        if kind == "play":
            return self.play_land(action["iid"])
        if kind == "cast":
            return self.cast(action["iid"])
        if kind == "next":
            return self.next_turn()
        raise IllegalAction(f"Unknown action {kind!r}.")


STAT_KEYS = (
    "cards_cycled",
    "typecycling_searches",
    "cards_drawn",
    "turns",
    "damage_dealt",
    "tokens",
    "life_gained",
    "life_paid",
    "lands_played",
    "mana_spent",
)


@lru_cache(maxsize=512)
def _land_colours_cached(name: str, type_line: str, oracle_text: str) -> frozenset[str]:
    return land_colours({"name": name, "type_line": type_line, "oracle_text": oracle_text})


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
