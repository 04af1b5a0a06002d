"""Goldfish engine: rules-exact solitaire games for practising cycling (CR 702.29), with no Discord code.

The opponent starts at 20 life and does nothing. Lands are played; non-land spells are not cast
(this is cycling practice), with one exception: the payoff permanents whose abilities the engine
models (see :mod:`bot.goldfish.scripts`) can be cast with ``cast`` so that their triggers and
static abilities work. Every random step uses the game's own seeded ``random.Random``, so a game
is replayed from its seed and its action log.

``Game.apply(Action)`` is the one dispatcher: ``mulligan``, ``keep``, ``cycle``, ``play_land``,
``cast`` and ``next_turn`` build an :class:`~bot.goldfish.model.Action` and apply it; the action
log holds the actions, ``events`` everything that happened (``log`` is their text).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.goldfish.cardbook import CardBook, book_for
from bot.goldfish.cycling_play import Cycling
from bot.goldfish.effects import Effects
from bot.goldfish.mana import cost_text, explain_shortfall
from bot.goldfish.model import GAME_STATS, Action, CardInstance, CastOption, Deck, Event, IllegalAction, Permanent
from bot.goldfish.save import Saving
from bot.goldfish.scripts import CASTABLE, script_for, unmodelled_text

OPENING_HAND = 7


@dataclass
class Game(Cycling, Effects, Saving):
    """A goldfish game. Phases: ``"mulligan"`` (keep or mulligan), ``"main"``, ``"over"``."""

    seed: int
    deck_name: str
    cards: dict[str, dict]
    library: list[CardInstance] = field(default_factory=list)
    hand: list[CardInstance] = field(default_factory=list)
    graveyard: list[CardInstance] = field(default_factory=list)
    battlefield: list[Permanent] = field(default_factory=list)
    life: int = 20
    opponent_life: int = 20
    turn: int = 0
    on_the_play: bool = True
    land_played: bool = False
    mulligans: int = 0
    phase: str = "mulligan"
    result: str | None = None
    events: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GAME_STATS, 0))
    deck_key: str | None = None
    deck_entries: list[tuple[int, str]] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random, repr=False, compare=False)
    drew_from_empty: bool = False
    iid_names: dict[int, str] = field(default_factory=dict, repr=False)
    book: CardBook = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.book = book_for(self.cards)

    @property
    def log(self) -> list[str]:
        """The text of every event, oldest first."""
        return [event.text for event in self.events]

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
        side = "on the play" if on_the_play else "on the draw"
        game.events.append(Event("setup", f"Game {seed}: {deck.name}, {side}."))
        game.events.append(Event("setup", "Drew an opening hand of seven (103.5): keep or mulligan.", "103.5"))
        return game

    @classmethod
    def replay(cls, deck: Deck, seed: int, on_the_play: bool, actions: Sequence[Action]) -> Game:
        """A new game from the seed with the action log applied again; equals the live game."""
        game = cls.new(deck, seed=seed, on_the_play=on_the_play)
        for action in actions:
            game.apply(action)
        return game

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; on success it joins the action log and its events the game's events."""
        handler = {
            "mulligan": self._mulligan,
            "keep": self._keep,
            "cycle": self._cycle,
            "play": self._play_land,
            "cast": self._cast,
            "next": self._next_turn,
        }.get(action.kind)
        if handler is None:
            raise IllegalAction(f"Unknown action {action.kind!r}.")
        events = handler(action)
        self.actions.append(action)
        self.events.extend(events)
        return events

    # ------------------------------------------------------------ the actions

    def mulligan(self) -> list[Event]:
        """London mulligan (103.5): shuffle the hand back, draw seven again."""
        return self.apply(Action("mulligan"))

    def keep(self, bottom: Sequence[int] = ()) -> list[Event]:
        """Keep the hand, putting one card per mulligan (iids in ``bottom``) on the bottom; turn 1 begins."""
        return self.apply(Action("keep", bottom=tuple(int(b) for b in bottom)))

    def cycle(self, iid: int, ability_index: int = 0, **choices) -> list[Event]:  # noqa: D417 (see Cycling.cycle)
        return self.apply(Action("cycle", iid, ability_index, **choices))

    cycle.__doc__ = Cycling.cycle.__doc__

    def play_land(self, iid: int) -> list[Event]:
        """Play a land from hand (305.2: one per turn)."""
        return self.apply(Action("play", iid))

    def cast(self, iid: int) -> list[Event]:
        """Cast a modelled payoff permanent from hand for its mana cost; it resolves at once (no opponent)."""
        return self.apply(Action("cast", iid))

    def next_turn(self) -> list[Event]:
        """End the turn and play the next: untap (502.3), upkeep, draw (504.1), main.

        Before the turn ends, your creatures that have been under your control since the turn
        began attack; the opponent does not block (goldfish).
        """
        return self.apply(Action("next"))

    def _draw_opening(self) -> None:
        self.hand, self.library = self.library[:OPENING_HAND], self.library[OPENING_HAND:]

    def _mulligan(self, action: Action) -> list[Event]:
        self.require_phase("mulligan", "You can only mulligan before keeping a hand.")
        if self.mulligans >= OPENING_HAND:
            raise IllegalAction("You have already taken seven mulligans; keep this hand.")
        self.library.extend(self.hand)
        self.hand = []
        self.rng.shuffle(self.library)
        self._draw_opening()
        self.mulligans += 1
        text = (
            f"Mulligan {self.mulligans}: shuffled the hand away and drew seven; on keeping, "
            f"put {self.mulligans} on the bottom"
        )
        return [Event("mulligan", text, "103.5")]

    def _keep(self, action: Action) -> list[Event]:
        self.require_phase("mulligan", "You have already kept a hand.")
        bottom = list(action.bottom)
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
            self.library.append(self.take(self.hand, iid))
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
            events += self.draw(1, "draw step")
        return events + self.check_state()

    def _cycle(self, action: Action) -> list[Event]:
        return Cycling.cycle(
            self,
            action.iid,
            action.ability,
            find=action.find,
            find_nothing=action.find_nothing,
            x=action.x,
            sacrifice=action.sacrifice,
            pay=action.pay,
        )

    def _hand_card(self, iid: int | None) -> CardInstance:
        card = next((c for c in self.hand if c.iid == iid), None)
        if card is None:
            raise IllegalAction(f"Card #{iid} is not in your hand.")
        return card

    def _play_land(self, action: Action) -> list[Event]:
        self.require_phase("main")
        card = self._hand_card(action.iid)
        if not self.is_land(card.name):
            raise IllegalAction(f"{card.name} is not a land (this engine casts no spells except the payoffs).")
        if self.land_played:
            raise IllegalAction("You have already played a land this turn (305.2).")
        self.take(self.hand, card.iid)
        events = self.put_land_onto_battlefield(card, "Played")
        self.land_played = True
        self.stats["lands_played"] += 1
        return events + self.check_state()

    def _cast(self, action: Action) -> list[Event]:
        self.require_phase("main")
        card = self._hand_card(action.iid)
        if card.name not in CASTABLE:
            raise IllegalAction(
                f"{card.name} can't be cast here: this engine is for cycling practice and casts only the "
                "payoffs whose abilities it models."
            )
        facts = self.book[card.name]
        symbols = facts.cast_symbols
        if not self.can_pay(symbols):
            raise IllegalAction(f"You can't cast {card.name}: {explain_shortfall(symbols, self.mana_sources())}.")
        tapped = self.pay_mana(symbols) if symbols else "no mana"
        self.take(self.hand, card.iid)
        self.battlefield.append(
            Permanent(card.iid, card.name, power=facts.power, toughness=facts.toughness, entered_turn=self.turn)
        )
        events = [Event("cast", f"Cast {card.name} for {cost_text(symbols)} ({tapped}); it resolves", "601.2")]
        enters = script_for(card.name).on_enter
        if enters:
            events += self.check_state()
            events += enters(self, card.name)
        return events + self.check_state()

    def _next_turn(self, action: Action) -> list[Event]:
        self.require_phase("main")
        events = []
        attackers = [p for p in self.creatures() if p.entered_turn < self.turn]
        damage = sum(max(0, p.power or 0) for p in attackers)
        if damage:
            self.opponent_life -= damage
            self.stats["damage_dealt"] += damage
            names = ", ".join(p.name for p in attackers)
            events.append(Event("combat", f"Attacked with {names}: {damage} damage to the opponent", "510.1"))
            events += self.check_state()
            if self.phase == "over":
                return events
        self.turn += 1
        self.stats["turns"] = self.turn
        self.land_played = False
        for permanent in self.battlefield:
            permanent.tapped = False
        events.append(Event("turn", f"Turn {self.turn}: untapped your permanents", "502.3"))
        events += self.draw(1, "draw step")
        return events + self.check_state()

    # ------------------------------------------------------------ questions

    def is_land(self, name: str) -> bool:
        """Whether the card named ``name`` is a land (its front face, for double-faced cards); tokens are not."""
        return name in self.book and self.book[name].is_land

    def playable_lands(self) -> list[CardInstance]:
        """Lands in hand that can be played now (one land per turn, main phase)."""
        if self.phase != "main" or self.land_played:
            return []
        return [c for c in self.hand if self.is_land(c.name)]

    def cast_options(self) -> list[CastOption]:
        """The modelled payoff permanents in hand and whether they can be paid for."""
        options = []
        for card in self.hand:
            if card.name not in CASTABLE:
                continue
            symbols = self.book[card.name].cast_symbols
            reason = None
            if self.phase != "main":
                reason = self.not_main_reason()
            elif not self.can_pay(symbols):
                reason = explain_shortfall(symbols, self.mana_sources())
            options.append(CastOption(card.iid, card.name, cost_text(symbols), reason is None, reason))
        return options

    def unmodelled_text(self, name: str) -> list[str]:
        """The abilities of a card (oracle text lines) about cycling or discarding that the engine does not model."""
        card = self.cards.get(name)
        return unmodelled_text(card) if card else []

    def zone_of(self, iid: int) -> str:
        for label, zone in (
            ("in your library", self.library),
            ("in your graveyard", self.graveyard),
            ("on the battlefield", self.battlefield),
        ):
            if any(item.iid == iid for item in zone):
                return label
        return "not in your hand"

    def not_main_reason(self) -> str:
        if self.phase == "over":
            return f"The game is over ({self.result})."
        return "Keep a hand (or mulligan) first."

    def require_phase(self, phase: str, reason: str | None = None) -> None:
        if self.phase == "over":
            raise IllegalAction(f"The game is over ({self.result}).")
        if self.phase != phase:
            raise IllegalAction(reason or self.not_main_reason())
