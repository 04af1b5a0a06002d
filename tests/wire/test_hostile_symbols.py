"""A hostile symbol host against the real bot process: each SVG that froze, crashed or leaked through the bot before
is served for {G} while the bot makes its emoji. The bot stays up, answers /rule, keeps its gateway heartbeat going,
uploads every other symbol, and no pixel of a file of its machine reaches Discord."""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path

import pytest
from PIL import Image

from tests.support.fake_discord import FakeDiscord
from tests.support.hostile_svgs import HOSTILE, local_image
from tests.support.waits import CEILING, SLACK

SYMBOLS = 75
HEARTBEAT_MS = 500
# The KeepAlive thread of discord.py sends a beat every half second; on a machine busy with other tests a beat can
# come the suite's slack late, and the fake (in the test's process) may see it later still, but a frozen event loop
# (30 s and more before) or a dead process sends none at all.
LONGEST_SILENCE = 2 * SLACK
MAGENTA = (255, 0, 255)


def local_file(tmp_path: Path) -> str:
    secret = tmp_path / "secret.png"
    Image.new("RGB", (100, 100), MAGENTA).save(secret)  # in no real symbol
    return str(secret)


async def ask_rule(fake: FakeDiscord) -> dict:
    options = [{"name": "query", "type": 3, "value": "702.29"}]
    interaction = await fake.send_interaction(fake.command_interaction("rule", options=options))
    answer = await fake.callback(interaction)
    return answer if answer["type"] == 4 else await fake.followup(interaction)


@pytest.mark.parametrize("hostile", ["turbulence", "nested", "local-file", "dev-zero"])
async def test_a_hostile_symbol_neither_freezes_nor_crashes_the_bot_nor_publishes_a_local_file(
    spawn_bot, fake_discord: FakeDiscord, fake_scryfall, tmp_path: Path, hostile: str
):
    fake_scryfall.serve_symbol("G", local_image(local_file(tmp_path)) if hostile == "local-file" else HOSTILE[hostile])
    fake_discord.heartbeat_interval = HEARTBEAT_MS
    bot = await spawn_bot(
        SCRYFALL_API_URL=fake_scryfall.base_url, MANA_EMOJI="1", CARD_DATA_AUTO_UPDATE="0", RULES_AUTO_UPDATE="0"
    )
    await fake_discord.wait_until_connected()
    await fake_discord.wait_for(lambda r: r.method == "PUT" and r.path.endswith("/commands"))

    answers = []
    started = time.monotonic()
    while len(fake_discord.application_emojis) < SYMBOLS - 1 or "stays as text" not in bot.stderr:
        assert bot.process.returncode is None, bot.stderr
        assert time.monotonic() - started < CEILING, f"{len(fake_discord.application_emojis)} emoji made"
        answers.append(await ask_rule(fake_discord))  # the bot answers while it makes its symbols
        await asyncio.sleep(0.1)
    answers.append(await ask_rule(fake_discord))

    assert bot.process.returncode is None, "still up"
    assert all("702.29" in json.dumps(answer) for answer in answers)
    beats = [at for at in fake_discord.heartbeats if at >= started]
    assert len(beats) >= 2
    silences = [later - earlier for earlier, later in zip([started, *beats], [*beats, time.monotonic()], strict=True)]
    assert max(silences) < LONGEST_SILENCE, max(silences)
    names = {emoji["name"] for emoji in fake_discord.application_emojis.values()}
    assert len(names) == SYMBOLS - 1 and "mana_G" not in names
    for image in fake_discord.emoji_images.values():
        colours = Image.open(io.BytesIO(image)).convert("RGB").getcolors(maxcolors=1 << 16)
        assert MAGENTA not in {colour for _, colour in colours}
    [line] = [line for line in bot.stderr.splitlines() if "stays as text" in line]
    assert "1 card symbol stays as text for a day: {G} (its SVG holds" in line
    assert "Traceback" not in bot.stderr
