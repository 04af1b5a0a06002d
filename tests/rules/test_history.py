"""A rule's history across the seven real editions (2009-10-01 to 2026-01-16): numbers, additions, removals,
rewordings, and the alignment underneath."""

from __future__ import annotations

import os
import shutil

import pytest

from bot.rules.editions.align import Prepared, align
from bot.rules.editions.editions import NoEditionsError, load_editions, rules_files
from bot.rules.editions.history import HistoryCache, RulesHistory, UnknownEditionError, UnknownRuleError
from bot.rules.editions.sources import BUNDLED_EXCERPT
from tests.data import CR_DIR

EDITIONS = ["2009-10-01", "2013-05-01", "2017-04-28", "2020-04-17", "2022-11-18", "2024-11-08", "2026-01-16"]


@pytest.fixture(scope="module")
def history() -> RulesHistory:
    return HistoryCache().get(rules_files(CR_DIR))


def only(changes, kind):
    found = [change for change in changes if change.kind == kind]
    assert len(found) == 1, changes
    return found[0]


def test_the_seven_editions_are_dated_by_their_effective_date(history):
    # The 2013 file is named 2013-04-29 but says it is effective as of May 1, 2013.
    assert history.labels == EDITIONS


def test_cycling_702_29_is_followed_by_its_title_through_every_renumbering(history):
    cycling = history.history("702.29")

    assert cycling.title == "Cycling" and cycling.kind == "rule"
    assert cycling.number_chain() == [
        ("702.26", ["2009-10-01"]),
        ("702.27", ["2013-05-01"]),
        ("702.28", ["2017-04-28", "2020-04-17"]),
        ("702.29", ["2022-11-18", "2024-11-08", "2026-01-16"]),
    ]
    renumbered = [(edition, c.old_number, c.number) for edition, c in cycling.changes("renumbered") if "." in c.number]
    own = [item for item in renumbered if not item[2][-1].isalpha()]
    assert own == [
        ("2013-05-01", "702.26", "702.27"),
        ("2017-04-28", "702.27", "702.28"),
        ("2022-11-18", "702.28", "702.29"),
    ]


def test_cycling_subrules_702_29a_follow_their_rule(history):
    assert [number for number, _ in history.history("702.29a").number_chain()] == [
        "702.26a",
        "702.27a",
        "702.28a",
        "702.29a",
    ]


def test_702_29d_first_appears_in_2017_04_28_as_702_28d(history):
    steps = history.history("702.29d").steps
    assert [step.number for step in steps] == ["", "", "702.28d", "702.28d", "702.29d", "702.29d", "702.29d"]
    added = only(steps[2].changes, "added")
    assert "cycles or discards" in added.new_text
    # The rule's own history says so too, and that the typecycling subrule was relettered d → e then.
    cycling = history.history("702.29")
    in_2017 = next(step for step in cycling.steps if step.edition == "2017-04-28")
    assert only(in_2017.changes, "added").number == "702.28d"
    relettered = [c for c in in_2017.changes if c.kind == "renumbered" and c.number == "702.28e"]
    assert relettered and relettered[0].old_number == "702.27d"


def test_509_2_was_reworded_in_2024_11_08_with_its_old_and_new_text(history):
    rule = history.history("509.2")

    assert rule.number_chain() == [
        ("509.5", ["2009-10-01", "2013-05-01"]),
        ("509.4", ["2017-04-28", "2020-04-17", "2022-11-18"]),
        ("509.2", ["2024-11-08", "2026-01-16"]),
    ]
    step = next(step for step in rule.steps if step.edition == "2024-11-08")
    reworded = [c for c in step.changes if c.kind == "reworded" and c.number == "509.2"]
    assert len(reworded) == 1
    assert reworded[0].old_number == "509.4"
    assert reworded[0].old_text == "Fourth, the active player gets priority. (See rule 117, “Timing and Priority.”)"
    assert reworded[0].new_text == "Second, the active player gets priority. (See rule 117, “Timing and Priority.”)"
    # The rule that was numbered 509.2 until then, the damage assignment order, is named with its fate.
    [former] = rule.namesakes
    assert former.editions == tuple(EDITIONS[:5])
    assert "damage assignment order" in former.text
    assert former.fate == "removed in 2024-11-08"


