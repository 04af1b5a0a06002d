"""Cycling in a goldfish game (702.29): the options, the cost after changes, and the activation.

A mixin of :class:`~bot.goldfish.engine.Game`. ``cycle`` is split into its steps: check the
choices, pay the costs (the discard is one, 702.29a), put the triggers on the stack above the
cycling ability (702.29c/d), resolve them, then draw or search (702.29e).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.cycling import CyclingAbility
from bot.goldfish.mana import cost_symbols, cost_text
from bot.goldfish.model import CardInstance, CycleChoices, CycleOption, Event, IllegalAction, Permanent
from bot.goldfish.scripts import SCRIPTS, script_for, unmodelled_text
from bot.text import plural


@dataclass
class CycleCost:
    """A cycling cost after cost changes (601.2f): mana symbols, life, what to sacrifice, and how it reads."""

    symbols: tuple[str, ...]
    life: int
    sacrifice: str | None
    text: str


@dataclass
class Trigger:
    label: str
    rule: str
    resolve: Callable[[], list[Event]]


class Cycling:
    """Cycling options and ``cycle``."""

    def _find_ability(self, iid: int, ability_index: int) -> tuple[CardInstance, CyclingAbility]:
        card = next((c for c in self.hand if c.iid == iid), None)
        if card is None:
            name = self.iid_names.get(iid)
            if name is None:
                raise IllegalAction(f"There is no card #{iid} in this game.")
            raise IllegalAction(
                f"{name} is {self.zone_of(iid)}: cycling works only while the card is in your hand (702.29a)."
            )
        abilities = self.book[card.name].cycling
        if not abilities:
            raise IllegalAction(f"{card.name} has no cycling ability.")
        if not 0 <= ability_index < len(abilities):
            raise IllegalAction(f"{card.name} has {len(abilities)} cycling ability(ies); choose 1–{len(abilities)}.")
        return card, abilities[ability_index]

    def _free_cycling(self) -> str | None:
        for permanent in self.battlefield:
            size = script_for(permanent.name).free_cycling_hand_size
            if size is not None and not permanent.token and len(self.hand) >= size:
                return permanent.name
        return None

    def _reduction(self) -> tuple[int, list[str]]:
        total, sources = 0, []
        for permanent in self.battlefield:
            amount = script_for(permanent.name).cycling_reduction
            if amount and not permanent.token:
                total += amount
                sources.append(permanent.name)
        return total, sources

    def cycle_statics(self) -> tuple[str | None, tuple[int, list[str]] | None]:
        """What the battlefield does to cycling costs now: a free-cycling permanent, else the reduction; asked
        once by a caller that prices several abilities while the game stands still."""
        free = self._free_cycling()
        return free, None if free else self._reduction()

    def cycle_cost(
        self,
        ability: CyclingAbility,
        x: int = 0,
        statics: tuple[str | None, tuple[int, list[str]] | None] | None = None,
    ) -> CycleCost:
        """The cost of ``ability`` now, after the statics on the battlefield change it (601.2f)."""
        free, reduced = statics if statics is not None else self.cycle_statics()
        if free:
            return CycleCost((), 0, None, f"{{0}} instead of {ability.cost} ({free})")
        cost = ability.cost
        reduction, sources = reduced
        symbols = cost_symbols(cost.mana, x=x, reduction=reduction) if cost.mana else ()
        if cost.life:
            text = f"{cost.life} life"
        elif cost.sacrifice:
            text = f"sacrifice a {cost.sacrifice}"
        else:
            text = cost_text(symbols)
            if reduction and cost_symbols(cost.mana, x=x) != symbols:
                text += f" ({ability.cost} reduced by {', '.join(sources)})"
        return CycleCost(symbols, cost.life, cost.sacrifice, text)

    def _cost_problem(self, cost: CycleCost) -> str | None:
        if cost.life and self.life < cost.life:
            return f"it costs {cost.life} life and you have {self.life} (119.4)"
        if cost.sacrifice and not any(self.is_sacrificable(p, cost.sacrifice) for p in self.battlefield):
            return f"it needs you to sacrifice a {cost.sacrifice} and you control none"
        return self.mana_problem(cost.symbols)

    def priority_problem(self) -> str | None:
        """Why the player can't cycle (or cast an instant) now, or None: in the main phase, the opponent's end
        step and the upkeep once echo is settled they can."""
        if self.phase in ("main", "end_step"):
            return None
        if self.phase == "upkeep":
            pending = self.echo_pending()
            return f"first settle {self.echo_prompt(pending[0])}" if pending else None
        if self.phase == "cleanup":
            return f"first discard in the cleanup step: {self.cleanup_prompt()}"
        return "the game is over" if self.phase == "over" else "keep a hand (or mulligan) first"

    def _searches(self, name: str, ability: CyclingAbility) -> tuple[str, ...]:
        return (ability.search,) if ability.search else script_for(name).searches

    def cycle_options(self) -> list[CycleOption]:
        """Every cycling ability of every card in hand, affordable or not (with the reason).

        ``search`` is the card type a typecycling ability (or a "when you cycle" search such as
        Krosan Tusker's) looks for. Costs assume ``x = 0``.
        """
        return self.memo("cycle_options", self._cycle_options)

    def _cycle_options(self) -> list[CycleOption]:
        options = []
        statics = self.cycle_statics()
        for card in self.hand:
            for index, ability in enumerate(self.book[card.name].cycling):
                reason = self.priority_problem()
                if reason is None:
                    reason = self._cost_problem(self.cycle_cost(ability, statics=statics))
                searches = self._searches(card.name, ability)
                options.append(
                    CycleOption(
                        iid=card.iid,
                        name=card.name,
                        ability_index=index,
                        label=str(ability),
                        affordable=reason is None,
                        reason=reason,
                        is_typecycling=ability.is_typecycling,
                        search=" or ".join(searches) if searches else None,
                    )
                )
        return options

    def search_candidates(self, iid: int, ability_index: int = 0) -> list[CardInstance]:
        """Library cards (the first of each distinct name, sorted by name) the ability's search could find."""
        card, ability = self._find_ability(iid, ability_index)
        seen: dict[str, CardInstance] = {}
        for candidate in self.matching(self._searches(card.name, ability)):
            seen.setdefault(candidate.name, candidate)
        return [seen[name] for name in sorted(seen)]

    def cycle(
        self,
        iid: int,
        ability_index: int = 0,
        *,
        find: int | None = None,
        find_nothing: bool = False,
        x: int = 0,
        sacrifice: int | None = None,
        pay: bool = True,
        tap: tuple[int, ...] = (),
    ) -> list[Event]:
        """Activate a cycling ability of a card in hand (702.29a).

        The cost is paid (mana, life or a sacrifice, plus discarding the card), so the card is in
        the graveyard before anything resolves. The cycling ability goes on the stack; the card's
        own "when you cycle" trigger (702.29c) and the payoffs' "whenever you cycle" triggers
        (702.29d, once per cycle) go above it and resolve first; then the ability draws a card, or
        for typecycling (702.29e) searches for a card of the type, reveals it, puts it in hand and
        shuffles. ``find`` is the iid of the library card to find (see ``search_candidates``);
        ``find_nothing=True`` finds nothing by choice; with neither, the first candidate is found.
        ``x`` is the {X} of the cost or of a "when you cycle" trigger (Decree of Justice);
        ``sacrifice`` picks the permanent for "Sacrifice a land"; ``pay`` answers "you may pay {1}";
        ``tap`` names the lands to tap for the cost (else the engine keeps the rest of the hand payable).
        Cycling is instant speed: in your main phase, your upkeep and the opponent's end step.
        """
        problem = self.priority_problem()
        if problem:
            raise IllegalAction(problem[0].upper() + problem[1:] + ".")
        card, ability = self._find_ability(iid, ability_index)
        x = int(x)
        choices = CycleChoices(card.iid, card.name, find=find, find_nothing=find_nothing, pay=pay)
        choices.typecycling = ability.is_typecycling
        cost, sacrificed, searches = self._check_cycle(card, ability, choices, x, sacrifice)
        events = self._pay_cycle_cost(card, ability, cost, sacrificed, tap)
        triggers = self._cycle_triggers(card, choices)
        events += [
            Event("unmodelled", f"{card.name}: not modelled by the engine, resolve it yourself: {line}")
            for line in unmodelled_text(self.cards[card.name])
        ]
        if triggers:
            also = " (typecycling is cycling, 702.29f)" if ability.is_typecycling else ""
            events.append(
                Event(
                    "stack",
                    f"{plural(len(triggers), 'trigger')} {'goes' if len(triggers) == 1 else 'go'} on the stack above "
                    f"the cycling ability and {'resolves' if len(triggers) == 1 else 'resolve'} first{also}: "
                    + "; ".join(t.label for t in triggers),
                    triggers[0].rule,
                )
            )
        events += self.check_state()
        for trigger in triggers:
            if self.phase == "over":
                break
            events.append(Event("trigger", f"Resolving {trigger.label}", trigger.rule))
            events += trigger.resolve()
            events += self.check_state()
        if self.phase != "over":
            if ability.is_typecycling:
                events += self.search_library(choices, searches, to="hand", source=card.name, rule="702.29e")
            else:
                events += self.draw(1, f"cycling {card.name}")
            events += self.check_state()
        return events

    def _check_cycle(
        self, card: CardInstance, ability: CyclingAbility, choices: CycleChoices, x: int, sacrifice: int | None
    ) -> tuple[CycleCost, Permanent | None, tuple[str, ...]]:
        """Every check before anything is paid: the game is unchanged when one fails."""
        script = script_for(card.name)
        if x < 0:
            raise IllegalAction("X can't be negative.")
        if x and not ability.cost.has_x and not script.pays_x:
            raise IllegalAction(f"{card.name}'s {ability} has no {{X}} to choose.")
        cost = self.cycle_cost(ability, x if ability.cost.has_x else 0)
        choices.x = x if script.pays_x else 0
        problem = self._cost_problem(cost)
        if problem:
            raise IllegalAction(f"You can't cycle {card.name}: {problem}.")
        if choices.x and not self.can_pay(cost.symbols + ("1",) * choices.x):
            raise IllegalAction(
                f"You can't pay {cost_text(cost.symbols)} for {ability} and {{{choices.x}}} for X: "
                f"you have {plural(len(self.mana_sources()), 'untapped land')}."
            )
        sacrificed = self._check_sacrifice(card, ability, cost, sacrifice)
        searches = self._searches(card.name, ability)
        if (choices.find is not None or choices.find_nothing) and not searches:
            raise IllegalAction(f"{card.name}'s {ability} doesn't search your library.")
        if choices.find is not None:
            if choices.find_nothing:
                raise IllegalAction("Choose a card to find or find nothing, not both.")
            if all(c.iid != choices.find for c in self.matching(searches)):
                raise IllegalAction(f"Card #{choices.find} is not a {' or '.join(searches)} card in your library.")
        return cost, sacrificed, searches

    def _check_sacrifice(
        self, card: CardInstance, ability: CyclingAbility, cost: CycleCost, sacrifice: int | None
    ) -> Permanent | None:
        if not cost.sacrifice:
            if sacrifice is not None:
                raise IllegalAction(f"{card.name}'s {ability} doesn't ask you to sacrifice anything.")
            return None
        if sacrifice is None:
            candidates = [p for p in self.battlefield if self.is_sacrificable(p, cost.sacrifice)]
            return min(candidates, key=lambda p: (not p.tapped, len(self.colours_of(p)), p.iid))
        chosen = next((p for p in self.battlefield if p.iid == sacrifice), None)
        if chosen is None or not self.is_sacrificable(chosen, cost.sacrifice):
            raise IllegalAction(f"Card #{sacrifice} is not a {cost.sacrifice} you control.")
        return chosen

    def _pay_cycle_cost(
        self,
        card: CardInstance,
        ability: CyclingAbility,
        cost: CycleCost,
        sacrificed: Permanent | None,
        tap: tuple[int, ...] = (),
    ) -> list[Event]:
        """Pay the costs (601.2g–h); discarding the card is part of the cost (702.29a)."""
        events: list[Event] = []
        if cost.symbols:
            tapped = self.pay_cost(cost.symbols, tap, exclude=card.iid)
            events.append(Event("mana", f"Paid {cost_text(cost.symbols)}: {tapped}", "601.2g"))
        if cost.life:
            self.pay_life(cost.life)
        if sacrificed is not None:
            events += self.sacrifice(sacrificed)
        self.discard(card.iid)
        self.stats["cards_cycled"] += 1
        if ability.is_typecycling:
            self.stats["typecycling_searches"] += 1
        rule = "702.29e" if ability.is_typecycling else "702.29a"
        events.append(Event("cycle", f"Cycled {card.name} ({ability}): paid {cost.text}, discarded it", rule))
        return events

    def _cycle_triggers(self, card: CardInstance, choices: CycleChoices) -> list[Trigger]:
        """The card's own trigger first, then each payoff's: they go on the stack above the cycling ability."""
        triggers = []
        own = script_for(card.name).when_cycled
        if own is not None:
            label = f'{card.name}\'s "when you cycle" ability (from the graveyard)'
            triggers.append(Trigger(label, "702.29c", lambda: own(self, choices)))
        return triggers + self.payoff_triggers(card, choices, discarding=False)

    def payoff_triggers(self, card: CardInstance, choices: CycleChoices, *, discarding: bool) -> list[Trigger]:
        """The battlefield's "whenever you cycle (or discard)" triggers for ``card`` (702.29d: once per cycle)."""
        triggers = []
        for permanent in list(self.battlefield):
            script = SCRIPTS.get(permanent.name)
            payoff = script.payoff if script else None
            if payoff is None or permanent.token or (payoff.another and permanent.iid == card.iid):
                continue
            if discarding and not payoff.discard:
                continue
            triggers.append(
                Trigger(
                    f'{permanent.name} ("{payoff.text}")',
                    "702.29d",
                    lambda p=payoff, s=permanent.iid: p.effect(self, choices, s),
                )
            )
        return triggers
