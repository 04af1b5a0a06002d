"""The rules question set's card questions answered with their cards, as the bot answers them with its local copy.

The cards a question names are found by the bot's own finder (:class:`bot.cards.mentions.CardNames`) in a pool of
every card's name and type line (``tests/data/card-names.tsv.gz``), so that a word that is also some card's name, or a
first name several legends share, is met as the bot meets it; each card found is read from the question set's card
fixture (``tests/data/question-cards.jsonl.gz``: real card objects in today's Oracle wording), or, for a card the
fixture does not hold (one no question names), from its name and type line alone. No rulings: the fixture has none.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from types import SimpleNamespace

from bot.carddb import normalise
from bot.cards.mentions import CardNames
from bot.cards.questions import MAX_CARDS, cards_of, names_index
from bot.documents import SURE, Answer
from bot.rules.asking.ask import lookup, route
from bot.rules.asking.card_facts import CardFacts, FoundCards
from bot.rules.asking.cards import answer_with_cards
from bot.rules.ranking import RulesIndex
from tests.data import QUESTION_CARD_NAMES, load_card_names, load_question_cards
from tests.rules.evaluation import QUESTIONS, Report, load_set, matches


def _record(card: dict) -> SimpleNamespace:
    """A card object as :meth:`CardFacts.from_card` reads a local card record."""
    return SimpleNamespace(
        name=card["name"],
        faces=card.get("card_faces"),
        mana_cost=card.get("mana_cost"),
        oracle_text=card.get("oracle_text"),
        type_line=card.get("type_line"),
        keywords=card.get("keywords") or [],
        layout=card.get("layout"),
        oracle_id=card.get("oracle_id"),
    )


class FixtureCards:
    """A card finder (``bot.rules.asking.CardFinder``) over the fixture and the pool of every card's name."""

    def __init__(self, index: RulesIndex, *, other_names: bool = True) -> None:
        """``other_names``: find cards by players' other names too (nicknames, first names), as the bot does."""
        fixture = {card["name"]: card for card in load_question_cards()}
        pool = dict(load_card_names())
        for name, card in fixture.items():
            pool.setdefault(name, card.get("type_line") or "")
        self.cards: list[CardFacts] = []
        rows: list[tuple[str, int, int]] = []
        legends: list[tuple[str, int]] = []
        for number, (name, type_line) in enumerate(sorted(pool.items())):
            if type_line.startswith("Legendary"):
                legends.append((name, number))
            card = fixture.get(name) or {"name": name, "type_line": type_line, "oracle_text": "", "layout": "normal"}
            self.cards.append(CardFacts.from_card(_record(card)))
            rows.append((normalise(name), number, 0))
            if " // " in name:
                rows += [(normalise(face), number, 1) for face in name.split(" // ")]
        self.names = names_index(rows, legends, index.ordinary_words) if other_names else None
        if self.names is None:
            self.names = CardNames(rows, index.ordinary_words)

    def ready(self) -> bool:
        return True

    def find_now(self, index: RulesIndex, query: str) -> FoundCards | None:
        """The cards ``query`` names (as :class:`bot.cards.questions.QuestionCards` finds them), or None."""
        if not index.is_question(query):
            return None
        found = self.names.find(query, limit=MAX_CARDS)
        if not found.mentions:
            return None
        wanted, shared = cards_of(found.mentions)
        names = frozenset(self.cards[card].name for card in shared)
        return FoundCards([self.cards[card] for card in wanted], found.without_names(query), found.more, names)

    async def find(self, index: RulesIndex, query: str) -> FoundCards | None:
        return self.find_now(index, query)

    def answer(self, index: RulesIndex, query: str) -> Answer:
        """The answer the bot gives ``query`` with card data loaded (see ``bot.rules.asking.answer_about``)."""
        cleaned = " ".join(query.split())
        if route(index, cleaned) == "question":
            found = self.find_now(index, cleaned)
            if found is not None and found.cards:
                return answer_with_cards(index, cleaned, found.asked, found.cards, found.more, found.shared)
        return lookup(index, cleaned)


