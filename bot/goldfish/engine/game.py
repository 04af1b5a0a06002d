"""Goldfish games: rules-exact solitaire games for practising cycling (CR 702.29), with no Discord code.

The opponent starts at 20 life and does nothing. Lands are played, and every spell can be cast when
its cost can be paid (``casting``): a permanent resolves onto the battlefield and its creatures
attack from the next turn, an instant or sorcery goes to the graveyard. What a card does is declared
once in ``scripts``; an effect the engine does not model is said so when the card is cast. Every
random step uses the game's own seeded ``random.Random``, so a game is replayed from its seed and
its action log.

A :class:`Game` holds its parts (``parts``: the zones, the player, the opponent) and its turn structure; the rules
live in their own modules, each taking the game as a :class:`~bot.goldfish.engine.parts.GameState`: ``turns``
(mulligans, the turn), ``casting``, ``cycling``, ``effects``, ``board`` (questions), ``decisions`` and ``save``.
``Game.apply(Action)`` is the one dispatcher: ``mulligan``, ``keep``, ``cycle``, ``play_land``, ``cast`` and
``next_turn`` build an :class:`~bot.goldfish.engine.model.Action` and apply it; the action log holds the actions,
``events`` everything that happened (``log`` is their text).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.goldfish.engine import board, casting, cycling, decisions, effects, save, turns
from bot.goldfish.engine.cardbook import CardBook, book_for
from bot.goldfish.engine.model import GAME_STATS, Action, CardInstance, Deck, Event, IllegalAction
from bot.goldfish.engine.parts import Opponent, Player, Zones

RULES: dict[str, Callable[[Any, Action], list[Event]]] = {
    "mulligan": turns.mulligan,
    "keep": turns.keep,
    "cycle": cycling.cycle,
    "play": casting.play_land,
    "cast": casting.cast,
    "next": turns.next_turn,
    "discard": turns.discard,
    "echo": turns.echo,
    "activate": turns.activate,
}


@dataclass
class Game:
    """A goldfish game. Phases: ``"mulligan"`` (keep or mulligan), ``"main"``, ``"cleanup"`` (discard down to
    seven), ``"end_step"`` (the opponent's end step), ``"upkeep"`` (echo or upkeep abilities), ``"over"``.
    :meth:`decision` says what the game waits for and which actions are legal."""

    seed: int
    deck_name: str
    cards: dict[str, dict]
    zones: Zones = field(default_factory=Zones)
    player: Player = field(default_factory=Player)
    opponent: Opponent = field(default_factory=Opponent)
    turn: int = 0
    on_the_play: bool = True
    phase: str = "mulligan"
    result: str | None = None
    events: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    actors: list[int | None] = field(default_factory=list)  # who took each action (``actions[i]``), if known
    stats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GAME_STATS, 0))
    deck_key: str | None = None
    deck_entries: list[tuple[int, str]] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random, repr=False, compare=False)
    iid_names: dict[int, str] = field(default_factory=dict, repr=False)
    replayable: bool = True
    book: CardBook = field(init=False, repr=False, compare=False)
    _memo: dict = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.book = book_for(self.cards)

    def memo(self, name: str, compute):
        """``compute()``, remembered until the game changes: a message asks for the same options several times."""
        zones = self.zones
        stamp = (
            len(self.actions),
            len(self.events),
            self.phase,
            self.player.life,
            self.player.land_played,
            len(zones.library),
            tuple(c.iid for c in zones.hand),
            tuple((p.iid, p.tapped, p.echo) for p in zones.battlefield),
            tuple(c.iid for c in zones.graveyard),
        )
        held = self._memo.get(name)
        if held is None or held[0] != stamp:
            held = self._memo[name] = (stamp, compute())
        return list(held[1])

    def clone(self) -> Game:
        """An independent copy of the game: playing on one never changes the other. The deck's card data and
        card book are shared (no game changes them); every zone, log, counter and the RNG are copied."""
        twin = copy.copy(self)
        twin.zones, twin.player, twin.opponent = self.zones.copy(), self.player.copy(), self.opponent.copy()
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
                game.zones.library.append(CardInstance(iid, name))
        game.rng.shuffle(game.zones.library)
        side = "on the play" if on_the_play else "on the draw"
        game.events.append(Event("setup", f"Game {seed}: {deck.name}, {side}."))
        game.events += turns.draw_opening(game)
        return game

    def deck(self) -> Deck:
        """The deck this game was dealt from."""
        return Deck(self.deck_name, self.cards, list(self.deck_entries), self.deck_key)

    @property
    def undo_problem(self) -> str | None:
        """Why the last action can't be taken back, or None. A mulligan can't: undoing it would deal the first
        hand again after the player has seen the second, a choice of two hands no mulligan rule gives (103.5)."""
        if not self.actions:
            return "There is nothing to undo: no action has been taken yet."
        if not self.replayable:
            return "This game was saved by an older version of the bot, so it can't be undone."
        if self.actions[-1].kind == "mulligan":
            return "A mulligan can't be undone: you have seen the new hand, so keep it or mulligan again."
        return None

    def undone(self) -> Game:
        """This game without its last action, rebuilt from the seed and the rest of the action log."""
        if self.undo_problem:
            raise IllegalAction(self.undo_problem)
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

    def to_dict(self) -> dict[str, Any]:
        """A compact JSON-safe snapshot, including the RNG state (:mod:`bot.goldfish.engine.save`)."""
        return save.snapshot(self)

    @classmethod
    def from_dict(cls, data: Any, decks: Mapping[str, Deck]) -> Game:
        """The exact game ``to_dict`` saved; ``decks`` are the preset decks by key (a game dealt from one is saved
        without its cards). :class:`~bot.goldfish.engine.model.UnreadableGame` when it can't be read."""
        return cls(**save.restore(data, decks))

    # ------------------------------------------------------------ acting

    def apply(self, action: Action, *, actor: int | None = None) -> list[Event]:
        """Apply one action; on success it joins the action log and its events the game's events.

        ``actor`` names who took it (the shell's player id): it is kept with the action and each of its events,
        so a shared table can say who did what."""
        rule = RULES.get(action.kind)
        if rule is None:
            raise IllegalAction(f"Unknown action {action.kind!r}.")
        events = rule(self, action)
        if actor is not None:
            events = [event._replace(actor=actor) for event in events]
        self.actions.append(action)
        self.actors.append(actor)
        self.events.extend(events)
        return events

    def mulligan(self) -> list[Event]:
        """London mulligan (103.5): shuffle the hand back, draw seven again."""
        return self.apply(Action("mulligan"))

    def keep(self, bottom: Sequence[int] = ()) -> list[Event]:
        """Keep the hand, putting one card per mulligan (iids in ``bottom``) on the bottom; turn 1 begins."""
        return self.apply(Action("keep", bottom=tuple(int(b) for b in bottom)))

    def cycle(self, iid: int, ability_index: int = 0, **choices) -> list[Event]:  # noqa: D417 (see cycling.cycle)
        return self.apply(Action("cycle", iid, ability_index, **choices))

    cycle.__doc__ = cycling.cycle.__doc__

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

    # ------------------------------------------------------------ questions, each answered by its rules' module

    decision = decisions.decision
    legal_actions = decisions.legal_actions
    cycle_options = cycling.cycle_options
    search_candidates = cycling.search_candidates
    cast_options = casting.cast_options
    playable_lands = casting.playable_lands
    land_problem = casting.land_problem
    cast_problem = casting.cast_problem
    is_land = board.is_land
    permanent_name = board.permanent_name
    colours_of = board.colours_of
    is_sacrificable = board.is_sacrificable
    unmodelled_text = board.unmodelled_text
    mana_sources = board.mana_sources
    can_pay = board.can_pay
    mana_problem = board.mana_problem
    available_mana = board.available_mana
    cycle_statics = board.cycle_statics
    cycle_cost = board.cycle_cost
    cast_symbols = board.cast_symbols
    bottom_count = board.bottom_count
    echo_pending = board.echo_pending
    echo_prompt = board.echo_prompt
    upkeep_offers = board.upkeep_offers
    optional_payers = board.optional_payers

    # ------------------------------------------------------------ the effects API card scripts use (model.Effects)

    draw = effects.draw
    gain_life = effects.gain_life
    damage_opponent = effects.damage_opponent
    create_tokens = effects.create_tokens
    pay_mana = effects.pay_mana
    search_library = effects.search_library
    untap_best_land = effects.untap_best_land
    creatures = board.creatures
