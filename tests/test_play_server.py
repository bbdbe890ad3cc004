"""The play server's endpoints (issue 32), through Starlette's test client: setting up games,
a whole game against a bot, refusals, stale and out-of-turn decisions, every bad input, saving
and resuming, the records downloaded, the bounded store, and that no answer to a seat tells
another seat's hand or the deck (the seed that draws it).
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ethnos_rules import (
    HIDDEN,
    GameRecord,
    observation,
    redact,
    resample,
    validate,
)
from ethnos_rules._play.games import Game, GameStore
from ethnos_rules._play.server import MAX_BODY, app
from ethnos_rules._play.views import rule_ids, rule_url, sees
from ethnos_rules._text import rulebook
from replay_pages import page_data

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(str(tmp_path / "games"))


@pytest.fixture
def client(store: GameStore) -> Iterator[TestClient]:
    with TestClient(app(store), raise_server_exceptions=False) as test_client:
        yield test_client


def new_game(client: TestClient, seats: list[str], seed: int | None = 7, **more: Any) -> Any:
    body = {"players": len(seats), "seats": seats, "seed": seed, **more}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def api(url: str) -> str:
    """The API root of a seat's (or the hot-seat) page address."""
    return re.sub(r"^/(seat|hotseat)/", "/api/games/", url)


def game_of(store: GameStore, created: Any) -> Game:
    game, _ = store.find(created["game"], created["hotseat"].rsplit("/", 1)[1])
    return game


def play_first_legal(client: TestClient, root: str, view: Any) -> None:
    """The seat of ``root`` plays the first of its legal moves, at ``view``'s version."""
    action = client.get(root + "/hint/legal").json()["actions"][0]
    answer = client.post(root + "/act", json={"action": action, "version": view["version"]})
    assert answer.status_code == 200, answer.text


def settled_view(client: TestClient, store: GameStore, created: Any, root: str) -> Any:
    """The view once the bots have moved."""
    assert store.wait(game_of(store, created), 60)
    answer = client.get(root + "/view")
    assert answer.status_code == 200, answer.text
    return answer.json()


def act(client: TestClient, root: str, action: str, version: int) -> Any:
    return client.post(root + "/act", json={"action": action, "version": version})


def assert_error(answer: Any, status: int) -> Any:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert isinstance(body.get("error"), str) and body["error"]
    assert "Traceback" not in answer.text
    return body


# --- setting up -----------------------------------------------------------------------------------


def test_bots_and_setup_choices(client: TestClient) -> None:
    bots = client.get("/api/bots").json()["bots"]
    assert {b["name"] for b in bots} >= {"random", "greedy"}
    assert all(b["description"] for b in bots)
    setup = client.get("/api/setup").json()
    assert setup["players"] == [2, 3, 4, 5, 6]
    assert {"code": "ELF", "name": "Elves"} in setup["tribes"]
    assert setup["tribes_in_play"] == {"2": 5, "3": 5, "4": 6, "5": 6, "6": 6}
    assert setup["options"]["wizard_draw"] == ["all_or_none", "up_to_x"]


@pytest.mark.parametrize(
    "seats",
    [
        ["person", "greedy"],
        ["person", "person", "random"],
        ["greedy", "person", "random", "person"],
        ["person", "random", "random", "greedy", "random"],
        ["random", "random", "person", "random", "greedy", "person"],
    ],
)
def test_games_of_every_size(client: TestClient, store: GameStore, seats: list[str]) -> None:
    created = new_game(client, seats, seed=len(seats))
    people = [s for s in created["seats"] if s["kind"] == "person"]
    assert [s["seat"] for s in people] == [n for n, kind in enumerate(seats) if kind == "person"]
    assert all("url" not in s for s in created["seats"] if s["kind"] != "person")
    for seat in people:
        view = settled_view(client, store, created, api(seat["url"]))
        assert view["seat"] == seat["seat"] and view["players"] == len(seats)
        assert view["board_svg"].startswith("<svg") and view["hand"]
        assert len(view["glory"]) == len(seats)
        pending = view["pending"]
        assert pending["rule_url"].startswith("/rules")
        assert seats[pending["seat"]] == "person"  # the bots have moved: a person decides
        assert pending["yours"] == (pending["seat"] == seat["seat"])
    hot = settled_view(client, store, created, api(created["hotseat"]))
    assert hot["seat"] == hot["pending"]["seat"] and hot["pending"]["yours"]


