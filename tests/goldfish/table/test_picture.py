"""The table picture as a pure function of the game's view: real Pillow, real WebP/PNG bytes decoded and checked."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.goldfish.decks import preset_decks
from bot.goldfish.engine import Action, Game
from bot.goldfish.engine.model import Permanent
from bot.goldfish.engine.scenario import position
from bot.goldfish.table.picture import FIELD_CARD, HAND_CARD, MAX_BYTES, WIDTH, card_image, render_table, thumbnail
from bot.goldfish.table.view import CardFace, CardKey, table_view
from tests.goldfish.cog_support import SLIDE_SIMPLE, sample_cards
from tests.support.fake_images import card_jpeg


def decoded(data: bytes, kind: str = "WEBP") -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == kind
    image.load()
    return image


def images_for(view, *, noisy: bool = False) -> dict[CardKey, bytes]:
    """A JPEG for every card of the view: plain ones, or random noise (the worst case for the picture's size)."""
    if not noisy:
        return {key: card_jpeg(f"/{key.name}/{key.face}") for key in view.keys()}
    rng = random.Random(7)
    found = {}
    for key in view.keys():
        image = Image.frombytes("RGB", (146, 204), rng.randbytes(146 * 204 * 3))
        out = io.BytesIO()
        image.save(out, "JPEG", quality=95)
        found[key] = out.getvalue()
    return found


def kept_slide() -> Game:
    game = Game.new(preset_decks()["slide"], seed=SLIDE_SIMPLE)
    game.apply(Action("keep"))
    return game


def test_the_picture_is_a_webp_under_a_megabyte_that_changes_when_a_land_is_played():
    game = kept_slide()
    before = table_view(game)
    plains = next(card for card in game.zones.hand if card.name == "Plains")
    game.apply(Action("play", plains.iid))
    after = table_view(game)

    first = render_table(before, images_for(before))
    second = render_table(after, images_for(after))

    assert len(first) <= MAX_BYTES and len(second) <= MAX_BYTES
    one, two = decoded(first), decoded(second)
    assert one.width == two.width == WIDTH
    assert one.tobytes() != two.tobytes()
    assert [p.card.title for p in after.lands] == ["Plains"] and len(after.hand) == len(before.hand) - 1
    assert render_table(after, images_for(after)) == second  # a pure function: same view, same bytes


def test_png_is_offered_too():
    view = table_view(kept_slide())
    assert decoded(render_table(view, images_for(view), fmt="png"), "PNG").width == WIDTH


def test_a_view_groups_lands_with_a_count_and_tapped_ones_apart():
    game = position(
        sample_cards(),
        hand=["Street Wraith"],
        lands=["Plains", "Plains", "Secluded Steppe"],
        tapped=["Plains"],
        library=["Plains"] * 5,
        graveyard=["Renewed Faith", "Solar Blast"],
    )
    game.zones.battlefield.append(Permanent(900, "Soldier", token=True, power=1, toughness=1))
    view = table_view(game)

    plains = next(p for p in view.lands if p.card.title == "Plains")
    assert (plains.count, plains.tapped, plains.untapped) == (3, 1, 2)
    token = next(p for p in view.permanents if p.token)
    assert token.card.key is None and (token.power, token.toughness) == (1, 1)
    assert view.graveyard_top.title == "Solar Blast" and view.graveyard_count == 2 and view.library_count == 5
    assert CardKey("Soldier") not in view.keys() and CardKey("Solar Blast") in view.keys()
    picture = decoded(render_table(view, images_for(view)))
    assert picture.width == WIDTH


def test_a_card_without_an_image_or_with_garbage_for_one_is_drawn_as_a_frame_with_its_name():
    card = CardFace("Street Wraith", "{3}{B}{B}", "Creature — Wraith", CardKey("Street Wraith"))
    frame = card_image(card, {}, HAND_CARD)
    garbage = card_image(card, {card.key: b"<html>not an image</html>"}, HAND_CARD)
    real = card_image(card, {card.key: card_jpeg("/street-wraith.jpg")}, HAND_CARD)

    assert frame.size == garbage.size == real.size == HAND_CARD
    assert frame.tobytes() == garbage.tobytes() != real.tobytes()
    assert thumbnail(b"\x89PNG\r\n\x1a\n broken", FIELD_CARD) is None


def test_an_image_far_too_big_for_a_card_is_refused():
    out = io.BytesIO()
    Image.new("RGB", (4000, 4000)).save(out, "JPEG")
    assert thumbnail(out.getvalue(), FIELD_CARD) is None


@pytest.mark.parametrize("hand_size", [0, 1, 7, 25])
def test_any_hand_fits_the_width(hand_size):
    game = position(sample_cards(), hand=["Street Wraith"] * hand_size, library=["Plains"] * 3)
    view = table_view(game)
    picture = decoded(render_table(view, images_for(view)))
    assert picture.width == WIDTH and len(view.hand) == hand_size


def test_a_crowded_battlefield_and_noisy_images_stay_under_a_megabyte():
    cards = sample_cards()
    lands = [name for name, card in cards.items() if "Land" in (card.get("type_line") or "")][:20]
    others = [name for name, card in cards.items() if "Creature" in (card.get("type_line") or "")][:40]
    game = position(cards, hand=others[:20], lands=lands[::2], tapped=lands[1::2], permanents=others[20:40])
    view = table_view(game)

    data = render_table(view, images_for(view, noisy=True))

    assert len(data) <= MAX_BYTES
    picture = decoded(data)
    assert picture.width <= WIDTH and picture.height < 2000


def test_a_double_faced_land_played_as_its_back_shows_that_face():
    # A modal double-faced card in Scryfall's shape: a spell on the front, a land on the back (712.12).
    mdfc = {
        "name": "Test Spell // Test Land",
        "layout": "modal_dfc",
        "type_line": "Sorcery // Land",
        "card_faces": [
            {"name": "Test Spell", "mana_cost": "{2}{G}", "type_line": "Sorcery", "oracle_text": ""},
            {"name": "Test Land", "mana_cost": "", "type_line": "Land", "oracle_text": "{T}: Add {G}."},
        ],
    }
    game = position(sample_cards(mdfc), hand=[mdfc["name"]], library=["Plains"] * 3)
    land = game.zones.hand[0]
    game.apply(Action("play", land.iid, 1))
    view = table_view(game)

    assert [(p.card.title, p.card.key) for p in view.lands] == [("Test Land", CardKey(mdfc["name"], 1))]
    assert view.hand == ()


# ---------------------------------------------------------------------- read on a phone


def symbol_pngs() -> dict[str, bytes]:
    """Scryfall's real symbol SVGs rendered the way the bot renders them."""
    import json

    from bot.hosts.svg import render_png
    from tests.data import CARD_SYMBOLS, SYMBOLOGY

    return {
        item["symbol"]: render_png((CARD_SYMBOLS / item["svg_uri"].rsplit("/", 1)[1]).read_bytes())
        for item in json.loads(SYMBOLOGY.read_text(encoding="utf-8"))["data"]
        if item["symbol"] in ("{W}", "{R}", "{1}", "{2}", "{3}", "{R/W}")
    }


def mid_game(seed: int = 7) -> Game:
    from bot.goldfish.practice.simulate import policy_step

    game = Game.new(preset_decks()["slide"], seed=seed)
    while game.turn < 5 and game.phase != "over":
        policy_step(game)
    return game


@pytest.mark.parametrize("seed", [7, 11, 23])
def test_the_smallest_text_is_at_least_10_px_on_a_360_px_wide_phone(seed):
    from bot.goldfish.table.picture import draw_table

    view = table_view(mid_game(seed))
    for images in ({}, images_for(view)):  # drawn frames (names, costs, types) and card images (badges)
        picture = draw_table(view, images, symbol_pngs())
        assert picture.image.width == WIDTH
        assert picture.smallest_font_at(360) >= 10, sorted(picture.font_sizes)


def test_the_layout_uses_the_width_with_no_empty_column():
    from bot.goldfish.table.picture import BACKGROUND, draw_table

    view = table_view(mid_game())
    image = draw_table(view, images_for(view), symbol_pngs()).image
    # The hand's first row and the battlefield's rows reach past two thirds of the width.
    used = [
        max((x for x in range(image.width) if image.getpixel((x, y)) != BACKGROUND), default=0)
        for y in range(0, image.height, 4)
    ]
    assert max(used) >= image.width * 0.9
    assert sum(1 for right in used if right >= image.width * 2 / 3) >= len(used) / 2


def test_a_card_name_is_wrapped_never_clipped_even_tapped():
    from bot.goldfish.table.picture import SMALLEST_FONT, font, wrap

    name = "Desert of the True Ever-Watchful Lands"
    for width in (FIELD_CARD[0] - 12, FIELD_CARD[1] - 12):  # standing, and sideways when tapped
        lines = wrap(name, SMALLEST_FONT, width)
        kept = "".join(lines).replace("-", "").replace(" ", "")
        assert kept == name.replace(" ", "").replace("-", "")  # every letter kept
        assert all(font(SMALLEST_FONT).getlength(line) <= width for line in lines)
    game = position(sample_cards(), lands=["Secluded Steppe"], tapped=["Secluded Steppe"], library=["Plains"] * 3)
    view = table_view(game)
    tapped = [pile for pile in view.lands if pile.tapped]
    assert tapped and decoded(render_table(view, {})).width == WIDTH


def test_costs_are_drawn_as_symbols_from_their_pictures():
    from bot.goldfish.table.picture import CARD_SYMBOL, Pen, draw_symbols

    canvas = Image.new("RGB", (200, 40), (22, 48, 40))
    draw_symbols(Pen(canvas), symbol_pngs(), ["{3}", "{R}"], 4, 4, CARD_SYMBOL)
    left = 4 + CARD_SYMBOL + 3
    disc = canvas.crop((left, 4, left + CARD_SYMBOL, 4 + CARD_SYMBOL)).getcolors(CARD_SYMBOL**2)
    assert sum(count for count, (r, g, b) in disc if r > 200 and g < r - 40) > CARD_SYMBOL  # Scryfall's red disc
    outline = canvas.getpixel((left + CARD_SYMBOL // 2, 4))  # its topmost pixel: the dark ring
    assert max(outline) < 60
    # Without pictures (a copy whose symbols could not be made) a coloured disc stands in for each.
    plain = Image.new("RGB", (200, 40), (22, 48, 40))
    draw_symbols(Pen(plain), {}, ["{R}"], 4, 4, CARD_SYMBOL)
    assert plain.getpixel((9, 4 + CARD_SYMBOL // 2))[0] > 200  # red, beside the letter


def test_a_shared_table_is_drawn_without_you():
    from bot.goldfish.table.picture import draw_table

    game = mid_game()
    assert table_view(game, shared=True).shared and not table_view(game).shared
    assert (
        draw_table(table_view(game, shared=True), {}).image.tobytes()
        != draw_table(table_view(game), {}).image.tobytes()
    )


def test_each_hand_card_shows_its_cycling_cost_beside_its_cast_cost_as_priced_now():
    from bot.goldfish.table.picture import SMALLEST_FONT, draw_table
    from bot.goldfish.table.view import CyclingCost

    game = position(
        sample_cards(),
        hand=["Krosan Tusker", "Street Wraith", "Edge of Autumn", "Lightning Rift"],
        lands=["Forest"],
        permanents=["Fluctuator"],
    )
    view = table_view(game)

    by_title = {card.title: card for card in view.hand}
    assert by_title["Krosan Tusker"].cost == "{5}{G}{G}"
    assert by_title["Krosan Tusker"].cycling == (CyclingCost("{G}"),)  # {2}{G} less Fluctuator's {2}
    assert by_title["Street Wraith"].cycling == (CyclingCost("", "2 life"),)
    assert by_title["Edge of Autumn"].cycling == (CyclingCost("", "sac. a land"),)
    assert by_title["Lightning Rift"].cycling == ()

    # With real card images: the printed cycling text is a few pixels on a phone, the drawn cost is not.
    picture = draw_table(view, images_for(view))
    assert picture.texts.count("Cycling") == 3 and {"2 life", "sac. a land"} <= set(picture.texts)
    assert min(picture.font_sizes) >= SMALLEST_FONT
    without = draw_table(table_view(game), images_for(view))
    assert picture.image.tobytes() == without.image.tobytes()  # a pure function of the view
