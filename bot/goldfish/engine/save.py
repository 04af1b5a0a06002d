"""Saving and loading a goldfish game: a JSON-safe snapshot written field by field, with a format number.

Format 5 (current) keeps the game's parts as they are held: ``zones`` (library, hand, graveyard, battlefield),
``player`` (life, the land drop, mulligans, an empty library drawn from) and ``opponent`` (life). Format 4 recorded
who took each action (``"by"`` in the action, a fourth item in its events), so a shared table can say who did
what. Format 3 added a permanent's pending echo and land face, and whether the action log replays the game; it
reads as a game whose actions name nobody. Format 2 (every field named) and format 1 are still read; their action
logs came from an engine whose ``next`` played a whole turn, so those games can't be undone. Formats 1–4 keep the
parts' fields at the top of the snapshot. A snapshot of an unknown or newer format, one whose preset deck no
longer exists, or a damaged one raises :class:`~bot.goldfish.engine.model.UnreadableGame` with a short reason.

The engine knows no preset deck: a game dealt from one is saved with the deck's key and no card data, and loading
it asks for the preset decks by key (:func:`restore`'s ``decks``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.goldfish.engine.model import GAME_STATS, Action, CardInstance, Deck, Event, Permanent, UnreadableGame
from bot.goldfish.engine.parts import GameState, Opponent, Player, Zones

FORMAT = 5
READABLE_FORMATS = (1, 2, 3, 4, 5)


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


def snapshot(game: GameState) -> dict[str, Any]:
    """A compact JSON-safe snapshot, including the RNG state."""
    rng_version, state, gauss = game.rng.getstate()
    names = sorted(set(game.iid_names.values()))
    index = {name: i for i, name in enumerate(names)}
    zones, player = game.zones, game.player
    data: dict[str, Any] = {
        "format": FORMAT,
        "seed": game.seed,
        "deck": game.deck_name,
        "key": game.deck_key,
        "entries": [[count, name] for count, name in game.deck_entries],
        "names": names,
        "iids": [index[game.iid_names[i]] for i in sorted(game.iid_names)],
        "zones": {
            "library": list(zones.library.iids()),
            "hand": list(zones.hand.iids()),
            "graveyard": list(zones.graveyard.iids()),
            "battlefield": [_permanent_dict(p) for p in zones.battlefield],
        },
        "player": {
            "life": player.life,
            "land_played": player.land_played,
            "mulligans": player.mulligans,
            "drew_from_empty": player.drew_from_empty,
        },
        "opponent": {"life": game.opponent.life},
        "turn": game.turn,
        "on_the_play": game.on_the_play,
        "phase": game.phase,
        "result": game.result,
        "events": [list(event) if event.actor is not None else list(event[:3]) for event in game.events],
        "actions": [_action_dict(action, actor) for action, actor in zip(game.actions, game.actors, strict=True)],
        "stats": dict(game.stats),
        "replayable": game.replayable,
        "rng": [rng_version, list(state), gauss],
    }
    if game.deck_key is None:
        data["cards"] = game.cards
    return data


def restore(data: Any, decks: Mapping[str, Deck]) -> dict[str, Any]:
    """The fields of the exact game a snapshot saved (see :meth:`Game.from_dict`); ``decks`` are the preset decks
    by key. Raises :class:`UnreadableGame` when it can't be read."""
    if not isinstance(data, dict):
        raise UnreadableGame("the saved game is not a game snapshot")
    number = data.get("format")
    if number not in READABLE_FORMATS:
        newer = isinstance(number, int) and number > FORMAT
        raise UnreadableGame(
            f"it was saved in format {number!r}, "
            + ("by a newer version of the bot" if newer else f"which this version does not know (it reads 1–{FORMAT})")
        )
    key = data.get("key")
    if key is not None:
        if key not in decks:
            raise UnreadableGame(f"its preset deck {key!r} no longer exists")
        cards = decks[key].cards
    else:
        cards = data.get("cards")
    try:
        return _fields(data, cards)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise UnreadableGame(f"the saved game is damaged ({type(error).__name__})") from None


def _parts(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The zones, the player and the opponent as saved: grouped from format 5, at the top before."""
    if data["format"] >= 5:
        return data["zones"], data["player"], data["opponent"]
    player = {key: data[key] for key in ("life", "land_played", "mulligans", "drew_from_empty")}
    return data, player, {"life": data["opponent_life"]}


def _fields(data: dict[str, Any], cards: dict[str, dict]) -> dict[str, Any]:
    names = data["names"]
    iid_names = {i + 1: names[n] for i, n in enumerate(data["iids"])}
    rng = random.Random(0)  # replaced by the saved state at once; no need to seed from the OS
    rng_version, state, gauss = data["rng"]
    rng.setstate((rng_version, tuple(state), gauss))
    zones, player, opponent = _parts(data)

    def instances(iids: list[int]) -> list[CardInstance]:
        return [CardInstance(i, iid_names[i]) for i in iids]

    if data["format"] == 1:
        battlefield = [
            Permanent(i, iid_names[i], bool(t), bool(k), p, th, e) for i, t, k, p, th, e, _damage in data["battlefield"]
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
            for p in zones["battlefield"]
        ]
        events = [Event(*item) for item in data["events"]]
    stats = dict.fromkeys(GAME_STATS, 0) | {k: int(v) for k, v in data["stats"].items()}
    if not isinstance(cards, dict) or any(name not in cards for name in names if not name.endswith(" token")):
        raise UnreadableGame("the saved game has no card data for some of its cards")
    return {
        "seed": data["seed"],
        "deck_name": data["deck"],
        "cards": cards,
        "zones": Zones.of(
            instances(zones["library"]), instances(zones["hand"]), instances(zones["graveyard"]), battlefield
        ),
        "player": Player(
            life=player["life"],
            land_played=player["land_played"],
            mulligans=player["mulligans"],
            drew_from_empty=player["drew_from_empty"],
        ),
        "opponent": Opponent(life=opponent["life"]),
        "turn": data["turn"],
        "on_the_play": data["on_the_play"],
        "phase": data["phase"],
        "result": data["result"],
        "events": events,
        "actions": [Action.from_dict({k: v for k, v in a.items() if k != "by"}) for a in data["actions"]],
        "actors": [a.get("by") for a in data["actions"]],
        "stats": stats,
        "deck_key": data.get("key"),
        "deck_entries": [(count, name) for count, name in data["entries"]],
        "rng": rng,
        "iid_names": iid_names,
        "replayable": data["format"] >= 3 and bool(data["replayable"]),
    }