def test_given_tribes_and_options(client: TestClient, store: GameStore) -> None:
    tribes = ["DWA", "ELF", "GIA", "ORC", "WIZ"]
    created = new_game(
        client, ["person", "random"], tribes=tribes, options={"wizard_draw": "up_to_x"}
    )
    record = game_of(store, created).record()
    assert record.tribes == tuple(tribes) and record.options.wizard_draw == "up_to_x"


# --- playing ----------------------------------------------------------------------------------


def play_to_the_end(client: TestClient, store: GameStore, created: Any, root: str) -> list[float]:
    """Play seat 0 to the end of the game by its legal moves (the last one listed, to play
    bands); the server's time for each decision."""
    times = []
    view = settled_view(client, store, created, root)
    while not view["finished"]:
        assert view["pending"]["yours"], view["pending"]
        actions = client.get(root + "/hint/legal").json()["actions"]
        assert actions
        start = time.perf_counter()
        answer = client.post(
            root + "/act", json={"action": actions[-1], "version": view["version"]}
        )
        times.append(time.perf_counter() - start)
        assert answer.status_code == 200, answer.text
        assert answer.json()["view"]["version"] > view["version"]
        view = settled_view(client, store, created, root)
    return times


def test_a_whole_game_against_greedy(client: TestClient, store: GameStore) -> None:
    created = new_game(client, ["person", "greedy"], seed=11)
    root = api(created["seats"][0]["url"])
    times = play_to_the_end(client, store, created, root)
    view = client.get(root + "/view").json()
    assert view["finished"] and view["scores"]["winners"]
    assert view["scores"]["glory"] == view["glory"]
    assert view["pending"]["kind"] == "GAME_OVER" and not view["pending"]["yours"]
    assert any(line["rule"] == "GAME-1" for line in view["log"])
    won = view["scores"]
    assert won["rule_url"] == rule_url(won["rule"])
    assert won["rule_title"] == rulebook.sentence(won["rule"])
    # the records downloaded validate: the whole game, and seat 0's
    whole = GameRecord.from_json(client.get(root + "/record.json?whole=1").text)
    mine = GameRecord.from_json(client.get(root + "/record.json").text)
    assert whole.seat is None and mine.seat == 0
    assert validate(whole).ok and validate(whole).complete
    assert validate(mine).ok and mine == redact(whole, 0)
    page = client.get(root + "/replay.html")
    assert page.status_code == 200 and page.text.startswith("<!DOCTYPE html>")
    cited = page_data(page.text)["rules"]  # linked to this server's rules page, not the docs
    assert cited and all(link.startswith("/rules#") for link, _ in cited.values())
    # the record saved is the game
    saved = GameRecord.read(game_of(store, created).path or "")
    assert saved.actions == whole.actions and saved.metadata["play"]["seats"] == (
        "person",
        "greedy",
    )
    median, worst = statistics.median(times), max(times)
    told = f"median {median * 1000:.1f} ms, worst {worst * 1000:.1f} ms"
    print(f"\nserver time per human action against greedy: {told}")
    assert median < 0.5  # the issue asks for 100 ms; a loaded test machine gets leeway


def band_of_two_mismatched(hand: list[str]) -> str | None:
    """A band of two cards of the hand sharing neither tribe nor colour (BAND-2), if any."""
    cards = [c for c in hand if c != "SKE"]
    for i, one in enumerate(cards):
        for other in cards[i + 1 :]:
            (t1, c1), (t2, c2) = one.split("-"), other.split("-")
            if t1 != t2 and c1 != c2:
                return f"band *{one} {other}"
    return None


