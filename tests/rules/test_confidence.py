"""How sure a question's answer is (bot/rules/ranking/confidence.py) and the question set it is judged on."""

from __future__ import annotations

from bot.rules.ranking import confidence
from bot.rules.ranking.hits import Asked, Candidate
from bot.rules.ranking.ranker import FEATURES
from tests.rules.evaluation import STUDIED, Report, load_questions, load_set

ASKED = Asked(terms=4, unknown=0.0, mark=True, asks=True, rarest=0.6, jargon=0.5)


def certainty(*, share: float = 0.5, section_words: float = 0.2, subrule: bool = False, belief: float = 0.8) -> float:
    features = [0.0] * len(FEATURES)
    features[confidence.SECTION_WORDS] = section_words
    found = confidence.values(
        Candidate(0, 0.8, False, False, ASKED),
        belief,
        [2.0, 1.0, 0.5],
        share,
        tuple(features),
        0.5,
        8,
        subrule=subrule,
        glossary=False,
    )
    return confidence.certainty(found)


def test_the_model_weighs_only_the_values_it_kept_and_each_of_them_counts():
    assert set(confidence.USED) <= set(confidence.VALUES)
    assert len(confidence.WEIGHTS) == len(confidence.USED)
    assert all(weight != 0 for weight in confidence.WEIGHTS)
    # A value the model kept moves the certainty; one it dropped does not.
    assert (certainty(belief=0.5) != certainty(belief=0.99)) == ("belief" in confidence.USED)
    assert (certainty(subrule=False) != certainty(subrule=True)) == ("subrule" in confidence.USED)


def test_an_answer_is_surer_the_more_its_entry_stands_out_and_the_question_s_words_point_to_its_section():
    by_share = [certainty(share=share) for share in (0.2, 0.5, 0.9)]
    by_section = [certainty(section_words=value) for value in (0.0, 0.2, 0.5)]
    assert by_share == sorted(by_share) and by_share[0] < by_share[-1]
    assert by_section == sorted(by_section) and by_section[0] < by_section[-1]
    # Neither alone, at its lowest, makes an answer sure; both high do.
    assert certainty(share=0.2, section_words=0.0) < confidence.SURE_AT
    assert certainty(share=0.9, section_words=0.5) >= confidence.SURE_AT


def test_the_gathered_questions_leave_out_the_project_s_own():
    data = load_set()
    own = sum(1 for item in data["questions"] if item.get("part", "tune") == "tune" and item["source"] in STUDIED)
    everything, _ = load_questions(part="tune")
    gathered, _ = load_questions(part="tune", gathered=True)
    assert own > 0 and len(gathered) == len(everything) - own
    assert len(load_questions(part="test", gathered=True)[0]) == len(load_questions(part="test")[0])


def test_every_rate_of_a_report_has_its_90_per_cent_interval():
    report = Report(questions=10, hit1=5, hit3=7, answered=9, sure=4, sure_right=3, not_rules=5, refused=4)
    rates, intervals = report.rates(), report.intervals()
    assert set(intervals) == set(rates)
    assert all(low <= rates[name] <= high for name, (low, high) in intervals.items())


def test_a_model_agreeing_makes_an_answer_surer_and_disagreeing_less_sure():
    from bot.rules.ranking.confidence import with_model

    for certainty in (0.2, 0.5, 0.7):
        assert with_model(certainty, agrees=True, sure=True) > with_model(certainty, agrees=True, sure=False)
        assert (
            with_model(certainty, agrees=True, sure=False) > certainty > with_model(certainty, agrees=False, sure=True)
        )
    assert with_model(1.0, agrees=False, sure=True) == 1.0  # a number or a named topic stays as it is
