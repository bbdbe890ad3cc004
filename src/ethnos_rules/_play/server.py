"""The play server: a Starlette application over a :class:`~.games.GameStore` (issue 32).

Pages: ``/`` (set up a game), ``/seat/{game}/{secret}`` (one seat's table) and
``/hotseat/{game}/{secret}`` (one device passed between the people), their files under
``/static/``, and ``/rules``: the rules text with an anchor per rule id (``id="BAND-2"``).

The JSON API (``G`` is ``/api/games/{game}/{secret}``, the secret naming a seat or the table):

- ``GET /api/bots``, ``GET /api/setup``: the bots, and the players, tribes and rule options;
- ``POST /api/games`` ``{"players", "seats", "tribes", "options", "seed"}``: 201 with the game
  and each person's address;
- ``GET G/view[?since=N]``: what the seat sees (:func:`~.views.seat_view`);
- ``POST G/act`` ``{"action": TEXT, "version": N}``: 200 with the view after it; 409 stale,
  403 not this seat's decision, 422 with the refusal's rule, reason and link;
- ``GET G/hint/legal``, ``G/hint/score-now``, ``G/hint/bot?name=``: the legal decisions,
  what the end of the Age would give now, a bot's choice;
- ``GET G/record.json[?whole=1]``, ``G/replay.html``: the seat's record (the whole game's for
  the table, or once the game is over) and its replay page.

Every request is checked: every error is JSON ``{"error": ...}`` with a 4xx status (400
malformed, 404 unknown game or secret, 413 a body over 16 KiB), never a traceback, and a
refused request changes nothing.

Starlette (and markdown-it-py for the rules page) come with the ``[play]`` extra.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import (
    FIRST_EDITION,
    GameRecord,
    Options,
    RulesError,
    information_state,
    legal_actions,
    pending_decision,
    redact,
    score_now,
)
from .._rules.said import said, word
from .._text import rulebook
from .._text.html_replay import replay_html
from .._text.i18n import ENGLISH, LANGUAGE_NAMES, chosen_language, localized, page_in
from .._text.rulebook import rules_text
from .games import DEFAULT_OPPONENT, PERSON, Game, GameStore, PlayError, bots, refused
from .views import rule_ids, rule_link, seat_view, sees

MAX_BODY = 16 * 1024
"""The largest request body read (bytes); a larger one is answered 413."""

STATIC = Path(str(resources.files("ethnos_rules._play").joinpath("static")))
"""The page's files (``index.html``, ``table.html``, ``table.js``, ``table.css``)."""

Handler = Callable[[Request], Awaitable[Response]]