def test_an_illegal_band_is_refused_and_changes_nothing(
    client: TestClient, store: GameStore
) -> None:
    created = new_game(client, ["person", "greedy"], seed=3)
    root = api(created["seats"][0]["url"])
    view = settled_view(client, store, created, root)
    tried = band_of_two_mismatched(view["hand"])
    while tried is None:  # recruit until the hand holds two cards that cannot band
        answer = client.post(
            root + "/act", json={"action": "recruit deck", "version": view["version"]}
        )
        assert answer.status_code == 200, answer.text
        view = settled_view(client, store, created, root)
        tried = band_of_two_mismatched(view["hand"])
    saved = Path(game_of(store, created).path or "").read_bytes()
    answer = client.post(root + "/act", json={"action": tried, "version": view["version"]})
    body = assert_error(answer, 422)
    refusal = body["refusal"]
    assert refusal["rule"] == "BAND-2" and refusal["rule_url"] == "/rules#BAND-2"
    assert refusal["reason"] and refusal["text"] == tried
    after = client.get(root + "/view").json()
    assert after["version"] == view["version"] and after["hand"] == view["hand"]
    assert Path(game_of(store, created).path or "").read_bytes() == saved
    # text that is no decision at all is refused too, by the notation
    answer = client.post(root + "/act", json={"action": "dance", "version": view["version"]})
    assert assert_error(answer, 422)["refusal"]["rule"] == "NOTATION"


def test_stale_and_out_of_turn_decisions(client: TestClient, store: GameStore) -> None:
    created = new_game(client, ["person", "person"], seed=5)
    roots = [api(s["url"]) for s in created["seats"]]
    view = settled_view(client, store, created, roots[0])
    deciding = view["pending"]["seat"]
    waiting = 1 - deciding
    version = view["version"]
    # out of turn: the other seat may not decide
    body = assert_error(
        client.post(roots[waiting] + "/act", json={"action": "recruit deck", "version": version}),
        403,
    )
    assert "not your decision" in body["error"]
    assert client.get(roots[waiting] + "/hint/legal").json()["actions"] == []
    # the seat deciding acts once; the same page acting again is stale
    ok = client.post(roots[deciding] + "/act", json={"action": "recruit deck", "version": version})
    assert ok.status_code == 200
    now = ok.json()["view"]["version"]
    again = client.post(
        roots[deciding] + "/act", json={"action": "recruit deck", "version": version}
    )
    assert "stale" in assert_error(again, 409)["error"]
    assert client.get(roots[0] + "/view").json()["version"] == now
    # hot-seat: the secret acts for the person whose decision it is
    hot = api(created["hotseat"])
    view = client.get(hot + "/view").json()
    assert view["seat"] == view["pending"]["seat"] == waiting
    assert (
        client.post(hot + "/act", json={"action": "recruit deck", "version": now}).status_code
        == 200
    )


# --- bad input ----------------------------------------------------------------------------------