@dataclass
class CardQuestion:
    text: str
    cited: list[str]
    cards: list[str]  # the card names the question names, as the fixture holds them (aliases followed)


def load_card_questions(part: str) -> list[CardQuestion]:
    """A part's questions with the cards each names (none for most that name no card)."""
    aliases = json.loads(QUESTION_CARD_NAMES.read_text(encoding="utf-8"))["aliases"]
    return [
        CardQuestion(
            item["q"], list(item["cite"]), [aliases.get(name, {}).get("card", name) for name in item.get("cards") or []]
        )
        for item in load_set(QUESTIONS)["questions"]
        if item.get("part", "tune") == part
    ]


@dataclass
class CardReport:
    """A part's questions scored with and without card data, those naming cards apart from the rest."""

    reports: dict[str, Report] = field(default_factory=dict)  # "<cards|no cards>, <naming|naming none>"
    shown: int = 0  # questions naming cards whose every card is shown with the answer
    naming: int = 0
    written_shown: int = 0  # ... of those whose every card is written out in the question (not only in its thread)
    written: int = 0
    cpu_ms: dict[str, list[float]] = field(default_factory=dict)  # "with cards" / "without": per question

    def add(self, key: str, answer: Answer, cited: list[str], index: RulesIndex) -> bool:
        report = self.reports.setdefault(key, Report())
        ranked = answer.ranked() if answer.found else []
        right = bool(ranked) and matches(index, ranked[0], cited)
        report.questions += 1
        report.answered += answer.found
        report.judged.append((answer.certainty if answer.found else 0.0, right))
        report.sure += answer.confidence == SURE
        report.sure_right += answer.confidence == SURE and right
        report.hit1 += right
        report.hit3 += right or any(matches(index, shown, cited) for shown in ranked[:3])
        return right


def written(text: str, name: str) -> bool:
    """Whether ``text`` writes out card ``name``: its name, a face's, or a legend's first name (any case)."""
    typed = " " + normalise(text) + " "
    parts = [name, *name.split(" // "), name.split(",")[0]]
    return any(f" {normalise(part)} " in typed or f" {normalise(part)}s " in typed for part in parts if part)


def shown_all(answer: Answer, names: list[str]) -> bool:
    """Whether every card ``names`` (full names) is among the cards shown with ``answer`` (a face counts)."""
    shown = {part for card in answer.cards for part in (card.facts.name, *card.facts.name.split(" // "))}
    return all(name in shown for name in names)


def evaluate_cards(index: RulesIndex, finder: FixtureCards, questions: list[CardQuestion]) -> CardReport:
    """Each question answered without card data and with it, scored apart for questions naming cards or not."""
    out = CardReport()
    for question in questions:
        naming = "naming cards" if question.cards else "naming no card"
        for data in ("no card data", "card data"):
            started = time.thread_time()
            answer = finder.answer(index, question.text) if data == "card data" else lookup(index, question.text)
            spent = (time.thread_time() - started) * 1000
            out.add(f"{data}, {naming}", answer, question.cited, index)
            out.add(f"{data}, all", answer, question.cited, index)
            if data == "card data":
                out.cpu_ms.setdefault("with cards" if answer.cards else "without", []).append(spent)
                if question.cards:
                    out.naming += 1
                    out.shown += shown_all(answer, question.cards)
                    if all(written(question.text, name) for name in question.cards):
                        out.written += 1
                        out.written_shown += shown_all(answer, question.cards)
    return out


def time_answers(index: RulesIndex, finder: FixtureCards, texts: list[str], runs: int) -> dict[str, list[float]]:
    """Per run, the p99 CPU time (ms) of answering ``texts`` with card data: those answered with cards, and the rest."""
    out: dict[str, list[float]] = {"with cards": [], "without": []}
    for _ in range(runs):
        samples: dict[str, list[float]] = {"with cards": [], "without": []}
        for text in texts:
            started = time.thread_time()
            answer = finder.answer(index, text)
            samples["with cards" if answer.cards else "without"].append((time.thread_time() - started) * 1000)
        for key, values in samples.items():
            if values:
                out[key].append(sorted(values)[min(len(values) - 1, int(0.99 * len(values)))])
    return out
