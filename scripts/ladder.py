"""The bots' ladder: a round robin of the library's bots at 2, 3, 4 and 6 players, seeded, that
writes the docs page "How strong are the bots" (``docs/guide/09-how-strong-are-the-bots.md``).

Usage (with the project's virtualenv; ``make ladder`` runs the first line)::

    python scripts/ladder.py --games 400 -j 2
    python scripts/ladder.py --games 20 --players 2 --bots greedy,thumb,ismcts --out /tmp/l.md

Pairings. At 2 players every pair of bots meets, each in seat 0 in every other game. At 3, 4
and 6 players each bot plays against a *field* of each other bot: it holds one seat, the other
bot every other seat, its own seat going round from game to game; it then wins by chance one
game in 3, 4 or 6. ``--games`` is the number of games of each pairing at each player count.

Seeds. Game ``g`` of a pairing draws its chance and its bots' choices from one generator
seeded by ``--seed``, the player count, the two bots and ``g``: the same command plays the same
games, on any number of processes. Every bot of :data:`~ethnos_rules.bots.BOTS` is
reproducible (its budget is a count of simulations), so the page is reproduced from its seed.

Your own bot. ``--add mybots:MyBot`` adds the bot that ``MyBot()`` makes (a class, or any
callable with no arguments, of the module ``mybots``, imported from the working folder) to
the round robin, by its ``name``: ``--bots greedy,thumb --add mybots:MyBot`` pits it against
those two.

Results. Each game's result is appended to a JSON-lines file (``--results``) as it ends; a run
asked again with the same settings plays only the games not there yet, so a long ladder can be
stopped and taken up again, or run in parts (one player count at a time). The page is written
from every result of the file that the run's settings ask for.

Figures. A win rate counts a shared victory as a share (1/k for k winners); its 95 % interval
is Wilson's. Glory is the bot's own final Glory. The ratings are openskill's Plackett-Luce
(``pip install ".[ladder]"``): every game is a match ranking its seats (the winners first, the
others by Glory), rated in the order of the games (game 0 of every pairing, then game 1, ...).
A field of one bot at several seats is one player in several places: its rating moves by the
mean of the moves its seats are given.
"""

from __future__ import annotations

