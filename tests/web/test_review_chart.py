"""The end of a table's page in a real Chromium: the review's chart of each seat's chance to win
after every move, its progress line while the server computes it, and a click (or Enter) on the
chart moving the replay there."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import needs_a_browser

needs_a_browser()

from tests.server.conftest import ServerProcess  # noqa: E402
from tests.web.conftest import PICTURES, api, link, table  # noqa: E402


def numbers(text: str | None) -> list[float]:
    return [float(part) for part in str(text).split()]


def test_the_end_charts_each_seats_chance_to_win_and_a_click_replays_there(server: ServerProcess, pages: Any) -> None:
    created = table(server, "black-prince", ["random", "random"])
    page = pages().page
    page.goto(link(server, created["id"], {}))  # a spectator's page: the bots play it to its end
    page.locator("#end:not([hidden])").wait_for(timeout=90_000)
    plies = int(api(server, "GET", f"/api/tables/{created['id']}")["ply"])
    page.locator("#review-progress").filter(
        has_text=re.compile(rf"^reviewing: \d+ of {plies + 1} positions$")).wait_for(timeout=30_000)  # fmt: skip
    assert page.locator("#review svg").count() == 0
    page.locator("#review svg .rv-line").first.wait_for(timeout=180_000)
    review = api(server, "GET", f"/api/tables/{created['id']}/review")
    names = [seat["name"] or f"Seat {index}" for index, seat in enumerate(api(server, "GET", f"/api/tables/{created['id']}")["seats"])]
    assert len(review["plies"]) == plies + 1
    lines = page.locator("#review svg .rv-line")
    bands = page.locator("#review svg .rv-band")
    assert lines.count() == bands.count() == len(names) == 2
    for seat in range(len(names)):
        line, band = lines.nth(seat), bands.nth(seat)
        assert line.get_attribute("data-seat") == str(seat)
        assert line.get_attribute("data-name") == names[seat]
        assert numbers(line.get_attribute("data-chances")) == [p["chances"][seat]["chance"] for p in review["plies"]]
        assert numbers(band.get_attribute("data-lows")) == [p["chances"][seat]["low"] for p in review["plies"]]
        assert numbers(band.get_attribute("data-highs")) == [p["chances"][seat]["high"] for p in review["plies"]]
        assert len(line.get_attribute("points").split()) == plies + 1
    patterns = [lines.nth(seat).get_attribute("stroke-dasharray") for seat in range(2)]
    assert patterns[0] != patterns[1]  # told apart by more than colour
    assert page.locator("#review-legend li").all_text_contents() == [f" {name}" for name in names]
    assert page.locator("#review-progress").is_hidden()

    # the turning points: the moves after which a seat's chance changed most
    changes = sorted(((max(abs(now["chance"] - before["chance"]) for now, before in zip(review["plies"][p]["chances"],
                                                                                         review["plies"][p - 1]["chances"])), p)
                      for p in range(1, plies + 1)), key=lambda change: (-change[0], change[1]))  # fmt: skip
    expected = sorted(p for change, p in changes[:3] if change > 0)
    assert [int(str(e)) for e in page.locator("#review svg .rv-turn").evaluate_all("es => es.map(e => e.dataset.ply)")] == expected

    # the replay's ply is the chart's current point; a click on the chart moves the replay there
    chart = page.locator("#review svg")
    assert chart.get_attribute("data-current") == str(plies)
    middle = plies // 2
    page.locator(f'#review .rv-ply[data-ply="{middle}"] > .rv-hit').click()
    page.locator(f'#board[data-shown="{middle}"] svg').wait_for(timeout=10_000)
    page.locator("#replay-ply").filter(has_text=f"Showing move {middle} of {plies}").wait_for()
    assert chart.get_attribute("data-current") == str(middle)
    assert page.locator("#review .rv-ply[data-current]").get_attribute("data-ply") == str(middle)
    # ... and from the keyboard: the current point takes the focus, the arrows move along, Enter replays
    page.locator('#review .rv-ply[tabindex="0"]').focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.locator(f'#board[data-shown="{middle - 2}"] svg').wait_for(timeout=10_000)
    assert chart.get_attribute("data-current") == str(middle - 2)
    page.get_by_role("button", name="End", exact=True).click()
    page.locator('#board[data-shown="now"] svg').wait_for(timeout=10_000)
    assert chart.get_attribute("data-current") == str(plies)
    page.locator("#end").screenshot(path=str(PICTURES / "review-chart.png"))
