"""Answering a game interaction: post or edit the game message, and the buttons' and selects' handlers.

A mixin of the Goldfish cog, so the commands file stays about the commands. Which game: a slash command acts on the
caller's own game in the channel, or else its shared game (``key=None`` below); a component on the game its custom
id names (its :class:`~cogs.goldfish._components.Stamp`).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.errors import UserFacingError
from bot.goldfish import GameKey, GameService, GameStore, StoredGame, game_of, is_loadable
from bot.goldfish.engine import Action, Game, IllegalAction
from bot.goldfish.table import done_text
from bot.text import escape
from cogs._symbols import symbols_for
from cogs._ui import reply
from cogs.goldfish._components import Deferral, Picked, Stamp
from cogs.goldfish._drafts import Draft, draft_note, needs_draft, with_phyrexian
from cogs.goldfish._inputs import (
    FIND_NOTHING,
    hand_card,
    lands_named,
    parse_card_value,
    select_card,
    select_ints,
    typed_face,
)
from cogs.goldfish._render import find_asked, find_mode_note, game_embed, game_view, zone_embed
from cogs.goldfish._table import Tables


@dataclass
class PendingStart:
    """A start waiting for "Replace the game?": lives in memory only, so a restart expires it."""

    owner_id: int
    begin: Callable[[discord.Interaction], Awaitable[None]]


def replace_question(existing: StoredGame, user_id: int) -> str:
    """Asked before a new game replaces one in progress: the player's own, or the channel's shared one."""
    if not existing.shared:
        return "You already have a goldfish game in progress in this channel. Replace it with a new one?"
    owner = "you" if existing.owner_id == user_id else f"<@{existing.owner_id}>"
    return f"This channel's shared goldfish game, started by {owner}, is in progress. Replace it?"


class TableActions(Tables):
    """Post/show the game message and handle its components; needs ``service`` and ``pending``."""

    store: GameStore
    service: GameService
    pending: dict[str, PendingStart]

    # ------------------------------------------------------------ answering

    async def post(
        self, interaction: discord.Interaction, record: StoredGame, *, mode=None, note=None, said: str | None = None
    ) -> None:
        """A slash command's answer: the table updated in place, and privately what happened (``said``)."""
        await self.update_table(interaction, record, mode=mode, note=note, said=said)

    async def show(self, interaction: discord.Interaction, record: StoredGame, *, mode=None, note=None) -> None:
        """The clicked game message, updated in place (components), whether or not it was deferred: through the press
        itself, which then edits it (its picture, a later command's move) while its token lasts."""
        footnote = await self.pictures.footnote(interaction, record)
        embed = game_embed(record, note=note, symbols=symbols_for(interaction), footnote=footnote)
        view = game_view(record, mode=mode)
        # No content: a table the channel had to show as text (see _edits) is an embed again.
        if interaction.response.is_done():
            await interaction.edit_original_response(content=None, embed=embed, view=view)
        else:
            await interaction.response.edit_message(content=None, embed=embed, view=view)
        if interaction.message is not None:
            self.edits.posted(interaction.message.id, interaction, original=True)
            await self.strip(record.channel_id, self.remember(record.key, interaction.message.id))
            self.pictures.follow(record, interaction.message.id)
        await self.after_update(record)

    async def mine(self, interaction: discord.Interaction) -> GameKey:
        """The game a slash command acts on: the caller's own in this channel, else the channel's shared game."""
        return (await self.service.mine(interaction.channel_id, interaction.user.id)).key

    async def key_of(self, interaction: discord.Interaction, stamp: Stamp) -> GameKey:
        """The game a component's message shows (a message from before games were keyed by player: found by its
        id among the channel's games)."""
        if stamp.player is not None:
            return GameKey(interaction.channel_id, stamp.player)
        message = interaction.message.id if interaction.message is not None else None
        for key, tables in self.tables.items():
            if key.channel_id == interaction.channel_id and message in tables:
                return key
        return await self.service.of_message(interaction.channel_id, message, interaction.user.id)

    async def run(
        self, interaction: discord.Interaction, key: GameKey | None, action: Action, *, seen: int | None, edit: bool
    ) -> None:
        """Do ``action`` on the game (``key``; None: the caller's, for a slash command) and show the result."""
        async with Deferral(interaction, update=edit, private=not edit):
            key = key or await self.mine(interaction)
            tables = self.tables.get(key)
            record = await self.service.act(key, interaction.user.id, action, seen, tables)
        if edit:
            await self.show(interaction, record)
        else:
            await self.post(interaction, record, said=done_text(record.game, action))

    async def playable(
        self, interaction: discord.Interaction, key: GameKey | None = None, seen: int | None = None, *, edit=False
    ) -> StoredGame:
        """The game (``key``; None: the caller's) after the checks an action passes, for a choice to show."""
        async with Deferral(interaction, update=edit, private=not edit):
            key = key or await self.mine(interaction)
            return await self.service.playable(key, interaction.user.id, seen)

    async def autocomplete_game(self, interaction: discord.Interaction) -> Game | None:
        """The caller's game for autocomplete, if they may play it (read path: never waits for a writer).
        None when the database doesn't answer: autocomplete has no way to say why, and offers nothing."""
        try:
            record = await self.store.mine_or_shared(interaction.channel_id, interaction.user.id)
        except UserFacingError:
            return None
        if record is None or not (record.shared or record.owner_id == interaction.user.id) or not is_loadable(record):
            return None
        return None if record.game.phase == "over" else record.game

    async def from_hand(self, interaction: discord.Interaction, kind: str, card: str, x: int = 0, tap=None) -> None:
        """Play a land or cast a spell named by the player."""
        record = await self.playable(interaction)
        game = game_of(record)
        if game.phase in ("mulligan", "over"):
            doing = "play a land" if kind == "play" else "cast spells"
            raise IllegalAction(f"You can {doing} once the game is under way (keep your hand first).")
        if kind == "play":
            candidates, what = game.playable_lands(), "playable land"
        else:
            castable = {o.iid for o in game.cast_options()}
            candidates, what = [c for c in game.zones.hand if c.iid in castable], "spell"
        iid = hand_card(game, card, candidates, what)
        parsed = parse_card_value(card)
        if parsed is not None:
            face = parsed[1] or 0
        else:  # a name typed: the face it names ("Tangled Vale")
            face = typed_face(game, next(c for c in candidates if c.iid == iid), card) if kind == "play" else 0
        action = Action("play", iid, face) if kind == "play" else Action("cast", iid, x=x, tap=lands_named(game, tap))
        await self.run(interaction, record.key, action, seen=None, edit=False)

    @staticmethod
    def can_manage(interaction: discord.Interaction) -> bool:
        return interaction.permissions.manage_messages

    # ------------------------------------------------------------ components

    async def on_button(
        self, interaction: discord.Interaction, kind: str, stamp: Stamp, iid: int | None = None
    ) -> None:
        key, version = await self.key_of(interaction, stamp), stamp.version
        if kind not in ("grave", "lib", "new", "replay"):
            await self.check_table(interaction, key)
        if kind in ("next", "mull"):
            await self.run(interaction, key, Action("next" if kind == "next" else "mulligan"), seen=version, edit=True)
        elif kind == "keep":
            record = await self.playable(interaction, key, version, edit=True)
            if record.game.bottom_count():
                await self.show(interaction, record, mode=("bottom",))
            else:
                await self.run(interaction, key, Action("keep"), seen=version, edit=True)
        elif kind in ("echo", "sac"):
            await self.run(interaction, key, Action("echo", iid, pay=kind == "echo"), seen=version, edit=True)
        elif kind == "act":
            await self.run(interaction, key, Action("activate", iid), seen=version, edit=True)
        elif kind == "undo":
            async with Deferral(interaction, update=True):
                record = await self.service.undo(key, interaction.user.id, version, self.tables.get(key))
            await self.show(interaction, record)
        elif kind in ("grave", "lib"):
            game = game_of(await self.service.peek(key))
            await reply(
                interaction, embed=zone_embed(game, "graveyard" if kind == "grave" else "library"), ephemeral=True
            )
        elif kind in ("new", "replay"):
            await self.restart(interaction, key, version, same_seed=kind == "replay")
        else:
            await self.show(interaction, await self.playable(interaction, key, version, edit=True))

    async def on_select(self, interaction: discord.Interaction, kind: str, stamp: Stamp, picked: Picked) -> None:
        values, card, tap = picked
        key, version = await self.key_of(interaction, stamp), stamp.version
        await self.check_table(interaction, key)
        if kind == "cycle":
            iid, ability = select_card(values)
            await self.cycle_chosen(interaction, key, iid, ability, version, edit=True, tap=tap)
        elif kind == "find":
            iid, ability = card
            nothing = values == [FIND_NOTHING]
            found = None if nothing else select_ints(values)[0]
            action = Action("cycle", iid, ability, find=found, find_nothing=nothing)
            await self.run(interaction, key, action, seen=version, edit=True)
        elif kind == "land":
            iid, face = select_card(values)
            await self.run(interaction, key, Action("play", iid, face), seen=version, edit=True)
        elif kind == "cast":
            iid = select_ints(values)[0]
            draft = Draft("c", iid, tap=tap)
            record = await self.playable(interaction, key, version, edit=True)
            if any(c.iid == iid for c in record.game.zones.hand) and needs_draft(record.game, draft):
                await self.show(interaction, record, mode=("draft", draft), note=draft_note(record.game, draft))
                return
            await self.run(interaction, key, draft.action(), seen=version, edit=True)
        elif kind == "bottom":
            bottom = tuple(select_ints(values, count=None))
            await self.run(interaction, key, Action("keep", bottom=bottom), seen=version, edit=True)
        elif kind in ("discard", "discard0"):
            chosen = tuple(select_ints(values, count=None))
            action = Action("discard", cards=chosen, pay=kind == "discard")
            await self.run(interaction, key, action, seen=version, edit=True)
        elif kind == "tap":
            chosen = tuple(select_ints(values, count=None)) if values else ()
            record = await self.playable(interaction, key, version, edit=True)
            names = ", ".join(escape(record.game.iid_names.get(i, "?")) for i in chosen)
            note = f"The next payment taps: {names}." if chosen else "The next payment taps the lands I choose."
            await self.show(interaction, record, mode=("tap", chosen), note=note)

    async def on_draft(
        self, interaction: discord.Interaction, stamp: Stamp, code: str, field: str | None, values: list[str]
    ) -> None:
        key, version = await self.key_of(interaction, stamp), stamp.version
        await self.check_table(interaction, key)
        draft = Draft.decode(code)
        if field is None:
            await self.run(interaction, key, draft.action(), seen=version, edit=True)
            return
        record = await self.playable(interaction, key, version, edit=True)
        draft = with_phyrexian(record.game, draft, values) if field == "l" else draft.with_choice(field, values)
        await self.show(interaction, record, mode=("draft", draft), note=draft_note(record.game, draft))

    async def cycle_chosen(
        self,
        interaction: discord.Interaction,
        key: GameKey,
        iid: int,
        ability: int,
        version: int | None,
        *,
        edit: bool,
        tap: tuple[int, ...] = (),
    ) -> None:
        """Cycle now, or first ask what a search finds or what the engine needs chosen (X, pay, sacrifice)."""
        async with Deferral(interaction, update=edit, private=not edit):
            record = await self.service.load(key)
            self.service.check_player(record, interaction.user.id)
            self.service.check_fresh(record, Action("cycle", iid, ability), version, interaction.user.id)
        game = record.game
        option = next((o for o in game.cycle_options() if o.iid == iid and o.ability_index == ability), None)
        if option is None:
            raise IllegalAction("That card has no such cycling ability.")
        if not option.affordable:
            raise IllegalAction(f"You can't cycle {escape(option.name)} now: {option.reason or 'you cannot pay'}.")
        if option.search and game.search_candidates(iid, ability):
            note, mode = find_mode_note(option), ("find", iid, ability)
            if edit:
                await self.show(interaction, record, mode=mode, note=note)
            else:
                await self.post(interaction, record, mode=mode, note=note, said=find_asked(option))
            return
        draft = Draft("k", iid, ability, tap=tap)
        if needs_draft(game, draft):
            note = draft_note(game, draft)
            if edit:
                await self.show(interaction, record, mode=("draft", draft), note=note)
            else:
                await self.post(interaction, record, mode=("draft", draft), note=note, said=f"{note}\nOn the table:")
            return
        action = Action("cycle", iid, ability, find_nothing=bool(option.search), tap=tap)
        await self.run(interaction, key, action, seen=version, edit=edit)

    async def restart(self, interaction: discord.Interaction, key: GameKey, version: int, *, same_seed: bool) -> None:
        """New game (a new shuffle) or Replay this seed, from a finished game's message, edited in place."""
        async with Deferral(interaction, update=True):
            record = await self.service.load(key)
            self.service.check_player(record, interaction.user.id)
            game = game_of(record)
            if record.version != version or game.phase != "over":
                raise IllegalAction("This game message is not of a finished game any more, so nothing happened.")
            seed = game.seed if same_seed else secrets.randbelow(2**31 - 1)
            new = Game.new(game.deck(), seed=seed, on_the_play=game.on_the_play)
            started = await self.service.start(
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                owner_id=interaction.user.id,
                shared=record.shared,
                game=new,
                replace_version=record.version,
            )
        clicked = interaction.message.id if interaction.message is not None else None
        others = [t for t in self.tables.get(key, []) if t != clicked]
        if clicked is not None:
            self.remember(started.key, clicked, fresh=True)
        await self.show(interaction, started)
        await self.strip(interaction.channel_id, others)  # the finished game's other copies

    async def on_replace(self, interaction: discord.Interaction, token: str, replace: bool) -> None:
        pending = self.pending.get(token)
        if pending is None:
            await interaction.response.edit_message(
                content="This question has expired, so nothing changed. Run `/goldfish start` again.", view=None
            )
            return
        if interaction.user.id != pending.owner_id:
            raise IllegalAction("These buttons belong to whoever asked; run the command yourself.")
        del self.pending[token]
        if not replace:
            await interaction.response.edit_message(content="Nothing changed: the current game goes on.", view=None)
            return
        await interaction.response.edit_message(content="Starting the new game…", view=None)
        await pending.begin(interaction)