def test_bad_requests_are_refused_and_change_nothing(client: TestClient, store: GameStore) -> None:
    created = new_game(client, ["person", "greedy"], seed=9)
    root = api(created["seats"][0]["url"])
    view = settled_view(client, store, created, root)
    version = view["version"]
    path = Path(game_of(store, created).path or "")
    saved = path.read_bytes()
    act = root + "/act"
    bad_bodies: list[tuple[Any, int]] = [
        (b"{not json", 400),
        (b"\xff\xfe", 400),
        (b"", 400),
        (b"[1, 2]", 400),
        (json.dumps({"action": 5, "version": version}).encode(), 400),
        (json.dumps({"action": "recruit deck", "version": str(version)}).encode(), 400),
        (json.dumps({"action": "recruit deck", "version": True}).encode(), 400),
        (json.dumps({"action": "recruit deck"}).encode(), 400),
        (json.dumps({"action": "recruit deck", "version": version, "x": 1}).encode(), 400),
        (json.dumps({"action": "", "version": version}).encode(), 400),
        (json.dumps({"action": "recruit deck " * 100, "version": version}).encode(), 400),
        (json.dumps({"action": "recruit deck", "version": version - 1}).encode(), 409),
        (b"{" + b" " * MAX_BODY + b"}", 413),
    ]
    for content, status in bad_bodies:
        answer = client.post(act, content=content, headers={"Content-Type": "application/json"})
        assert_error(answer, status)
    # unknown games and secrets
    game_id, secret = created["game"], created["seats"][0]["url"].rsplit("/", 1)[1]
    for where in (
        f"/api/games/nosuchgame/{secret}",
        f"/api/games/{game_id}/nosuchsecret",
        f"/api/games/{game_id}/{secret[:-1]}",
    ):
        for endpoint in ("/view", "/hint/legal", "/hint/score-now", "/hint/bot", "/record.json"):
            assert_error(client.get(where + endpoint), 404)
        assert_error(
            client.post(where + "/act", json={"action": "recruit deck", "version": 0}), 404
        )
    assert client.get(f"/seat/{game_id}/nosuchsecret").status_code == 404
    # bad query parameters
    assert_error(client.get(root + "/view?since=-1"), 400)
    assert_error(client.get(root + "/view?since=x"), 400)
    assert_error(client.get(root + "/hint/bot?name=nobody"), 400)
    assert_error(client.get(root + "/record.json?whole=1"), 403)  # a game under way
    # unknown pages and methods
    assert_error(client.get("/api/nothing"), 404)
    assert_error(client.get(act), 405)
    # the game is unchanged
    assert client.get(root + "/view").json()["version"] == version
    assert path.read_bytes() == saved


@pytest.mark.parametrize(
    ("setup", "rule"),
    [
        ({"players": 7}, "SETUP-1"),
        ({"players": "2"}, "SETUP-1"),
        ({"players": 2, "seats": ["person"]}, None),
        ({"players": 2, "seats": ["person", "nobody"]}, None),
        ({"players": 2, "seats": "person person"}, None),
        ({"players": 2, "tribes": ["ELF", "ELF", "DWA", "GIA", "ORC"]}, "SETUP-3"),
        ({"players": 2, "tribes": ["ELF"]}, "SETUP-3"),
        ({"players": 2, "tribes": "ELF"}, None),
        ({"players": 2, "options": {"wizard_draw": "often"}}, "OPTIONS"),
        ({"players": 2, "options": {"colour": "red"}}, "OPTIONS"),
        ({"players": 2, "options": []}, None),
        ({"players": 2, "seed": "seven"}, None),
        ({"players": 2, "seed": 2**70}, None),
        ({"players": 2, "colour": "red"}, None),
        ([2], None),
    ],
)
def test_bad_setups(client: TestClient, store: GameStore, setup: Any, rule: str | None) -> None:
    body = assert_error(client.post("/api/games", json=setup), 400)
    if rule is not None:
        assert body["rule"] == rule
    assert len(store) == 0


