"""What a goldfish game is waiting for, and the actions legal now: one query for players and automated policies.

A mixin of :class:`~bot.goldfish.engine.Game`. :meth:`Deciding.decision` names the decision
(mulligan, main phase, cleanup discards, an echo trigger, the upkeep, the opponent's end step)
and lists complete legal actions with the engine's default choices; a choice of several cards
(cleanup discards, the cards put on the bottom) comes as ``count`` of ``choices``.
"""

from __future__ import annotations

from bot.goldfish.model import Action, Decision
from bot.text import plural


class Deciding:
    """``decision()`` and ``legal_actions()``."""

    def decision(self) -> Decision:
        """What the game waits for now, with the legal actions (see :class:`~bot.goldfish.model.Decision`)."""
        if self.phase == "over":
            return Decision("over", f"The game is over ({self.result}).", [])
        if self.phase == "mulligan":
            actions = [] if self.mulligans >= 7 else [Action("mulligan")]
            if self.bottom_count():
                prompt = f"Keep, putting {plural(self.bottom_count(), 'card')} on the bottom, or mulligan (103.5)."
                return Decision("bottom", prompt, actions, self.bottom_count(), tuple(c.iid for c in self.hand))
            return Decision("mulligan", "Keep this hand or mulligan (103.5).", [Action("keep"), *actions])
        if self.phase == "cleanup":
            count = len(self.hand) - 7
            return Decision("discard", self.cleanup_prompt(), [], count, tuple(c.iid for c in self.hand))
        pending = self.echo_pending()
        if pending:
            permanent = pending[0]
            actions = [Action("echo", permanent.iid, pay=False)]
            if self.can_pay(self.book[permanent.name].echo or ()):
                actions.insert(0, Action("echo", permanent.iid, pay=True))
            return Decision("echo", self.echo_prompt(permanent), actions)
        actions = self._instant_actions()
        if self.phase == "upkeep":
            actions = [Action("activate", card.iid) for card in self.upkeep_offers()] + actions
            return Decision("upkeep", "Your upkeep: activate an upkeep ability, cycle, or go on to your draw.", actions)
        if self.phase == "end_step":
            return Decision("end_step", "The opponent's end step: cycle with your untapped lands, or go on.", actions)
        lands = [Action("play", c.iid, f.index) for c in self.playable_lands() for f in self.book[c.name].land_faces]
        casts = [Action("cast", o.iid) for o in self.cast_options() if o.affordable]
        return Decision("main", f"Your main phase, turn {self.turn}.", lands + casts + actions)

    def _instant_actions(self) -> list[Action]:
        actions = []
        for option in self.cycle_options():
            if not option.affordable:
                continue
            if option.search:
                candidates = self.search_candidates(option.iid, option.ability_index)
                actions += [Action("cycle", option.iid, option.ability_index, find=c.iid) for c in candidates]
                actions.append(Action("cycle", option.iid, option.ability_index, find_nothing=True))
            else:
                actions.append(Action("cycle", option.iid, option.ability_index))
        if self.phase in ("end_step", "upkeep"):
            actions += [Action("cast", o.iid) for o in self.cast_options() if o.affordable]
        return actions + [Action("next")]

    def legal_actions(self) -> list[Action]:
        """The complete legal actions now (a choice of several cards is in :meth:`decision` instead)."""
        return self.decision().actions