def test_a_change_only_in_the_rules_it_cites_is_marked_so_509_4_in_2020(history):
    step = next(step for step in history.history("509.2").steps if step.edition == "2020-04-17")
    change = only(step.changes, "reworded")
    assert change.references_only
    assert "rule 116" in change.old_text and "rule 117" in change.new_text


def test_the_damage_assignment_order_509_2_was_removed_in_2024_11_08(history):
    rule = history.history("509.2", edition="2022-11-18")

    assert rule.current == ""
    assert [step.number for step in rule.steps] == ["509.2"] * 5 + ["", ""]
    removed = only(rule.steps[5].changes, "removed")
    assert removed.number == "509.2" and "damage assignment order" in removed.old_text
    assert rule.steps[6].changes == ()


def test_603_2e_removed_in_2026_01_16(history):
    rule = history.history("603.2e", edition="2024-11-08")
    assert [step.number for step in rule.steps] == ["", "", "", "", "603.2e", "603.2e", ""]
    assert only(rule.steps[4].changes, "added").new_text.startswith("Some effects refer to a triggered ability")
    assert only(rule.steps[6].changes, "removed").number == "603.2e"


def test_a_new_keyword_station_702_184_appears_in_2026_with_its_subrules(history):
    station = history.history("702.184")
    assert station.title == "Station"
    assert [step.number for step in station.steps] == [""] * 6 + ["702.184"]
    assert only(station.steps[6].changes, "added").number == "702.184"
    assert station.steps[6].parts == ("702.184a", "702.184b", "702.184c")


def test_quotes_and_dashes_that_changed_style_are_not_rewordings(history):
    # 2017 printed curly quotes and an em dash where 2013 had straight quotes and "--".
    old = history.editions[1].document.get("603.2d")
    new = history.editions[2].document.get("603.2d")
    assert old.text != new.text
    step = next(step for step in history.history("603.2d", edition="2017").steps if step.edition == "2017-04-28")
    assert step.changes == ()


def test_a_heading_lists_its_rules_added_removed_and_renumbered_509(history):
    heading = history.history("509")
    step = next(step for step in heading.steps if step.edition == "2024-11-08")
    removed = {c.number for c in step.changes if c.kind == "removed"}
    assert {"509.2", "509.3"} <= removed
    assert any(c.kind == "reworded" and c.number == "509.2" and c.old_number == "509.4" for c in step.changes)


def test_a_number_is_read_in_the_newest_edition_that_has_it_or_in_the_edition_asked(history):
    assert history.history("702.26").title == "Phasing"
    assert history.history("702.26", edition="2009-10-01").title == "Cycling"
    assert history.edition_for("2013") == "2013-05-01"
    assert history.edition_for("2024-12-31") == "2024-11-08"
    assert history.edition_for("2013-04-30") == "2009-10-01"  # the 2013 edition took effect on May 1


@pytest.mark.parametrize("number", ["999.99", "702.999", "100.1zz", "0", ""])
def test_a_number_no_edition_has_raises_a_clear_error(history, number):
    with pytest.raises(UnknownRuleError, match="not in any of the 7 editions"):
        history.history(number)


@pytest.mark.parametrize("spec", ["2005", "1999-01-01", "2024-13-45", "soon"])
def test_an_edition_before_the_first_or_not_a_date_raises_a_clear_error(history, spec):
    with pytest.raises(UnknownEditionError):
        history.edition_for(spec)


