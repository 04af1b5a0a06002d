"""Build a game in a given position, for tests and for exploring the engine: the public way to set up zones.

``position(cards, hand=[...], library=[...], lands=[...])`` deals a real game from a deck made
of exactly those cards, keeps, and then lays the cards out as asked (lands and permanents
untapped, ``tapped`` lands tapped), turn 1 of the main phase.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.goldfish.engine import Game
from bot.goldfish.model import CardInstance, Deck, Permanent


def position(
    cards: dict[str, dict],
    *,
    hand: Sequence[str] = (),
    library: Sequence[str] = (),
    lands: Sequence[str] = (),
    permanents: Sequence[str] = (),
    tapped: Sequence[str] = (),
    graveyard: Sequence[str] = (),
    on_the_play: bool = True,
    life: int = 20,
    seed: int = 7,
) -> Game:
    """A game in its main phase on turn 1 with exactly the given zones (``library`` top first)."""
    names = [*hand, *library, *lands, *permanents, *tapped, *graveyard]
    counts = Counter(names)
    deck = Deck("test", {n: cards[n] for n in counts}, [(c, n) for n, c in counts.items()])
    game = Game.new(deck, seed=seed, on_the_play=on_the_play)
    pool: dict[str, list[CardInstance]] = {}
    for card in game.library + game.hand:
        pool.setdefault(card.name, []).append(card)
    if len(game.hand) == 7:
        game.keep()
    game.hand = [pool[n].pop() for n in hand]
    game.library = [pool[n].pop() for n in library]
    game.graveyard = [pool[n].pop() for n in graveyard]
    game.battlefield = []
    for n in [*lands, *permanents]:
        facts = game.book[n]
        permanent = Permanent(pool[n].pop().iid, n, power=facts.power, toughness=facts.toughness, entered_turn=0)
        game.battlefield.append(permanent)
    for n in tapped:
        game.battlefield.append(Permanent(pool[n].pop().iid, n, tapped=True))
    game.actions = []
    game.actors = []
    game.replayable = False  # the layout is not an action: undo can't rebuild it
    # The position is laid out by hand: a deck this small is no short-library loss (121.4) here.
    game.drew_from_empty = False
    game.phase = "main"
    game.turn = 1
    game.life = life
    return game
