"""The play server's pages in a real Chromium: every game played to its end by clicking against a
bot, two people each seeing only their own cards, a reload, the replay and the save, the keyboard
alone, a phone, a hot seat, a spectator, the rules, the lobby."""

from __future__ import annotations

import importlib
import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import needs_a_browser

needs_a_browser()

from websockets.sync.client import connect  # noqa: E402

from ordonnance import Card, Territory  # noqa: E402
from ordonnance.core import jsonio, registry  # noqa: E402
from tests.server.conftest import ServerProcess  # noqa: E402
from tests.server.helpers import positions  # noqa: E402
from tests.web.conftest import DESKTOP, GAMES, PHONE, PICTURES, api, join, link, players, table  # noqa: E402
from tests.web.playing import (  # noqa: E402
    cards_in_dom, click_move, offered, play_to_the_end, turn_ply, wait_for_board, wait_for_turn_or_end,
)  # fmt: skip


def final_state(server: ServerProcess, table_id: str) -> dict[str, Any]:
    """The finished table's state as a spectator receives it: the whole save."""
    with connect(server.url.replace("http", "ws") + f"/ws/tables/{table_id}") as socket:
        state: dict[str, Any] = json.loads(socket.recv(timeout=30))
    assert state["status"] == "finished"
    return state


def result_shown(page: Any, final: dict[str, Any]) -> None:
    """The end panel names the winner the library finds on replaying the save."""
    _module, games = positions(final)
    winner = games[-1].winner
    names = [seat["name"] for seat in final["seats"]]
    expected = "A draw." if winner is None else f"{names[winner]} wins."
    page.locator("#result").filter(has_text=expected).wait_for(timeout=10_000)
    scores = page.locator("#scores li").all_text_contents()
    assert scores == [f"{names[s]}: {int(score)}" for s, score in enumerate(games[-1].scores)]
    hands = page.locator("#hands li").all_text_contents()
    assert hands == [f"{names[s]}: " + (", ".join(str(c) for c in games[-1].hand(s)) or "no card") for s in range(len(names))]


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_a_whole_game_against_bots_by_clicking(server: ServerProcess, pages: Any, game: str) -> None:
    created = table(server, game, ["human"] + ["random"] * (players(game) - 1))
    token = join(server, created["id"], 0, "Ann")
    page = pages().page
    page.goto(link(server, created["id"], {0: token}))
    played = play_to_the_end(page)
    final = final_state(server, created["id"])
    history = final["view"]["history"]
    module, games = positions(final)
    assert played == sum(games[ply].current_player == 0 for ply in range(len(history))) > 0
    result_shown(page, final)
    if game == "ordonnance":
        page.screenshot(path=str(PICTURES / "ordonnance-end.png"))
    assert page.locator("#board svg").count() == 1


