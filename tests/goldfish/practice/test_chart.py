"""The simulation chart at a phone's width: every text measured in pixels as a phone shows it (360 px wide), and a
legend that covers no line."""

from __future__ import annotations

import io

import pytest
from matplotlib.text import Text
from PIL import Image

from bot import limits
from bot.goldfish.decks import preset_decks
from bot.goldfish.practice.chart import WIDTH, draw_chart, render_png
from bot.goldfish.practice.simulate import Settings, simulate_here

SMALLEST_ON_PHONE = 10.0


@pytest.fixture(scope="module", params=[8, 20])
def figure(request):
    report = simulate_here(preset_decks()["slide"], Settings(games=40, turns=request.param, seed=3))
    figure = draw_chart(report)
    figure.canvas.draw()
    return figure


def shown_texts(figure) -> list[Text]:
    return [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()]


def test_the_chart_is_drawn_at_twice_a_phones_width():
    report = simulate_here(preset_decks()["slide"], Settings(games=20, turns=4, seed=3))
    image = Image.open(io.BytesIO(render_png(report)))
    assert image.size[0] == WIDTH == 2 * limits.PHONE_IMAGE_WIDTH


def test_every_text_is_at_least_10_px_tall_at_a_phones_width(figure):
    width = figure.bbox.width
    texts = shown_texts(figure)
    assert len(texts) > 20  # titles, labels, ticks and the legend's entries are all measured
    for text in texts:
        px_on_phone = text.get_fontsize() * figure.dpi / 72 * limits.PHONE_IMAGE_WIDTH / width
        assert px_on_phone >= SMALLEST_ON_PHONE, (text.get_text(), round(px_on_phone, 1))


def test_the_legend_lies_outside_the_plots_and_no_texts_overlap(figure):
    [legend] = figure.legends
    box = legend.get_window_extent()
    for axes in figure.axes:
        assert not box.overlaps(axes.get_window_extent()), "the legend covers a plot"
    renderer = figure.canvas.get_renderer()
    ticks = [t for t in figure.axes[-1].get_xticklabels() if t.get_text()]
    boxes = [t.get_window_extent(renderer) for t in ticks]
    assert all(not a.overlaps(b) for a, b in zip(boxes, boxes[1:], strict=False)), "turn numbers run together"
