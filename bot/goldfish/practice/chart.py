"""A simulation report as a PNG chart: per-turn lines and the turn the goldfish died, as bars.

Drawn with matplotlib's Agg canvas on a ``Figure`` of its own (no pyplot, no display, no global
state), so it runs in a worker process or thread. matplotlib is imported on first use: it takes
a moment to load and the bot needs it only for charts.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.goldfish.practice.simulate import Report

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def render_png(report: Report) -> bytes:
    """The chart of ``report`` as PNG bytes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    turns = [row.turn for row in report.per_turn]
    figure = Figure(figsize=(8, 6), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(3, 2))

    top.plot(turns, [100 * r.all_land_drops for r in report.per_turn], marker="o", label="every land drop made (%)")
    top.plot(turns, [100 * r.payoff for r in report.per_turn], marker="s", label="payoff on the battlefield (%)")
    top.set_ylim(0, 105)
    top.set_ylabel("% of games")
    top.grid(alpha=0.3)
    cycled = top.twinx()
    cycled.plot(turns, [r.mean_cycled for r in report.per_turn], color="tab:green", marker="^", label="cards cycled")
    cycled.set_ylabel("mean cards cycled so far")
    cycled.set_ylim(bottom=0)
    lines = top.get_legend_handles_labels()
    more = cycled.get_legend_handles_labels()
    top.legend(lines[0] + more[0], lines[1] + more[1], loc="upper left", fontsize="small")
    side = "on the play" if report.settings.on_the_play else "on the draw"
    top.set_title(f"{report.deck_name}: {report.games:,} games {side}, seed {report.settings.seed}")

    bottom.bar(turns, [100 * r.died for r in report.per_turn], color="tab:red")
    bottom.set_ylabel("goldfish died (%)")
    bottom.set_xlabel(f"turn (survived {report.settings.turns} turns: {report.survived:.1%})")
    bottom.set_xticks(turns)
    bottom.grid(axis="y", alpha=0.3)

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
