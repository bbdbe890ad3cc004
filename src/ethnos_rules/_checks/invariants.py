"""What every reachable state satisfies; used to refuse corrupt snapshots and built positions.

Each check says what is wrong in words a reader of the rules understands.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from .._rules.actions import PlayBand
from .._rules.bands import band_problem
from .._rules.components import KINGDOMS
from .._rules.errors import InvalidStateError
from .._rules.scoring import SOURCES
from .._rules.state import GameState, Stage


def state_problems(state: GameState) -> tuple[str, ...]:
    """Every broken invariant of ``state``, in words; ``()`` for a sound state.

    First the shape (what the other checks need), then the cards, players and board, then the
    decision pending: each decision class checks that it can come next in this state
    (:meth:`Pending.problems <ethnos_rules._rules.state.Pending.problems>`).
    """
    out = _size_problems(state) or _shape_problems(state)
    if out:
        return tuple(out)
    out += _card_problems(state)
    out += _player_problems(state)
    out += _board_problems(state)
    if not out:
        out += _decision_problems(state)
    return tuple(out)


def missing_summaries(state: GameState) -> str | None:
    """Why ``state`` cannot come from a whole game, whose every scored Age left its summary
    (END-6): Age N is played with N - 1 summaries, and a finished game has one per Age. None
    when it can. (:func:`~ethnos_rules.position` builds later Ages without them, for
    examples; a snapshot is a game's own state and must have them.)"""
    over = state.pending.terminal
    expected = state.config.ages if over else state.age - 1
    if len(state.history) == expected:
        return None
    when = "the game is over" if over else f"Age {state.age} is being played"
    kept = f"{len(state.history)} {'is' if len(state.history) == 1 else 'are'} kept"
    return f"{when}, so the summaries of {expected} Age(s) must be kept, but {kept} (END-6)"


def check_state(state: GameState) -> GameState:
    """Return ``state`` if it is sound.

    Raises:
        InvalidStateError: listing every broken invariant.
    """
    if not isinstance(state, GameState):
        raise InvalidStateError((f"expected a GameState, not {type(state).__name__}",))
    problems = state_problems(state)
    if problems:
        raise InvalidStateError(problems)
    return state


def card_count(state: GameState) -> Counter[int]:
    """Copies of each card kind (by index) anywhere: deck, row, hands, bands, discard."""
    counts: Counter[int] = Counter({i: n for i, n in enumerate(state.deck) if n})
    places = [state.row, state.discard]
    for player in state.players:
        places.append(player.hand)
        places.extend(band.cards for band in player.bands)
    for cards in places:
        counts.update(card.index for card in cards)
    return counts


def _card_problems(state: GameState) -> list[str]:
    rules = state.rules
    out = []
    for card, n in zip(rules.cards, state.deck, strict=False):
        if n < 0:
            out.append(f"more {card} cards are placed than the game has ({-n} too many)")
    if len(state.tribes) == state.config.tribe_count:
        expected = Counter({i: n for i, n in enumerate(rules.cards_of(state.tribes)) if n})
        found = card_count(state)
        for index in sorted(set(expected) | set(found)):
            if found[index] != expected[index]:
                card = rules.cards[index]
                out.append(f"{card} appears {found[index]} times, the game has {expected[index]}")
    if min(state.dragons_drawn, state.dragons_in_deck, state.top_left) < 0:
        out.append("a Dragon or top-part count is negative")
    dragons = state.dragons_drawn + state.dragons_in_deck
    if state.pending.before_split and (dragons or state.top_left):
        out.append("Dragons or a top part before the deck is split (AGE-4)")
    if not state.pending.before_split and dragons != rules.dragons:
        out.append(f"Dragons drawn and in the deck add up to {dragons}, not {rules.dragons}")
    if state.dragons_drawn >= rules.dragons and not state.pending.age_over:
        out.append("every Dragon has been drawn, yet the Age goes on (RECRUIT-4)")
    if state.dragons_drawn and state.top_left:
        out.append("a Dragon was drawn while top-part cards remain (AGE-4)")
    if state.top_left > sum(state.deck):
        out.append("the top part of the deck holds more cards than the deck")
    return out + _discarded_hand_problems(state)


def _discarded_hand_problems(state: GameState) -> list[str]:
    """The hands discarded at the end of the Age (END-1): one per seat, in the discard."""
    hands = state.discarded_hands
    if not hands:
        return []
    out = []
    if not (state.pending.age_over or state.pending.terminal):
        out.append("hands are discarded only at the end of an Age (END-1)")
    if len(hands) != state.config.players:
        out.append(f"{len(hands)} discarded hands for {state.config.players} players")
    if Counter(c for hand in hands for c in hand) - Counter(state.discard):
        out.append("the discarded hands hold cards that are not in the discard (END-1)")
    return out


def _player_problems(state: GameState) -> list[str]:
    rules = state.rules
    out = []
    for seat, player in enumerate(state.players):
        if len(player.hand) > rules.hand_limit:
            out.append(f"seat {seat} holds {len(player.hand)} cards, more than {rules.hand_limit}")
        for band in player.bands:
            if band.size > rules.hand_limit:
                out.append(
                    f"seat {seat} has a band of {band.size} cards (BAND-1: 1 to {rules.hand_limit})"
                )
            problem = band_problem(band.cards, PlayBand.of(band.leader, *band.others))
            if problem is not None:
                out.append(f"seat {seat} has an invalid band {band}: {problem[1]}")
        on_board = sum(player.kingdoms) + len(player.horde) + (player.merfolk is not None)
        if player.supply < 0 or any(n < 0 for n in player.kingdoms):
            out.append(f"seat {seat} has a negative number of markers somewhere")
        off = [
            k.label
            for k, n in zip(KINGDOMS, player.kingdoms, strict=True)
            if n and k not in rules.kingdoms
        ]
        if off:
            out.append(f"seat {seat} has markers on {', '.join(off)}, no kingdom of this edition")
        total = player.supply + on_board + 1
        if total != rules.markers:
            out.append(f"seat {seat}'s markers add up to {total}, not {rules.markers}")
        if player.glory < 0:
            out.append(f"seat {seat} has negative Glory")
        if len(set(player.horde)) != len(player.horde):
            out.append(f"seat {seat}'s Horde has two markers on one space")
    held = Counter(v for p in state.players for v in p.trolls)
    if held - Counter(rules.troll_tokens):
        out.append("Troll tokens are held that do not exist or are held twice")
    return out


def _board_problems(state: GameState) -> list[str]:
    out = _piece_problems(state) if len(state.tribes) == state.config.tribe_count else []
    if len(state.tokens) == len(state.rules.kingdoms):
        laid = Counter(v for row in state.tokens for v in row)
        if laid != Counter(state.options.token_pool(state.config.players)):
            out.append("the glory tokens on the board are not the game's tokens")
    return out


def _piece_problems(state: GameState) -> list[str]:
    """Tribe pieces (SETUP-5) exist only with their tribe, and hold what play can give them."""
    out = []
    pieces = state.pieces()
    last = state.options.merfolk_board.last_space
    for seat, p in enumerate(state.players):
        if (p.merfolk is not None) != ("track" in pieces):
            out.append(f"seat {seat}: a Merfolk marker is on the board exactly when Merfolk play")
        if p.merfolk is not None and not 0 <= p.merfolk <= last:
            out.append(
                f"seat {seat}'s Merfolk marker is on space {p.merfolk}, off the 0-{last} track"
            )
        if p.horde and "horde" not in pieces:
            out.append(f"seat {seat} has Horde markers, but Orcs are not in play")
        if p.trolls and "trolls" not in pieces:
            out.append(f"seat {seat} holds Troll tokens, but Trolls are not in play")
    out += _giant_problems(state)
    return out


def _giant_problems(state: GameState) -> list[str]:
    """TRIBE-GIA-1: the holder played the largest Giant-led band this Age, and there is a
    holder as soon as any Giant-led band is in play."""
    # A band awaiting its placement (its player's last band) has not used its ability (BAND-6).
    placing = state.pending.awaiting_ability()
    sizes = [
        (band.size, seat)
        for seat, p in enumerate(state.players)
        for band in (p.bands[:-1] if seat == placing else p.bands)
        if band.leader.tribe.ability.piece == "giant"
    ]
    holder, size = state.giant_holder, state.giant_size
    if holder is None:
        if sizes or size:
            return ["Giant-led bands are in play but nobody holds the Giant token (TRIBE-GIA-1)"]
        return []
    if "giant" not in state.pieces():
        return ["the Giant token is held, but Giants are not in play"]
    if not 0 <= holder < state.config.players:
        return [f"the Giant token is held by seat {holder}, who is not at the table"]
    if size != max(sizes, default=(0, 0))[0] or (size, holder) not in sizes:
        return [
            f"seat {holder} holds the Giant token for a band of {size}, which is not the largest"
            " Giant-led band that seat played this Age (TRIBE-GIA-1)"
        ]
    return []


LARGEST_COUNT = 10**6
"""No number in a state of a game comes near this (a Glory, a count of cards, a seat)."""


def _size_problems(state: GameState) -> list[str]:
    """Numbers no game comes near, refused before any other check writes one in its words
    (Python refuses to write an integer of over 4,300 digits)."""
    parts: list[tuple[str, Any]] = [("state", state), ("state", state.cold)]
    parts += [(f"seat {seat}", player) for seat, player in enumerate(state.players)]
    parts.append(("the pending decision", state.pending))
    for where, part in parts:
        for field in attrs.fields(type(part)):
            value = getattr(part, field.name)
            numbers = value if isinstance(value, tuple) else (value,)
            if any(type(v) is int and abs(v) > LARGEST_COUNT for v in numbers):
                return [f"{where}: {field.name} holds a number over {LARGEST_COUNT:,}"]
    return []


def _shape_problems(state: GameState) -> list[str]:
    """What would make the other checks themselves fail."""
    out = []
    config = state.config
    n = config.players
    if len(set(state.tribes)) != len(state.tribes) or len(state.tribes) > config.tribe_count:
        out.append(f"the tribes in play must be at most {config.tribe_count} distinct tribes")
    kingdoms = len(config.ruleset.kingdoms)
    if len(state.tokens) > kingdoms or any(len(r) != config.token_spaces for r in state.tokens):
        out.append(f"each kingdom holds {config.token_spaces} glory tokens")
    if not 1 <= state.age <= config.ages:
        out.append(f"Age {state.age} does not exist with {n} players")
    if len(state.players) != n:
        out.append(f"{len(state.players)} seats for {n} players")
    for name in ("first_player", "giant_holder", "last_dragon"):
        seat = getattr(state, name)
        if seat is not None and not 0 <= seat < n:
            out.append(f"{name} {seat} is not a seat")
    for seat, player in enumerate(state.players):
        if len(player.kingdoms) != len(KINGDOMS):
            out.append(f"seat {seat} needs a marker count for each of the 6 kingdoms")
    for value in (state.top_left, state.dragons_in_deck, state.dragons_drawn, state.giant_size):
        if value < 0:
            out.append("deck and Dragon counts cannot be negative")
            break
    in_play = set(state.tribes)
    places = [state.row, state.discard, *(p.hand for p in state.players)]
    places += [b.cards for p in state.players for b in p.bands]
    if len(in_play) == config.tribe_count and any(
        c.tribe not in in_play for cards in places for c in cards
    ):
        out.append("a card of a tribe that is not in play is in the game")
    return out


def _decision_problems(state: GameState) -> list[str]:
    """The pending decision fits the state: its seats, the finished Ages, where the game stands,
    what the decision's own class checks, and that something can be decided."""
    pending = state.pending
    n = state.config.players
    out = [f"the pending decision names seat {s}" for s in pending.seats() if not 0 <= s < n]
    if out:
        return out
    out = _history_problems(state) or pending.problems(state)
    if out:
        return out
    out = _stage_problems(state)
    if out:
        return out
    try:
        legal = pending.legal(state)
    except (ArithmeticError, LookupError, ValueError, TypeError, AssertionError) as err:
        return [f"the pending decision ({pending.describe()}) does not fit the state: {err}"]
    if not legal and not pending.terminal:
        return [f"{pending.describe()}: nothing can be decided (a dead end)"]
    return []


def _stage_problems(state: GameState) -> list[str]:
    """Where the cards and pieces are at the stage of the game the decision stands at."""
    pending = state.pending
    stage = pending.stage
    what = pending.describe()
    players = state.players
    out = []
    if stage > Stage.TRIBES and len(state.tribes) != state.config.tribe_count:
        out.append(f"{what} cannot come before every tribe is chosen")
    if stage > Stage.TOKENS and len(state.tokens) != len(state.rules.kingdoms):
        out.append(f"{what} cannot come before the glory tokens are laid")
    if stage <= Stage.FIRST_PLAYER:
        fresh = all(
            p.glory == 0 and not any(p.kingdoms) and not p.horde and p.merfolk in (None, 0)
            for p in players
        )
        if state.age != 1 or state.history or not fresh:
            out.append(f"{what} comes before any play: no Glory or markers yet")
        if any(p.hand for p in players) or state.row:
            out.append(f"{what} comes before the cards are dealt (AGE-2)")
    if pending.before_split and (any(p.bands or p.trolls for p in players) or state.discard):
        out.append(f"{what}: no band, Troll token or discard before play (AGE-1)")
    if pending.age_over and (
        any(p.hand for p in players) or state.dragons_drawn != state.rules.dragons
    ):
        out.append(f"{what}: the Age is over, every hand discarded (END-1)")
    return out


def _history_problems(state: GameState) -> list[str]:
    """The summaries of finished Ages: one per Age, in order, each with a row per seat."""
    n = state.config.players
    history = state.history
    finished = state.age if state.pending.terminal else state.age - 1
    out = []
    if [s.age for s in history] != list(range(1, len(history) + 1)) or len(history) > finished:
        out.append(f"in Age {state.age} the summaries must be of Ages 1 to at most {finished}")
    glory = tuple(p.glory for p in state.players)
    for summary in history:
        where = f"the summary of Age {summary.age}"
        rows = (summary.glory, summary.gains, summary.band_sizes)
        if any(len(row) != n for row in rows) or not 0 <= summary.third_dragon < n:
            out.append(f"{where} needs one row per seat and the seat that drew the third Dragon")
            continue
        if any(g < 0 or g > now for g, now in zip(summary.glory, glory, strict=True)):
            out.append(f"{where}: Glory is never negative and never goes down")
        sources = [src for row in summary.gains for src, _ in row]
        if any(src not in SOURCES for src in sources) or any(
            amount <= 0 or len({src for src, _ in row}) != len(row)
            for row in summary.gains
            for _, amount in row
        ):
            out.append(f"{where}: gains are positive amounts by source ({', '.join(SOURCES)})")
        if any(
            list(sizes) != sorted(sizes, reverse=True)
            or any(not 1 <= x <= state.rules.hand_limit for x in sizes)
            for sizes in summary.band_sizes
        ):
            out.append(
                f"{where}: band sizes are 1 to {state.rules.hand_limit} cards, largest first"
            )
    if history and state.last_dragon != history[-1].third_dragon:
        out.append("the last Dragon's drawer is the one of the last finished Age (AGE-5)")
    return out
