"""What a picture of the table shows, read once from a game: free of Discord, of Pillow and of the network.

:func:`table_view` gives a :class:`TableView` (the game's public state, grouped the way a player reads a
table); :mod:`bot.goldfish.table.picture` draws it. Each card names the image it wants as a :class:`CardKey`
(the card's name and which face), so the shell can fetch exactly those images before drawing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from bot.goldfish.engine import Game, Permanent, cost_text, symbol_text

PHASES = {
    "mulligan": "Mulligan",
    "main": "Main phase",
    "cleanup": "Cleanup",
    "end_step": "Opponent's end step",
    "upkeep": "Upkeep",
    "over": "Game over",
}


@dataclass(frozen=True)
class CardKey:
    """The image a card is drawn with: the card's name in the deck and the face (712.12: a land played as its
    back face shows that face)."""

    name: str
    face: int = 0


@dataclass(frozen=True)
class CyclingCost:
    """What cycling a card in hand costs now (after Fluctuator and the like): ``mana`` as symbols (``{1}{W}``, empty
    for none) and anything else it asks (``2 life``, ``a land``, to sacrifice)."""

    mana: str
    other: str = ""

    @property
    def text(self) -> str:
        return " + ".join(part for part in (self.mana, self.other) if part) or "{0}"


@dataclass(frozen=True)
class CardFace:
    """A card as drawn: ``title`` is the name it shows, ``cost`` its printed mana cost, ``key`` its image
    (None for a token, which is drawn as a labelled frame); a card in hand also its ``cycling`` costs, drawn beside
    the printed cost (the cycling text printed on a card is too small to read on a phone)."""

    title: str
    cost: str
    type_line: str
    key: CardKey | None
    cycling: tuple[CyclingCost, ...] = ()


@dataclass(frozen=True)
class Pile:
    """Identical permanents drawn once with a count; ``tapped`` of them are turned sideways."""

    card: CardFace
    count: int
    tapped: int
    token: bool = False
    power: int | None = None
    toughness: int | None = None
    echo: bool = False

    @property
    def untapped(self) -> int:
        return self.count - self.tapped


@dataclass(frozen=True)
class TableView:
    deck_name: str
    turn: int
    phase: str
    on_the_play: bool
    life: int
    opponent_life: int
    hand: tuple[CardFace, ...]
    lands: tuple[Pile, ...]
    permanents: tuple[Pile, ...]
    graveyard_top: CardFace | None
    graveyard_count: int
    library_count: int
    land_played: bool
    result: str | None = None
    mana: tuple[str, ...] = ()  # a symbol for each untapped land: what it can make (``{W}``, ``{W/R}``)
    shared: bool = False  # anyone at the table plays: the picture speaks to nobody as "You"

    @property
    def phase_label(self) -> str:
        return PHASES.get(self.phase, self.phase.replace("_", " ").capitalize())

    def keys(self) -> set[CardKey]:
        """Every image the picture of this view draws."""
        faces = [*self.hand, *(p.card for p in (*self.lands, *self.permanents))]
        if self.graveyard_top is not None:
            faces.append(self.graveyard_top)
        return {face.key for face in faces if face.key is not None}


def _face(game: Game, name: str, face: int = 0, *, token: bool = False) -> CardFace:
    if token or name not in game.book:
        return CardFace(name, "", "Token" if token else "", None)
    card = game.cards[name]
    faces = card.get("card_faces") or []
    shown = faces[face] if face and face < len(faces) else (game.book[name].front or card)
    return CardFace(
        shown.get("name") or name,
        shown.get("mana_cost") or "",
        shown.get("type_line") or "",
        CardKey(name, face if face < max(1, len(faces)) else 0),
    )


def _cycling(game: Game, name: str) -> tuple[CyclingCost, ...]:
    """The cycling costs of a card in hand as the game prices them now (none once the game is over)."""
    if game.phase == "over" or name not in game.book:
        return ()
    costs = []
    for ability in game.book[name].cycling:
        cost = game.cycle_cost(ability)
        other = f"{cost.life} life" if cost.life else f"sac. a {cost.sacrifice}" if cost.sacrifice else ""
        mana = cost_text(cost.symbols) if cost.symbols or not other else ""
        costs.append(CyclingCost(mana, other))
    return tuple(costs)


def _piles(game: Game, permanents: list[Permanent]) -> tuple[Pile, ...]:
    """Identical permanents stacked (same card, face, token-ness, power and toughness, echo), by name."""
    counts: Counter[tuple] = Counter()
    tapped: Counter[tuple] = Counter()
    for p in permanents:
        key = (game.permanent_name(p), p.name, p.face, p.token, p.power, p.toughness, p.echo)
        counts[key] += 1
        tapped[key] += p.tapped
    piles = []
    for key in sorted(counts, key=lambda k: (k[0].casefold(), k[1:3], k[3], str(k[4:]))):
        _, name, face, token, power, toughness, echo = key
        card = _face(game, name, face, token=token)
        piles.append(Pile(card, counts[key], tapped[key], token, power, toughness, echo))
    return tuple(piles)


def table_view(game: Game, *, shared: bool = False) -> TableView:
    """The public state of ``game`` as the picture draws it (``shared``: a game anyone at the table plays)."""
    lands = [p for p in game.zones.battlefield if not p.token and game.is_land(p.name)]
    others = [p for p in game.zones.battlefield if p.token or not game.is_land(p.name)]
    top = game.zones.graveyard[-1] if game.zones.graveyard else None
    return TableView(
        deck_name=game.deck_name,
        turn=game.turn,
        phase=game.phase,
        on_the_play=game.on_the_play,
        life=game.player.life,
        opponent_life=game.opponent.life,
        hand=tuple(replace(_face(game, card.name), cycling=_cycling(game, card.name)) for card in game.zones.hand),
        lands=_piles(game, lands),
        permanents=_piles(game, others),
        graveyard_top=_face(game, top.name) if top is not None else None,
        graveyard_count=len(game.zones.graveyard),
        library_count=len(game.zones.library),
        land_played=game.player.land_played,
        result=game.result,
        mana=tuple(symbol_text(colours) for _, colours in game.mana_sources()) if game.phase != "mulligan" else (),
        shared=shared,
    )