def texts_of_view(game: str, view: Any, names: list[str]) -> list[str]:
    """Every text of the game's own picture of ``view``, as the server draws it for that seat."""
    render = importlib.import_module(registry.package(game).__name__ + ".render")
    if game == "black-prince":
        picture = render.svg(view, title=" vs ".join(names))
    else:
        picture = render.svg(view, names=names)
    return ["".join(e.itertext()) for e in ET.fromstring(picture).iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.parametrize("game", GAMES)
def test_people_at_their_own_screens_each_see_only_their_own_seat(server: ServerProcess, pages: Any, game: str) -> None:
    """At each turn, every text of a page's picture is that of its seat's view (so no other seat's
    hand, clan or card), its cards are its hand and the table's, and it offers only legal moves."""
    count = players(game)
    created = table(server, game, ["human"] * count)
    names = [f"Person {seat}" for seat in range(count)]
    seats = [pages() for _ in range(count)]
    for seat, opened in enumerate(seats):
        opened.page.goto(link(server, created["id"], {seat: join(server, created["id"], seat, names[seat])}))
    seen: list[tuple[int, int, list[str], Counter[str], list[dict[str, Any]]]] = []
    told: set[str] = set()
    for _ in range(5000):
        if all(opened.page.locator("#end").is_visible() for opened in seats):
            break
        acted = False
        for seat, opened in enumerate(seats):
            page = opened.page
            if page.locator("#picks button:not([disabled])").count():
                ply = turn_ply(page)
                wait_for_board(page, ply)
                texts = page.locator("#board svg text").all_text_contents()
                seen.append((seat, int(ply), texts, cards_in_dom(page), offered(page)))
                told.update(page.locator("#moves li").all_text_contents())
                click_move(page)
                acted = True
        if not acted:
            seats[0].page.wait_for_timeout(50)
    final = final_state(server, created["id"])
    _module, games = positions(final)
    assert len(seen) == len(final["view"]["history"])
    for seat, ply, texts, cards, actions in seen:
        view = games[ply].view(seat)
        assert texts == texts_of_view(game, view, names), (seat, ply)
        legal = json.loads(view.to_json())["legal_actions"]
        assert sorted(map(json.dumps, actions)) == sorted(map(json.dumps, legal)), (seat, ply)  # exactly the legal moves
        if game == "ordonnance":
            mine = Counter(str(card) for card in view.hand)
            on_table = Counter(str(card) for territory in view.armies for army in territory for card in army)
            assert cards == mine + on_table, (seat, ply)  # the other hand: face down, not a card named
            assert {Card.parse(a["card"]) for a in actions if "card" in a} <= set(view.hand)
    for opened in seats:
        result_shown(opened.page, final)
    if game == "ordonnance":
        decided = 0
        for ply in range(len(games) - 2):  # the last move's state is the whole save: told without its outcome
            for territory in Territory:
                owner = games[ply + 1].territory_owner(territory)
                if games[ply].territory_owner(territory) is None and owner is not None:
                    marker = games[ply + 1].marker(territory)
                    line = f"{territory.label} goes to {names[owner]} (victory marker {marker})"
                    assert any(text.startswith(f"Move {ply + 1}: ") and line in text for text in told), line
                    decided += 1
        assert decided > 0


def test_a_reload_mid_game_resumes_it(server: ServerProcess, pages: Any) -> None:
    created = table(server, "ordonnance", ["human", "random"])
    page = pages().page
    page.goto(link(server, created["id"], {0: join(server, created["id"], 0, "Ann")}))
    for _ in range(3):
        assert not wait_for_turn_or_end(page)
        click_move(page)
    assert not wait_for_turn_or_end(page)
    before = turn_ply(page)
    page.reload()
    assert not wait_for_turn_or_end(page)
    assert turn_ply(page) == before == str(api(server, "GET", f"/api/tables/{created['id']}")["ply"])
    wait_for_board(page, before)
    assert play_to_the_end(page) > 0


def test_the_replay_steps_to_the_end_and_the_save_downloads(server: ServerProcess, pages: Any) -> None:
    created = table(server, "black-prince", ["human", "random"])
    page = pages().page
    page.goto(link(server, created["id"], {0: join(server, created["id"], 0, "Ann")}))
    play_to_the_end(page)
    final = final_state(server, created["id"])
    plies = len(final["view"]["history"])
    page.get_by_role("button", name="Start").click()
    page.locator("#replay-ply").filter(has_text=f"Showing move 0 of {plies}").wait_for()
    page.locator('#board[data-shown="0"] svg').wait_for()
    assert "turn 1, player 0 to place" in page.locator("#board svg text").first.text_content()
    for ply in range(1, plies + 1):
        page.get_by_role("button", name="Next").click()
        page.locator("#replay-ply").filter(has_text=f"Showing move {ply} of {plies}").wait_for()
        page.locator(f'#board[data-shown="{ply if ply < plies else "now"}"] svg').wait_for()
    assert "over" in page.locator("#board svg text").first.text_content()
    page.get_by_role("button", name="Back").click()
    page.locator(f'#board[data-shown="{plies - 1}"] svg').wait_for()
    assert "over" not in page.locator("#board svg text").first.text_content()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the save (JSON)").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    module = registry.package("black-prince")
    assert module.Game.from_json(jsonio.dumps(saved)) == module.Game.from_json(jsonio.dumps(final["view"]))


def test_the_keyboard_alone_plays_with_a_visible_focus(server: ServerProcess, pages: Any) -> None:
    created = table(server, "ordonnance", ["human", "random"])
    page = pages().page
    page.goto(link(server, created["id"], {0: join(server, created["id"], 0, "Ann")}))
    moves = 0
    while not wait_for_turn_or_end(page):
        ply = turn_ply(page)
        for _ in range(40):  # Tab to a move (the page puts the focus on the first one when it is the seat's turn)
            if page.locator("#turn button:focus").count():
                break
            page.keyboard.press("Tab")
        focused = page.locator("#turn button:focus")
        assert focused.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
        page.keyboard.press("Enter")
        page.locator("#targets button[data-action]:focus").wait_for(timeout=10_000)
        page.keyboard.press("Space")
        page.locator(f'#turn:not([data-ply="{ply}"]), #end:not([hidden])').first.wait_for(state="attached", timeout=60_000)
        moves += 1
    assert moves > 0
    assert page.locator("#end").is_visible()


@pytest.mark.parametrize("game", GAMES)
def test_the_table_page_on_a_phone_and_a_desktop(server: ServerProcess, pages: Any, game: str) -> None:
    """Screenshots for the docs, the phone's page as wide as the phone, and the load figures."""
    timings = {}
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        created = table(server, game, ["human"] + ["random"] * (players(game) - 1))
        page = pages(viewport).page
        page.goto(link(server, created["id"], {0: join(server, created["id"], 0, "Ann")}))
        for _ in range(4):
            if wait_for_turn_or_end(page):
                break
            click_move(page)
        wait_for_turn_or_end(page)
        wait_for_board(page, turn_ply(page))
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(PICTURES / f"{game}-{size}.png"))
        page.reload()
        wait_for_turn_or_end(page)
        wait_for_board(page, turn_ply(page))
        timings[size] = measure(page)
    (PICTURES / f"{game}-timing.json").write_text(json.dumps(timings, indent=1) + "\n")


def measure(page: Any) -> dict[str, float]:
    """The load of a table page as the browser measured it: Navigation and Resource Timing."""
    figures = page.evaluate("""() => {
      const nav = performance.getEntriesByType("navigation")[0];
      const resources = performance.getEntriesByType("resource");
      const paint = performance.getEntriesByName("first-contentful-paint")[0];
      const drawn = resources.filter((r) => r.name.includes("/picture")).map((r) => r.responseEnd);
      return {load_ms: nav.loadEventEnd - nav.startTime, first_paint_ms: paint ? paint.startTime : null,
              picture_ms: drawn.length ? Math.min(...drawn) : null,
              bytes: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
              files: 1 + resources.length};
    }""")
    return {key: round(value) for key, value in figures.items()}
