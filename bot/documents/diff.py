"""What changed between two wordings of the same passage, word by word: for a rule's or a section's history.

Typography that changed without a word changing (curly quotes, dashes) is no change.
"""

from __future__ import annotations

from difflib import SequenceMatcher

# Typography that changed between editions without changing a word: curly and straight quotes, dashes.
# An em dash was typed "--" in older editions, with or without spaces around it.
TYPOGRAPHY = (
    ("‘", "'"),
    ("’", "'"),
    ("“", '"'),
    ("”", '"'),
    ("–", "-"),
    ("—", " - "),
    ("--", " - "),
    ("\u00a0", " "),
)
# Words kept either side of a change in a word diff.
CONTEXT_WORDS = 4


def even_out(text: str) -> str:
    """Curly quotes and dashes as their plain forms: a change of typography is not a rewording."""
    for old, new in TYPOGRAPHY:
        text = text.replace(old, new)
    return text


def _words(text: str) -> list[str]:
    """Words, with a dash between two words ("happens—they", "happens -- they") a word of its own."""
    return text.replace("—", " — ").replace("--", " -- ").split()


def word_diff(old: str, new: str, *, context: int = CONTEXT_WORDS) -> tuple[str, float]:
    """Old and new text as one line, ``[-removed-]`` and ``{+added+}``, unchanged runs shortened to ``context``
    words either side of a change; and how similar the two are (0-1). Quotes and dashes count as unchanged."""
    a, b = _words(old), _words(new)
    matcher = SequenceMatcher(None, [even_out(w).strip() for w in a], [even_out(w).strip() for w in b], autojunk=False)
    codes = matcher.get_opcodes()
    pieces: list[str] = []
    for position, (tag, i1, i2, j1, j2) in enumerate(codes):
        if tag == "equal":
            words = b[j1:j2]
            head = words[:context] if position else []
            tail = words[-context:] if position < len(codes) - 1 else []
            if len(head) + len(tail) < len(words):
                pieces.append(" ".join([*head, "…", *tail]))
            else:
                pieces.append(" ".join(words))
            continue
        if i2 > i1:
            pieces.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            pieces.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(piece for piece in pieces if piece), matcher.ratio()
