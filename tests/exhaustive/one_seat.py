"""One seat, exhaustively: in the smallest scopes every whole game is enumerated, each seat's
record of it written (what that seat saw, ``?`` for the rest), and the records are checked
against the games that fit them.

- **Validation.** A record (or the first items of one) fits a game exactly when it is the start
  of the record some whole game gives that seat; so for every such start ``p`` and every item
  ``x`` any record might hold next, the validator accepts ``p + x`` exactly when some whole
  game's record starts so, and else refuses it at ``x``.
- **Resampling.** The games that fit a record, each weighted by the probability of its chance
  outcomes (the players' choices tell nothing beyond being legal), are its exact posterior.
  Every way ``resample`` can use its random numbers is enumerated (each ``randrange(n)`` taking
  each of its ``n`` values), so the distribution it draws from is known exactly and compared
  with the posterior; where the ways are too many, a chi-square test on draws with a fixed seed
  compares them instead.

The validator of a record kept at one seat is ``seat_decisions``, which
:func:`~ethnos_rules.validate` runs on a :class:`~ethnos_rules.GameRecord` (records are kept
for first-edition games only, so a small edition's record is checked here from its start state);
the sampler is ``resample_game``, which :func:`~ethnos_rules.resample` runs.
"""

from __future__ import annotations

import random
import sys
import time
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scipy.stats import chi2

from ethnos_rules import (
    Action,
    GameState,
    RulesError,
    chance_outcomes,
    is_terminal,
    legal_actions,
    parse_action,
    step,
)
from ethnos_rules._replay.replay import Refusal
from ethnos_rules._seat.resample import resample_game
from ethnos_rules._seat.seatview import seat_decisions, seen_items

from .scopes import Scope

Game = tuple[Action, ...]
Record = tuple[str, ...]

RNG_PATHS = 4096
"""The most ways to use its random numbers that ``resample`` is followed down for one record;
past it, its draws are compared with the posterior by a chi-square test."""

DRAWS = 400
"""Draws per record for the chi-square test."""


@dataclass
class SeatReport:
    """What the one-seat check of a scope found."""

    scope: str
    games: int = 0
    records: int = 0
    starts: int = 0
    checked: int = 0
    refused: int = 0
    exact: int = 0
    tested: int = 0
    chi_square: float = 0.0
    freedom: int = 0
    seconds: float = 0.0
    violations: list[str] = field(default_factory=list)

    @property
    def p_value(self) -> float:
        """The chi-square test's p-value over every record tested by draws (1 if none)."""
        return float(chi2.sf(self.chi_square, self.freedom)) if self.freedom else 1.0


@dataclass
class Games:
    """Every whole game of a scope, by the record each seat keeps of it."""

    start: GameState
    records: list[dict[Record, dict[Game, Fraction]]]
    count: int = 0


def whole_games(start: GameState) -> Games:
    """Every whole game from ``start`` with the probability of its chance outcomes, filed under
    the record each seat keeps of it."""
    n = start.config.players
    games = Games(start, [{} for _ in range(n)])
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def go(state: GameState, played: Game, seen: list[Record], p: Fraction) -> None:
        if is_terminal(state):
            games.count += 1
            for seat in range(n):
                games.records[seat].setdefault(seen[seat], {})[played] = p
            return
        odds = dict(chance_outcomes(state)) if state.pending.chance else {}
        for action in legal_actions(state):
            result = step(state, action)
            items = [
                seen[s] + tuple(map(str, seen_items(action, result.events, s))) for s in range(n)
            ]
            go(result.state, (*played, action), items, p * odds.get(action, Fraction(1)))

    go(start, (), [() for _ in range(n)], Fraction(1))
    return games


def check_one_seat(scope: Scope, resample: bool = True) -> SeatReport:
    """Enumerate the scope's whole games and check validation and resampling on every record."""
    began = time.perf_counter()
    report = SeatReport(scope.name)
    games = whole_games(scope.start())
    report.games = games.count
    for seat, records in enumerate(games.records):
        report.records += len(records)
        _check_validation(games.start, seat, records, report)
        if resample:
            for record, fitting in records.items():
                _check_resampling(games.start, seat, record, fitting, report)
    report.seconds = time.perf_counter() - began
    return report


# --- validation -----------------------------------------------------------------------------


