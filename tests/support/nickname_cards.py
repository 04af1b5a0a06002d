"""The real cards the nicknames in ``bot/data/nicknames.json`` stand for and the shared sample lacks: name, mana
cost, type line and the first line of their Oracle text, enough for the nickname tests to import them."""

from __future__ import annotations

from tests.support.fake_bulk import constructed

_CARDS = [
    ("Ancestral Recall", "{U}", "Instant", "Target player draws three cards."),
    (
        "Dark Confidant",
        "{1}{B}",
        "Creature — Human Wizard",
        "At the beginning of your upkeep, reveal the top card "
        "of your library and put that card into your hand. You lose life equal to its mana value.",
    ),
    ("Gaea's Cradle", "", "Legendary Land", "{T}: Add {G} for each creature you control."),
    (
        "Deathrite Shaman",
        "{B/G}",
        "Creature — Elf Shaman",
        "{T}: Exile target land card from a graveyard. Add one mana of any color.",
    ),
    (
        "Force of Will",
        "{3}{U}{U}",
        "Instant",
        "You may pay 1 life and exile a blue card from your hand rather than "
        "pay this spell's mana cost.\nCounter target spell.",
    ),
    (
        "Tarmogoyf",
        "{1}{G}",
        "Creature — Lhurgoyf",
        "Tarmogoyf's power is equal to the number of card types among "
        "cards in all graveyards and its toughness is equal to that number plus 1.",
    ),
    (
        "Jace, the Mind Sculptor",
        "{2}{U}{U}",
        "Legendary Planeswalker — Jace",
        "+2: Look at the top card of target "
        "player's library. You may put that card on the bottom of that player's library.",
    ),
    ("Krark-Clan Ironworks", "{4}", "Artifact", "Sacrifice an artifact: Add {C}{C}."),
    (
        "Kiki-Jiki, Mirror Breaker",
        "{2}{R}{R}{R}",
        "Legendary Creature — Goblin Shaman",
        "Haste\n{T}: Create a token "
        "that's a copy of target nonlegendary creature you control, except it has haste. Sacrifice it at the "
        "beginning of the next end step.",
    ),
    (
        "Library of Alexandria",
        "",
        "Land",
        "{T}: Add {C}.\n{T}: Draw a card. Activate only if you have exactly seven cards in hand.",
    ),
    (
        "Mother of Runes",
        "{W}",
        "Creature — Human Cleric",
        "{T}: Target creature you control gains protection from the color of your choice until end of turn.",
    ),
    (
        "Sensei's Divining Top",
        "{1}",
        "Artifact",
        "{1}: Look at the top three cards of your library, then put them back in any order.",
    ),
    (
        "Stoneforge Mystic",
        "{1}{W}",
        "Creature — Kor Artificer",
        "When Stoneforge Mystic enters, you may search your "
        "library for an Equipment card, reveal it, put it into your hand, then shuffle.",
    ),
    (
        "Snapcaster Mage",
        "{1}{U}",
        "Creature — Human Wizard",
        "Flash\nWhen Snapcaster Mage enters, target instant or "
        "sorcery card in your graveyard gains flashback until end of turn.",
    ),
    ("Swords to Plowshares", "{W}", "Instant", "Exile target creature. Its controller gains life equal to its power."),
    (
        "The Tabernacle at Pendrell Vale",
        "",
        "Legendary Land",
        'All creatures have "At the beginning of your upkeep, destroy this creature unless you pay {1}."',
    ),
    (
        "Thassa's Oracle",
        "{U}{U}",
        "Creature — Merfolk Wizard",
        "When Thassa's Oracle enters, look at the top X cards of your library, where X is your devotion to blue.",
    ),
    (
        "True-Name Nemesis",
        "{1}{U}{U}",
        "Creature — Merfolk Rogue",
        "As True-Name Nemesis enters, choose a player.\nTrue-Name Nemesis has protection from the chosen player.",
    ),
    (
        "Uro, Titan of Nature's Wrath",
        "{1}{G}{U}",
        "Legendary Creature — Elder Giant",
        "When Uro enters, sacrifice it unless it escaped.",
    ),
]

CARDS = [
    constructed(300 + number, name, "nick", mana_cost=cost, type_line=type_line, oracle_text=text)
    for number, (name, cost, type_line, text) in enumerate(_CARDS)
]