def test_no_traceback_on_a_failure(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import ethnos_rules._play.server as server

    def broken(*args: Any) -> Any:
        raise RuntimeError("a planted defect")

    monkeypatch.setattr(server, "rule_ids", broken)
    server.rules_page.cache_clear()
    answer = client.get("/rules")
    assert answer.status_code == 500
    assert answer.json() == {"error": "the server failed on this request"}
    server.rules_page.cache_clear()


# --- saving and resuming -------------------------------------------------------------------------


def test_saved_after_each_decision_and_resumed(
    client: TestClient, store: GameStore, tmp_path: Path
) -> None:
    created = new_game(client, ["person", "greedy"], seed=21)
    root = api(created["seats"][0]["url"])
    game = game_of(store, created)
    path = Path(game.path or "")
    for _ in range(6):
        view = settled_view(client, store, created, root)
        play_first_legal(client, root, view)
        saved = GameRecord.read(path)
        assert len(saved.actions) >= view["version"] + 1  # the decision is saved already
        assert validate(saved).ok
    view = settled_view(client, store, created, root)
    saved = GameRecord.read(path)
    assert len(saved.actions) == view["version"]
    assert not list(path.parent.glob(".*.tmp"))  # no temporary file left
    # another server plays on from the file
    other = GameStore(str(tmp_path / "elsewhere"))
    resumed = other.resume(saved)
    assert resumed.kinds == ("person", "greedy") and resumed.seed == game.seed
    assert resumed.version == view["version"]
    with TestClient(app(other)) as again:
        secret = resumed.secret_of(0)
        mine = again.get(f"/api/games/{resumed.id}/{secret}/view").json()
        assert mine["hand"] == view["hand"] and mine["board_svg"] == view["board_svg"]
        assert [e["text"] for e in mine["log"]] == [e["text"] for e in view["log"]]
        action = again.get(f"/api/games/{resumed.id}/{secret}/hint/legal").json()["actions"][0]
        done = again.post(
            f"/api/games/{resumed.id}/{secret}/act",
            json={"action": action, "version": mine["version"]},
        )
        assert done.status_code == 200
        assert other.wait(resumed)
    assert GameRecord.read(path) == saved  # the file read is left as it was
    played_on = GameRecord.read(resumed.path or "")
    assert Path(resumed.path or "").parent == tmp_path / "elsewhere"
    assert len(played_on.actions) == resumed.version > view["version"]
    assert played_on.actions[: len(saved.actions)] == saved.actions


def test_the_store_is_bounded(tmp_path: Path) -> None:
    store = GameStore(None, max_games=3)
    with TestClient(app(store)) as client:
        made = [new_game(client, ["person", "random"], seed=n) for n in range(5)]
        assert len(store) == 3
        for created in made[:2]:
            assert_error(client.get(api(created["seats"][0]["url"]) + "/view"), 404)
        for created in made[2:]:
            assert client.get(api(created["seats"][0]["url"]) + "/view").status_code == 200


# --- the rules page -------------------------------------------------------------------------------


def test_the_rules_page_has_an_anchor_per_rule(client: TestClient) -> None:
    page = client.get("/rules")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for rule in ("COMP-1", "BAND-2", "BAND-5a", "TRIBE-ELF-1", "GAME-3", "BAND", "CHANCE"):
        assert f'id="{rule}"' in page.text
        assert rule in rule_ids()
    assert len(re.findall(r'<li id="', page.text)) == len([r for r in rule_ids() if "-" in r])
    assert rule_url("BAND-2") == "/rules#BAND-2"
    assert rule_url("TRIBE-ELF") == "/rules#TRIBE" and rule_url("NOTATION") == "/rules"
    assert "<script" not in page.text and "http" not in page.text.split("<body>")[0]
    order = page.text.split('id="BAND-6"')[1].split("</li>")[0]  # cites BAND-5, not itself
    assert '<a href="#BAND-5" title="BAND-5 Kingdom placement: ' in order
    assert 'href="#BAND-6"' not in order


def test_every_rule_shown_links_to_its_text_with_what_it_says(
    client: TestClient, store: GameStore
) -> None:
    """Issue 33: the decision pending, every line of the log, a refusal and the lines of
    'if the Age ended now' each name their rule with its link on /rules and what the rule says
    (the link's tooltip)."""
    created = new_game(client, ["person", "greedy"], seed=5)
    root = api(created["seats"][0]["url"])
    for _ in range(12):  # a few turns, so that bands and markers are on the table
        play_first_legal(client, root, settled_view(client, store, created, root))
    view = settled_view(client, store, created, root)
    refused = act(client, root, "dance", view["version"]).json()["refusal"]
    hint = client.get(root + "/hint/score-now").json()
    assert hint["lines"] and len(hint["rules"]) == len(hint["lines"])
    named = [view["pending"], *view["log"], refused, *hint["rules"]]
    for item in named:
        assert item["rule_url"] == rule_url(item["rule"]), item
        assert item["rule_title"] == rulebook.sentence(item["rule"]), item
    for line, rule in zip(hint["lines"], hint["rules"], strict=True):
        assert line.rstrip(".").endswith(f"({rule['rule']})"), line
    assert len({item["rule"] for item in named}) > 5


def test_the_package_carries_the_rules_text() -> None:
    """The rules text served at /rules is byte for byte docs/reference/rules-1e.md."""
    copy = ROOT / "src" / "ethnos_rules" / "_text" / "rules-1e.md"
    assert copy.read_bytes() == (ROOT / "docs" / "reference" / "rules-1e.md").read_bytes()


def test_pages(client: TestClient, store: GameStore) -> None:
    created = new_game(client, ["person", "random"])
    for url in ("/", created["seats"][0]["url"], created["hotseat"]):
        page = client.get(url)
        assert page.status_code == 200 and page.text.lstrip().lower().startswith("<!doctype html")
    assert client.get("/static/table.js").status_code == 200


# --- secrecy ------------------------------------------------------------------------------------


ENDPOINTS = (
    "/view",
    "/view?since=3",
    "/hint/legal",
    "/hint/score-now",
    "/hint/bot?name=greedy",
    "/hint/bot?name=random",
    "/record.json",
    "/replay.html",
)


def codes(text: str) -> set[str]:
    """The card kinds ``text`` names (the Skeletons' tribe chosen, 'tribe SKE', is no card, nor
    is the SKE of a rule id such as TRIBE-SKE-1)."""
    return set(re.findall(r"(?<!tribe )(?<![\w-])(?:[A-Z]{3}-[a-z]+|SKE)(?![\w-])", text))


def seen_codes(game: Game, seat: int) -> set[str]:
    """Every card kind ``seat`` has seen named so far (in an event it saw, or on the table)."""
    found: set[str] = set()
    for events in (game.start_events, *game.events):
        for event in events:
            if sees(event, seat):
                found |= codes(str(event))
    view = observation(game.state, seat)
    found |= codes(str(view))
    return found


def hidden_codes(game: Game, seat: int) -> set[str]:
    """The card kinds in another seat's hand that ``seat`` has never seen named."""
    held = {c.code for s, p in enumerate(game.state.players) if s != seat for c in p.hand}
    return held - seen_codes(game, seat)


def test_no_answer_tells_another_hand_or_the_seed(client: TestClient, store: GameStore) -> None:
    """Through a whole game of seat 0 against the rules-of-thumb bot (it holds cards longer
    than greedy, so there is more to hide), no answer to seat 0 names a card kind of seat 1's
    hand that seat 0 has not seen, nor the seed that draws the deck."""
    created = new_game(client, ["person", "thumb"], seed=None)
    root = api(created["seats"][0]["url"])
    game = game_of(store, created)
    seed = str(game.seed)
    checked = hidden_seen = 0
    view = settled_view(client, store, created, root)
    while not view["finished"]:
        with game.lock:
            hidden = hidden_codes(game, 0)
        hidden_seen += len(hidden)
        endpoints = ENDPOINTS if view["version"] % 5 == 0 else ENDPOINTS[:4]
        for endpoint in endpoints:
            body = client.get(root + endpoint).text
            assert not codes(body) & hidden, (endpoint, codes(body) & hidden)
            assert seed not in body
            checked += 1
        action = client.get(root + "/hint/legal").json()["actions"][-1]
        answer = act(client, root, action, view["version"])
        view = settled_view(client, store, created, root)
        with game.lock:  # what was hidden before and is still hidden was hidden in between
            hidden &= hidden_codes(game, 0)
        assert not codes(answer.text) & hidden and seed not in answer.text
    assert checked > 100 and hidden_seen >= 10  # the check had something to find


def other_world(store: GameStore, game: Game, seat: int, seed: int) -> Game:
    """A game that looks the same from ``seat`` as ``game`` but for the cards it did not see,
    drawn by resampling its record, with the same seats and seed."""
    with game.lock:
        whole = game.record()
    mine = redact(whole, seat)
    import random

    drawn = resample(mine, random.Random(seed))
    again = GameRecord.from_playthrough(drawn, metadata=dict(whole.metadata))
    assert redact(again, seat).actions == mine.actions
    return store.resume(again)


@pytest.mark.parametrize("at", [30, 80, 200])
def test_every_endpoint_answers_the_same_in_a_game_that_differs_in_unseen_cards(
    client: TestClient, store: GameStore, at: int
) -> None:
    """Each answer to seat 0 is the same in a game drawn to fit what seat 0 saw but with other
    cards in seat 1's hand and the deck: it depends on what seat 0 sees alone."""
    created = new_game(client, ["person", "greedy"], seed=at)
    root = api(created["seats"][0]["url"])
    game = game_of(store, created)
    view = settled_view(client, store, created, root)
    while view["version"] < at:
        play_first_legal(client, root, view)
        view = settled_view(client, store, created, root)
    differs = 0
    for draw in range(3):
        other = other_world(store, game, 0, draw)
        if other.state.players[1].hand != game.state.players[1].hand:
            differs += 1
        other_root = f"/api/games/{other.id}/{other.secret_of(0)}"
        for endpoint in ENDPOINTS:
            mine = client.get(root + endpoint).text.replace(game.id, "GAME")
            theirs = client.get(other_root + endpoint).text.replace(other.id, "GAME")
            assert mine == theirs, endpoint
    if hidden_codes(game, 0):  # seat 1 holds cards seat 0 never saw: some draw changed them
        assert differs


def test_hidden_cards_stay_hidden_in_the_seat_record(client: TestClient, store: GameStore) -> None:
    created = new_game(client, ["person", "greedy"], seed=2)
    root = api(created["seats"][0]["url"])
    settled_view(client, store, created, root)
    mine = GameRecord.from_json(client.get(root + "/record.json").text)
    assert mine.seat == 0 and f"reveal {HIDDEN}" in mine.actions
    assert "seed" not in mine.metadata["play"]


# --- the command ----------------------------------------------------------------------------------


def start_server(folder: Path, *args: str) -> tuple[Any, str, list[str]]:
    """``python -m ethnos_rules play --no-browser ARGS`` in ``folder``: the process, its address
    and the lines it printed before it."""
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "ethnos_rules", "play", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=folder,
    )
    assert process.stdout is not None
    lines: list[str] = []
    for line in process.stdout:
        lines.append(line)
        found = re.search(r"^ethnos-rules play: (http://127\.0\.0\.1:\d+)", line)
        if found:
            return process, found.group(1), lines
    process.kill()
    raise AssertionError("no address printed: " + "".join(lines))


