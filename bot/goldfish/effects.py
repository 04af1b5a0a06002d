"""The public effects API of a goldfish game: what card scripts and actions do to the game.

A mixin of :class:`~bot.goldfish.engine.Game`, kept apart so the engine file stays about the
actions and their legality.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.goldfish.mana import Payment, cost_text, explain_shortfall, payable, plan, plan_with, symbol_text
from bot.goldfish.model import CardInstance, CycleChoices, Event, IllegalAction, Permanent
from bot.text import plural


class Effects:
    """Draw, gain life, deal damage, create tokens, pay mana, search, untap, sacrifice; state-based actions."""

    # ------------------------------------------------------------ cards and life

    def draw(self, count: int, reason: str) -> list[Event]:
        """Draw ``count`` cards one at a time (121.2); drawing from an empty library loses at the next check."""
        events = []
        for _ in range(count):
            if not self.library:
                self.drew_from_empty = True
                events.append(
                    Event(
                        "draw",
                        f"Tried to draw ({reason}) from an empty library: you lose when state-based actions are "
                        "next checked",
                        "121.4",
                    )
                )
                continue
            card = self.library.pop(0)
            self.hand.append(card)
            self.stats["cards_drawn"] += 1
            events.append(Event("draw", f"Drew {card.name} ({reason})", "121.1"))
        return events

    def gain_life(self, amount: int, source: str) -> list[Event]:
        self.life += amount
        self.stats["life_gained"] += amount
        return [Event("life", f"{source}: you gain {amount} life ({self.life})", "119.3")]

    def pay_life(self, amount: int) -> None:
        self.life -= amount
        self.stats["life_paid"] += amount

    def damage_opponent(self, amount: int, source: str) -> list[Event]:
        self.opponent_life -= amount
        self.stats["damage_dealt"] += amount
        return [Event("damage", f"{source} deals {amount} damage to the opponent ({self.opponent_life})", "120.3")]

    def create_tokens(
        self, count: int, name: str, power: int, toughness: int, description: str, source: str
    ) -> list[Event]:
        for _ in range(count):
            iid = max(self.iid_names) + 1
            self.iid_names[iid] = f"{name} token"
            self.battlefield.append(
                Permanent(iid, f"{name} token", token=True, power=power, toughness=toughness, entered_turn=self.turn)
            )
        self.stats["tokens"] += count
        return [Event("token", f"{source}: created {plural(count, description + ' token')}", "111.1")]

    def creatures(self) -> list[Permanent]:
        """Your creatures on the battlefield (the opponent controls none)."""
        return [p for p in self.battlefield if p.power is not None]

    # ------------------------------------------------------------ mana

    def colours_of(self, permanent: Permanent) -> frozenset[str]:
        """The mana a permanent can tap for (lands only, by the face it was played as; tokens make none)."""
        if permanent.token:
            return frozenset()
        return self.book.face_colours(permanent.name, permanent.face)

    def mana_sources(self) -> list[tuple[int, frozenset[str]]]:
        colours = self.book.face_colours
        return [(p.iid, c) for p in self.battlefield if not p.tapped and not p.token and (c := colours(p.name, p.face))]

    def can_pay(self, symbols: Sequence[str]) -> bool:
        return payable(symbols, self.mana_sources(), self.life)

    def mana_problem(self, symbols: Sequence[str]) -> str | None:
        """Why ``symbols`` can't be paid now, or None."""
        sources = self.mana_sources()
        if payable(symbols, sources, self.life):
            return None
        return explain_shortfall(symbols, sources)

    def hand_costs(self, exclude: int | None = None) -> list[tuple[str, ...]]:
        """The mana costs of what the other cards in hand could do: cast them, cycle them."""
        costs = []
        statics = self.cycle_statics()
        for card in self.hand:
            if card.iid == exclude:
                continue
            facts = self.book[card.name]
            if "land" not in facts.types and facts.cast_symbols:
                costs.append(facts.cast_symbols)
            for ability in facts.cycling:
                symbols = self.cycle_cost(ability, statics=statics).symbols
                if symbols:
                    costs.append(symbols)
        return costs

    def payment_for(self, symbols: Sequence[str], tap: Sequence[int] = (), exclude: int | None = None) -> Payment:
        """How ``symbols`` will be paid: with the lands the player chose (``tap``), or else with the lands that
        keep the most other cards in hand payable. Refuses, with the reason, when it can't be paid."""
        sources = self.mana_sources()
        if tap:
            by_iid = dict(sources)
            if len(set(tap)) != len(tap):
                raise IllegalAction("Choose each land to tap only once.")
            for iid in tap:
                if iid not in by_iid:
                    name = self.iid_names.get(iid, f"card #{iid}")
                    raise IllegalAction(f"{name} is not an untapped land you control, so it can't be tapped for mana.")
            payment = plan_with(symbols, [(iid, by_iid[iid]) for iid in tap], life=self.life)
            if payment is None:
                names = ", ".join(self.iid_names[iid] for iid in tap)
                raise IllegalAction(f"The lands you chose ({names}) can't pay exactly {cost_text(symbols)}.")
            return payment
        payment = plan(symbols, sources, life=self.life, keep=self.hand_costs(exclude))
        if payment is None:
            raise IllegalAction(f"You can't pay: {explain_shortfall(symbols, sources)}.")
        return payment

    def pay_cost(self, symbols: Sequence[str], tap: Sequence[int] = (), exclude: int | None = None) -> str:
        """Pay ``symbols`` (601.2g), tapping the chosen or best lands and paying life for Phyrexian symbols."""
        payment = self.payment_for(symbols, tap, exclude)
        names = []
        for permanent in self.battlefield:
            if permanent.iid in payment.lands:
                permanent.tapped = True
                names.append(self.permanent_name(permanent))
        self.stats["mana_spent"] += len(payment.lands)
        parts = ["tapped " + ", ".join(names)] if names else []
        if payment.life:
            self.pay_life(payment.life)
            parts.append(f"paid {payment.life} life (107.4f)")
        return "; ".join(parts) or "no mana"

    def pay_mana(self, symbols: Sequence[str]) -> str | None:
        """Tap lands for ``symbols`` (601.2g); ``"tapped …"``, or None (nothing tapped) when it can't be paid."""
        try:
            return self.pay_cost(symbols)
        except IllegalAction:
            return None

    def permanent_name(self, permanent: Permanent) -> str:
        """The name a permanent shows: the face it was played as (712.12)."""
        if permanent.token or permanent.name not in self.book:
            return permanent.name
        return self.book[permanent.name].face_name(permanent.face)

    def available_mana(self) -> str:
        """The mana the untapped lands can make, one symbol per land: ``"{W}{W/R}{C}"``."""
        return "".join(symbol_text(colours) for _, colours in self.mana_sources())

    def untap_best_land(self, source: str) -> list[Event]:
        tapped = [p for p in self.battlefield if p.tapped and self.colours_of(p)]
        if not tapped:
            return [Event("trigger", f"{source}: no tapped land to untap", "702.29c")]
        best = max(tapped, key=lambda p: (len(self.colours_of(p)), -p.iid))
        best.tapped = False
        return [Event("untap", f"{source}: untapped {best.name}", "702.29c")]

    # ------------------------------------------------------------ zones

    def matching(self, searches: Sequence[str]) -> list[CardInstance]:
        """Library cards that a search for any of ``searches`` could find."""
        return [c for c in self.library if any(self.book.matches(c.name, s) for s in searches)]

    def search_library(
        self, choices: CycleChoices, searches: Sequence[str], *, to: str, source: str, rule: str
    ) -> list[Event]:
        """Search (the player's ``find``, or the first by name), put the card ``to`` hand or battlefield, shuffle."""
        wanted = " or ".join(searches)
        candidates = self.matching(searches)
        found = None
        if choices.find is not None:
            found = next((c for c in candidates if c.iid == choices.find), None)
        elif not choices.find_nothing and candidates:
            found = min(candidates, key=lambda c: (c.name, self.library.index(c)))
        events = []
        if found is None:
            if candidates:
                text = f"{source}: searched for a {wanted} card and found nothing (by choice)"
            else:
                text = f"{source}: searched for a {wanted} card and found nothing: no {wanted} card left in the library"
            events.append(Event("search", text, rule))
        else:
            self.take(self.library, found.iid)
            if to == "hand":
                self.hand.append(found)
                events.append(
                    Event(
                        "search",
                        f"{source}: searched for a {wanted} card, revealed {found.name} and put it into your hand "
                        "(a search, not a draw: 121.5)",
                        rule,
                    )
                )
            else:
                events.append(Event("search", f"{source}: searched for a {wanted} card: {found.name}", rule))
                events += self.put_land_onto_battlefield(found, "Put onto the battlefield:")
        self.rng.shuffle(self.library)
        events.append(Event("shuffle", "Shuffled your library", rule))
        return events

    def put_land_onto_battlefield(self, card: CardInstance, verb: str, face: int | None = None) -> list[Event]:
        facts = self.book[card.name]
        land = next((f for f in facts.land_faces if face is None or f.index == face), None)
        face = land.index if land else 0
        tapped = land.enters_tapped if land else facts.enters_tapped
        self.battlefield.append(Permanent(card.iid, card.name, tapped=tapped, entered_turn=self.turn, face=face))
        shown = land.name if land else card.name
        rule = "712.12" if shown != card.name else "305.1"
        return [Event("land", f"{verb} {shown}" + (" (it enters tapped)" if tapped else ""), rule)]

    def is_sacrificable(self, permanent: Permanent, what: str) -> bool:
        if permanent.token:
            return what in ("creature", "permanent") and permanent.power is not None
        return what == "permanent" or what in self.book[permanent.name].types

    def sacrifice(self, permanent: Permanent) -> list[Event]:
        self.remove_permanent(permanent)
        return [Event("sacrifice", f"Sacrificed {self.permanent_name(permanent)}", "701.21a")]

    def remove_permanent(self, permanent: Permanent) -> None:
        """The permanent leaves the battlefield; a card goes to the graveyard, a token ceases to exist."""
        self.battlefield.remove(permanent)
        if not permanent.token:
            self.graveyard.append(CardInstance(permanent.iid, permanent.name))

    def discard(self, iid: int) -> CardInstance:
        card = self.take(self.hand, iid)
        self.graveyard.append(card)
        return card

    @staticmethod
    def take(zone: list, iid: int):
        for index, item in enumerate(zone):
            if item.iid == iid:
                return zone.pop(index)
        raise IllegalAction(f"Card #{iid} is not there.")

    # ------------------------------------------------------------ state-based actions

    def check_state(self) -> list[Event]:
        """State-based actions (704), checked whenever a player would receive priority."""
        if self.phase == "over":
            return []
        events = []
        for permanent in [p for p in self.battlefield if p.toughness is not None and p.toughness <= 0]:
            self.remove_permanent(permanent)
            events.append(Event("dies", f"{permanent.name} dies", "704.5f"))
        if self.drew_from_empty:
            self.end("lost: drew from an empty library (704.5b)")
            events.append(Event("loss", "You lose: you drew from an empty library", "704.5b"))
        elif self.life <= 0:
            self.end("lost: life total 0 or less (704.5a)")
            events.append(Event("loss", f"You lose: your life total is {self.life}", "704.5a"))
        elif self.opponent_life <= 0:
            self.end(f"won: the opponent is at {self.opponent_life} life on turn {self.turn} (704.5a)")
            events.append(
                Event("win", f"You win on turn {self.turn}: the opponent is at {self.opponent_life}", "704.5a")
            )
        return events

    def end(self, result: str) -> None:
        self.phase = "over"
        self.result = result
