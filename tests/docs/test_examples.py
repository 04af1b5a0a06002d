"""The example outputs in the README and docs/ are what the code says now (make docs-examples rewrites them)."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.docs.examples import generate
from tests.docs.markers import REPO, MarkerError, find_examples, normalised, pages


def test_every_page_shows_the_output_the_code_gives_now(generated):
    drifted = generated.drifted()
    diffs = []
    for path in drifted:
        name = str(path.relative_to(REPO))
        lines = difflib.unified_diff(
            normalised(generated.texts[path]).splitlines(),
            normalised(generated.page(path)).splitlines(),
            f"{name} (as written)",
            f"{name} (as the code says now)",
            lineterm="",
        )
        diffs.append("\n".join(list(lines)[:60]))
    assert not drifted, "Pages out of date: run `make docs-examples`.\n" + "\n\n".join(diffs)


def test_the_pages_show_examples_of_each_kind(generated):
    kinds = {example.kind for example in generated.examples}
    assert kinds == {"terminal", "discord"}
    assert len(generated.examples) >= 20


def test_a_stale_example_is_found_and_rewritten(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\n<!-- example: .venv/bin/cyclebot goldfish odds 4 --turns 2 -->\nstale text\n<!-- /example -->\n"
        "\nAfter.\n",
        encoding="utf-8",
    )
    generated = generate([page])
    assert generated.drifted() == [page]
    rewritten = generated.page(page)
    assert "stale text" not in rewritten
    assert "$ .venv/bin/cyclebot goldfish odds 4 --turns 2\nAt least 1 of 4 in 60 cards" in rewritten
    assert rewritten.startswith("# A page\n\n<!-- example:") and rewritten.endswith("<!-- /example -->\n\nAfter.\n")


def test_timings_do_not_count_as_drift():
    assert normalised("Imported 247 cards in 0.4 s.") == normalised("Imported 247 cards in 12.0 s.")
    assert normalised("(1.3 MB, from file x)") == normalised("(1.2 MB, from file x)")
    assert normalised("247 cards") != normalised("248 cards")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("<!-- example: .venv/bin/cyclebot health -->\n", "without its closing"),
        ("<!-- example loudly: .venv/bin/cyclebot health -->\n<!-- /example -->\n", "unknown setting"),
        ("<!-- example:\n/about\n.venv/bin/cyclebot health\n-->\n<!-- /example -->\n", "mixed"),
        ("<!-- example .venv/bin/cyclebot health -->\n<!-- /example -->\n", "not of the form"),
    ],
)
def test_a_marker_written_wrongly_is_named(text, problem):
    with pytest.raises(MarkerError, match=problem):
        find_examples(REPO / "docs" / "page.md", text)


def test_every_page_parses():
    for path in pages():
        find_examples(path, path.read_text(encoding="utf-8"))


def test_a_disabled_button_is_drawn_as_a_greyed_button_not_struck_through():
    import discord

    from tests.docs.discord_replies import _control

    def button(disabled: bool) -> discord.Button:
        return discord.Button({"type": 2, "style": 2, "label": "Previous", "custom_id": "p", "disabled": disabled})

    assert _control(button(False)) == "`Previous`"
    drawn = _control(button(True))
    assert "~~" not in drawn and "`Previous`" in drawn and 'class="button-disabled"' in drawn
    css = (Path(__file__).resolve().parents[2] / "docs" / "stylesheets" / "replies.css").read_text(encoding="utf-8")
    assert ".button-disabled code" in css
