"""What a player sees of an answer on a phone: the visible text of an embed, markdown rendered away."""

from __future__ import annotations

import re

_ESCAPED = re.compile(r"\\(.)")
_EMPHASIS = re.compile(r"(\*\*|__|~~|\*|_)")
_QUOTE = re.compile(r"(?m)^> ")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_INVISIBLE = re.compile("[\u200b\u2060\ufe0f]")


def shown(markdown: str) -> str:
    """``markdown`` as Discord shows it: emphasis and quote marks rendered, escapes and masked links resolved."""
    text = _LINK.sub(r"\1", markdown or "")
    text = _QUOTE.sub("", text)
    # Escaped characters are shown as themselves; what is left unescaped is markdown.
    parts = _ESCAPED.split(text)
    plain = [part if i % 2 else _EMPHASIS.sub("", part) for i, part in enumerate(parts)]
    return _INVISIBLE.sub("", "".join(plain))


def visible(embed) -> str:
    """Everything a reader sees of an embed: title, text, fields and footer, one after the other."""
    data = embed if isinstance(embed, dict) else embed.to_dict()
    parts = [data.get("title", ""), data.get("description", "")]
    for field in data.get("fields", []):
        parts += [field.get("name", ""), field.get("value", "")]
    parts.append((data.get("footer") or {}).get("text", ""))
    return "\n".join(shown(part) for part in parts if part)


def visible_length(embed) -> int:
    """Visible characters, an emoji (one code point, its variation selector aside) counted as one."""
    return len(visible(embed))
