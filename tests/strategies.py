"""Hypothesis strategies for cards and armies."""

from __future__ import annotations

from hypothesis import strategies as st

masks = st.integers(min_value=1, max_value=31)
"""A valid card mask."""

slots = st.integers(min_value=0, max_value=31)
"""A card mask or 0 for an empty slot."""

armies = st.lists(masks, min_size=0, max_size=4)
"""An army of 0..4 cards, as masks."""

full_armies = st.lists(masks, min_size=4, max_size=4)
"""A complete army, as masks."""
