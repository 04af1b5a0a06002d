"""The judges' documents, the MTR and the IPG. May import `bot.config`, `bot.documents`, `bot.hosts`, `bot.runtime`,
`bot.text`.

The Magic Tournament Rules and the Infraction Procedure Guide, from Wizards' PDFs, current, searchable and
out of the box (their outlines are bundled).

The document machinery is :mod:`bot.documents`; what is particular to these two (their headings, the IPG's
penalties and the short names judges use, where Wizards publishes them) is here.
"""

from bot.judge.ask import Loaded
from bot.judge.catalog import SPECS, Spec
from bot.judge.service import JudgeDocs
from bot.judge.updater import UpdateError

__all__ = ["SPECS", "JudgeDocs", "Loaded", "Spec", "UpdateError"]
