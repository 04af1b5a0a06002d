"""An action being prepared on the game message: the choices the engine asks for before it cycles or casts.

X (Decree of Justice), "you may pay {1}" (Lightning Rift, Drake Haven) and which permanent to
sacrifice (Edge of Autumn) are chosen with selects; the draft travels in the components' custom
ids (``k.<iid>.<ability>.<x>.<pay>.<sacrifice>.<tap>``), so it survives a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import discord

from bot import limits
from bot.goldfish.engine import Action, Game, IllegalAction, plan, script_for
from bot.text import clip, escape
from cogs.goldfish._components import DraftButton, DraftSelect, GoldfishButton, Stamp
from cogs.goldfish._inputs import FORGED

DRAFT = re.compile(r"([kc])\.(\d{1,9})\.(\d{1,2})\.(\d{1,3})\.([01])\.(\d{1,9})\.([0-9+]*)")
MAX_X = 20


@dataclass(frozen=True)
class Draft:
    kind: str  # "k": cycle, "c": cast
    iid: int
    ability: int = 0
    x: int = 0
    pay: bool = True
    sacrifice: int = 0
    tap: tuple[int, ...] = ()

    def encode(self) -> str:
        tap = "+".join(str(t) for t in self.tap)
        return f"{self.kind}.{self.iid}.{self.ability}.{self.x}.{int(self.pay)}.{self.sacrifice}.{tap}"

    @classmethod
    def decode(cls, text: str) -> Draft:
        match = DRAFT.fullmatch(text)
        if not match:
            raise IllegalAction(FORGED)
        kind, iid, ability, x, pay, sacrifice, tap = match.groups()
        taps = tuple(int(t) for t in tap.split("+") if t)
        return cls(kind, int(iid), int(ability), int(x), pay == "1", int(sacrifice), taps)

    def action(self) -> Action:
        if self.kind == "c":
            return Action("cast", self.iid, x=self.x, tap=self.tap)
        return Action(
            "cycle", self.iid, self.ability, x=self.x, sacrifice=self.sacrifice or None, pay=self.pay, tap=self.tap
        )

    def with_choice(self, field: str, values: list[str]) -> Draft:
        if len(values) != 1 or not values[0].isdigit():
            raise IllegalAction(FORGED)
        value = int(values[0])
        if field == "x":
            return replace(self, x=min(value, MAX_X))
        if field == "p":
            return replace(self, pay=bool(value))
        return replace(self, sacrifice=value)


def _option(label: str, value: str, default: bool, description: str | None = None) -> discord.SelectOption:
    return discord.SelectOption(
        label=clip(label, limits.SELECT_OPTION_LABEL),
        value=value,
        default=default,
        description=clip(description, limits.SELECT_OPTION_DESCRIPTION) if description else None,
    )


def _has_x(game: Game, draft: Draft) -> bool:
    card = next(c for c in game.zones.hand if c.iid == draft.iid)
    if draft.kind == "c":
        return bool(game.book[card.name].x_count)
    ability = game.book[card.name].cycling[draft.ability]
    return ability.cost.has_x or script_for(card.name).pays_x


def _sacrifice_candidates(game: Game, draft: Draft) -> tuple[str | None, list]:
    if draft.kind != "k":
        return None, []
    card = next(c for c in game.zones.hand if c.iid == draft.iid)
    ability = game.book[card.name].cycling[draft.ability]
    what = game.cycle_cost(ability).sacrifice
    if not what:
        return None, []
    return what, [p for p in game.zones.battlefield if game.is_sacrificable(p, what)]


def phyrexian_ways(game: Game, draft: Draft) -> dict[str, tuple[int, ...]]:
    """For a spell with Phyrexian mana (107.4f) that can be paid either way: the lands to tap to pay it all
    with mana ("mana") and to pay its Phyrexian symbols with life instead ("life"); else nothing.

    The choice travels as the lands to tap: the engine pays life for whatever the chosen lands leave."""
    card = next((c for c in game.zones.hand if c.iid == draft.iid), None)
    if draft.kind != "c" or card is None:
        return {}
    symbols = game.cast_symbols(card.name, draft.x)
    phyrexian = [s for s in symbols if s.endswith("/P")]
    if not phyrexian:
        return {}
    plain = [s for s in symbols if not s.endswith("/P")]
    sources = game.mana_sources()
    mana = plan([*plain, *(s.split("/")[0] for s in phyrexian)], sources)
    life = plan(plain, sources) if plain and game.player.life >= 2 * len(phyrexian) else None
    if mana is None or life is None or not life.lands:
        return {}
    return {"mana": mana.lands, "life": life.lands}


def with_phyrexian(game: Game, draft: Draft, values: list[str]) -> Draft:
    ways = phyrexian_ways(game, draft)
    if values not in (["0"], ["1"]) or not ways:
        raise IllegalAction(FORGED)
    return replace(draft, tap=ways["life" if values == ["1"] else "mana"])


def needs_draft(game: Game, draft: Draft) -> bool:
    """Whether cycling or casting this card asks the player something first."""
    if draft.kind == "k" and game.optional_payers():
        return True
    if phyrexian_ways(game, draft):
        return True
    return _has_x(game, draft) or bool(_sacrifice_candidates(game, draft)[1])


def draft_note(game: Game, draft: Draft) -> str:
    card = next((c for c in game.zones.hand if c.iid == draft.iid), None)
    if card is None:
        raise IllegalAction("That card is gone: it is no longer in the hand.")
    doing = "Cast" if draft.kind == "c" else "Cycle"
    lines = [f"**{doing} {escape(card.name)}**: choose, then press **{doing}**."]
    what, candidates = _sacrifice_candidates(game, draft)
    lands = [p for p in game.zones.battlefield if game.is_land(p.name)]
    if what and candidates and all(game.is_land(p.name) for p in candidates) and len(lands) == 1:
        lines.append("⚠️ This sacrifices your last land.")
    return "\n".join(lines)


def fitted(draft: Draft, stamp: Stamp) -> str:
    """The draft's code, with as many of its chosen lands as fit a custom id (``gf:dx:<stamp>:<code>``, at most 100
    characters: about a dozen lands; past them the engine chooses the rest)."""
    room = limits.CUSTOM_ID - len(f"gf:dx:{stamp}:")
    while len(draft.encode()) > room and draft.tap:
        draft = replace(draft, tap=draft.tap[:-1])
    return draft.encode()


def draft_view(game: Game, stamp: Stamp, draft: Draft) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    code = fitted(draft, stamp)
    if _has_x(game, draft):
        most = min(MAX_X, len(game.mana_sources()), limits.SELECT_OPTIONS - 1)
        options = [_option(f"X = {n}", str(n), n == draft.x) for n in range(most + 1)]
        view.add_item(DraftSelect.make("x", stamp, code, f"X = {draft.x}", options))
    payers = game.optional_payers() if draft.kind == "k" else []
    if payers:
        names = ", ".join(payers)
        options = [
            _option(f"Pay {{1}} for {names}", "1", draft.pay),
            _option("Don't pay", "0", not draft.pay),
        ]
        view.add_item(DraftSelect.make("p", stamp, code, "You may pay {1}…", options))
    ways = phyrexian_ways(game, draft)
    if ways:
        card = next(c for c in game.zones.hand if c.iid == draft.iid)
        phyrexian = [s for s in game.cast_symbols(card.name) if s.endswith("/P")]
        shown = "".join("{" + s + "}" for s in phyrexian)
        options = [
            _option(f"Pay {shown} with mana", "0", draft.tap == ways["mana"]),
            _option(f"Pay {2 * len(phyrexian)} life instead (107.4f)", "1", draft.tap == ways["life"]),
        ]
        view.add_item(DraftSelect.make("l", stamp, code, f"Pay {shown} with…", options))
    what, candidates = _sacrifice_candidates(game, draft)
    if candidates:
        options = [
            _option(
                game.permanent_name(p) + (" (tapped)" if p.tapped else ""),
                str(p.iid),
                p.iid == draft.sacrifice,
            )
            for p in candidates
        ]
        view.add_item(DraftSelect.make("s", stamp, code, f"Sacrifice which {what}…", options))
    label = "Cast" if draft.kind == "c" else "Cycle"
    view.add_item(DraftButton.make(stamp, code, label))
    view.add_item(GoldfishButton.make("back", stamp, "Back", discord.ButtonStyle.secondary))
    return view