def _check_validation(
    start: GameState, seat: int, records: dict[Record, dict[Game, Fraction]], report: SeatReport
) -> None:
    """Every start of a record, and each item some record holds put after it (an item of the
    same kind as a record's next one, or a ``rest``): accepted exactly when some whole game's
    record starts so, else refused at that item; after a whole game any item is refused.

    A decision that puts another player's hand into the row is seen with it: its ``rest``
    follows it in the record, so a start that stops between the two is refused at the decision,
    and a ``rest`` that cannot follow it refuses the decision (BAND-6)."""
    following: dict[Record, set[str]] = {}
    for record in records:
        for i in range(len(record) + 1):
            following.setdefault(record[:i], set()).update(record[i : i + 1])
    rest_due = {p for p, nexts in following.items() if any(_is_rest(t) for t in nexts)}
    seen = {item for record in records for item in record}
    vocabulary = sorted(seen | {"reveal ?", "keep ?", "pass", "chain stop"})
    parsed = {text: parse_action(text, start.rules) for text in vocabulary}
    report.starts += len(following)
    for prefix, nexts in sorted(following.items()):  # depth first: replays resume
        verbs = {"rest"}.union(*(_ALIKE.get(text.split()[0], {text.split()[0]}) for text in nexts))
        candidates = [t for t in vocabulary if t.split()[0] in verbs] if nexts else vocabulary[:1]
        for text in candidates:
            candidate = (*prefix, text)
            refused = _refused_at(start, seat, [parsed[t] for t in candidate])
            report.checked += 1
            if candidate in following and candidate not in rest_due:
                expected = None
            elif _is_rest(text) and prefix in rest_due:
                expected = len(prefix) - 1
            else:
                expected = len(prefix)
            if refused is not None:
                report.refused += 1
            if refused != expected:
                fits = "fits" if expected is None else f"fits no game past item {expected - 1}"
                report.violations.append(
                    f"seat {seat}: the record {list(candidate)} {fits}, but the validator"
                    f" {'accepts it' if refused is None else f'refuses it at item {refused}'}"
                )


def _is_rest(text: str) -> bool:
    return text.startswith("rest ")


_TURN = frozenset({"recruit", "band", "pass", "chain"})
_ALIKE = dict.fromkeys(_TURN, _TURN)
"""Verbs that answer the same decision (a turn, a Centaur chain offer): each stands in for the
others as the next item of a record."""


def _refused_at(start: GameState, seat: int, items: Sequence[Action]) -> int | None:
    """Where the validator refuses a record kept at ``seat`` (None: it accepts it)."""
    for decision in seat_decisions(start, items, seat, events=False):
        if isinstance(decision, Refusal):
            return decision.index
    return None


# --- resampling -----------------------------------------------------------------------------


class _Scripted(random.Random):
    """A random source that answers ``randrange`` from a script, then 0, noting each range
    asked: following every script in turn follows every way a sampler can use it."""

    def __init__(self, script: Sequence[int]) -> None:
        super().__init__(0)
        self.script = list(script)
        self.asked: list[int] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None and step == 1, "the rules draw below n only"
        at = len(self.asked)
        self.asked.append(start)
        return self.script[at] if at < len(self.script) else 0


def _every_draw(draw: object, budget: int) -> Iterator[tuple[Game, Fraction]] | None:
    """Each result of ``draw(rng)`` over every way it can use ``rng``, with its probability;
    None past ``budget`` ways."""
    out: list[tuple[Game, Fraction]] = []
    script: list[int] = []
    while True:
        rng = _Scripted(script)
        game = draw(rng)  # type: ignore[operator]
        p = Fraction(1)
        for n in rng.asked:
            p /= n
        out.append((game, p))
        if len(out) > budget or (len(out) == 1 and 1 / p > budget):
            return None  # (the first way's ranges already promise too many)
        # the next script: the last range asked that has a value left, counted up
        asked = rng.asked
        script = [*script, *([0] * (len(asked) - len(script)))]
        while asked and script[len(asked) - 1] + 1 >= asked[len(asked) - 1]:
            asked = asked[:-1]
        if not asked:
            return iter(out)
        script = [*script[: len(asked) - 1], script[len(asked) - 1] + 1]


def _check_resampling(
    start: GameState,
    seat: int,
    record: Record,
    fitting: dict[Game, Fraction],
    report: SeatReport,
) -> None:
    """``resample`` draws from the posterior: each fitting game by its chance outcomes'
    probability, normalised."""
    items = [parse_action(text, start.rules) for text in record]
    total = sum(fitting.values())
    posterior = {game: p / total for game, p in fitting.items()}

    def draw(rng: random.Random) -> Game:
        return resample_game(start, items, seat, rng).actions

    try:
        ways = _every_draw(draw, RNG_PATHS)
    except RulesError as err:
        report.violations.append(f"seat {seat}: resample refuses a record that fits: {err}")
        return
    if ways is not None:
        drawn: Counter[Game] = Counter()
        found: dict[Game, Fraction] = {}
        for game, p in ways:
            found[game] = found.get(game, Fraction(0)) + p
            drawn[game] += 1
        report.exact += 1
        if found != posterior:
            report.violations.append(
                f"seat {seat}: resample draws {len(found)} games for {list(record)}, not the"
                f" posterior over the {len(posterior)} that fit"
            )
        return
    rng = random.Random(zlib.crc32("\n".join(record).encode()))
    seen = Counter(draw(rng) for _ in range(DRAWS))
    if set(seen) - set(posterior):
        report.violations.append(f"seat {seat}: resample drew a game that does not fit")
        return
    report.tested += 1
    for game, p in posterior.items():
        expected = DRAWS * float(p)
        report.chi_square += (seen[game] - expected) ** 2 / expected
    report.freedom += len(posterior) - 1