def fetch(url: str, body: Any = None) -> Any:
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_the_play_command_serves_saves_and_resumes(tmp_path: Path) -> None:
    process, address, _ = start_server(tmp_path, "--dir", "saved")
    try:
        assert {b["name"] for b in fetch(address + "/api/bots")["bots"]} >= {"greedy"}
        created = fetch(address + "/api/games", {"players": 2, "seats": ["person", "random"]})
        root = address + api(created["seats"][0]["url"])
        view = fetch(root + "/view")
        for _ in range(600):  # the bot may be moving first: act once the decision is ours
            if view["pending"]["yours"]:
                break
            time.sleep(0.05)
            view = fetch(root + "/view")
        action = fetch(root + "/hint/legal")["actions"][0]
        fetch(root + "/act", {"action": action, "version": view["version"]})
    finally:
        process.terminate()
        process.wait(timeout=30)
    (saved,) = (tmp_path / "saved").glob("ethnos-*.json")
    record = GameRecord.read(saved)
    assert validate(record).ok and len(record.actions) > view["version"]
    process, address, lines = start_server(tmp_path, "--resume", str(saved), "--dir", "saved")
    try:
        (seat0,) = [line.split()[-1] for line in lines if line.startswith("seat 0:")]
        assert seat0.startswith(address + "/seat/")
        assert seat0 in lines[-1]  # one person: the browser opens its seat
        again = fetch(address + api(seat0[len(address) :]) + "/view")
        assert again["version"] >= len(record.actions) and again["seats"][1]["kind"] == "random"
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert GameRecord.read(saved) == record  # saved anew, the file read is left as it was
    assert len(list((tmp_path / "saved").glob("ethnos-*.json"))) == 2


