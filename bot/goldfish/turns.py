"""The turn in a goldfish game: combat, end step and cleanup (514), the opponent's turn, untap, upkeep, draw.

A mixin of :class:`~bot.goldfish.engine.Game`. ``next`` moves on to the next point where the
player may act: from the main phase, creatures attack, the turn ends and cleanup discards down
to seven (the player chooses, 514.1; then the game waits for ``discard``); the opponent's turn
then stops at its end step (the goldfish does nothing) so the player can cycle at instant speed.
The next ``next`` begins the player's turn: untap, upkeep (echo triggers must be settled first,
702.30a; upkeep-only abilities are offered), draw, main phase.
"""

from __future__ import annotations

from bot.goldfish.mana import cost_text
from bot.goldfish.model import Action, CardInstance, CycleChoices, Event, IllegalAction, Permanent
from bot.goldfish.scripts import script_for
from bot.text import plural

HAND_SIZE = 7


class Turns:
    """``next``, ``discard``, ``echo`` and ``activate``."""

    def _next_turn(self, action: Action) -> list[Event]:
        if self.phase == "main":
            return self._end_turn()
        if self.phase == "end_step":
            return self._begin_turn()
        if self.phase == "upkeep":
            pending = self.echo_pending()
            if pending:
                raise IllegalAction(self.echo_prompt(pending[0]))
            return self._draw_step()
        if self.phase == "cleanup":
            raise IllegalAction(self.cleanup_prompt())
        self.require_phase("main")
        return []

    def _end_turn(self) -> list[Event]:
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
        excess = len(self.hand) - HAND_SIZE
        if excess > 0:
            self.phase = "cleanup"
            events.append(Event("cleanup", f"Cleanup: {self.cleanup_prompt()}", "514.1"))
            return events
        return events + self._end_cleanup()

    def cleanup_prompt(self) -> str:
        excess = len(self.hand) - HAND_SIZE
        return f"you have {len(self.hand)} cards in hand, so discard {plural(excess, 'card')} down to seven (514.1)"

    def _end_cleanup(self) -> list[Event]:
        self.phase = "end_step"
        events = [Event("cleanup", 'Cleanup: damage wears off and "until end of turn" effects end', "514.2")]
        if not any(o.affordable for o in self.cycle_options()) and not any(o.affordable for o in self.cast_options()):
            # Nothing to do at instant speed: the opponent's turn passes without a stop.
            events.append(Event("turn", f"The opponent's turn {self.turn}: the goldfish does nothing", "500.1"))
            return events + self._begin_turn()
        events.append(
            Event(
                "turn",
                f"The opponent's turn {self.turn}: the goldfish does nothing. In its end step you may cycle "
                "with your untapped lands",
                "513.1",
            )
        )
        return events

    def _discard(self, action: Action) -> list[Event]:
        self.require_phase("cleanup", "There is nothing to discard now: you discard in your cleanup step (514.1).")
        excess = len(self.hand) - HAND_SIZE
        chosen = list(action.cards)
        if len(chosen) != excess or len(set(chosen)) != len(chosen):
            raise IllegalAction(f"Choose exactly {plural(excess, 'different card')} to discard (514.1).")
        in_hand = {c.iid for c in self.hand}
        for iid in chosen:
            if iid not in in_hand:
                raise IllegalAction(f"Card #{iid} is not in your hand.")
        events = []
        for iid in chosen:
            card = self.discard(iid)
            events.append(Event("discard", f"Discarded {card.name} down to seven", "514.1"))
            events += self.discard_triggers(card, pay=action.pay)
            events += self.check_state()
            if self.phase == "over":
                return events
        return events + self._end_cleanup()

    def discard_triggers(self, card: CardInstance, *, pay: bool) -> list[Event]:
        """The "whenever you cycle or discard a card" abilities a discard triggers (702.29d, 701.9a)."""
        choices = CycleChoices(card.iid, card.name, pay=pay)
        events = []
        for trigger in self.payoff_triggers(card, choices, discarding=True):
            events.append(Event("trigger", f"Resolving {trigger.label}", "702.29d"))
            events += trigger.resolve()
            events += self.check_state()
            if self.phase == "over":
                break
        return events

    # ------------------------------------------------------------ the player's turn

    def _begin_turn(self) -> list[Event]:
        self.turn += 1
        self.stats["turns"] = self.turn
        self.land_played = False
        for permanent in self.battlefield:
            permanent.tapped = False
        events = [Event("turn", f"Turn {self.turn}: untapped your permanents", "502.3")]
        self.phase = "upkeep"
        pending = self.echo_pending()
        if pending:
            for permanent in pending:
                events.append(Event("echo", f"Upkeep: {self.echo_prompt(permanent)}", "702.30a"))
            return events
        if self.upkeep_offers():
            names = ", ".join(card.name for card in self.upkeep_offers())
            events.append(Event("upkeep", f"Upkeep: you may activate {names}'s upkeep ability", "503.1"))
            return events
        return events + self._draw_step()

    def _draw_step(self) -> list[Event]:
        self.phase = "main"
        return self.draw(1, "draw step") + self.check_state()

    def echo_pending(self) -> list[Permanent]:
        """Permanents whose echo trigger waits to be settled (only in the upkeep)."""
        if self.phase != "upkeep":
            return []
        return [p for p in self.battlefield if p.echo]

    def echo_prompt(self, permanent: Permanent) -> str:
        cost = cost_text(self.book[permanent.name].echo or ())
        return f"{permanent.name}'s echo: pay {cost} or sacrifice it (702.30a)"

    def _echo(self, action: Action) -> list[Event]:
        self.require_phase("upkeep", "There is no echo to pay now: echo triggers in your upkeep (702.30a).")
        permanent = next((p for p in self.echo_pending() if p.iid == action.iid), None)
        if permanent is None:
            raise IllegalAction(f"Card #{action.iid} has no echo trigger waiting.")
        permanent.echo = False
        if action.pay:
            symbols = self.book[permanent.name].echo or ()
            try:
                paid = self.pay_cost(symbols, action.tap) if symbols else "no mana"
            except IllegalAction:
                permanent.echo = True
                raise
            events = [Event("echo", f"Paid echo {cost_text(symbols)} for {permanent.name} ({paid})", "702.30a")]
        else:
            events = self.sacrifice(permanent)
            events[-1] = Event("echo", f"Did not pay echo: sacrificed {permanent.name}", "702.30a")
        events += self.check_state()
        if self.phase == "upkeep" and not self.echo_pending() and not self.upkeep_offers():
            events += self._draw_step()
        return events

    def upkeep_offers(self) -> list[CardInstance]:
        """Graveyard cards whose upkeep-only ability (Eternal Dragon's) can be paid now."""
        return [
            card
            for card in self.graveyard
            if script_for(card.name).upkeep_from_graveyard and self.can_pay(script_for(card.name).upkeep_from_graveyard)
        ]

    def _activate(self, action: Action) -> list[Event]:
        self.require_phase("upkeep", "That ability can be activated only during your upkeep.")
        if self.echo_pending():
            raise IllegalAction(self.echo_prompt(self.echo_pending()[0]))
        card = next((c for c in self.graveyard if c.iid == action.iid), None)
        symbols = script_for(card.name).upkeep_from_graveyard if card else ()
        if card is None or not symbols:
            raise IllegalAction("That card has no ability to activate from your graveyard now.")
        paid = self.pay_cost(symbols, action.tap)
        self.take(self.graveyard, card.iid)
        self.hand.append(card)
        events = [Event("activate", f"Paid {cost_text(symbols)} ({paid}): returned {card.name} to your hand", "602.2")]
        return events + self.check_state()
