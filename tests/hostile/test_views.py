"""Views under attack, in every game: for positions reached by play, a game dealt again in
everything a seat cannot see gives that seat an equal view and byte-equal view JSON, which
reads back to the view. The deals come from the view's own sampler (``view.sample_game``,
itself checked against naive samplers elsewhere) and, for Shinobi, also from a redeal built
from the game alone (``shinobi.conformance.redeal_hidden``)."""

from __future__ import annotations

import random

import pytest

from ordonnance.core import registry
from ordonnance.core.conformance import check_view
from ordonnance.shinobi.conformance import redeal_hidden

from .positions import positions

#: Deals of the hidden cards per seat and position.
DEALS = 3


@pytest.mark.parametrize("game", registry.names())
def test_a_seat_sees_the_same_whatever_it_cannot_see(game: str) -> None:
    compared = 0
    for number, state in enumerate(positions(game, games=2)):
        for seat in range(state.rules.players):
            view = state.view(seat)
            check_view(state, view, range(number * DEALS, (number + 1) * DEALS), view_json=True)
            compared += DEALS
            if game == "shinobi":
                rng = random.Random(number * 7 + seat)
                for _ in range(DEALS):
                    other = redeal_hidden(state, seat, rng).view(seat)
                    assert other == view and other.to_json() == view.to_json()
                    compared += 1
    assert compared > 300
    print(f"{game}: {compared:,} views compared")
