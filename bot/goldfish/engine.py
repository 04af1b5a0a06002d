"""Goldfish engine: rules-exact solitaire games for practising cycling (CR 702.29), with no Discord code.

The opponent starts at 20 life and does nothing. Lands are played, and every spell can be cast when
its cost can be paid (:mod:`bot.goldfish.casting`): a permanent resolves onto the battlefield and
its creatures attack from the next turn, an instant or sorcery goes to the graveyard. What a card
does is declared once in :mod:`bot.goldfish.scripts`; an effect the engine does not model is said
so when the card is cast. Every random step uses the game's own seeded ``random.Random``, so a game
is replayed from its seed and its action log.

``Game.apply(Action)`` is the one dispatcher: ``mulligan``, ``keep``, ``cycle``, ``play_land``,
``cast`` and ``next_turn`` build an :class:`~bot.goldfish.model.Action` and apply it; the action
log holds the actions, ``events`` everything that happened (``log`` is their text).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.goldfish.cardbook import CardBook, book_for
from bot.goldfish.casting import Casting
from bot.goldfish.cycling_play import Cycling
from bot.goldfish.decision import Deciding
from bot.goldfish.effects import Effects
from bot.goldfish.model import GAME_STATS, Action, CardInstance, Deck, Event, IllegalAction, Permanent
from bot.goldfish.save import Saving
from bot.goldfish.scripts import unmodelled_text
from bot.goldfish.turns import Turns
from bot.text import plural

OPENING_HAND = 7


@dataclass
class Game(Cycling, Casting, Turns, Deciding, Effects, Saving):
    """A goldfish game. Phases: ``"mulligan"`` (keep or mulligan), ``"main"``, ``"cleanup"`` (discard down to
    seven), ``"end_step"`` (the opponent's end step), ``"upkeep"`` (echo or upkeep abilities), ``"over"``.
    :meth:`decision` says what the game waits for and which actions are legal."""

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
    actors: list[int | None] = field(default_factory=list)  # who took each action (``actions[i]``), if known
    stats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GAME_STATS, 0))
    deck_key: str | None = None
    deck_entries: list[tuple[int, str]] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random, repr=False, compare=False)
    drew_from_empty: bool = False
    iid_names: dict[int, str] = field(default_factory=dict, repr=False)
    replayable: bool = True
    book: CardBook = field(init=False, repr=False, compare=False)
    _memo: dict = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.book = book_for(self.cards)

    def memo(self, name: str, compute):
        """``compute()``, remembered until the game changes: a message asks for the same options several times."""
        stamp = (
            len(self.actions),
            len(self.events),
            self.phase,
            self.life,
            self.land_played,
            len(self.library),
            tuple(c.iid for c in self.hand),
            tuple((p.iid, p.tapped, p.echo) for p in self.battlefield),
            tuple(c.iid for c in self.graveyard),
        )
        held = self._memo.get(name)
        if held is None or held[0] != stamp:
            held = self._memo[name] = (stamp, compute())
        return list(held[1])

    def clone(self) -> Game:
        """An independent copy of the game: playing on one never changes the other. The deck's card data and
        card book are shared (no game changes them); every zone, log, counter and the RNG are copied."""
        twin = copy.copy(self)
        twin.library, twin.hand, twin.graveyard = list(self.library), list(self.hand), list(self.graveyard)
        twin.battlefield = [copy.copy(permanent) for permanent in self.battlefield]
        twin.events, twin.actions, twin.deck_entries = list(self.events), list(self.actions), list(self.deck_entries)
        twin.actors = list(self.actors)
        twin.stats, twin.iid_names, twin._memo = dict(self.stats), dict(self.iid_names), dict(self._memo)
        twin.rng = random.Random(0)  # replaced by this game's state at once; no need to seed from the OS
        twin.rng.setstate(self.rng.getstate())
        return twin

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
        side = "on the play" if on_the_play else "on the draw"
        game.events.append(Event("setup", f"Game {seed}: {deck.name}, {side}."))
        game.events += game._draw_opening()
        return game

    def deck(self) -> Deck:
        """The deck this game was dealt from."""
        return Deck(self.deck_name, self.cards, list(self.deck_entries), self.deck_key)

    def undone(self) -> Game:
        """This game without its last action, rebuilt from the seed and the rest of the action log."""
        if not self.actions:
            raise IllegalAction("There is nothing to undo: no action has been taken yet.")
        if not self.replayable:
            raise IllegalAction("This game was saved by an older version of the bot, so it can't be undone.")
        return Game.replay(self.deck(), self.seed, self.on_the_play, self.actions[:-1], self.actors[:-1])

    @classmethod
    def replay(
        cls,
        deck: Deck,
        seed: int,
        on_the_play: bool,
        actions: Sequence[Action],
        actors: Sequence[int | None] = (),
    ) -> Game:
        """A new game from the seed with the action log (and who took each action) applied again; equals the
        live game."""
        game = cls.new(deck, seed=seed, on_the_play=on_the_play)
        for index, action in enumerate(actions):
            game.apply(action, actor=actors[index] if index < len(actors) else None)
        return game

    def apply(self, action: Action, *, actor: int | None = None) -> list[Event]:
        """Apply one action; on success it joins the action log and its events the game's events.

        ``actor`` names who took it (the shell's player id): it is kept with the action and each of its events,
        so a shared table can say who did what."""
        handler = {
            "mulligan": self._mulligan,
            "keep": self._keep,
            "cycle": self._cycle,
            "play": self._play_land,
            "cast": self._cast,
            "next": self._next_turn,
            "discard": self._discard,
            "echo": self._echo,
            "activate": self._activate,
        }.get(action.kind)
        if handler is None:
            raise IllegalAction(f"Unknown action {action.kind!r}.")
        events = handler(action)
        if actor is not None:
            events = [event._replace(actor=actor) for event in events]
        self.actions.append(action)
        self.actors.append(actor)
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

    def play_land(self, iid: int, face: int = 0) -> list[Event]:
        """Play a land from hand (305.2: one per turn); ``face`` picks a modal double-faced card's face (712.12)."""
        return self.apply(Action("play", iid, face))

    def cast(self, iid: int, x: int = 0, tap: Sequence[int] = ()) -> list[Event]:
        """Cast a spell from hand for its mana cost; it resolves at once (the goldfish never responds)."""
        return self.apply(Action("cast", iid, x=x, tap=tuple(tap)))

    def discard_down(self, iids: Sequence[int], pay: bool = True) -> list[Event]:
        """Cleanup (514.1): discard these cards down to seven."""
        return self.apply(Action("discard", pay=pay, cards=tuple(iids)))

    def next_turn(self) -> list[Event]:
        """Play on to your next main phase: creatures attack, end step, cleanup, the opponent's turn, untap,
        upkeep, draw (504.1). Stops early where you must decide: cleanup discards, an echo trigger."""
        events = self.apply(Action("next"))
        while self.phase == "end_step" or (self.phase == "upkeep" and not self.echo_pending()):
            events += self.apply(Action("next"))
        return events

    def _draw_opening(self) -> list[Event]:
        """Draw the starting hand (103.5); a library under seven cards is drawn out and loses (121.4)."""
        self.hand, self.library = self.library[:OPENING_HAND], self.library[OPENING_HAND:]
        if len(self.hand) < OPENING_HAND:
            self.drew_from_empty = True
            return [
                Event(
                    "draw",
                    f"Drew {len(self.hand)} of seven: the library ran out, so you lose when state-based actions are "
                    "next checked (704.5b)",
                    "121.4",
                )
            ]
        return [Event("setup", "Drew an opening hand of seven (103.5): keep or mulligan.", "103.5")]

    def _mulligan(self, action: Action) -> list[Event]:
        self.require_phase("mulligan", "You can only mulligan before keeping a hand.")
        if self.mulligans >= OPENING_HAND:
            raise IllegalAction(
                "You have already taken seven mulligans, so keeping would leave no cards in hand; "
                "keep this hand (103.5)."
            )
        self.library.extend(self.hand)
        self.hand = []
        self.rng.shuffle(self.library)
        drawn = self._draw_opening()
        self.mulligans += 1
        text = (
            f"Mulligan {self.mulligans}: shuffled the hand away and drew {len(self.hand)}; on keeping, "
            f"put {self.bottom_count()} on the bottom"
        )
        return [Event("mulligan", text, "103.5"), *drawn[: 1 if self.drew_from_empty else 0]]

    def bottom_count(self) -> int:
        """How many cards keeping puts on the bottom: one per mulligan, at most the whole hand (103.5)."""
        return min(self.mulligans, len(self.hand))

    def _keep(self, action: Action) -> list[Event]:
        self.require_phase("mulligan", "You have already kept a hand.")
        bottom = list(action.bottom)
        needed = self.bottom_count()
        if len(bottom) != needed:
            raise IllegalAction(
                f"After {plural(self.mulligans, 'mulligan')} put exactly {plural(needed, 'card')} on the bottom "
                f"(103.5); you chose {len(bottom)}."
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
        text = f"Kept {plural(len(self.hand), 'card')}" + (f", put {names} on the bottom" if bottom else "")
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
            tap=action.tap,
        )

    # ------------------------------------------------------------ questions

    def is_land(self, name: str) -> bool:
        """Whether the card named ``name`` can be played as a land (a land face, 712.12); tokens are not."""
        return name in self.book and self.book[name].is_land

    def playable_lands(self) -> list[CardInstance]:
        """Lands in hand that can be played now (one land per turn, main phase)."""
        if self.phase != "main" or self.land_played:
            return []
        return [c for c in self.hand if self.is_land(c.name)]

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

    def require_phase(self, phase: str, reason: str | None = None) -> None:
        if self.phase == "over":
            raise IllegalAction(f"The game is over ({self.result}).")
        if self.phase != phase:
            raise IllegalAction(reason or self.not_main_reason())

    def not_main_reason(self) -> str:
        if self.phase == "over":
            return f"The game is over ({self.result})."
        if self.phase == "mulligan":
            return "Keep a hand (or mulligan) first."
        if self.phase == "cleanup":
            return f"First discard: {self.cleanup_prompt()}."
        if self.phase == "upkeep" and self.echo_pending():
            return f"First settle {self.echo_prompt(self.echo_pending()[0])}."
        return "It is not your main phase: press Next to go on to it."
