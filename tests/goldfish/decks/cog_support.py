"""What the /deck tests share: lists to save, and reading the private answers (the bot itself is configured in
this folder's conftest)."""

from __future__ import annotations

# 60 cards, 3 with effects the engine does not model (the lands aside), and a sideboard.
WRAITHS = (
    "Deck\n4 Street Wraith\n4 Lightning Rift\n4 Renewed Faith\n4 Sweltering Suns\n4 Spark Spray\n"
    "4 Akroma's Vengeance\n4 Secluded Steppe\n16 Plains\n16 Mountain\n\nSideboard\n2 Flame Jet\n3 Bloated Toad"
)
GAVI = "Commander\n1 Gavi, Nest Warden (C20) 7\n\nDeck\n4 Street Wraith\n56 Plains"


def private(result):
    """The private answer of a command: its response, or the follow-up that replaced its private "thinking…"."""
    answer = result.response if result.response is not None else result.followups[-1]
    assert answer.ephemeral, answer.content
    return answer


def text_of(result) -> str:
    return private(result).content
