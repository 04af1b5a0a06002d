"""Recorded goldfish games: seeded games played through the terminal front end and through Discord (simcord),
with every input and everything the player saw, kept in ``tests/data/goldfish/recorded-games.jsonl.gz``.

A game's line holds what was typed or clicked (``inputs``) and what came back (``outputs``, one list of lines per
input). Replaying feeds the same inputs to the code as it is now and gives the outputs again, so a change that
should not change what players see is checked against the games as they were recorded.

Recording (only when the output is meant to change) chooses each move with the simulation's policy, now and then
a random legal move instead, and mixes in what players also do: look at the hand, the log, the zones, undo,
refused moves, someone else's clicks, a hint, the picture, ending the game (``GOLDFISH_RECORD=1`` with
``tests/goldfish/test_recorded_games.py`` writes the file again).
"""

from __future__ import annotations

import dataclasses
import functools
import gzip
import hashlib
import json
import random
import re
from typing import Any

from simcord.components import walk_components

from bot.goldfish.cli import play
from bot.goldfish.decks import CollectionNames, DeckResolver, parse_decklist, preset_decks
from bot.goldfish.decks.presets import bundled_cards
from bot.goldfish.engine import Action, Game
from bot.goldfish.practice import coach
from bot.goldfish.practice.coach import policy_move
from bot.goldfish.practice.policy import bottom_cards
from bot.goldfish.practice.review import (
    Review,
    decision_points,
    deck_figures,
    moments_at,
    player_game,
    review_settings,
    top_moments,
)
from bot.goldfish.practice.simulate import simulate_here
from bot.goldfish.table.picture import draw_table
from bot.goldfish.table.view import table_view
from cogs.goldfish._coach import hint_embed, review_embed
from cogs.goldfish._picture import alt_text
from tests.data import GOLDFISH_RECORDED
from tests.goldfish.cog_support import fake_collection

DECKLISTS = {
    "tusker-rift": (
        "4 Krosan Tusker; 4 Lightning Rift; 4 Renewed Faith; 4 Secluded Steppe; 4 Forgotten Cave; "
        "4 Generous Ent; 4 Fluctuator; 10 Forest; 6 Plains; 6 Mountain"
    ),
    "haven-wraith": (
        "4 Drake Haven; 4 Street Wraith; 4 Archfiend of Ifnir; 4 Lonely Sandbar; 4 Barren Moor; "
        "3 Decree of Justice; 3 Edge of Autumn; 2 New Perspectives; 8 Island; 6 Swamp; 4 Plains; 4 Forest"
    ),
    "dragons": (
        "4 Eternal Dragon; 4 Desert Cerodon; 4 Solar Blast; 3 Slice and Dice; 3 Stir the Sands; "
        "3 Shefet Monitor; 3 Vizier of Tumbling Sands; 4 Ash Barrens; 2 Desert of the True; 10 Plains; 8 Mountain"
    ),
}
SNOWFLAKE = re.compile(r"\b\d{15,20}\b")
TOKEN = re.compile(r"\b[0-9a-f]{16,32}\b")  # the random part of a paginator's custom ids


# ------------------------------------------------------------------ what a game is


def specs() -> list[dict[str, Any]]:
    """The recorded games: every preset deck and decklist, on the play and on the draw, own and shared games."""
    decks = [*sorted(preset_decks()), *(f"list:{name}" for name in DECKLISTS)]
    found = []
    for front, count in (("terminal", 30), ("discord", 30)):
        for n in range(count):
            deck = decks[n % len(decks)]
            found.append(
                {
                    "id": f"{front}-{n + 1:02d}",
                    "front": front,
                    "deck": deck,
                    "seed": 1000 + 37 * n + (0 if front == "terminal" else 5),
                    "draw": n % 4 in (1, 2),
                    "shared": front == "discord" and n % 3 == 1,
                    "turns": 10 if n % 5 == 3 else 4 + n % 4,  # some played on to the kill
                }
            )
    return found


def deck_of(name: str):
    if not name.startswith("list:"):
        return preset_decks()[name]
    text = DECKLISTS[name.removeprefix("list:")].replace("; ", "\n")
    cards = bundled_cards()
    names = CollectionNames(lambda ids: ([cards[i["name"]] for i in ids], []))
    resolving = DeckResolver([names]).resolve(parse_decklist(text), "Custom deck")
    try:
        resolving.send(None)  # a lookup that answers at once: the coroutine never waits
    except StopIteration as done:
        return done.value.engine_deck()
    raise AssertionError("the decklist's lookup waited")


