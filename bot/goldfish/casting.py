"""Playing lands and casting spells in a goldfish game (305, 601, 712.12).

A mixin of :class:`~bot.goldfish.engine.Game`. Every card can be cast when its cost can be paid:
a permanent spell resolves onto the battlefield (creatures attack the goldfish from the next
turn), an instant or sorcery goes to the graveyard. What a card does that the engine does not
model is said when it is cast ("cast; its effect is not modelled").
"""

from __future__ import annotations

from bot.goldfish.mana import cost_text
from bot.goldfish.model import Action, CardInstance, CastOption, Event, IllegalAction, Permanent
from bot.goldfish.scripts import script_for, unmodelled_spell_text

INSTANT_SPEED = ("main", "end_step", "upkeep")


class Casting:
    """``play`` and ``cast`` and their options."""

    def _hand_card(self, iid: int | None) -> CardInstance:
        card = next((c for c in self.hand if c.iid == iid), None)
        if card is None:
            name = self.iid_names.get(iid) if iid is not None else None
            if name is None:
                raise IllegalAction(f"There is no card #{iid} in this game.")
            raise IllegalAction(f"{name} is {self.zone_of(iid)}, not in your hand.")
        return card

    # ------------------------------------------------------------ lands

    def land_problem(self, card: CardInstance) -> str | None:
        """Why ``card`` can't be played as a land now, or None."""
        if not self.is_land(card.name):
            return f"{card.name} is not a land; cast it instead"
        if self.phase != "main":
            return (
                self.not_main_reason() if self.phase in ("mulligan", "over") else "lands are played in your main phase"
            )
        if self.land_played:
            return "you have already played a land this turn (305.2: one land a turn)"
        return None

    def _play_land(self, action: Action) -> list[Event]:
        self.require_phase("main")
        card = self._hand_card(action.iid)
        problem = self.land_problem(card)
        if problem:
            raise IllegalAction(f"You can't play {card.name}: {problem}.")
        faces = self.book[card.name].land_faces
        face = next((f for f in faces if f.index == action.ability), None)
        if face is None:
            names = " or ".join(f"{f.index + 1}. {f.name}" for f in faces)
            raise IllegalAction(f"{card.name} has no such land face; choose {names} (712.12).")
        self.take(self.hand, card.iid)
        events = self.put_land_onto_battlefield(card, "Played", face=face.index)
        self.land_played = True
        self.stats["lands_played"] += 1
        return events + self.check_state()

    # ------------------------------------------------------------ spells

    def cast_symbols(self, name: str, x: int = 0) -> tuple[str, ...]:
        facts = self.book[name]
        return facts.cast_symbols + ("1",) * (x * facts.x_count)

    def cast_problem(self, card: CardInstance, x: int = 0) -> str | None:
        """Why ``card`` can't be cast now (with X = ``x``), or None."""
        facts = self.book[card.name]
        if "land" in facts.types:
            return f"{card.name} is a land: play it (305.1)"
        if self.phase not in INSTANT_SPEED or (self.phase != "main" and "instant" not in facts.types):
            if self.phase in ("mulligan", "over"):
                return self.not_main_reason()
            return "only instants can be cast now; other spells in your main phase (117.1a)"
        if self.phase == "upkeep" and self.echo_pending():
            return "settle the echo trigger first (702.30a)"
        problem = self.mana_problem(self.cast_symbols(card.name, x))
        return problem

    def cast_options(self) -> list[CastOption]:
        """Every spell in hand (not lands) and whether it can be cast now, with X = 0."""
        return self.memo("cast_options", self._cast_options)

    def _cast_options(self) -> list[CastOption]:
        options = []
        for card in self.hand:
            facts = self.book[card.name]
            if "land" in facts.types:
                continue
            reason = self.cast_problem(card)
            modelled = self.book.fully_modelled(card.name, unmodelled_spell_text)
            options.append(
                CastOption(
                    card.iid,
                    card.name,
                    self.cost_shown(self.cast_symbols(card.name), facts.x_count),
                    reason is None,
                    reason,
                    modelled,
                    bool(facts.x_count),
                )
            )
        return options

    @staticmethod
    def cost_shown(symbols: tuple[str, ...], x_count: int) -> str:
        return "{X}" * x_count + (cost_text(symbols) if symbols or not x_count else "")

    def _cast(self, action: Action) -> list[Event]:
        card = self._hand_card(action.iid)
        facts = self.book[card.name]
        x = int(action.x)
        if x < 0:
            raise IllegalAction("X can't be negative.")
        if x and not facts.x_count:
            raise IllegalAction(f"{card.name} has no {{X}} in its cost.")
        problem = self.cast_problem(card, x)
        if problem:
            raise IllegalAction(f"You can't cast {card.name}: {problem}.")
        symbols = self.cast_symbols(card.name, x)
        paid = self.pay_cost(symbols, action.tap, exclude=card.iid) if symbols else "no mana"
        self.take(self.hand, card.iid)
        rule = "601.2"
        if facts.is_permanent:
            self.battlefield.append(
                Permanent(
                    card.iid,
                    card.name,
                    power=facts.power,
                    toughness=facts.toughness,
                    entered_turn=self.turn,
                    echo=facts.echo is not None,
                )
            )
            where = "it resolves and enters the battlefield"
        else:
            self.graveyard.append(card)
            where = "it resolves and goes to your graveyard"
            rule = "608.2"
        shown = self.cost_shown(symbols, 0) if symbols else "{0}"
        events = [Event("cast", f"Cast {card.name} for {shown} ({paid}); {where}", rule)]
        script = script_for(card.name)
        if script.on_enter and facts.is_permanent:
            events += self.check_state()
            events += script.on_enter(self, card.name)
        if script.on_cast:
            events += script.on_cast(self, card.name, x)
        for line in unmodelled_spell_text(self.cards[card.name]):
            events.append(Event("unmodelled", f"{card.name}: cast; its effect is not modelled: {line}"))
        if facts.echo is not None:
            events.append(
                Event("echo", f"{card.name} has echo {cost_text(facts.echo)}: pay it at your next upkeep", "702.30a")
            )
        return events + self.check_state()
