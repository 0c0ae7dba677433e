"""Playing a table page as a person does: by clicking (the picture first, else the move buttons) or
with the keyboard alone; and reading what a page holds."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

TURN = "#picks button:not([disabled])"


def wait_for_turn_or_end(page: Any, timeout: float = 90.0) -> bool:
    """Wait until the page offers moves or shows the end; whether the game is over."""
    page.locator(f"{TURN}, #end:not([hidden])").first.wait_for(timeout=timeout * 1000)
    return bool(page.locator("#end").is_visible())


def turn_ply(page: Any) -> str:
    return str(page.locator("#turn").get_attribute("data-ply"))


def wait_for_board(page: Any, ply: str) -> None:
    """Wait until the picture drawn is the position at ``ply``."""
    page.locator(f'#board[data-ply="{ply}"] svg').wait_for(timeout=30_000)


def click_move(page: Any, picture: bool = True) -> str:
    """Play one move by clicking: a highlighted part of the picture when there is one, else a
    button; returns the ply it was played at, once the page has moved past it."""
    ply = turn_ply(page)
    wait_for_board(page, ply)
    board_pick = page.locator("#board [data-pick]")
    if picture and board_pick.count():
        key = board_pick.first.get_attribute("data-pick")
        immediate = page.locator(f'#picks button[data-pick="{key}"]').get_attribute("data-action") is not None
        board_pick.first.click()
    else:
        button = page.locator(TURN).first
        immediate = button.get_attribute("data-action") is not None
        button.click()
    if not immediate:  # a pick with targets: choose one
        page.locator("#targets button[data-action]").first.wait_for(timeout=10_000)
        board_target = page.locator("#board [data-target]")
        if picture and board_target.count():
            several = " " in str(board_target.first.get_attribute("data-target"))
            board_target.first.click()
            if several:  # that part of the picture stands for several moves: the buttons say which
                page.locator("#targets button[data-action]").first.click()
        else:
            page.locator("#targets button[data-action]").first.click()
    page.locator(f'#turn:not([data-ply="{ply}"]), #end:not([hidden])').first.wait_for(state="attached", timeout=60_000)
    return ply


def play_to_the_end(page: Any, picture: bool = True, most: int = 400) -> int:
    """Play the page's seat until the game is over; the moves it played."""
    for played in range(most):
        if wait_for_turn_or_end(page):
            return played
        click_move(page, picture)
    raise AssertionError(f"the game did not end in {most} moves")


def offered(page: Any) -> list[dict[str, Any]]:
    """Every action the page's move buttons stand for now (each pick's, in order)."""
    groups = page.locator("#picks [data-actions]").evaluate_all("es => es.map(e => e.dataset.actions)")
    return [action for group in groups for action in json.loads(group)]


def cards_in_dom(page: Any) -> Counter[str]:
    """Every card the page's picture names (``data-card``)."""
    return Counter(page.locator("#board [data-card]").evaluate_all("es => es.map(e => e.dataset.card)"))
