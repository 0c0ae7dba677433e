"""Who sits at a table page: people at one screen (a hot seat), a spectator, a person from the
lobby; a table of bots watched at a chosen speed; what the server lets a page see and load."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.web.conftest import needs_a_browser

needs_a_browser()

from tests.server.conftest import ServerProcess  # noqa: E402
from tests.web.conftest import api, join, link, table  # noqa: E402
from tests.web.playing import click_move, play_to_the_end, turn_ply, wait_for_board, wait_for_turn_or_end  # noqa: E402


def test_a_hot_seat_hides_the_hand_until_the_next_person_shows_it(server: ServerProcess, pages: Any) -> None:
    created = table(server, "ordonnance", ["human", "human"])
    tokens = {seat: join(server, created["id"], seat, f"Person {seat}") for seat in (0, 1)}
    page = pages().page
    page.goto(link(server, created["id"], tokens))
    for move in range(4):
        page.locator("#pass").wait_for()
        assert page.locator("#board [data-card]").count() == 0  # nothing of anyone's hand behind the screen
        seat = move % 2
        assert page.locator("#pass-text").text_content() == f"Pass the device to Person {seat}."
        page.get_by_role("button", name=f"I am Person {seat}: show my hand").click()
        assert not wait_for_turn_or_end(page)
        wait_for_board(page, turn_ply(page))
        hand = page.locator(f'#board .od-hand[data-seat="{seat}"]')
        assert hand.get_attribute("data-hidden") == "false"
        assert page.locator(f'#board .od-hand[data-seat="{1 - seat}"] [data-card]').count() == 0
        click_move(page)


def test_a_spectator_sees_the_public_picture_and_no_moves(server: ServerProcess, pages: Any) -> None:
    created = table(server, "ordonnance", ["random", "random"], bot_delay=0.2)
    page = pages().page
    page.goto(f"{server.url}/tables/{created['id']}")
    page.locator("#moves li").first.wait_for(timeout=30_000)
    page.locator("#board svg").wait_for(timeout=30_000)
    assert page.locator("#turn").is_hidden()
    assert page.locator("#board .od-hand [data-card]").count() == 0
    assert page.locator('#board .od-hand[data-hidden="false"]').count() == 0


def test_bots_wait_the_tables_delay_between_moves(server: ServerProcess) -> None:
    slow = table(server, "ordonnance", ["random", "random"], bot_delay=0.25)
    fast = table(server, "ordonnance", ["random", "random"])
    time.sleep(1.0)
    assert api(server, "GET", f"/api/tables/{slow['id']}")["ply"] <= 1.0 / 0.25 + 1
    deadline = time.monotonic() + 60
    while api(server, "GET", f"/api/tables/{fast['id']}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    with pytest.raises(urllib.error.HTTPError) as refused:
        table(server, "ordonnance", ["random", "random"], bot_delay=11)
    assert refused.value.code == 422
    refused.value.close()


def test_the_picture_needs_the_seats_token(server: ServerProcess) -> None:
    created = table(server, "ordonnance", ["human", "random"])
    token = join(server, created["id"], 0, "Ann")
    path = f"{server.url}/api/tables/{created['id']}/picture"

    def fetch(authorization: str | None) -> str:
        headers = {} if authorization is None else {"authorization": authorization}
        with urllib.request.urlopen(urllib.request.Request(path, headers=headers), timeout=30) as reply:
            assert reply.headers["content-type"].startswith("image/svg+xml")
            return str(reply.read().decode())

    mine, public = fetch(f"Bearer {token}"), fetch(None)
    assert 'class="od-hand" data-seat="0" data-hidden="false"' in mine
    assert 'class="od-hand" data-seat="1" data-hidden="true"' in mine
    assert 'data-hidden="false"' not in public
    with pytest.raises(urllib.error.HTTPError) as refused:
        fetch("Bearer " + "x" * 22)
    assert refused.value.code == 403
    refused.value.close()


def test_pages_carry_a_strict_content_security_policy(server: ServerProcess) -> None:
    for path in ("/", "/tables/abc", "/rules/shinobi", "/static/table.js"):
        with urllib.request.urlopen(server.url + path, timeout=30) as reply:
            policy = reply.headers["content-security-policy"]
            assert "default-src 'self'" in policy and "unsafe-inline" not in policy, path
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(server.url + "/rules/chess", timeout=30)
    assert missing.value.code == 404
    missing.value.close()


def test_a_person_creates_a_table_in_the_lobby_another_joins_and_they_play(server: ServerProcess, pages: Any) -> None:
    first = pages().page
    first.goto(server.url + "/")
    first.get_by_label("Your name").fill("Ann")
    first.get_by_label("Game").select_option("black-prince")
    first.locator("#kind-1").select_option("human")
    first.get_by_role("button", name="Create the table").click()
    first.locator("#status").filter(has_text="Waiting for people").wait_for()
    table_id = first.url.split("/tables/")[1].split("#")[0]
    second = pages().page
    second.goto(server.url + "/")
    second.get_by_label("Your name").fill("Bob")
    row = second.locator(f'#open tr[data-table="{table_id}"]')
    row.get_by_role("button", name="Join seat 1").click()
    second.locator("#status").filter(has_text="You are Bob (seat 1)").wait_for()
    pages_by_seat = [first, second]
    for _ in range(6):  # a few moves each way, whoever is to move
        for page in pages_by_seat:
            if page.locator("#picks button:not([disabled])").count():
                click_move(page)
        pages_by_seat[0].wait_for_timeout(100)
    assert api(server, "GET", f"/api/tables/{table_id}")["ply"] >= 2


def test_the_rules_are_one_click_away(server: ServerProcess, pages: Any) -> None:
    created = table(server, "shinobi", ["human", "random", "random"])
    page = pages().page
    page.goto(link(server, created["id"], {0: join(server, created["id"], 0, "Ann")}))
    page.get_by_role("link", name="Shinobi rules").click()
    page.get_by_role("heading", name="Shinobi rules").wait_for()
    assert "Clans" in page.locator("main").text_content()


def test_a_finished_game_from_the_lobby_link_plays_to_the_end(server: ServerProcess, pages: Any) -> None:
    created = table(server, "shinobi", ["human", "greedy", "random"])
    page = pages().page
    page.goto(link(server, created["id"], {0: join(server, created["id"], 0, "Ann")}))
    assert play_to_the_end(page, picture=False) > 0


def test_a_designer_starts_a_table_of_bots_in_the_lobby_and_watches_it(server: ServerProcess, pages: Any) -> None:
    page = pages().page
    page.goto(server.url + "/")
    page.get_by_label("Game").select_option("ordonnance")
    page.locator("#kind-0").select_option("greedy")
    page.locator("#kind-1").select_option("random")
    page.get_by_label("Bots wait between moves (seconds)").fill("0.3")
    page.get_by_role("button", name="Create the table").click()
    page.locator("#moves li").nth(2).wait_for(timeout=30_000)
    table_id = page.url.split("/tables/")[1].split("#")[0]
    assert page.url.endswith("#")  # no seat: a spectator's page
    assert page.locator("#turn").is_hidden()
    ply = api(server, "GET", f"/api/tables/{table_id}")["ply"]
    page.wait_for_timeout(1000)
    assert api(server, "GET", f"/api/tables/{table_id}")["ply"] - ply <= 1.0 / 0.3 + 1  # at the chosen speed


def test_the_page_connects_again_after_the_server_restarts(restartable_server: ServerProcess, pages: Any) -> None:
    restartable_server.start()
    created = table(restartable_server, "ordonnance", ["human", "random"])
    opened = pages()
    page = opened.page
    page.goto(link(restartable_server, created["id"], {0: join(restartable_server, created["id"], 0, "Ann")}))
    assert not wait_for_turn_or_end(page)
    click_move(page)
    assert not wait_for_turn_or_end(page)
    before = turn_ply(page)
    restartable_server.stop()
    page.locator("#connection").filter(has_text="connection lost").wait_for(timeout=30_000)
    restartable_server.start()
    page.locator("#connection").filter(has_text="connected").wait_for(timeout=60_000)
    assert not wait_for_turn_or_end(page)
    assert turn_ply(page) == before
    click_move(page)  # the game goes on, on the same page
    assert int(api(restartable_server, "GET", f"/api/tables/{created['id']}")["ply"]) > int(before)
    # the browser logs each refused attempt while the server was down; nothing else
    opened.errors[:] = [e for e in opened.errors if "ERR_CONNECTION_REFUSED" not in e]


def test_the_lobby_sets_the_variant_and_shows_the_servers_refusal(server: ServerProcess, pages: Any) -> None:
    opened = pages()
    page = opened.page
    page.goto(server.url + "/")
    page.get_by_label("Game").select_option("ordonnance")
    page.get_by_label("scoring").fill("nonsense")
    page.get_by_role("button", name="Create the table").click()
    page.locator("#create-error").filter(has_text="nonsense").wait_for()  # the server's message, showing the value
    page.get_by_label("scoring").fill("points")
    page.get_by_label("tie break").fill("lowest_marker_sum")
    page.get_by_role("button", name="Create the table").click()
    page.locator("#status").filter(has_text="Your move").wait_for(timeout=30_000)
    table_id = page.url.split("/tables/")[1].split("#")[0]
    rules = api(server, "GET", f"/api/tables/{table_id}")["rules"]
    assert rules["scoring"] == "points" and rules["tie_break"] == "lowest_marker_sum"
    # the refused creation logged the server's 400 answer in the console: that one only
    opened.errors[:] = [e for e in opened.errors if "status of 400" not in e]


def test_picks_and_targets_differ_by_more_than_colour(server: ServerProcess, pages: Any) -> None:
    created = table(server, "ordonnance", ["human", "random"])
    page = pages().page
    page.goto(link(server, created["id"], {0: join(server, created["id"], 0, "Ann")}))
    assert not wait_for_turn_or_end(page)
    wait_for_board(page, turn_ply(page))
    style = "e => { const s = getComputedStyle(e.querySelector('rect')); return [s.strokeDasharray, s.strokeWidth]; }"
    pick = page.locator("#board [data-pick]").first
    assert pick.evaluate(style) == ["none", "4px"]  # a pick: solid
    pick.click()
    target = page.locator("#board [data-target]").first
    target.wait_for()
    assert target.evaluate(style) == ["8px, 4px", "4px"]  # a target: dashed
    assert page.locator("#targets button").filter(has_text="Antioch").count() == 1  # and said in words


def test_the_lobby_starts_a_hot_seat(server: ServerProcess, pages: Any) -> None:
    page = pages().page
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Game").select_option("ordonnance")
    page.locator("#kind-1").select_option("human")
    page.get_by_label("Every person plays at this screen (hot seat)").check()
    page.get_by_role("button", name="Create the table").click()
    page.get_by_role("button", name="I am Ann 0: show my hand").click()
    assert not wait_for_turn_or_end(page)
    click_move(page)
    page.locator("#pass-text").filter(has_text="Pass the device to Ann 1.").wait_for()
    table_id = page.url.split("/tables/")[1].split("#")[0]
    seats = api(server, "GET", f"/api/tables/{table_id}")["seats"]
    assert [seat["name"] for seat in seats] == ["Ann 0", "Ann 1"]