import argparse
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
            self.seconds, self.decisions = 0.0, 0

        def choose(self, knowledge: InformationState, rng: random.Random) -> Any:
            started = time.perf_counter()
            try:
                return self.inner.choose(knowledge, rng)
            finally:
                self.seconds += time.perf_counter() - started
                self.decisions += 1

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
    todo: list[Task], jobs: int, path: Path, added: Sequence[str] = (), commit: str = ""
) -> None:
    """Play ``todo`` on ``jobs`` processes, appending each result to ``path`` as it ends;
    the slowest bots' games first, so that the processes end together."""
    path.parent.mkdir(parents=True, exist_ok=True)
    order = sorted(todo, key=lambda t: (-_cost(t), t))
    started, done = time.perf_counter(), 0
    pool = multiprocessing.Pool(jobs, initializer=add_bots, initargs=(list(added),))
    with pool, path.open("a") as out:
        for result in pool.imap_unordered(play_one, order):
            out.write(json.dumps({**result, "commit": commit}) + "\n")
            out.flush()
            done += 1
            if done % max(1, len(order) // 20) == 0 or done == len(order):
                elapsed = time.perf_counter() - started
                print(f"{done}/{len(order)} games, {elapsed:.0f} s", file=sys.stderr)


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
    table = cells(results)
    more = [n for n in counts if n > 2]
    played = f"{len(results)} games in all"
    if len(results) < settings["wanted"]:
        played += f", of the {settings['wanted']} asked: the run is not finished"
    intro = (
        "The library's bots ({mod}`ethnos_rules.bots`) played a round robin at "
        + ", ".join(map(str, counts))
        + f" players, {settings['games']} seeded games a pairing and a player count ({played})."
    )
    if 2 in counts:
        intro += " At 2 players every pair of bots met, each in seat 0 in every other game."
    if more:
        intro += (
            f" At {', '.join(map(str, more))} players each bot held one seat against a field of"
            " another bot at every other seat, its seat going round from game to game."
        )
    intro += (
        " A 95 % interval of ±5 points around a win rate near one half takes about 400 games"
        " a pairing."
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
        f" {_duration(settings['seconds'])} of play on {settings['jobs']} processes.",
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
    lines += ratings_section(results, bots, counts)
    lines += timing_section(results, bots, counts)
    return "\n".join(lines) + "\n"


def ratings_section(
    results: Sequence[dict[str, Any]], bots: Sequence[str], counts: Sequence[int]
) -> list[str]:
    """The openskill ratings, over all games and at each player count."""
    overall = ratings(results, bots)
    by_count = {n: ratings([r for r in results if r["players"] == n], bots) for n in counts}
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
        row += [f"{by_count[n][bot][0]:.1f} ({by_count[n][bot][1]:.1f})" for n in counts]
        lines.append(f"| **{bot}** | " + " | ".join(row) + " |")
    return lines


def timing_section(
    results: Sequence[dict[str, Any]], bots: Sequence[str], counts: Sequence[int]
) -> list[str]:
    """Seconds per decision of each bot, and per game, at each player count."""
    spent: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    games: dict[int, list[float]] = defaultdict(list)
    for r in results:
        games[r["players"]].append(r["seconds"])
        for name, seconds, decisions in zip(
            r["seats"], r["decision_seconds"], r["decisions"], strict=True
        ):
            spent[(name, r["players"])][0] += seconds
            spent[(name, r["players"])][1] += decisions
    lines = [
        "",
        "## Time",
        "",
        "Mean seconds a decision took each bot (its draw of the hidden cards included), on"
        " processes that shared the machine; and the mean seconds of a game.",
        "",
        "| bot | " + " | ".join(f"{n} players" for n in counts) + " |",
        "|---" * (len(counts) + 1) + "|",
    ]
    for bot in bots:
        row = []
        for n in counts:
            seconds, decisions = spent[(bot, n)]
            row.append(f"{seconds / decisions:.3f}" if decisions else "–")
        lines.append(f"| {bot} | " + " | ".join(row) + " |")
    lines.append(
        "| *a game* | "
        + " | ".join(f"{statistics.fmean(games[n]):.0f}" if games[n] else "–" for n in counts)
        + " |"
    )
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


def main(argv: list[str] | None = None) -> int:
    from ethnos_rules.bots import BOTS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games a pairing (default 400)")
    parser.add_argument(
        "--players", default=",".join(map(str, PLAYER_COUNTS)), help="player counts (2,3,4,6)"
    )
    parser.add_argument("--bots", default=",".join(BOTS), help="bots by name (every bot)")
    parser.add_argument("--seed", type=int, default=2026, help="the ladder's seed (2026)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument("--results", type=Path, default=RESULTS, help=f"results ({RESULTS})")
    parser.add_argument("--out", type=Path, default=PAGE, help=f"the page written ({PAGE})")
    parser.add_argument("--no-play", action="store_true", help="write the page from the results")
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
        bots += [name for name in add_bots(args.add) if name not in bots]
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        parser.error(f"--add: {error}")
    unknown = [b for b in bots if b not in BOTS and b not in ADDED]
    if unknown or len(bots) < 2:
        parser.error(f"--bots: two or more of {', '.join(BOTS)} (not {', '.join(unknown)})")
    try:
        counts = [int(n) for n in args.players.split(",")]
    except ValueError:
        counts = []
    if not counts or any(not 2 <= n <= 6 for n in counts):
        parser.error("--players: player counts from 2 to 6, separated by commas")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be 1 or more")
    wanted = tasks(bots, counts, args.games, args.seed)
    kept = read_results(args.results)
    todo = [t for t in wanted if t.key() not in kept]
    started = time.perf_counter()
    if todo and not args.no_play:
        print(f"{len(todo)} games to play ({len(wanted) - len(todo)} kept)", file=sys.stderr)
        run(todo, args.jobs, args.results, args.add, _commit())
        kept = read_results(args.results)
    results = [kept[t.key()] for t in wanted if t.key() in kept]
    command = (
        "python scripts/ladder.py"
        + "".join(
            f" {flag} {value}"
            for flag, value, default in [
                ("--games", args.games, 400),
                ("--players", ",".join(map(str, counts)), ",".join(map(str, PLAYER_COUNTS))),
                ("--bots", ",".join(bots), ",".join(BOTS)),
                ("--seed", args.seed, 2026),
            ]
            if value != default
        )
        + "".join(f" --add {spec}" for spec in args.add)
    )
    settings = {
        "bots": bots,
        "players": counts,
        "games": args.games,
        "wanted": len(wanted),
        "command": command,
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}",
        "commit": ", ".join(sorted({r.get("commit") or "unknown" for r in results})),
        "jobs": args.jobs,
        "seconds": sum(r["seconds"] for r in results) / args.jobs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(page(results, settings))
    print(
        f"{len(results)} of {len(wanted)} games; {time.perf_counter() - started:.0f} s;"
        f" written: {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
