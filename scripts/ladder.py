"""The bots' ladder: a round robin of the library's bots at 2, 3, 4 and 6 players, seeded, that
writes the docs page "How strong are the bots" (``docs/guide/09-how-strong-are-the-bots.md``).

Usage (with the project's virtualenv; ``make ladder`` runs the first line)::

    python scripts/ladder.py -j 2
    python scripts/ladder.py --games 20 --players 2 --bots greedy,thumb,ismcts --out /tmp/l.md
    nice -n 19 python scripts/ladder.py -j 1 --until 22:30 \
        --pairings 2:ismcts:greedy,2:ismcts:thumb,4:ismcts:greedy

Pairings. At 2 players every pair of bots meets, each in seat 0 in every other game. At 3, 4
and 6 players each bot plays against a *field* of each other bot: it holds one seat, the other
bot every other seat, its own seat going round from game to game; it then wins by chance one
game in 3, 4 or 6. ``--pairings`` plays the pairings named instead of a round robin, in that
order (``players:bot:field``; at 2 players either way round is the same pairing).

How many games. A pairing plays its games in batches of ``--batch`` (10) and, at the end of
each batch, looks at the bot's win rate over its games so far, in game order: it stops once
the 95 % interval is at most ``--half-width`` (0.05, that is ±5 points) either side, or at
``--games`` (400) games. A pairing near one half stops at about 390 games; a lopsided one
much sooner (40 wins out of 40 is ±4.4 points). ``--half-width 0`` plays ``--games`` games a
pairing. The pairings are played in rounds, a batch of each pairing not stopped in turn, so
that a run cut short (``--until HH:MM``, UTC, with one process) has some games of each.

Seeds. Game ``g`` of a pairing draws its chance and its bots' choices from one generator
seeded by ``--seed``, the player count, the two bots and ``g``: the same command plays the same
games, on any number of processes, and stops each pairing at the same game, since the stop is
decided at batch boundaries from the pairing's own results in game order. Every bot of
:data:`~ethnos_rules.bots.BOTS` is reproducible (its budget is a count of simulations), so the
page is reproduced from its seed.

Your own bot. ``--add mybots:MyBot`` adds the bot that ``MyBot()`` makes (a class, or any
callable with no arguments, of the module ``mybots``, imported from the working folder) to
the round robin, by its ``name``: ``--bots greedy,thumb --add mybots:MyBot`` pits it against
those two.

Results. Each game's result is appended to a JSON-lines file (``--results``) as it ends; a run
asked again with the same settings plays only the games not there yet, so a long ladder can be
stopped and taken up again, or run in parts (one player count at a time). The page is written
from the results of the file that the run's settings count: each pairing's games in order from
game 0, up to its stop (a file of a longer run, or of fixed ``--games``, serves as well).

Figures. A win rate counts a shared victory as a share (1/k for k winners); its 95 % interval
is Wilson's. Glory is the bot's own final Glory. The ratings are openskill's Plackett-Luce
(``pip install ".[ladder]"``): every game is a match ranking its seats (the winners first, the
others by Glory), rated in the order of the games (game 0 of every pairing, then game 1, ...).
A field of one bot at several seats is one player in several places: its rating moves by the
mean of the moves its seats are given.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "guide" / "09-how-strong-are-the-bots.md"
RESULTS = ROOT / "build" / "ladder" / "results.jsonl"
PLAYER_COUNTS = (2, 3, 4, 6)
Z95 = 1.959963984540054


@dataclass(frozen=True, order=True)
class Task:
    """One game of the ladder: ``bot`` in seat ``game % players``, ``field`` at the others."""

    players: int
    bot: str
    field: str
    game: int
    seed: int

    @property
    def seat(self) -> int:
        return self.game % self.players

    def key(self) -> str:
        return f"{self.seed}/{self.players}/{self.bot}/{self.field}/{self.game}"


def game_seed(seed: int, players: int, bot: str, field: str, game: int) -> int:
    """The generator seed of one game: a hash of what names it, the same on every machine."""
    text = f"ethnos-ladder/{seed}/{players}/{bot}/{field}/{game}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def tasks(bots: Sequence[str], counts: Iterable[int], games: int, seed: int) -> list[Task]:
    """Every game of the ladder: at 2 players each pair once, at more each ordered pair."""
    out = []
    for players in counts:
        for i, bot in enumerate(bots):
            for j, field in enumerate(bots):
                if i == j or (players == 2 and j < i):
                    continue
                out += [
                    Task(players, bot, field, g, game_seed(seed, players, bot, field, g))
                    for g in range(games)
                ]
    return out


@dataclass(frozen=True)
class Pairing:
    """``bot`` at one seat against ``field`` at every other, at ``players`` players."""

    players: int
    bot: str
    field: str

    def task(self, game: int, seed: int) -> Task:
        return Task(self.players, self.bot, self.field, game, game_seed(seed, *self.names(), game))

    def names(self) -> tuple[int, str, str]:
        return self.players, self.bot, self.field

    def text(self) -> str:
        return f"{self.players}:{self.bot}:{self.field}"


def round_robin(bots: Sequence[str], counts: Iterable[int]) -> list[Pairing]:
    """Every pairing of a round robin: at 2 players each pair once, at more each ordered pair."""
    return [
        Pairing(players, bot, field)
        for players in counts
        for i, bot in enumerate(bots)
        for j, field in enumerate(bots)
        if i != j and not (players == 2 and j < i)
    ]


@dataclass(frozen=True)
class Stopping:
    """When a pairing stops: at the first batch boundary (every ``batch`` games, counted in
    game order) where the 95 % interval of the bot's win rate is at most ``half_width`` either
    side (0: never), or at ``cap`` games."""

    cap: int
    batch: int
    half_width: float

    def boundaries(self) -> list[int]:
        return [*range(self.batch, self.cap, self.batch), self.cap]

    def verdict(self, shares: Sequence[float]) -> tuple[int, bool]:
        """From the bot's shares of the games kept, in game order from game 0 with none
        missing: the games the pairing counts (those up to its stop, or up to the last batch
        boundary reached) and whether it has stopped."""
        counted = 0
        for boundary in self.boundaries():
            if len(shares) < boundary:
                return counted, False
            counted = boundary
            if self.half_width and half_width(sum(shares[:boundary]), boundary) <= self.half_width:
                return counted, True
        return counted, True


def half_width(wins: float, games: int) -> float:
    """Half the width of the 95 % Wilson interval of a win rate."""
    low, high = wilson(wins, games)
    return (high - low) / 2


def bot_share(result: dict[str, Any]) -> float:
    """The share of the victory of the pairing's bot (not its field) in one game."""
    return share(result, result["game"] % result["players"])


