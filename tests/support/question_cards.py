"""Cards that real rules questions name, with their Oracle text, and rulings in Scryfall's shape.

The rulings are paraphrased and marked as made up ("(Constructed ruling.)"): what the tests need is their
shape and that one of them bears on a question more than the others.
"""

from __future__ import annotations

from typing import Any

from tests.support.fake_bulk import constructed, face, ruling

CARDS = [
    constructed(
        101,
        "Solitude",
        "mh2",
        mana_cost="{3}{W}{W}",
        cmc=5.0,
        type_line="Creature — Elemental Incarnation",
        colors=["W"],
        color_identity=["W"],
        power="3",
        toughness="2",
        keywords=["Flash", "Lifelink", "Evoke"],
        oracle_text="Flash\nLifelink\nWhen Solitude enters the battlefield, exile up to one other target creature. "
        "That creature's controller gains life equal to its power.\nEvoke—Exile a white card from your hand. (You "
        "may cast this spell for its evoke cost. If you do, it's sacrificed when it enters the battlefield.)",
    ),
    constructed(
        102,
        "Teferi, Time Raveler",
        "war",
        mana_cost="{1}{W}{U}",
        cmc=3.0,
        type_line="Legendary Planeswalker — Teferi",
        colors=["W", "U"],
        color_identity=["W", "U"],
        loyalty="4",
        oracle_text="Each opponent can cast spells only any time they could cast a sorcery.\n+1: Until your next "
        "turn, you may cast sorcery spells as though they had flash.\n−3: Return up to one target artifact, creature, "
        "or enchantment to its owner's hand. Draw a card.",
    ),
    constructed(
        103,
        "Chalice of the Void",
        "mrd",
        mana_cost="{X}{X}",
        cmc=0.0,
        type_line="Artifact",
        oracle_text="Chalice of the Void enters the battlefield with X charge counters on it.\nWhenever a player "
        "casts a spell with mana value equal to the number of charge counters on Chalice of the Void, counter that "
        "spell.",
    ),
    constructed(
        104,
        "Prismatic Ending",
        "mh2",
        mana_cost="{X}{W}",
        cmc=1.0,
        type_line="Sorcery",
        colors=["W"],
        color_identity=["W"],
        keywords=["Converge"],
        oracle_text="Converge — Exile target nonland permanent if its mana value is less than or equal to the "
        "number of colors of mana spent to cast this spell.",
    ),
    constructed(
        105,
        "Progenitus",
        "con",
        mana_cost="{W}{W}{U}{U}{B}{B}{R}{R}{G}{G}",
        cmc=10.0,
        type_line="Legendary Creature — Hydra Avatar",
        colors=["W", "U", "B", "R", "G"],
        power="10",
        toughness="10",
        keywords=["Protection"],
        oracle_text="Protection from everything\nIf Progenitus would be put into a graveyard from anywhere, reveal "
        "Progenitus and shuffle it into its owner's library instead.",
    ),
    constructed(
        106,
        "Wear // Tear",
        "dgm",
        layout="split",
        mana_cost="{1}{R} // {W}",
        cmc=3.0,
        type_line="Instant // Instant",
        colors=["R", "W"],
        color_identity=["R", "W"],
        keywords=["Fuse"],
        card_faces=[
            face(
                "Wear",
                "{1}{R}",
                "Instant",
                "Destroy target artifact.\nFuse (You may cast one or both halves of this card from your hand.)",
            ),
            face(
                "Tear",
                "{W}",
                "Instant",
                "Destroy target enchantment.\nFuse (You may cast one or both halves of this card from your hand.)",
            ),
        ],
    ),
    constructed(
        107,
        "Lion's Eye Diamond",
        "mir",
        mana_cost="{0}",
        type_line="Artifact",
        oracle_text="Discard your hand, Sacrifice Lion's Eye Diamond: Add three mana of any one color. Activate "
        "only as an instant.",
    ),
    constructed(
        108,
        "The Eldest Reborn",
        "dom",
        mana_cost="{4}{B}",
        cmc=5.0,
        type_line="Enchantment — Saga",
        colors=["B"],
        color_identity=["B"],
        layout="saga",
        oracle_text="(As this Saga enters and after your draw step, add a lore counter. Sacrifice after III.)\n"
        "I — Each opponent sacrifices a creature or planeswalker.\nII — Each opponent discards a card.\nIII — Put "
        "target creature or planeswalker card from a graveyard onto the battlefield under your control.",
    ),
]


def _id(name: str) -> str:
    return next(card["oracle_id"] for card in CARDS if card["name"] == name)


RULINGS: list[dict[str, Any]] = [
    ruling(
        _id("Solitude"),
        "2021-06-18",
        "(Constructed ruling.) If you cast Solitude for its evoke cost, its "
        "enters ability and the evoke sacrifice trigger both go on the stack; you may put them in either order, "
        "so the creature it targets is exiled even though Solitude is sacrificed.",
    ),
    ruling(
        _id("Solitude"),
        "2021-06-18",
        "(Constructed ruling.) The life gained is equal to the exiled creature's "
        "power as it last existed on the battlefield.",
    ),
    ruling(_id("Solitude"), "2021-06-18", "(Constructed ruling.) Lifelink matters only if Solitude deals damage."),
    ruling(
        _id("Teferi, Time Raveler"),
        "2019-05-03",
        "(Constructed ruling.) Teferi's first ability stops "
        "opponents from casting spells at instant speed; they can still activate abilities, such as cycling, "
        "at any time they have priority.",
    ),
    ruling(
        _id("Chalice of the Void"),
        "2004-10-04",
        "(Constructed ruling.) A spell with X in its mana cost has a "
        "mana value that includes the value chosen for X while it is on the stack.",
    ),
    ruling(
        _id("Progenitus"),
        "2009-02-01",
        "(Constructed ruling.) Protection from everything means Progenitus "
        "can't be blocked, targeted, dealt damage, enchanted or equipped by anything.",
    ),
]