def test_alignment_pairs_each_entry_at_most_once_with_one_of_its_kind():
    editions, _skipped = load_editions(rules_files(CR_DIR))
    prepared = [Prepared.of(edition.document) for edition in editions]
    for old, new in zip(prepared, prepared[1:], strict=False):
        forward = align(old, new)
        paired = [j for j in forward if j >= 0]
        assert len(paired) == len(set(paired))
        assert all(
            old.document.entries[i].kind == new.document.entries[j].kind for i, j in enumerate(forward) if j >= 0
        )
        # Nearly every entry goes on into the next edition (the rules are amended, not rewritten).
        assert len(paired) >= 0.95 * len(forward)
        # An unchanged rule with an unchanged number is always itself.
        for i, j in enumerate(forward):
            rule = old.document.entries[i]
            same = new.document.by_number.get(rule.number)
            if same and len(same) == 1 and old.texts[i] == new.texts[same[0].order]:
                assert j == same[0].order, rule.number


def test_excerpts_broken_files_and_second_copies_are_left_out_with_a_reason(tmp_path):
    (tmp_path / "notes.txt").write_text("<html>not the rules</html>")
    shutil.copy(BUNDLED_EXCERPT, tmp_path / "excerpt.txt")
    for name in ("MagicCompRules-2024-11-08.txt", "MagicCompRules-2009-10-01.txt"):
        os.symlink(CR_DIR / name, tmp_path / name)
    os.symlink(CR_DIR / "MagicCompRules-2024-11-08.txt", tmp_path / "copy.txt")

    editions, skipped = load_editions(rules_files(tmp_path))

    assert [edition.label for edition in editions] == ["2009-10-01", "2024-11-08"]
    reasons = {item.path.name: item.reason for item in skipped}
    assert "excerpt" in reasons["excerpt.txt"]
    assert "no numbered rules" in reasons["notes.txt"]
    assert "copy.txt" not in reasons  # the same text twice is simply one edition


def test_the_cache_rebuilds_only_when_an_edition_is_added(tmp_path):
    os.symlink(CR_DIR / "MagicCompRules-2024-11-08.txt", tmp_path / "a.txt")
    cache = HistoryCache()
    first = cache.get(rules_files(tmp_path))
    assert cache.get(rules_files(tmp_path)) is first
    assert first.history("509.2").number_chain() == [("509.2", ["2024-11-08"])]

    os.symlink(CR_DIR / "MagicCompRules-2026-01-16.txt", tmp_path / "b.txt")
    assert not cache.is_current(rules_files(tmp_path))
    second = cache.get(rules_files(tmp_path))
    assert second is not first and second.labels == ["2024-11-08", "2026-01-16"]


def test_no_edition_at_all_raises(tmp_path):
    with pytest.raises(NoEditionsError):
        HistoryCache().get(rules_files(tmp_path / "missing"))
    (tmp_path / "x.txt").write_bytes(b"\x00" * 1000)
    with pytest.raises(NoEditionsError, match="x.txt"):
        HistoryCache().get(rules_files(tmp_path))


def test_subrules_that_moved_to_another_rule_say_where_704_5t_to_704_6a_in_2022(history):
    sba = history.history("704.5")
    in_2022 = next(step for step in sba.steps if step.edition == "2022-11-18")
    moved = {c.number: (c.elsewhere, c.new_number) for c in in_2022.changes if c.kind == "moved out"}
    assert moved["704.5t"] == ("704.6", "704.6a")
    # And from the other side: 704.6a (the Two-Headed Giant life total rule) was 704.5t until 2022.
    assert "Two-Headed Giant" in history.editions[-1].document.get("704.6a").text
    chain = history.history("704.6a").number_chain()
    assert chain == [
        ("704.5t", ["2009-10-01", "2013-05-01", "2017-04-28", "2020-04-17"]),
        ("704.6a", ["2022-11-18", "2024-11-08", "2026-01-16"]),
    ]


def test_every_rule_of_every_edition_has_a_consistent_history(history):
    """Any number, not only the examples: each step names a rule that edition has, and the chain ends where asked."""
    for k, edition in enumerate(history.editions):
        for rule in edition.document.entries[::7]:
            found = history.history(rule.number, edition=edition.label)
            assert len(found.steps) == len(history.editions)
            assert found.steps[k].number == rule.number or len(edition.document.by_number[rule.number]) > 1
            for step, other in zip(found.steps, history.editions, strict=True):
                assert not step.number or step.number in other.document.by_number
                assert all(part in other.document.by_number for part in step.parts)
