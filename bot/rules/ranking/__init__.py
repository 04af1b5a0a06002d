"""One edition's index and the question ranking. May import `bot.rules.text`, `bot.rules.words`, `bot.carddb`,
`bot.documents`, `bot.serving`, `bot.text`.

Its index, the ranking of entries for a question with the phrasings, how sure the first one is, autocomplete, and
the optional language model that picks among the candidates. Other rooms import this package, never its modules.
"""

from bot.rules.ranking.complete import sort_key
from bot.rules.ranking.confidence import SURE_AT, with_model
from bot.rules.ranking.features import CardSignals
from bot.rules.ranking.hits import Hit, Ranking, name_stems
from bot.rules.ranking.index import MAX_QUERY, RulesIndex
from bot.rules.ranking.interactions import proposed
from bot.rules.ranking.outline import Pointer
from bot.rules.ranking.picker import Candidate, Pick, Picker, PickerSettings
from bot.rules.ranking.ranker import GATE_THRESHOLD

__all__ = [
    "Candidate",
    "CardSignals",
    "GATE_THRESHOLD",
    "Hit",
    "MAX_QUERY",
    "Pick",
    "Picker",
    "PickerSettings",
    "Pointer",
    "Ranking",
    "RulesIndex",
    "SURE_AT",
    "name_stems",
    "proposed",
    "sort_key",
    "with_model",
]