def test_the_play_command_refuses_a_bad_resume(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ethnos_rules import new_game as fresh_game
    from ethnos_rules.cli import main

    kept = tmp_path / "seat.json"
    whole = GameRecord.from_start(fresh_game(2))
    kept.write_text(redact(whole, 0).to_json(), encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "--no-browser", "--resume", str(kept)])
    assert result.exit_code == 2 and "kept at one seat" in result.output


def test_what_changed_and_the_log_since(client: TestClient, store: GameStore) -> None:
    created = new_game(client, ["person", "person"], seed=4)
    hot = api(created["hotseat"])
    seat = settled_view(client, store, created, hot)["pending"]["seat"]
    mine = api(created["seats"][seat]["url"])
    view = client.get(mine + "/view").json()
    row = next(a for a in client.get(mine + "/hint/legal").json()["actions"] if a != "recruit deck")
    answer = act(client, mine, row, view["version"]).json()["view"]
    assert {"hand", "row", f"seat-{seat}"} <= set(answer["changed"])
    assert [e["step"] for e in answer["log"]] == [view["version"] + 1]
    assert answer["log"][0]["rule"] == "RECRUIT-1" and answer["log"][0]["seat"] == seat
    later = client.get(hot + f"/view?since={answer['version']}").json()
    assert later["log"] == [] and later["changed"] == []
    whole = client.get(hot + "/view").json()["log"]
    assert whole[0]["step"] == 0 or whole[0]["step"] == 1
    assert [e["step"] for e in whole] == sorted(e["step"] for e in whole)


