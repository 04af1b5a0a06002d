"""``picture FILE`` in the terminal game: the current table saved as a real WebP or PNG, drawn with the card
images of the bot's data directory (the local card data and the image cache, here on a fake image host)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.goldfish.cli import play
from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Game
from bot.goldfish.table.picture import WIDTH
from bot.goldfish.table.picture_source import picture_file
from bot.goldfish.table.view import table_view
from bot.hosts.images import DIRECTORY
from tests.goldfish.cog_support import SLIDE_SIMPLE
from tests.support.fake_images import FakeImageHost, import_cards_on


def run(game: Game, *lines: str, **options) -> list[str]:
    said: list[str] = []
    feed = iter([*lines, "quit"])
    play(
        game,
        input_fn=lambda prompt: next(feed),
        output=lambda *parts: said.append(" ".join(map(str, parts))),
        **options,
    )
    return said


def slide() -> Game:
    return Game.new(preset_decks()["slide"], seed=SLIDE_SIMPLE)


def test_picture_saves_the_table_as_webp_or_png(tmp_path):
    said = run(slide(), "keep", f"picture {tmp_path / 'table.webp'}", f"picture {tmp_path / 'my table.png'}")

    webp = Image.open(tmp_path / "table.webp")
    png = Image.open(tmp_path / "my table.png")
    assert (webp.format, png.format) == ("WEBP", "PNG") and webp.width == png.width == WIDTH
    assert sum("Saved a picture of the table" in line for line in said) == 2


def test_picture_without_a_file_or_into_a_missing_folder_says_so(tmp_path):
    said = run(slide(), "picture", f"picture {tmp_path / 'nowhere' / 'table.webp'}")
    assert any("Say where to save it" in line for line in said)
    assert any("Could not write" in line for line in said)


def test_a_failed_drawing_is_explained_and_nothing_is_written(tmp_path):
    said = run(slide(), f"picture {tmp_path / 'table.webp'}", draw=lambda view, fmt: None)
    assert any("could not be fetched" in line for line in said) and not (tmp_path / "table.webp").exists()


@pytest.fixture
def image_host():
    with FakeImageHost() as host:
        yield host


@pytest.fixture
def data_dir_with_cards(tmp_path, image_host):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    import_cards_on(image_host, data_dir)
    return data_dir


async def test_the_terminal_draws_with_the_bots_card_images_and_keeps_them_on_disk(data_dir_with_cards, image_host):
    view = table_view(slide())

    data = await picture_file(view, data_dir_with_cards, image_host.base_url)
    again = await picture_file(view, data_dir_with_cards, image_host.base_url)

    assert data == again and Image.open(io.BytesIO(data)).format == "WEBP"
    assert len(image_host.requests) == len(view.keys())  # each image once, then from disk
    assert len(list((data_dir_with_cards / DIRECTORY).iterdir())) == len(view.keys())
    frames = await picture_file(view, data_dir_with_cards.parent / "empty", image_host.base_url)
    assert frames is not None and frames != data  # no card data: every card a frame


async def test_the_terminal_gets_no_picture_while_the_image_host_is_down(data_dir_with_cards, image_host):
    image_host.mode = "down"
    assert await picture_file(table_view(slide()), data_dir_with_cards, image_host.base_url) is None
