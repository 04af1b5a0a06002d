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
    (
        "Solemn Simulacrum",
        "{4}",
        "Artifact Creature — Golem",
        "When Solemn Simulacrum enters, you may search your library for a basic land card, put that card "
        "onto the battlefield tapped, then shuffle.",
    ),
    ("Prodigal Sorcerer", "{2}{U}", "Creature — Human Wizard", "{T}: Prodigal Sorcerer deals 1 damage to any target."),
    (
        "Gray Merchant of Asphodel",
        "{3}{B}{B}",
        "Creature — Zombie",
        "When Gray Merchant of Asphodel enters, each opponent loses X life, where X is your devotion to "
        "black. You gain life equal to the life lost this way.",
    ),
    (
        "Flametongue Kavu",
        "{3}{R}",
        "Creature — Kavu",
        "When Flametongue Kavu enters, it deals 4 damage to target creature.",
    ),
    (
        "Primeval Titan",
        "{4}{G}{G}",
        "Creature — Giant",
        "Trample\nWhenever Primeval Titan enters or attacks, you may search your library for up to two land "
        "cards, put them onto the battlefield tapped, then shuffle.",
    ),
    (
        "Laboratory Maniac",
        "{2}{U}",
        "Creature — Human Wizard",
        "If you would draw a card while your library has no cards in it, you win the game instead.",
    ),
    (
        "Fact or Fiction",
        "{3}{U}",
        "Instant",
        "Reveal the top five cards of your library. An opponent separates those cards into two piles.",
    ),
    ("Birds of Paradise", "{G}", "Creature — Bird", "Flying\n{T}: Add one mana of any color."),
    (
        "Price of Progress",
        "{1}{R}",
        "Instant",
        "Price of Progress deals damage to each player equal to twice the number of nonbasic lands that "
        "player controls.",
    ),
    (
        "Collected Company",
        "{3}{G}",
        "Instant",
        "Look at the top six cards of your library. Put up to two creature cards with mana value 3 or less "
        "from among them onto the battlefield.",
    ),
    (
        "Lion's Eye Diamond",
        "{0}",
        "Artifact",
        "Discard your hand, Sacrifice Lion's Eye Diamond: Add three mana of any one color. Activate only as "
        "an instant.",
    ),
    (
        "Jeskai Ascendancy",
        "{U}{R}{W}",
        "Enchantment",
        "Whenever you cast a noncreature spell, creatures you control get +1/+1 until end of turn. Untap "
        "those creatures.",
    ),
    (
        "Elspeth Conquers Death",
        "{3}{W}{W}",
        "Enchantment — Saga",
        "I — Exile target permanent an opponent controls with mana value 3 or greater.",
    ),
    ("Simian Spirit Guide", "{2}{R}", "Creature — Ape Spirit", "Exile Simian Spirit Guide from your hand: Add {R}."),
    (
        "Force of Negation",
        "{1}{U}{U}",
        "Instant",
        "If it's not your turn, you may exile a blue card from your hand rather than pay this spell's mana "
        "cost.\nCounter target noncreature spell.",
    ),
    (
        "Sakura-Tribe Elder",
        "{1}{G}",
        "Creature — Snake Shaman",
        "Sacrifice Sakura-Tribe Elder: Search your library for a basic land card, put that card onto the "
        "battlefield tapped, then shuffle.",
    ),
    ("Go for the Throat", "{1}{B}", "Instant", "Destroy target nonartifact creature."),
    ("Oblivion Ring", "{2}{W}", "Enchantment", "When Oblivion Ring enters, exile another target nonland permanent."),
    ("Bloodbraid Elf", "{2}{R}{G}", "Creature — Elf Berserker", "Cascade\nHaste"),
    (
        "Wrenn and Six",
        "{R}{G}",
        "Legendary Planeswalker — Wrenn",
        "+1: Return up to one target land card from your graveyard to your hand.",
    ),
    (
        "Sword of Fire and Ice",
        "{3}",
        "Artifact — Equipment",
        "Equipped creature gets +2/+2 and has protection from red and from blue.",
    ),
    (
        "Inquisition of Kozilek",
        "{B}",
        "Sorcery",
        "Target player reveals their hand. You choose a nonland card from it with mana value 3 or less. That "
        "player discards that card.",
    ),
    ("Gitaxian Probe", "{U/P}", "Sorcery", "Look at target player's hand.\nDraw a card."),
    (
        "Accumulated Knowledge",
        "{1}{U}",
        "Instant",
        "Draw a card, then draw cards equal to the number of cards named Accumulated Knowledge in all graveyards.",
    ),
    ("Tolarian Academy", "", "Legendary Land", "{T}: Add {U} for each artifact you control."),
    (
        "Blue Elemental Blast",
        "{U}",
        "Instant",
        "Choose one —\n• Counter target red spell.\n• Destroy target red permanent.",
    ),
    (
        "Teferi, Time Raveler",
        "{1}{W}{U}",
        "Legendary Planeswalker — Teferi",
        "Each opponent can cast spells only any time they could cast a sorcery.",
    ),
]

CARDS = [
    constructed(300 + number, name, "nick", mana_cost=cost, type_line=type_line, oracle_text=text)
    for number, (name, cost, type_line, text) in enumerate(_CARDS)
]