def kept_games(
    pairing: Pairing, kept: dict[str, dict[str, Any]], seed: int, upto: int
) -> list[dict[str, Any]]:
    """The pairing's results kept, from game 0 in order, up to the first game missing."""
    out = []
    for game in range(upto):
        result = kept.get(pairing.task(game, seed).key())
        if result is None:
            break
        out.append(result)
    return out


def standing(
    pairing: Pairing, kept: dict[str, dict[str, Any]], seed: int, stopping: Stopping
) -> tuple[list[dict[str, Any]], bool]:
    """The pairing's games that count (in game order) and whether it has stopped."""
    games = kept_games(pairing, kept, seed, stopping.cap)
    counted, stopped = stopping.verdict([bot_share(r) for r in games])
    return games[:counted], stopped


def next_batch(
    pairing: Pairing, kept: dict[str, dict[str, Any]], seed: int, stopping: Stopping
) -> list[Task]:
    """The games of the pairing's next batch not kept yet (none if it has stopped)."""
    counted, stopped = standing(pairing, kept, seed, stopping)
    if stopped:
        return []
    end = next(b for b in stopping.boundaries() if b > len(counted))
    todo = [pairing.task(g, seed) for g in range(len(counted), end)]
    return [t for t in todo if t.key() not in kept]


def parse_pairings(text: str, known: Sequence[str]) -> list[Pairing]:
    """``players:bot:field`` pairings separated by commas; at 2 players the pair is put in the
    order of ``known`` (the same games whichever way round it is given)."""
    out = []
    for item in text.split(","):
        parts = item.strip().split(":")
        if len(parts) != 3 or not parts[0].isdigit():
            raise ValueError(f"{item.strip()!r} is not players:bot:field")
        players, bot, field = int(parts[0]), parts[1], parts[2]
        if not 2 <= players <= 6 or bot == field or {bot, field} - set(known):
            raise ValueError(f"{item.strip()!r}: 2-6 players, two different bots of {known}")
        if players == 2 and known.index(field) < known.index(bot):
            bot, field = field, bot
        out.append(Pairing(players, bot, field))
    return list(dict.fromkeys(out))


ADDED: dict[str, Callable[[], Any]] = {}
"""Bots given with ``--add``, by name."""


