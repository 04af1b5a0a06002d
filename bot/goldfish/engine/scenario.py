"""Build a game in a given position, for tests and for exploring the engine: the public way to set up zones.

``position(cards, hand=[...], library=[...], lands=[...])`` deals a real game from a deck made
of exactly those cards, keeps, and then lays the cards out as asked (lands and permanents
untapped, ``tapped`` lands tapped), turn 1 of the main phase.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.goldfish.engine.game import Game
from bot.goldfish.engine.model import CardInstance, Deck, Permanent
from bot.goldfish.engine.parts import Player, Zones


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
    for card in game.zones.library + game.zones.hand:
        pool.setdefault(card.name, []).append(card)
    if len(game.zones.hand) == 7:
        game.keep()
    in_hand = [pool[n].pop() for n in hand]
    in_library = [pool[n].pop() for n in library]
    in_graveyard = [pool[n].pop() for n in graveyard]
    battlefield = []
    for n in [*lands, *permanents]:
        facts = game.book[n]
        iid = pool[n].pop().iid
        battlefield.append(Permanent(iid, n, power=facts.power, toughness=facts.toughness, entered_turn=0))
    battlefield += [Permanent(pool[n].pop().iid, n, tapped=True) for n in tapped]
    game.zones = Zones.of(in_library, in_hand, in_graveyard, battlefield)
    game.actions = []
    game.actors = []
    game.replayable = False  # the layout is not an action: undo can't rebuild it
    # The position is laid out by hand: a deck this small is no short-library loss (121.4) here; the land drop
    # and the mulligans stay as keeping left them.
    game.player = Player(life=life, land_played=game.player.land_played, mulligans=game.player.mulligans)
    game.phase = "main"
    game.turn = 1
    return game
