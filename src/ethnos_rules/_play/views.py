"""What one seat is shown at the table: built from its observation and the events it saw only,
so that no answer holds another seat's hand or the deck's order.

- the board is :func:`ethnos_rules.svg.view` of the seat's :func:`~ethnos_rules.observation`;
- the log is the events of each decision that the seat sees (``visible_to``), each with its own
  sentence (the one the narration tells), its rule id, a link to that rule and what the rule
  says (:func:`rule_link`: the link's tooltip);
- what is being decided is :func:`~ethnos_rules.pending_decision` in words.
"""

from __future__ import annotations

from typing import Any

from .. import Event, GameState, glory, observation, outcome, pending_decision, winners
from .. import svg as _svg
from .._rules.components import KINGDOMS
from .._text import rulebook
from .games import PERSON, Game


def rule_ids() -> frozenset[str]:
    """Every id the rules page has an anchor for: each rule (``BAND-2``) and each section
    (``BAND``)."""
    return frozenset(rulebook.rules()) | rulebook.sections()


def rule_url(rule: str) -> str:
    """The link to ``rule`` on the play server's rules page (its section's for an id the text
    has no rule for, such as ``TRIBE-ELF`` or ``NOTATION``; else the page)."""
    return rulebook.address(rule, page="/rules")


def rule_link(rule: str) -> dict[str, str]:
    """``rule`` as the page shows it: its id, the link to it and what it says (the link's
    tooltip, :func:`ethnos_rules._text.rulebook.sentence`).

    >>> rule_link("NOTATION")
    {'rule': 'NOTATION', 'rule_url': '/rules', 'rule_title': 'NOTATION: see the rules text'}
    """
    return {"rule": rule, "rule_url": rule_url(rule), "rule_title": rulebook.sentence(rule)}


def seat_view(game: Game, seat: int, since: int | None = None, lang: str = "en") -> dict[str, Any]:
    """The view of ``seat`` (see ``GET .../view`` in the API); call it under the game's lock.

    Args:
        since: Only the log of the decisions after the first ``since`` (and ``changed`` since
            then); None for the whole log and the last decision's changes.
        lang: The language of the board picture's words (the view's sentences are said in
            the request's language by the server, :func:`~ethnos_rules._text.i18n.localized`).
    """
    state = game.state
    seen = observation(state, seat)
    decision = pending_decision(state)
    version = game.version
    finished = game.finished
    view: dict[str, Any] = {
        "game": game.id,
        "seat": seat,
        "players": len(game.kinds),
        "seats": [{"seat": s, "kind": kind} for s, kind in enumerate(game.kinds)],
        "version": version,
        "finished": finished,
        "pending": {
            "kind": decision.kind.name,
            "seat": decision.seat,
            "text": decision.text,
            **rule_link(decision.rule),
            "yours": decision.seat == seat and not decision.chance and not finished,
        },
        "board_svg": _svg.view(seen, lang=lang),
        "hand": [card.code for card in seen.hand],
        "row": [card.code for card in seen.row],
        "deck": seen.deck_size,
        "age": seen.age,
        "glory": [s.glory for s in seen.seats],
        "log": log(game, seat, since),
        "changed": changed(game, seat, since),
        "bots_moving": not game.idle.is_set() or game.bot_to_move() is not None,
        "problem": game.bot_error or game.save_error,
        "scores": scores(state) if finished else None,
    }
    return view


def scores(state: GameState) -> dict[str, Any]:
    """The final Glory, the winners and how they won."""
    ended = outcome(state)
    return {
        "glory": list(glory(state)),
        "winners": list(winners(state)),
        "text": str(ended) if ended is not None else "",
        **rule_link(ended.rule if ended is not None else "GAME-1"),
    }


def entry(event: Event, step: int) -> dict[str, Any]:
    """One line of the log: the event's sentence and rule."""
    seat = getattr(event, "seat", None)
    return {
        "step": step,
        "seat": seat if type(seat) is int else None,
        "text": str(event),
        **rule_link(event.rule),
    }


def sees(event: Event, seat: int) -> bool:
    """Whether ``seat`` sees ``event``."""
    return event.visible_to is None or seat in event.visible_to


def log(game: Game, seat: int, since: int | None = None) -> list[dict[str, Any]]:
    """The events ``seat`` saw, each with ``step``: the version it led to (0 for the setup's,
    ``i + 1`` for decision ``i``'s); ``since``: only those with a step above it."""
    lines: list[dict[str, Any]] = []
    if since is None or since < 0:
        lines += [entry(e, 0) for e in game.start_events if sees(e, seat)]
        since = 0
    for index in range(since, game.version):
        lines += [entry(e, index + 1) for e in game.events[index] if sees(e, seat)]
    return lines


def changed(game: Game, seat: int, since: int | None = None) -> list[str]:
    """What changed on the board the seat sees since version ``since`` (by default, by the last
    decision): ``"hand"``, ``"row"``, ``"deck"``, ``"seat-N"`` (a player's panel,
    ``g.player[data-seat=N]`` in the picture) and ``"kingdom-NAME"`` (``g.kingdom
    [data-kingdom=NAME]``)."""
    version = game.version
    before_at = version - 1 if since is None else since
    if not 0 <= before_at < version:
        return []
    before, now = observation(game.state_at(before_at), seat), observation(game.state, seat)
    out = []
    if before.hand != now.hand:
        out.append("hand")
    if before.row != now.row:
        out.append("row")
    if before.deck_size != now.deck_size:
        out.append("deck")
    out += [
        f"seat-{n}"
        for n, (was, is_) in enumerate(zip(before.seats, now.seats, strict=True))
        if was != is_
    ]
    for k, kingdom in enumerate(KINGDOMS):
        was_markers = [s.kingdoms[k] for s in before.seats]
        markers = [s.kingdoms[k] for s in now.seats]
        if was_markers != markers or before.tokens[k] != now.tokens[k]:
            out.append(f"kingdom-{kingdom.label}")
    return out


def person_seats(game: Game) -> list[int]:
    """The seats where people decide."""
    return [s for s, kind in enumerate(game.kinds) if kind == PERSON]