def add_bots(specs: Sequence[str]) -> list[str]:
    """Make the bots ``module:callable`` known by their names (each callable makes a bot
    with no arguments: a class, a function), the module imported from the working folder
    too; their names. Each process of the pool runs it as it starts."""
    from ethnos_rules.bots import Bot

    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    names = []
    for spec in specs:
        module, _, attribute = spec.partition(":")
        make = getattr(importlib.import_module(module), attribute)
        made = make()
        if not isinstance(made, Bot):
            raise TypeError(f"{spec} makes {made!r}, which has no name, description and choose()")
        ADDED[made.name] = make
        names.append(made.name)
    return names


def make_bot(name: str) -> Any:
    """The bot called ``name``: one given with ``--add``, or one of the library's."""
    from ethnos_rules.bots import bot

    return ADDED[name]() if name in ADDED else bot(name)


def play_one(task: Task) -> dict[str, Any]:
    """Play one game of the ladder; its result, with the time each seat took to decide."""
    from ethnos_rules import InformationState, glory, new_game, winners
    from ethnos_rules.bots import Bot, play

    class Timed:
        def __init__(self, inner: Bot) -> None:
            self.inner, self.name, self.description = inner, inner.name, inner.description
            self.seconds, self.decisions, self.longest = 0.0, 0, 0.0

        def choose(self, knowledge: InformationState, rng: random.Random) -> Any:
            started = time.perf_counter()
            try:
                return self.inner.choose(knowledge, rng)
            finally:
                took = time.perf_counter() - started
                self.seconds += took
                self.decisions += 1
                self.longest = max(self.longest, took)

    seats = [task.bot if seat == task.seat else task.field for seat in range(task.players)]
    timed = {seat: Timed(make_bot(name)) for seat, name in enumerate(seats)}
    started = time.perf_counter()
    game = play(new_game(task.players), dict(timed), random.Random(task.seed))
    return {
        "key": task.key(),
        **asdict(task),
        "seats": seats,
        "winners": list(winners(game.final)),
        "glory": list(glory(game.final)),
        "seconds": time.perf_counter() - started,
        "decision_seconds": [timed[s].seconds for s in range(task.players)],
        "decisions": [timed[s].decisions for s in range(task.players)],
        "longest_decision": [timed[s].longest for s in range(task.players)],
    }


def read_results(path: Path) -> dict[str, dict[str, Any]]:
    """The results kept in ``path`` by key (none if there is no such file)."""
    if not path.exists():
        return {}
    kept = {}
    for line in path.read_text().splitlines():
        if line.strip():
            result = json.loads(line)
            kept[result["key"]] = result
    return kept


