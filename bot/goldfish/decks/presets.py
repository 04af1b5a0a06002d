"""The preset decks, bundled with the package (``bot/data/goldfish_cards.json``) so they work offline."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from bot.goldfish.engine import Deck

DISPLAY_NAMES = {
    "slide": "Astral Slide (W/R cycling)",
    "landcycling": "Landcycling ramp (G/W)",
    "two-colour": "Drake Haven (U/B cycling)",
}

DECKLISTS: dict[str, list[tuple[int, str]]] = {
    # Astral Slide / Lightning Rift: every cycle is a trigger; Solar Blast and Renewed Faith add their own.
    "slide": [
        (4, "Astral Slide"),
        (4, "Lightning Rift"),
        (4, "Renewed Faith"),
        (4, "Solar Blast"),
        (4, "Sweltering Suns"),
        (3, "Spark Spray"),
        (3, "Winged Shepherd"),
        (2, "Decree of Justice"),
        (2, "Eternal Dragon"),
        (2, "Akroma's Vengeance"),
        (2, "Slice and Dice"),
        (2, "Desert Cerodon"),
        (4, "Secluded Steppe"),
        (4, "Forgotten Cave"),
        (2, "Desert of the True"),
        (2, "Desert of the Fervent"),
        (6, "Plains"),
        (6, "Mountain"),
    ],
    # Landcycling ramp: fatties that fetch basics, Fluctuator to make it cheap, Edge of Autumn for free.
    "landcycling": [
        (4, "Fluctuator"),
        (4, "Krosan Tusker"),
        (4, "Generous Ent"),
        (4, "Pale Recluse"),
        (4, "Edge of Autumn"),
        (3, "Wirewood Guardian"),
        (2, "Eagles of the North"),
        (2, "Noble Templar"),
        (2, "Migratory Route"),
        (2, "Sylvan Reclamation"),
        (2, "Shefet Monitor"),
        (1, "Gleam of Resistance"),
        (2, "Ash Barrens"),
        (4, "Scattered Groves"),
        (12, "Forest"),
        (8, "Plains"),
    ],
    # U/B "whenever you cycle" payoffs: Drake Haven, Archfiend of Ifnir, Zenith Seeker, New Perspectives.
    "two-colour": [
        (4, "Drake Haven"),
        (3, "Archfiend of Ifnir"),
        (1, "Zenith Seeker"),
        (2, "New Perspectives"),
        (4, "Street Wraith"),
        (4, "Hieroglyphic Illumination"),
        (4, "Architects of Will"),
        (4, "Vizier of Tumbling Sands"),
        (3, "Stir the Sands"),
        (2, "Jhessian Zombies"),
        (2, "Lórien Revealed"),
        (4, "Lonely Sandbar"),
        (4, "Barren Moor"),
        (4, "Fetid Pools"),
        (7, "Island"),
        (8, "Swamp"),
    ],
}


@lru_cache(maxsize=1)
def bundled_cards() -> dict[str, dict]:
    """The card objects (engine fields only) of every card in the preset decks, by name."""
    text = resources.files("bot").joinpath("data", "goldfish_cards.json").read_text(encoding="utf-8")
    return {card["name"]: card for card in json.loads(text)["cards"]}


@lru_cache(maxsize=1)
def _deck_cards() -> dict[str, dict[str, dict]]:
    cards = bundled_cards()
    return {key: {name: cards[name] for _, name in entries} for key, entries in DECKLISTS.items()}


def preset_decks() -> dict[str, Deck]:
    """``"slide"``, ``"landcycling"`` and ``"two-colour"`` (card data shared, read-only)."""
    cards = _deck_cards()
    return {
        key: Deck(name=DISPLAY_NAMES[key], cards=cards[key], entries=list(entries), key=key)
        for key, entries in DECKLISTS.items()
    }