def new_game(spec: dict[str, Any]) -> Game:
    return Game.new(deck_of(spec["deck"]), seed=spec["seed"], on_the_play=not spec["draw"])


def normalised(lines: list[str], seen: dict[str, str]) -> list[str]:
    """Discord's ids (users, channels, messages) differ from run to run: each becomes ``#1``, ``#2``… in the
    order it first appears in the game (``seen`` holds the game's so far); a random token is ``<token>``."""
    return [
        TOKEN.sub("<token>", SNOWFLAKE.sub(lambda m: seen.setdefault(m[0], f"#{len(seen) + 1}"), line))
        for line in lines
    ]


@functools.cache
def load() -> list[dict[str, Any]]:
    with gzip.open(GOLDFISH_RECORDED, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def save(games: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(game, ensure_ascii=False, separators=(",", ":")) + "\n" for game in games)
    GOLDFISH_RECORDED.write_bytes(gzip.compress(text.encode(), mtime=0))


# ------------------------------------------------------------------ the terminal


def replay_terminal(spec: dict[str, Any], inputs: list[str]) -> list[list[str]]:
    """What the terminal printed: before the first input, then after each one."""
    said: list[list[str]] = [[]]
    feed = iter(inputs)

    def ask(prompt: str) -> str:
        said[-1].append(prompt)
        line = next(feed)
        said.append([])
        return line

    play(new_game(spec), input_fn=ask, output=lambda *parts: said[-1].append(" ".join(map(str, parts))))
    return said


def terminal_inputs(spec: dict[str, Any]) -> list[str]:
    """The lines a player types, chosen on a shadow of the game the terminal plays."""
    rng = random.Random(spec["seed"])
    game = new_game(spec)
    lines: list[str] = []
    if spec["id"].endswith(("01", "11", "21")):
        lines.append("help")
    while game.phase != "over" and game.turn <= spec["turns"] and len(lines) < 120:
        roll = rng.random()
        if roll < 0.05:
            lines.append(rng.choice(["hand", "status", "log", "lands", "graveyard", "library"]))
        elif roll < 0.08:
            lines.append(rng.choice(["frobnicate", "play 99", "cycle", "discard 1", "echo pay", "activate 1"]))
        elif roll < 0.11 and game.undo_problem is None:
            lines.append("undo")
            game = game.undone()
            continue
        legal = game.legal_actions()
        action = policy_move(game)
        if legal and rng.random() < 0.15:
            action = rng.choice(legal)
        if action.kind == "cycle" and rng.random() < 0.2:
            lines.append(f"candidates {_position(game, action.iid)} {action.ability + 1}")
        lines.append(terminal_command(game, action))
        game.apply(action)
    if game.phase != "over":
        lines.append("quit")
    return lines


def _position(game: Game, iid: int) -> int:
    return next(i for i, card in enumerate(game.zones.hand, 1) if card.iid == iid)


def terminal_command(game: Game, action: Action) -> str:
    if action.kind in ("mulligan", "next"):
        return action.kind
    if action.kind == "keep":
        return " ".join(["keep", *(str(_position(game, i)) for i in action.bottom)])
    if action.kind == "discard":
        return " ".join(["discard", *(str(_position(game, i)) for i in action.cards)])
    if action.kind == "play":
        return f"play {_position(game, action.iid)}" + (f" {action.ability + 1}" if action.ability else "")
    if action.kind == "cast":
        return f"cast {_position(game, action.iid)}" + (f" x {action.x}" if action.x else "")
    if action.kind == "echo":
        return "echo pay" if action.pay else "echo sacrifice"
    if action.kind == "activate":
        return f"activate {next(i for i, c in enumerate(game.zones.graveyard, 1) if c.iid == action.iid)}"
    words = ["cycle", str(_position(game, action.iid))]
    if action.ability:
        words.append(str(action.ability + 1))
    if action.find is not None:
        found = [c.iid for c in game.search_candidates(action.iid, action.ability)]
        words += ["find", str(found.index(action.find) + 1)]
    elif action.find_nothing:
        words += ["find", "nothing"]
    if action.x:
        words += ["x", str(action.x)]
    if not action.pay:
        words.append("nopay")
    return " ".join(words)


# ------------------------------------------------------------------ Discord


def components_of(message) -> list[dict[str, Any]]:
    """Every component of a message as Discord sends it (a channel's history holds discord.py's objects)."""
    roots = [c if isinstance(c, dict) else c.to_dict() for c in message.components]
    return list(walk_components(roots))


def message_lines(message) -> list[str]:
    """A message as a player's client shows it: text, embeds field by field, every control with its options."""
    if message is None:
        return ["(no message)"]
    lines = []
    if message.content:
        lines.append(f"content: {message.content}")
    for embed in message.embeds:
        data = embed.to_dict()
        lines.append(f"embed: {data.get('title', '')} [colour {data.get('color')}]")
        if data.get("description"):
            lines.append(f"description: {data['description']}")
        for item in data.get("fields", []):
            lines.append(f"field{' (inline)' if item.get('inline') else ''}: {item['name']} = {item['value']}")
        if data.get("image"):
            lines.append(f"image: {data['image'].get('url')}")
        if data.get("footer"):
            lines.append(f"footer: {data['footer'].get('text')}")
    for control in components_of(message):
        if control.get("type") == 1:
            continue
        head = f"control: {control.get('custom_id')} {control.get('label') or control.get('placeholder') or ''}"
        if control.get("disabled"):
            head += " (disabled)"
        if "options" in control:
            head += f" [{control.get('min_values')}-{control.get('max_values')}]"
            head += " " + " | ".join(
                f"{o['label']}={o['value']}"
                + (f" ({o['description']})" if o.get("description") else "")
                + (" *" if o.get("default") else "")
                for o in control["options"]
            )
        lines.append(head)
    for attachment in message.attachments:
        lines.append(f"attachment: {attachment.filename}")
    return lines


def result_lines(result) -> list[str]:
    seen = "private" if result.ephemeral else "public"
    lines = [f"answer ({seen}):", *message_lines(result.response)]
    for followup in result.followups:
        lines += ["followup:", *message_lines(followup)]
    return lines


def table_of(channel):
    """The channel's newest public game message (the table the commands edit), or None."""
    games = [
        m
        for m in channel.history()
        if not m.flags.ephemeral and m.embeds and "/goldfish log" in (m.embeds[0].footer.text or "")
    ]
    return games[-1] if games else None


class DiscordTable:
    """One game in one channel, through the real discord.py stack."""

    def __init__(self, env, guild, channel, players: dict[str, Any]) -> None:
        self.env = env
        self.guild = guild
        self.channel = channel
        self.players = players
        self.shown: list[str] | None = None
        self.ids: dict[str, str] = {}

    @property
    def cog(self):
        return self.env.bot.get_cog("Goldfish")

    async def game(self) -> tuple[Game, bool] | None:
        games = await self.cog.store.in_channel(self.channel.id)
        return (games[0].game, games[0].shared) if games else None

    async def step(self, step: dict[str, Any]) -> list[str]:
        """Do one input; what the player saw, and the table when it changed without being the answer."""
        return normalised(await self._step(step), self.ids)

    def recorded(self, step: dict[str, Any]) -> dict[str, Any]:
        """A step as it is kept: the Discord ids in a control's custom id (whose game it is) as ``#1``, ``#2``…"""
        return {k: normalised([v], self.ids)[0] if k in ("click", "select") else v for k, v in step.items()}

    def real(self, custom_id: str) -> str:
        """A recorded custom id with this run's Discord ids back in it."""
        ids = {shown: real for real, shown in self.ids.items()}
        return re.sub(r"#\d+", lambda m: ids.get(m[0], m[0]), custom_id)

    async def _step(self, step: dict[str, Any]) -> list[str]:
        if "look" in step:
            return await self.look(step["look"])
        who = self.players[step["who"]]
        table = table_of(self.channel)
        if "slash" in step:
            result = await who.slash(self.channel, step["slash"], **step.get("options", {}))
        elif "click" in step:
            result = await who.click(table, custom_id=self.real(step["click"]))
        else:
            result = await who.select(table, step["values"], custom_id=self.real(step["select"]))
        lines = result_lines(result)
        now = table_of(self.channel)
        shown = message_lines(now)
        answered = result.response is not None and now is not None and result.response.id == now.id
        if shown != self.shown and not answered:
            lines += ["table:", *shown]
        self.shown = shown
        return lines

    async def look(self, what: str) -> list[str]:
        """What the cog renders from the game without a command of its own here: a hint (few rollouts), the
        picture's layout (drawn without card images), the review of a finished game (a small simulation)."""
        game, shared = await self.game()
        if what == "hint":
            return _embed_lines(hint_embed(game, coach.advise(game, rollouts=8, horizon=6)))
        if what == "review":
            player = player_game(game)
            report = simulate_here(game.deck(), review_settings(game, 20))
            moments = top_moments(moments_at(game, decision_points(game, 2), 8))
            return _embed_lines(review_embed(game, Review(player, deck_figures(report, player), tuple(moments))))
        view = table_view(game, shared=shared)
        picture = draw_table(view, {})
        digest = hashlib.sha256(picture.image.tobytes()).hexdigest()[:32]
        return [
            f"alt: {alt_text(view)}",
            f"view: {json.dumps(dataclasses.asdict(view), sort_keys=True, ensure_ascii=False)}",
            f"picture: {picture.image.size[0]}x{picture.image.size[1]}, fonts {sorted(picture.font_sizes)}, {digest}",
        ]


def _embed_lines(embed) -> list[str]:
    class Shown:
        content = ""
        embeds = [embed]
        components: list = []
        attachments: list = []

    return message_lines(Shown())


async def open_table(env, spec: dict[str, Any], number: int) -> DiscordTable:
    guild = env.create_guild(f"Recorded {number}")
    channel = guild.create_text_channel(spec["id"])
    players = {name: guild.add_member(env.create_user(name)) for name in ("alice", "bob")}
    fake_collection(env)
    return DiscordTable(env, guild, channel, players)


def start_step(spec: dict[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = {"seed": spec["seed"], "play_first": not spec["draw"], "shared": spec["shared"]}
    if spec["deck"].startswith("list:"):
        options["decklist"] = DECKLISTS[spec["deck"].removeprefix("list:")]
    else:
        options["deck"] = spec["deck"]
    return {"who": "alice", "slash": "goldfish start", "options": options}


async def replay_discord(env, spec: dict[str, Any], inputs: list[dict[str, Any]], number: int) -> list[list[str]]:
    table = await open_table(env, spec, number)
    return [await table.step(step) for step in inputs]


async def discord_inputs(env, spec: dict[str, Any], number: int) -> tuple[list[dict], list[list[str]]]:
    """Play a game by the policy through Discord, choosing each input from the table as a player sees it."""
    table = await open_table(env, spec, number)
    rng = random.Random(spec["seed"])
    inputs: list[dict[str, Any]] = []
    outputs: list[list[str]] = []

    async def do(step: dict[str, Any]) -> None:
        inputs.append(table.recorded(step))
        outputs.append(await table.step(table.recorded(step)))

    await do(start_step(spec))
    while len(inputs) < 90:
        step = await _next_step(table, spec, rng)
        if step is None:
            break
        await do(step)
    game, _ = await table.game()
    await do({"look": "picture"})
    if game.phase == "over":
        await do({"look": "review"})
    if game.phase != "over" and rng.random() < 0.6:
        if not spec["shared"]:
            await do({"who": "bob", "slash": "goldfish end"})
        await do({"who": "alice", "slash": "goldfish end"})
    return inputs, outputs


async def _next_step(table: DiscordTable, spec: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    game, _ = await table.game()
    if game.phase == "over" or game.turn > spec["turns"]:
        return None
    message = table_of(table.channel)
    controls = [c for c in components_of(message) if c.get("custom_id")]
    ids = [c["custom_id"] for c in controls]
    buttons = [c["custom_id"] for c in controls if c.get("type") == 2]
    actor = "bob" if spec["shared"] and rng.random() < 0.5 else "alice"
    pending = _pending_choice(game, ids, rng, actor)
    if pending is not None:
        return pending
    roll = rng.random()
    if roll < 0.04:
        return {"who": actor, "slash": rng.choice(["goldfish hand", "goldfish log", "goldfish status"])}
    if roll < 0.06 and any(i.startswith(("gf:grave:", "gf:lib:")) for i in buttons):
        return {"who": actor, "click": rng.choice([i for i in buttons if i.startswith(("gf:grave:", "gf:lib:"))])}
    if roll < 0.08 and not spec["shared"]:
        return {"who": "bob", "click": rng.choice(buttons)}
    if roll < 0.10 and game.undo_problem is None:
        undo = [i for i in buttons if i.startswith("gf:undo:")]
        if undo and rng.random() < 0.5:
            return {"who": actor, "click": undo[0]}
        return {"who": actor, "slash": "goldfish undo"}
    if roll < 0.12 and game.phase == "main":
        return {"look": "hint"}
    if roll < 0.14:
        return {"who": actor, "slash": rng.choice(["goldfish play", "goldfish cast"]), "options": {"card": "Plains"}}
    legal = game.legal_actions()
    action = policy_move(game)
    if legal and rng.random() < 0.15:
        action = rng.choice(legal)
    return _action_step(game, action, ids, rng, actor)


def _pending_choice(game: Game, ids: list[str], rng: random.Random, actor: str) -> dict[str, Any] | None:
    """A choice the table is waiting for: what a search finds, the cards on the bottom, a prepared action."""
    for custom_id in ids:
        if custom_id.startswith("gf:find:"):
            values = [c.iid for c in game.search_candidates(*map(int, custom_id.split(":")[3:5]))]
            value = "nothing" if not values or rng.random() < 0.2 else str(values[0])
            return {"who": actor, "select": custom_id, "values": [value]}
        if custom_id.startswith("gf:bottom:"):
            chosen = bottom_cards(game, game.bottom_count())
            return {"who": actor, "select": custom_id, "values": [str(i) for i in chosen]}
        if custom_id.startswith("gf:go:"):
            return {"who": actor, "click": custom_id}
    return None


def _action_step(game: Game, action: Action, ids: list[str], rng: random.Random, actor: str) -> dict[str, Any]:
    slash = rng.random() < 0.3

    def control(prefix: str) -> str:
        found = [i for i in ids if i.startswith(prefix)]
        assert found, f"no control {prefix} for {action} among {ids}"
        return found[0]

    name = game.iid_names.get(action.iid, "") if action.iid is not None else ""
    if action.kind == "mulligan":
        return {"who": actor, "slash": "goldfish mulligan"} if slash else {"who": actor, "click": control("gf:mull:")}
    if action.kind == "keep":
        if slash and action.bottom:
            names = ", ".join(game.iid_names[i] for i in action.bottom)
            return {"who": actor, "slash": "goldfish keep", "options": {"bottom": names}}
        return {"who": actor, "click": control("gf:keep:")}
    if action.kind == "next":
        return {"who": actor, "slash": "goldfish next"} if slash else {"who": actor, "click": control("gf:next:")}
    if action.kind == "discard":
        if slash:
            return {"who": actor, "slash": "goldfish discard", "options": {"cards": _names(game, action.cards)}}
        custom_id = control("gf:discard:" if action.pay else "gf:discard0:")
        return {"who": actor, "select": custom_id, "values": [str(i) for i in action.cards]}
    if action.kind == "echo":
        if slash:
            return {"who": actor, "slash": "goldfish echo", "options": {"pay": action.pay}}
        return {"who": actor, "click": control(f"gf:{'echo' if action.pay else 'sac'}:")}
    if action.kind == "activate":
        return {"who": actor, "click": control("gf:act:")}
    if action.kind == "play":
        value = f"{action.iid}:{action.ability}" if action.ability else str(action.iid)
        if slash:
            return {"who": actor, "slash": "goldfish play", "options": {"card": value if rng.random() < 0.5 else name}}
        return {"who": actor, "select": control("gf:land:"), "values": [value]}
    if action.kind == "cast":
        if slash:
            return {"who": actor, "slash": "goldfish cast", "options": {"card": str(action.iid)}}
        return {"who": actor, "select": control("gf:cast:"), "values": [str(action.iid)]}
    value = f"{action.iid}:{action.ability}"
    if slash:
        options: dict[str, Any] = {"card": value}
        if action.find is not None:
            options["find"] = str(action.find)
        elif action.find_nothing:
            options["find"] = "nothing"
        return {"who": actor, "slash": "goldfish cycle", "options": options}
    return {"who": actor, "select": control("gf:cycle:"), "values": [value]}


def _names(game: Game, iids: tuple[int, ...]) -> str:
    return ", ".join(game.iid_names[i] for i in iids)