def run(
    todo: list[Task],
    jobs: int,
    path: Path,
    added: Sequence[str] = (),
    commit: str = "",
    deadline: float | None = None,
) -> bool:
    """Play ``todo`` on ``jobs`` processes, appending each result to ``path`` as it ends. On
    one process the games are played in the order given and none is begun after ``deadline``
    (a :func:`time.time`); on more, the slowest bots' games first, so that the processes end
    together, and the whole of ``todo``. Whether every game was played."""
    path.parent.mkdir(parents=True, exist_ok=True)
    order = todo if jobs == 1 else sorted(todo, key=lambda t: (-_cost(t), t))
    started, done = time.perf_counter(), 0
    with path.open("a") as out:
        if jobs == 1:
            played: Iterable[dict[str, Any]] = (
                play_one(t) for t in order if deadline is None or time.time() < deadline
            )
            pool = None
        else:
            pool = multiprocessing.Pool(jobs, initializer=add_bots, initargs=(list(added),))
            played = pool.imap_unordered(play_one, order)
        for result in played:
            out.write(json.dumps({**result, "commit": commit}) + "\n")
            out.flush()
            done += 1
            if done % max(1, len(order) // 20) == 0 or done == len(order):
                elapsed = time.perf_counter() - started
                print(f"{done}/{len(order)} games, {elapsed:.0f} s", file=sys.stderr)
        if pool is not None:
            pool.close()
            pool.join()
    return done == len(order)


def run_ladder(
    pairings: Sequence[Pairing],
    stopping: Stopping,
    seed: int,
    jobs: int,
    path: Path,
    added: Sequence[str] = (),
    deadline: float | None = None,
) -> None:
    """Play the pairings in rounds, each round the next batch of every pairing not stopped
    (in the order given), until every pairing has stopped or ``deadline`` is past. Which games
    a pairing plays depends on its own results only, so the order and the number of
    processes change nothing but the time."""
    commit = _commit()
    while deadline is None or time.time() < deadline:
        kept = read_results(path)
        todo = [t for pairing in pairings for t in next_batch(pairing, kept, seed, stopping)]
        if not todo:
            return
        print(f"a round of {len(todo)} games ({len(kept)} kept)", file=sys.stderr)
        if not run(todo, jobs, path, added, commit, deadline):
            return


_SLOW = {"ismcts-strong": 16, "ismcts": 4, "mc": 4}


def _cost(task: Task) -> int:
    """A guess of a game's cost, to start the long ones first."""
    field = _SLOW.get(task.field, 1) * (task.players - 1)
    return (_SLOW.get(task.bot, 1) + field) * task.players


# --- the figures --------------------------------------------------------------------------------


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(result: dict[str, Any], seat: int) -> float:
    """The seat's share of the victory."""
    best = result["winners"]
    return 1 / len(best) if seat in best else 0.0


def ranks(result: dict[str, Any]) -> list[float]:
    """Each seat's rank, from 1: the winners first, then the others by Glory."""
    standing = [(seat in result["winners"], g) for seat, g in enumerate(result["glory"])]
    return [1.0 + sum(other > mine for other in standing) for mine in standing]


def ratings(
    results: Sequence[dict[str, Any]], bots: Sequence[str]
) -> dict[str, tuple[float, float]]:
    """Each bot's openskill rating (mu, sigma) over ``results``, rated in the ladder's order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rated = {name: model.rating(name=name) for name in bots}
    for result in sorted(results, key=lambda r: (r["game"], r["players"], r["bot"], r["field"])):
        seats = result["seats"]
        teams = [[model.rating(mu=rated[n].mu, sigma=rated[n].sigma)] for n in seats]
        after = model.rate(teams, ranks=ranks(result))
        moves: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for name, team in zip(seats, after, strict=True):
            moves[name].append((team[0].mu - rated[name].mu, team[0].sigma - rated[name].sigma))
        for name, changes in moves.items():
            mu = rated[name].mu + statistics.fmean(c[0] for c in changes)
            sigma = rated[name].sigma + statistics.fmean(c[1] for c in changes)
            rated[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {name: (r.mu, r.sigma) for name, r in rated.items()}


@dataclass
class Cell:
    """One pairing at one player count: the bot's games against the field."""

    games: int = 0
    wins: float = 0.0
    glory: float = 0.0

    def text(self) -> str:
        if not self.games:
            return "–"
        low, high = wilson(self.wins, self.games)
        return f"{100 * self.wins / self.games:.0f} % ({100 * low:.0f}–{100 * high:.0f})"


def cells(results: Sequence[dict[str, Any]]) -> dict[tuple[int, str, str], Cell]:
    """By (players, bot, field): the bot's games, wins and Glory; at 2 players each game
    counts for both bots, each against the other."""
    out: dict[tuple[int, str, str], Cell] = defaultdict(Cell)
    for r in results:
        players, seat = r["players"], r["game"] % r["players"]
        views = [(r["bot"], r["field"], seat)]
        if players == 2:
            views.append((r["field"], r["bot"], 1 - seat))
        for bot, field, where in views:
            cell = out[(players, bot, field)]
            cell.games += 1
            cell.wins += share(r, where)
            cell.glory += r["glory"][where]
    return out


def page(results: Sequence[dict[str, Any]], settings: dict[str, Any]) -> str:
    """The Markdown page of the ladder."""
    bots, counts = settings["bots"], settings["players"]
    stopping, standings = settings["stopping"], settings["standings"]
    table = cells(results)
    more = [n for n in counts if n > 2]
    unfinished = sum(not done for _, done in standings.values())
    played = f"{len(results)} games in all"
    if unfinished:
        played += f"; {unfinished} of the {len(standings)} pairings had not stopped"
    if stopping.half_width:
        rule = (
            f"Each pairing played seeded games {stopping.batch} at a time until the 95 %"
            f" interval of the win rate was at most ±{100 * stopping.half_width:g} points, or"
            f" {stopping.cap} games ({played})."
        )
    else:
        rule = f"Each pairing played {stopping.cap} seeded games ({played})."
    intro = (
        "The library's bots ({mod}`ethnos_rules.bots`) played at "
        + ", ".join(map(str, counts))
        + " players. "
        + rule
    )
    if 2 in counts:
        intro += " At 2 players each pair of bots met, each in seat 0 in every other game."
    if more:
        intro += (
            f" At {', '.join(map(str, more))} players a bot held one seat against a field of"
            " another bot at every other seat, its seat going round from game to game."
        )
    intro += (
        " A 95 % interval of ±5 points around a win rate near one half takes about 385 games;"
        " near 0 or 100 %, about 40."
    )
    lines = [
        "# How strong are the bots",
        "",
        intro,
        "",
        "Made by `scripts/ladder.py` (`make ladder`), which reproduces every figure from its seed:",
        "",
        "```text",
        settings["command"],
        "```",
        "",
        f"Run of {settings['date']} on {settings['machine']}, played at commit"
        f" {settings['commit']};"
        f" {_duration(settings['seconds'])} of play on {settings['jobs']}"
        f" process{'es' if settings['jobs'] > 1 else ''}." + settings.get("note", ""),
        "",
        "A win rate counts a shared victory as a share; in brackets, its 95 % interval"
        " (Wilson). A seat wins by chance one game in the number of players. Glory is the"
        " bot's own at the end of the game.",
    ]
    for players in counts:
        lines += ["", f"## {players} players", ""]
        if players == 2:
            lines += ["How often the bot of the row beat the bot of the column.", ""]
        else:
            lines += [
                f"How often the bot of the row, at one seat, beat {players - 1} copies of the"
                f" bot of the column (by chance: {100 / players:.0f} %).",
                "",
            ]
        lines += ["| bot \\ against | " + " | ".join(bots) + " | Glory |"]
        lines += ["|---" * (len(bots) + 2) + "|"]
        for bot in bots:
            row = [table[(players, bot, f)].text() if f != bot else "" for f in bots]
            mine = [table[(players, bot, f)] for f in bots if f != bot]
            games = sum(c.games for c in mine)
            glory = f"{sum(c.glory for c in mine) / games:.1f}" if games else "–"
            lines.append(f"| **{bot}** | " + " | ".join(row) + f" | {glory} |")
    lines += pairings_section(standings)
    lines += goals_section(standings)
    lines += ratings_section(results, bots, counts)
    lines += timing_section(results, bots, counts)
    lines += cost_section(standings, stopping)
    return "\n".join(lines) + "\n"


def pairings_section(standings: dict[Pairing, tuple[list[dict[str, Any]], bool]]) -> list[str]:
    """Each pairing: its games, the bot's win rate and interval, and why it stopped."""
    lines = [
        "",
        "## The pairings",
        "",
        "Each pairing as it was played: its games, the win rate of the bot at one seat, its"
        " 95 % interval and that interval's half-width, whether the pairing stopped (its"
        " interval narrow enough, or its games all played), and the mean seconds of a game.",
        "",
        "| players | bot | against | games | win rate | interval | ± points | stopped | s a game |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for pairing, (games, done) in standings.items():
        wins = sum(bot_share(r) for r in games)
        bot, field = pairing.bot, pairing.field
        if pairing.players == 2:  # the stronger bot (the later in the list of bots) first
            bot, field, wins = field, bot, len(games) - wins
        if games:
            low, high = wilson(wins, len(games))
            rate = f"{100 * wins / len(games):.1f} %"
            interval = f"{100 * low:.1f}–{100 * high:.1f} %"
            half = f"{100 * half_width(wins, len(games)):.1f}"
        else:
            rate = interval = half = "–"
        mean = statistics.fmean(r["seconds"] for r in games) if games else None
        seconds = "–" if mean is None else f"{mean:.0f}" if mean >= 10 else f"{mean:.1f}"
        lines.append(
            f"| {pairing.players} | {bot} | {field} | {len(games)} | {rate}"
            f" | {interval} | {half} | {'yes' if done else 'no'} | {seconds} |"
        )
    return lines


GOALS = ((2, "ismcts", "greedy", 0.60), (4, "ismcts", "greedy", 0.25))
"""The goals of the search bots (issue 34): the default ISMCTS at one seat beats greedy with
the lower bound of the 95 % interval of its win rate above this, at 2 and at 4 players."""


def goals_section(standings: dict[Pairing, tuple[list[dict[str, Any]], bool]]) -> list[str]:
    """Whether the default ISMCTS beats greedy as the goals ask, where it was played."""
    lines = ["", "## The goals", ""]
    for players, bot, field, floor in GOALS:
        for pairing, (games, _) in standings.items():
            names = (pairing.bot, pairing.field)
            if pairing.players != players or not (
                names == (bot, field) or (players == 2 and names == (field, bot))
            ):
                continue
            wins = sum(share(r, r["game"] % players) for r in games)
            if pairing.bot != bot:
                wins = len(games) - wins
            low = wilson(wins, len(games))[0] if games else 0.0
            held = "holds" if games and low > floor else "does not hold (yet)"
            lines.append(
                f"- {bot} against {field} at {players} players, the interval's lower bound"
                f" above {100 * floor:.0f} %: {held} ({wins:g} wins of {len(games)},"
                f" lower bound {100 * low:.1f} %)."
            )
    return lines if len(lines) > 3 else []


def ratings_section(
    results: Sequence[dict[str, Any]], bots: Sequence[str], counts: Sequence[int]
) -> list[str]:
    """The openskill ratings, over all games and at each player count."""
    overall = ratings(results, bots)
    by_count = {n: ratings([r for r in results if r["players"] == n], bots) for n in counts}
    seen = {(name, r["players"]) for r in results for name in r["seats"]}
    lines = [
        "",
        "## Ratings",
        "",
        "openskill's Plackett-Luce ratings (mu, starting at 25; in brackets sigma, its"
        " uncertainty), from every game ranked as it ended: the winners first, the others by"
        " Glory. A rating moves with the order games are rated in (here game 0 of every"
        " pairing, then game 1, ...); the win rates above do not.",
        "",
        "| bot | all games | " + " | ".join(f"{n} players" for n in counts) + " |",
        "|---" * (len(counts) + 2) + "|",
    ]
    for bot in sorted(bots, key=lambda b: -overall[b][0]):
        row = [f"{overall[bot][0]:.1f} ({overall[bot][1]:.1f})"]
        row += [
            f"{by_count[n][bot][0]:.1f} ({by_count[n][bot][1]:.1f})" if (bot, n) in seen else "–"
            for n in counts
        ]
        lines.append(f"| **{bot}** | " + " | ".join(row) + " |")
    return lines


def timing_section(
    results: Sequence[dict[str, Any]], bots: Sequence[str], counts: Sequence[int]
) -> list[str]:
    """Seconds per decision of each bot, and per game, at each player count."""
    spent = per_decision(results)
    longest: dict[tuple[str, int], float] = defaultdict(float)
    games: dict[int, list[float]] = defaultdict(list)
    for r in results:
        games[r["players"]].append(r["seconds"])
        for name, most in zip(r["seats"], r.get("longest_decision", ()), strict=False):
            longest[(name, r["players"])] = max(longest[(name, r["players"])], most)
    lines = [
        "",
        "## Time",
        "",
        "Mean seconds a decision took each bot (its draw of the hidden cards included), and in"
        " brackets its longest decision, on a process that shared the machine with other work;"
        " and the mean seconds of a game.",
        "",
        "| bot | " + " | ".join(f"{n} players" for n in counts) + " |",
        "|---" * (len(counts) + 1) + "|",
    ]
    for bot in bots:
        row = []
        for n in counts:
            mean, most = spent.get((bot, n)), longest.get((bot, n))
            text = f"{mean:.3f}" if mean is not None else "–"
            row.append(text + (f" ({most:.2f})" if most else ""))
        lines.append(f"| {bot} | " + " | ".join(row) + " |")
    lines.append(
        "| *a game* | "
        + " | ".join(f"{statistics.fmean(games[n]):.0f}" if games[n] else "–" for n in counts)
        + " |"
    )
    return lines


def per_decision(results: Iterable[dict[str, Any]]) -> dict[tuple[str, int], float]:
    """By (bot, players): the mean seconds of the bot's decisions."""
    spent: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in results:
        for name, seconds, decisions in zip(
            r["seats"], r["decision_seconds"], r["decisions"], strict=True
        ):
            spent[(name, r["players"])][0] += seconds
            spent[(name, r["players"])][1] += decisions
    return {key: seconds / count for key, (seconds, count) in spent.items() if count}


def games_needed(rate: float, stopping: Stopping) -> int:
    """The games a pairing whose win rate stays at ``rate`` plays before it stops."""
    return next(
        (n for n in stopping.boundaries() if half_width(rate * n, n) <= stopping.half_width),
        stopping.cap,
    )


def game_seconds(
    pairing: Pairing,
    measured: dict[Pairing, list[dict[str, Any]]],
    decide: dict[tuple[str, int], float],
    decisions: dict[int, float],
) -> float | None:
    """The mean seconds of one of the pairing's games: measured if it was played, else each
    seat's decisions a game times its bot's seconds a decision, at the nearest player count
    measured (``ismcts-strong``, if never played: ``STRONG_FACTOR`` times ``ismcts``)."""
    from ethnos_rules.bots import STRONG_FACTOR

    if measured.get(pairing):
        return statistics.fmean(r["seconds"] for r in measured[pairing])
    if not decisions:
        return None
    near = min(decisions, key=lambda n: (abs(n - pairing.players), n))
    seats = [pairing.bot] + [pairing.field] * (pairing.players - 1)
    total = 0.0
    for name in seats:
        counts = [n for (b, n) in decide if b == name]
        if not counts and name == "ismcts-strong":
            counts, name = [n for (b, n) in decide if b == "ismcts"], "ismcts"
            factor = float(STRONG_FACTOR)
        else:
            factor = 1.0
        if not counts:
            return None
        at = min(counts, key=lambda n: (abs(n - pairing.players), n))
        total += factor * decide[(name, at)] * decisions[near]
    return total


def cost_section(
    standings: dict[Pairing, tuple[list[dict[str, Any]], bool]], stopping: Stopping
) -> list[str]:
    """What a whole round robin of every bot at 2, 3, 4 and 6 players would take on one core:
    each pairing's games (as it stopped, or as its win rate so far asks; ±5 points around one
    half, about 390, for pairings not played) times its seconds a game."""
    from ethnos_rules.bots import BOTS

    results = [r for games, _ in standings.values() for r in games]
    measured = {p: games for p, (games, _) in standings.items()}
    decide = per_decision(results)
    seats: dict[int, list[float]] = defaultdict(list)
    for r in results:
        seats[r["players"]].append(statistics.fmean(r["decisions"]))
    decisions = {n: statistics.fmean(v) for n, v in seats.items()}
    adaptive: dict[int, float] = defaultdict(float)
    lopsided: dict[int, float] = defaultdict(float)
    fixed: dict[int, float] = defaultdict(float)
    fewest = games_needed(1.0, stopping)
    unknown = []
    for pairing in round_robin(list(BOTS), PLAYER_COUNTS):
        seconds = game_seconds(pairing, measured, decide, decisions)
        if seconds is None:
            unknown.append(pairing.text())
            continue
        games, done = standings.get(pairing, ([], False))
        if done:
            needed = least = len(games)
        elif games:
            rate = sum(bot_share(r) for r in games) / len(games)
            needed = least = max(len(games), games_needed(rate, stopping))
        else:
            needed, least = games_needed(0.5, stopping), fewest
        adaptive[pairing.players] += needed * seconds / 3600
        lopsided[pairing.players] += least * seconds / 3600
        fixed[pairing.players] += stopping.cap * seconds / 3600
    lines = [
        "",
        "## What a whole ladder would cost",
        "",
        f"A round robin of every bot ({', '.join(BOTS)}) at"
        f" {', '.join(map(str, PLAYER_COUNTS))} players, in hours of one core: each"
        " pairing's games times its seconds a game. The games: a pairing played here counts"
        " the games it stopped at, or those its win rate so far would need; one not played,"
        f" {games_needed(0.5, stopping)} (a win rate near one half, the most) or {fewest} (a"
        " bot that wins every game, the fewest), the two columns. The seconds:"
        " those of its games here, or, for a pairing not played, each seat's decisions a game"
        " times its bot's seconds a decision here at the nearest player count measured"
        " (ismcts-strong, if not played, four times ismcts). The times were taken on a busy"
        " machine, so this is a rough guide.",
        "",
        "| players | stopping at ±5 points, most | fewest | " + f"{stopping.cap} games a pairing |",
        "|---|---|---|---|",
    ]
    for n in PLAYER_COUNTS:
        lines.append(f"| {n} | {adaptive[n]:.0f} | {lopsided[n]:.0f} | {fixed[n]:.0f} |")
    lines.append(
        f"| all | {sum(adaptive.values()):.0f} | {sum(lopsided.values()):.0f}"
        f" | {sum(fixed.values()):.0f} |"
    )
    if unknown:
        lines += ["", f"Not counted (no time measured for a bot): {', '.join(unknown)}."]
    return lines


def _duration(seconds: float) -> str:
    if seconds >= 5400:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 60:.0f} minutes" if seconds >= 90 else f"{seconds:.0f} seconds"


# --- the command line ---------------------------------------------------------------------------


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
        )
        return out.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def _deadline(text: str) -> float:
    """The time of day ``HH:MM`` (UTC) today as a :func:`time.time` (past: no game begins)."""
    hours, minutes = (int(part) for part in text.split(":"))
    now = datetime.datetime.now(datetime.UTC)
    return now.replace(hour=hours, minute=minutes, second=0, microsecond=0).timestamp()