def test_the_play_command_names_the_extra_when_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from click.testing import CliRunner

    from ethnos_rules.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    result = CliRunner().invoke(main, ["play", "--no-browser"])
    assert result.exit_code == 1
    assert "[play]" in result.output and "uvicorn" in result.output
    assert "Traceback" not in result.output


def test_a_large_body_without_a_length_is_refused(client: TestClient, store: GameStore) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(40):
            yield b" " * 1024

    answer = client.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert_error(answer, 413)
    assert len(store) == 0


def test_two_pages_acting_at_once_make_one_decision(tmp_path: Path) -> None:
    """The lock per game: of two decisions sent at once on the same version, one is made and
    the other is stale."""
    from concurrent.futures import ThreadPoolExecutor

    from ethnos_rules._play.games import PlayError

    store = GameStore(str(tmp_path), background=False)
    game = store.create({"players": 2, "seats": ["person", "person"], "seed": 8})
    seat, version = game.deciding(), game.version

    def acting(_: int) -> int:
        try:
            store.act(game, seat, "recruit deck", version)
        except PlayError as err:
            return err.status
        return 200

    with ThreadPoolExecutor(8) as pool:
        answers = sorted(pool.map(acting, range(8)))
    assert answers == [200] + [409] * 7
    assert game.version > version and game.actions[version] == "recruit deck"
