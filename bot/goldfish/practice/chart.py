"""A simulation report as a PNG chart: per-turn lines and the turn the goldfish died, as bars.

Drawn with matplotlib's Agg canvas on a ``Figure`` of its own (no pyplot, no display, no global
state), so it runs in a worker process or thread. matplotlib is imported on first use: it takes
a moment to load and the bot needs it only for charts.

Laid out for a phone, which shows an image about 360 px wide: the chart is 720 px across, every text is
at least 10 px there (a test measures each text of the figure at that width), and the legend sits below
the lines rather than on them.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from bot import limits
from bot.text import plural

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from bot.goldfish.practice.simulate import Report

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DPI = 160
SIZE = (4.5, 5.6)  # inches: 720 × 896 px, twice the width a phone shows
WIDTH = round(SIZE[0] * DPI)
# Points at DPI on a figure WIDTH px wide, shown PHONE_IMAGE_WIDTH px wide: 10 pt is 11 px on the phone.
TEXT_PT = 10.0
TITLE_PT = 11.0
MOST_TICKS = 12  # turn numbers that fit side by side across the phone


def text_px_on_phone(points: float, width: int = WIDTH) -> float:
    """How tall ``points`` of text are on a phone, where the chart is shown PHONE_IMAGE_WIDTH px wide."""
    return points * DPI / 72 * limits.PHONE_IMAGE_WIDTH / width


def draw_chart(report: Report) -> Figure:
    """The chart of ``report`` as a matplotlib figure (drawn on an Agg canvas)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    turns = [row.turn for row in report.per_turn]
    figure = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(3, 2))

    top.plot(turns, [100 * r.all_land_drops for r in report.per_turn], marker="o", label="every land drop made (%)")
    top.plot(turns, [100 * r.payoff for r in report.per_turn], marker="s", label="payoff on the battlefield (%)")
    top.set_ylim(0, 105)
    top.set_ylabel("% of games", fontsize=TEXT_PT)
    top.grid(alpha=0.3)
    cycled = top.twinx()
    cycled.plot(turns, [r.mean_cycled for r in report.per_turn], color="tab:green", marker="^", label="cards cycled")
    cycled.set_ylabel("cards cycled (mean)", fontsize=TEXT_PT)
    cycled.set_ylim(bottom=0)
    lines = top.get_legend_handles_labels()
    more = cycled.get_legend_handles_labels()
    # Below the plots, outside every line: drawn over the lines it hid one at phone size.
    figure.legend(lines[0] + more[0], lines[1] + more[1], loc="outside lower center", fontsize=TEXT_PT, ncols=1)
    side = "on the play" if report.settings.on_the_play else "on the draw"
    figure.suptitle(
        f"{report.deck_name}\n{plural(report.games, 'game')} {side}, seed {report.settings.seed}", fontsize=TITLE_PT
    )

    bottom.bar(turns, [100 * r.died for r in report.per_turn], color="tab:red")
    bottom.set_ylabel("goldfish died (%)", fontsize=TEXT_PT)
    bottom.set_xlabel(
        f"turn (survived {plural(report.settings.turns, 'turn')}: {report.survived:.1%})", fontsize=TEXT_PT
    )
    bottom.set_xticks(turns[:: -(-len(turns) // MOST_TICKS)])  # every turn up to 12, else every other
    bottom.grid(axis="y", alpha=0.3)
    for axes in (top, cycled, bottom):
        axes.tick_params(labelsize=TEXT_PT)
    return figure


def render_png(report: Report) -> bytes:
    """The chart of ``report`` as PNG bytes."""
    buffer = io.BytesIO()
    draw_chart(report).savefig(buffer, format="png")
    return buffer.getvalue()