def main(argv: list[str] | None = None) -> int:
    from ethnos_rules.bots import BOTS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=400, help="most games a pairing plays (default 400)"
    )
    parser.add_argument(
        "--half-width",
        type=float,
        default=0.05,
        help="a pairing stops when the 95 %% interval of its win rate is at most this either"
        " side (default 0.05; 0: play --games games)",
    )
    parser.add_argument(
        "--batch", type=int, default=10, help="games between two looks at the interval (10)"
    )
    parser.add_argument(
        "--players", default=",".join(map(str, PLAYER_COUNTS)), help="player counts (2,3,4,6)"
    )
    parser.add_argument("--bots", default=",".join(BOTS), help="bots by name (every bot)")
    parser.add_argument(
        "--pairings",
        default="",
        help="instead of a round robin, these pairings in this order: players:bot:field,"
        " separated by commas (2:ismcts:greedy,4:ismcts:greedy)",
    )
    parser.add_argument("--seed", type=int, default=2026, help="the ladder's seed (2026)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument(
        "--until",
        default="",
        metavar="HH:MM",
        help="begin no game after this time today (UTC; with --jobs 1), then write the page",
    )
    parser.add_argument("--results", type=Path, default=RESULTS, help=f"results ({RESULTS})")
    parser.add_argument("--out", type=Path, default=PAGE, help=f"the page written ({PAGE})")
    parser.add_argument("--no-play", action="store_true", help="write the page from the results")
    parser.add_argument("--note", default="", help="a sentence added to the page's run line")
    parser.add_argument(
        "--add",
        action="append",
        default=[],
        metavar="MODULE:CALLABLE",
        help="a bot of your own, made by CALLABLE() (a class, a function) of MODULE; it plays"
        " by its name beside --bots (repeat for more)",
    )
    args = parser.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        added = add_bots(args.add)
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        parser.error(f"--add: {error}")
    bots += [name for name in added if name not in bots]
    known = [*BOTS, *(name for name in added if name not in BOTS)]
    unknown = [b for b in bots if b not in BOTS and b not in ADDED]
    if unknown or len(bots) < 2:
        parser.error(f"--bots: two or more of {', '.join(BOTS)} (not {', '.join(unknown)})")
    try:
        counts = [int(n) for n in args.players.split(",")]
    except ValueError:
        counts = []
    if not counts or any(not 2 <= n <= 6 for n in counts):
        parser.error("--players: player counts from 2 to 6, separated by commas")
    if args.games < 1 or args.jobs < 1 or args.batch < 1 or not 0 <= args.half_width < 0.5:
        parser.error("--games, --batch and --jobs must be 1 or more, --half-width 0 to 0.5")
    if args.pairings:
        try:
            pairings = parse_pairings(args.pairings, known)
        except ValueError as error:
            parser.error(f"--pairings: {error}")
        counts = sorted({p.players for p in pairings})
        named = {n for p in pairings for n in (p.bot, p.field)}
        bots = [b for b in known if b in named]
    else:
        pairings = round_robin(bots, counts)
    try:
        deadline = _deadline(args.until) if args.until else None
    except ValueError:
        parser.error("--until: a time HH:MM (UTC)")
    stopping = Stopping(args.games, min(args.batch, args.games), args.half_width)
    started = time.perf_counter()
    if not args.no_play:
        run_ladder(pairings, stopping, args.seed, args.jobs, args.results, args.add, deadline)
    kept = read_results(args.results)
    standings = {p: standing(p, kept, args.seed, stopping) for p in pairings}
    results = [r for games, _ in standings.values() for r in games]
    defaults: list[tuple[str, object, object]] = [
        ("--games", args.games, 400),
        ("--half-width", args.half_width, 0.05),
        ("--batch", args.batch, 10),
        ("--seed", args.seed, 2026),
    ]
    if args.pairings:
        defaults.append(("--pairings", ",".join(p.text() for p in pairings), ""))
    else:
        defaults.append(
            ("--players", ",".join(map(str, counts)), ",".join(map(str, PLAYER_COUNTS)))
        )
        defaults.append(("--bots", ",".join(bots), ",".join(BOTS)))
    command = (
        "python scripts/ladder.py"
        + "".join(f" {flag} {value}" for flag, value, default in defaults if value != default)
        + "".join(f" --add {spec}" for spec in args.add)
    )
    settings = {
        "bots": bots,
        "players": counts,
        "games": args.games,
        "stopping": stopping,
        "standings": standings,
        "command": command,
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}",
        "commit": ", ".join(sorted({r.get("commit") or "unknown" for r in results})),
        "jobs": args.jobs,
        "note": f" {args.note.strip()}" if args.note.strip() else "",
        "seconds": sum(r["seconds"] for r in results) / args.jobs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(page(results, settings))
    stopped = sum(done for _, done in standings.values())
    print(
        f"{len(results)} games, {stopped} of {len(pairings)} pairings stopped;"
        f" {time.perf_counter() - started:.0f} s; written: {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
