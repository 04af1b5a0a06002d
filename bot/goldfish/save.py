"""Saving and loading a goldfish game: a JSON-safe snapshot written field by field, with a format number.

Format 4 (current) records who took each action (``"by"`` in the action, a fourth item in its events), so a
shared table can say who did what. Format 3 added a permanent's pending echo and land face, and whether the action
log replays the game; it reads as a game whose actions name nobody. Format 2 (every field named) and format 1
are still read; their action logs came from an engine whose ``next`` played a whole turn, so
those games can't be undone. A snapshot of an unknown or newer
format, one whose preset deck no longer exists, or a damaged one raises
:class:`~bot.goldfish.model.UnreadableGame` with a short reason.
"""

from __future__ import annotations

import random
from typing import Any

from bot.goldfish.decks import preset_decks
from bot.goldfish.model import GAME_STATS, Action, CardInstance, Event, Permanent, UnreadableGame

FORMAT = 4
READABLE_FORMATS = (1, 2, 3, 4)


def _permanent_dict(p: Permanent) -> dict[str, Any]:
    data: dict[str, Any] = {"iid": p.iid, "entered": p.entered_turn}
    if p.tapped:
        data["tapped"] = True
    if p.token:
        data["token"] = True
    if p.power is not None:
        data["power"] = p.power
    if p.toughness is not None:
        data["toughness"] = p.toughness
    if p.echo:
        data["echo"] = True
    if p.face:
        data["face"] = p.face
    return data


def _action_dict(action: Action, actor: int | None) -> dict[str, Any]:
    data = action.to_dict()
    if actor is not None:
        data["by"] = actor
    return data


class Saving:
    """``to_dict`` / ``from_dict`` for :class:`~bot.goldfish.engine.Game`."""

    def to_dict(self) -> dict[str, Any]:
        """A compact JSON-safe snapshot, including the RNG state."""
        rng_version, state, gauss = self.rng.getstate()
        names = sorted(set(self.iid_names.values()))
        index = {name: i for i, name in enumerate(names)}
        data: dict[str, Any] = {
            "format": FORMAT,
            "seed": self.seed,
            "deck": self.deck_name,
            "key": self.deck_key,
            "entries": [[count, name] for count, name in self.deck_entries],
            "names": names,
            "iids": [index[self.iid_names[i]] for i in sorted(self.iid_names)],
            "library": [c.iid for c in self.library],
            "hand": [c.iid for c in self.hand],
            "graveyard": [c.iid for c in self.graveyard],
            "battlefield": [_permanent_dict(p) for p in self.battlefield],
            "life": self.life,
            "opponent_life": self.opponent_life,
            "turn": self.turn,
            "on_the_play": self.on_the_play,
            "land_played": self.land_played,
            "mulligans": self.mulligans,
            "phase": self.phase,
            "result": self.result,
            "drew_from_empty": self.drew_from_empty,
            "events": [list(event) if event.actor is not None else list(event[:3]) for event in self.events],
            "actions": [_action_dict(action, actor) for action, actor in zip(self.actions, self.actors, strict=True)],
            "stats": dict(self.stats),
            "replayable": self.replayable,
            "rng": [rng_version, list(state), gauss],
        }
        if self.deck_key is None:
            data["cards"] = self.cards
        return data

    @classmethod
    def from_dict(cls, data: Any):
        """The exact game ``to_dict`` saved; :class:`UnreadableGame` when it can't be read."""
        if not isinstance(data, dict):
            raise UnreadableGame("the saved game is not a game snapshot")
        number = data.get("format")
        if number not in READABLE_FORMATS:
            newer = isinstance(number, int) and number > FORMAT
            raise UnreadableGame(
                f"it was saved in format {number!r}, "
                + (
                    "by a newer version of the bot"
                    if newer
                    else f"which this version does not know (it reads 1–{FORMAT})"
                )
            )
        key = data.get("key")
        if key is not None:
            decks = preset_decks()
            if key not in decks:
                raise UnreadableGame(f"its preset deck {key!r} no longer exists")
            cards = decks[key].cards
        else:
            cards = data.get("cards")
        try:
            return cls._from_fields(data, cards)
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise UnreadableGame(f"the saved game is damaged ({type(error).__name__})") from None

    @classmethod
    def _from_fields(cls, data: dict[str, Any], cards: dict[str, dict]):
        names = data["names"]
        iid_names = {i + 1: names[n] for i, n in enumerate(data["iids"])}
        rng = random.Random(0)  # replaced by the saved state at once; no need to seed from the OS
        rng_version, state, gauss = data["rng"]
        rng.setstate((rng_version, tuple(state), gauss))

        def instances(iids: list[int]) -> list[CardInstance]:
            return [CardInstance(i, iid_names[i]) for i in iids]

        if data["format"] == 1:
            battlefield = [
                Permanent(i, iid_names[i], bool(t), bool(k), p, th, e)
                for i, t, k, p, th, e, _damage in data["battlefield"]
            ]
            events = [Event("log", str(line)) for line in data["log"]]
        else:
            battlefield = [
                Permanent(
                    p["iid"],
                    iid_names[p["iid"]],
                    tapped=bool(p.get("tapped")),
                    token=bool(p.get("token")),
                    power=p.get("power"),
                    toughness=p.get("toughness"),
                    entered_turn=p["entered"],
                    echo=bool(p.get("echo")),
                    face=int(p.get("face", 0)),
                )
                for p in data["battlefield"]
            ]
            events = [Event(*item) for item in data["events"]]
        stats = dict.fromkeys(GAME_STATS, 0) | {k: int(v) for k, v in data["stats"].items()}
        if not isinstance(cards, dict) or any(name not in cards for name in names if not name.endswith(" token")):
            raise UnreadableGame("the saved game has no card data for some of its cards")
        return cls(
            seed=data["seed"],
            deck_name=data["deck"],
            cards=cards,
            library=instances(data["library"]),
            hand=instances(data["hand"]),
            graveyard=instances(data["graveyard"]),
            battlefield=battlefield,
            life=data["life"],
            opponent_life=data["opponent_life"],
            turn=data["turn"],
            on_the_play=data["on_the_play"],
            land_played=data["land_played"],
            mulligans=data["mulligans"],
            phase=data["phase"],
            result=data["result"],
            events=events,
            actions=[Action.from_dict({k: v for k, v in a.items() if k != "by"}) for a in data["actions"]],
            actors=[a.get("by") for a in data["actions"]],
            stats=stats,
            deck_key=data.get("key"),
            deck_entries=[(count, name) for count, name in data["entries"]],
            rng=rng,
            drew_from_empty=data["drew_from_empty"],
            iid_names=iid_names,
            replayable=data["format"] >= 3 and bool(data["replayable"]),
        )
