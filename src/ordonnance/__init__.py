"""ordonnance: the reference rules engine for the card game Ordonnance.

>>> import ordonnance as od
>>> # a regiment of Swords beats a battalion of Banners
>>> od.army_key(["SH", "SH", "LS", "S"]) > od.army_key(["F", "F", "F", "L"])
True
"""

from __future__ import annotations

from ordonnance.army import (
    ARMY_SIZE,
    KEY_BITS,
    ArmyDescription,
    army_key,
    army_keys,
    compare_armies,
    describe,
    warm_up,
)
from ordonnance.cards import Card, CardLike, Symbol, build_deck, deck_counts, standard_deck
from ordonnance.errors import (
    InvalidArmyError,
    InvalidCardError,
    InvalidDeckError,
    InvalidKeyError,
    OrdonnanceError,
    OrdonnanceTypeError,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "ARMY_SIZE",
    "KEY_BITS",
    "ArmyDescription",
    "Card",
    "CardLike",
    "InvalidArmyError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidKeyError",
    "OrdonnanceError",
    "OrdonnanceTypeError",
    "Symbol",
    "army_key",
    "army_keys",
    "build_deck",
    "compare_armies",
    "deck_counts",
    "describe",
    "standard_deck",
    "warm_up",
]