def app(store: GameStore) -> Starlette:
    """The play server's application, serving the games of ``store``."""

    def api(handler: Callable[[Request], Awaitable[Any]], status: int = 200) -> Handler:
        """A JSON endpoint: ``handler``'s answer as JSON, a :class:`PlayError` as its status
        and body."""

        async def endpoint(request: Request) -> Response:
            lang = language_of(request)
            try:
                answer = await handler(request)
            except PlayError as err:
                return JSONResponse(localized(err.body, lang), status_code=err.status)
            if isinstance(answer, Response):
                return answer
            return JSONResponse(localized(answer, lang), status_code=status)

        return endpoint

    async def list_bots(request: Request) -> Any:
        listed = [{"name": b.name, "description": b.description} for b in bots().values()]
        return {"bots": listed, "default": DEFAULT_OPPONENT}

    async def setup_choices(request: Request) -> Any:
        return {
            "players": [2, 3, 4, 5, 6],
            "tribes": [{"code": t.code, "name": word(t.name)} for t in FIRST_EDITION.tribes],
            "tribes_in_play": {str(n): 5 if n <= 3 else 6 for n in range(2, 7)},
            "options": {name: list(values) for name, values in Options.choices().items()},
        }

    async def create_game(request: Request) -> Any:
        body = await read_json(request)
        game = await run_in_threadpool(store.create, body)
        seats = [
            {
                "seat": seat,
                "kind": kind,
                **({"url": f"/seat/{game.id}/{game.secret_of(seat)}"} if kind == PERSON else {}),
            }
            for seat, kind in enumerate(game.kinds)
        ]
        return {
            "game": game.id,
            "seats": seats,
            "hotseat": f"/hotseat/{game.id}/{game.secret_of(None)}",
        }

    def found(request: Request) -> tuple[Game, int | None]:
        params = request.path_params
        return store.find(str(params["game"]), str(params["secret"]))

    async def view(request: Request) -> Any:
        game, seat = found(request)
        since, lang = _since(request), language_of(request)

        def build() -> Any:
            with game.lock:
                return seat_view(game, store.viewer(game, seat), since, lang)

        return await run_in_threadpool(build)

    async def act(request: Request) -> Any:
        game, seat = found(request)
        body = await read_json(request)
        if not isinstance(body, dict) or set(body) - {"action", "version"}:
            raise refused(400, "the body is {'action': TEXT, 'version': INT}")
        lang = language_of(request)

        def acting() -> Any:
            store.act(game, seat, body.get("action"), body.get("version"))
            with game.lock:
                viewer = store.viewer(game, seat)
                return {"view": seat_view(game, viewer, body["version"], lang)}

        answer = await run_in_threadpool(acting)
        # the bots think once the person has the answer
        answer = localized(answer, language_of(request))
        return JSONResponse(answer, background=BackgroundTask(store.settle, game))

    async def hint_legal(request: Request) -> Any:
        game, seat = found(request)

        def listing() -> Any:
            with game.lock:
                viewer = store.viewer(game, seat)
                if game.deciding() != viewer:
                    return {"actions": [], "pending": pending_decision(game.state).text}
                return {"actions": [str(a) for a in legal_actions(game.state)]}

        return await run_in_threadpool(listing)

    async def hint_score(request: Request) -> Any:
        game, seat = found(request)

        def scoring() -> Any:
            with game.lock:
                viewer = store.viewer(game, seat)
                try:
                    score = score_now(game.state)
                except RulesError as err:
                    raise refused(
                        409, said("not now: {reason}", reason=err.reason), rule=err.rule
                    ) from None
                seen = [e for e in score.events if sees(e, viewer)]
                return {
                    "glory": list(score.glory),
                    "lines": [str(e) for e in seen],
                    "rules": [rule_link(e.rule) for e in seen],  # each line's, as the log's
                }

        return await run_in_threadpool(scoring)

    async def hint_bot(request: Request) -> Any:
        game, seat = found(request)
        name = request.query_params.get("name", DEFAULT_OPPONENT)
        known = bots()
        if name not in known:
            raise refused(400, f"no bot called {name[:40]!r}; the bots: {', '.join(known)}")

        def thinking() -> Any:
            with game.lock:
                viewer = store.viewer(game, seat)
                if game.deciding() != viewer:
                    waiting = pending_decision(game.state).text
                    return {"action": None, "bot": name, "pending": waiting}
                record, rng = game.record(), game.rng(f"hint-{name}")
            action = known[name].choose(information_state(record, viewer), rng)
            return {"action": str(action), "bot": name}

        return await run_in_threadpool(thinking)

    async def record_json(request: Request) -> Any:
        game, seat = found(request)
        whole = request.query_params.get("whole") in ("1", "true", "yes")

        def writing() -> str:
            record = _record_for(store, game, seat, whole)
            return record.to_json() + "\n"

        text = await run_in_threadpool(writing)
        name = f"ethnos-{game.id}{'' if whole else '-seat'}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def replay_page(request: Request) -> Any:
        game, seat = found(request)

        def drawing() -> str:
            record = _record_for(store, game, seat, game.finished)
            return replay_html(record, rules_page="/rules", lang=language_of(request))

        return HTMLResponse(await run_in_threadpool(drawing))

    async def rules(request: Request) -> Response:
        return HTMLResponse(rules_page())

    async def start_page(request: Request) -> Response:
        return _page("index.html", "Ethnos: set up a game", language_of(request))

    async def table_page(request: Request) -> Response:
        lang = language_of(request)
        try:
            found(request)
        except PlayError as err:
            return HTMLResponse(_placeholder(str(localized(err.body["error"], lang))), err.status)
        return _page("table.html", "Ethnos: the table", lang)

    async def table_script(request: Request) -> Response:
        path = STATIC / "table.js"
        text = page_in(path.read_text("utf-8"), language_of(request), javascript=True)
        return Response(text, media_type="text/javascript; charset=utf-8")

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        if status >= 500:
            return JSONResponse({"error": "the server failed on this request"}, status_code=500)
        error = "no such page" if status == 404 else str(getattr(exc, "detail", "refused"))
        return JSONResponse({"error": error}, status_code=status)

    def json_api(path: str, handler: Callable[[Request], Awaitable[Any]], **kw: Any) -> Route:
        status = kw.pop("status", 200)
        return Route(path, api(handler, status), **kw)

    game_path = "/api/games/{game}/{secret}"
    routes = [
        Route("/", start_page),
        Route("/seat/{game}/{secret}", table_page),
        Route("/hotseat/{game}/{secret}", table_page),
        Route("/rules", rules),
        Route("/static/table.js", table_script),
        json_api("/api/bots", list_bots),
        json_api("/api/setup", setup_choices),
        json_api("/api/games", create_game, methods=["POST"], status=201),
        json_api(game_path + "/view", view),
        json_api(game_path + "/act", act, methods=["POST"]),
        json_api(game_path + "/hint/legal", hint_legal),
        json_api(game_path + "/hint/score-now", hint_score),
        json_api(game_path + "/hint/bot", hint_bot),
        json_api(game_path + "/record.json", record_json),
        json_api(game_path + "/replay.html", replay_page),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    return Starlette(
        routes=routes,
        exception_handlers={HTTPException: not_found, Exception: not_found},
    )


# --- requests ---------------------------------------------------------------------------------


async def read_json(request: Request) -> Any:
    """The request's body as JSON, read up to :data:`MAX_BODY` bytes.

    Raises:
        PlayError: 413 for a larger body, 400 for one that is not JSON.
    """
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise refused(413, f"the body is larger than {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise refused(413, f"the body is larger than {MAX_BODY} bytes")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise refused(400, "the body is not JSON") from None


def _since(request: Request) -> int | None:
    text = request.query_params.get("since")
    if text is None or text == "":
        return None
    if not re.fullmatch(r"[0-9]{1,7}", text):
        raise refused(400, "'since' must be a version (a whole number)")
    return int(text)


def _record_for(store: GameStore, game: Game, seat: int | None, whole: bool) -> GameRecord:
    """The record a secret may download: its seat's (redacted), or the whole game for the
    hot-seat secret or once the game is over.

    Raises:
        PlayError: 403 for the whole record of a game under way from a seat's secret.
    """
    with game.lock:
        record = game.record(public=not game.finished)
        viewer = store.viewer(game, seat)
        finished = game.finished
    if whole:
        if seat is not None and not finished:
            raise refused(403, "the whole record of a game under way shows every hand")
        return record
    return redact(record, viewer)


# --- pages ------------------------------------------------------------------------------------


def language_of(request: Request) -> str:
    """The language a request asks for (``?lang=es``); English when it names none spoken."""
    return chosen_language([request.query_params.get("lang")])


def _page(name: str, title: str, lang: str = ENGLISH) -> Response:
    """A page in ``lang``: its marked words said in it, ``<html lang>``, the language selector's
    choices and the address of the page's script."""
    path = STATIC / name
    if not path.is_file():
        return HTMLResponse(_placeholder(title))
    text = page_in(path.read_text("utf-8"), lang)
    text = text.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    text = text.replace("<!--languages-->", _language_options(lang), 1)
    if lang != ENGLISH:
        text = text.replace('src="/static/table.js"', f'src="/static/table.js?lang={lang}"', 1)
    return HTMLResponse(text)


def _language_options(lang: str) -> str:
    return "".join(
        f'<option value="{code}"{" selected" if code == lang else ""}>{html.escape(name)}</option>'
        for code, name in LANGUAGE_NAMES.items()
    )


def _placeholder(text: str) -> str:
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Ethnos</title>"
        f"</head><body><p>{html.escape(text)}</p></body></html>"
    )


@functools.cache
def rules_page() -> str:
    """The rules text as one HTML page, with an anchor per rule id (``id="BAND-2"``) and per
    section (``id="BAND"``)."""
    body = MarkdownIt("commonmark").enable("table").render(rules_text())
    ids = rule_ids()

    def rule_anchor(found: re.Match[str]) -> str:
        rule = found[2]
        return f'<li id="{rule}">{found[1]}{rule}' if rule in ids else found[0]

    body = re.sub(r"<li>(\s*(?:<p>)?<strong>)([A-Z][A-Za-z0-9-]*)", rule_anchor, body)

    def section_anchor(found: re.Match[str]) -> str:
        return f'<h2 id="{found[2]}">{found[1]}'

    body = re.sub(r"<h2>(.*?<code>([A-Z]+)</code>)", section_anchor, body)
    return _RULES_PAGE.format(body=_linked(body))


def _linked(body: str) -> str:
    """``body`` with each rule id its text mentions linked to that rule's anchor, its sentence
    as the tooltip; not inside a tag, a heading, or the rule's own opening words."""
    out, own, heading = [], "", False
    for piece in re.split(r"(<[^>]+>)", body):
        if piece.startswith("<"):
            opened = re.match(r'<li id="([^"]+)"', piece)
            own = opened[1] if opened else own
            heading = piece.startswith("<h") or (heading and not piece.startswith("</h"))
            out.append(piece)
            continue
        at = 0
        for mention in [] if heading else rulebook.mentions(piece):
            if mention.id == own or not rulebook.anchor(mention.id):
                continue
            words = piece[mention.start : mention.end]
            title = html.escape(rulebook.sentence(mention.id))
            link = f'<a href="#{rulebook.anchor(mention.id)}" title="{title}">{words}</a>'
            out += [piece[at : mention.start], link]
            at = mention.end
        out.append(piece[at:])
    return "".join(out)


_RULES_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ethnos (first edition): the rules this referee follows</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; max-width: 52em; margin: 0 auto;
  padding: 8px 14px; line-height: 1.45; color: #222; }}
li:target, h2:target {{ background: #fff3b0; outline: 2px solid #e0c040; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #bbb; padding: 2px 6px; }}
code {{ background: #f3f3f3; padding: 0 2px; }}
</style></head>
<body>
{body}
</body></html>
"""
