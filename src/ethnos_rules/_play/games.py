"""The games being played at the table: each is its setup, the list of decisions so far, a
secret per seat and who sits there (a person or a bot by name).

After each person's decision, chance and the bots move the game on until a person must decide
or the game is over: chance outcomes are drawn with :func:`~ethnos_rules.sample_outcome` from a
:class:`random.Random` seeded by the game's seed and the number of the decision (so a game is a
function of its seed and the people's decisions, and a resumed game draws what it would have
drawn), and each bot chooses from the information state of its seat
(:func:`~ethnos_rules.information_state`), never from the whole game. The record is written
after every decision, through a temporary file renamed into place.

Every change to a game happens under that game's lock; the store keeps at most ``max_games``
games in memory and drops the oldest (finished ones first; their records stay on disk).
"""

from __future__ import annotations

import collections
import os
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import (
    Event,
    GameRecord,
    GameState,
    RecordError,
    RulesError,
    information_state,
    is_chance,
    is_terminal,
    legal_actions,
    new_game,
    parse_action,
    pending_decision,
    sample_outcome,
    step,
)
from .. import bots as _bots
from .._io.files import write_text
from .._io.records import options_from_dict
from .._rules.actions import Action
from .._rules.events import trace
from .._rules.said import Said, said
from ..bots import Bot

PERSON = "person"
"""The kind of a seat where a person decides (every other kind is a bot's name)."""

DEFAULT_OPPONENT = "ismcts"
"""The bot at the other seats when a setup names none, and the bot a hint asks by default: the
strongest level that decides within about 1 s (on a two-core machine shared with other work,
0.07-0.23 s a decision on average, at most 0.8 s, at 2 and 4 players)."""

MAX_SEED = 2**63
"""Seeds are ints in ``(-MAX_SEED, MAX_SEED)``."""

STATES_KEPT = 200
"""How many of a game's latest states are kept in memory (for what changed since a version);
the decisions and their events are all kept."""

SOURCE = "ethnos-rules play"
"""The ``source`` a saved record's metadata names."""


class PlayError(Exception):
    """A request the table refuses: the HTTP status and the JSON body to answer with."""

    def __init__(self, status: int, body: Mapping[str, Any]) -> None:
        super().__init__(body.get("error") or body)
        self.status = status
        self.body = dict(body)


def refused(status: int, error: str, **more: Any) -> PlayError:
    """A :class:`PlayError` with the message ``error`` (and more keys); a sentence marked with
    ``said`` is answered in the language the request asks for."""
    return PlayError(status, {"error": error, **more})


# --- bots -------------------------------------------------------------------------------------


def bots() -> dict[str, Bot]:
    """Every bot a seat can be given, by name (:data:`ethnos_rules.bots.BOTS`)."""
    return {name: make() for name, make in _bots.BOTS.items()}


# --- one game ---------------------------------------------------------------------------------


class Game:
    """One game at the table. Read and change it only under :attr:`lock`.

    Attributes:
        id: The game's id in addresses.
        kinds: By seat, ``"person"`` or a bot's name.
        seed: The seed of the game's chance outcomes and bots.
        secrets: Each secret and the seat it names (None: the hot-seat secret).
        states: The state after each number of decisions (``states[0]``: the start), the
            last :data:`STATES_KEPT` of them (the older ones are None).
        actions: Every decision so far, as text.
        events: The events of each decision (``events[i]`` of decision ``i``).
        start_events: The events of the setup.
        path: Where the record is saved (None: not saved).
    """

    def __init__(
        self,
        start: GameState,
        start_events: tuple[Event, ...],
        kinds: Sequence[str],
        seed: int,
        path_for: Callable[[str], str | None],
    ) -> None:
        self.id = secrets.token_urlsafe(9)
        self.kinds = tuple(kinds)
        self.seed = seed
        self.secrets: dict[str, int | None] = {secrets.token_urlsafe(16): None}
        for seat, kind in enumerate(self.kinds):
            if kind == PERSON:
                self.secrets[secrets.token_urlsafe(16)] = seat
        self.start_events = start_events
        self.bots: dict[int, Bot] = {
            seat: _bots.bot(kind) for seat, kind in enumerate(self.kinds) if kind != PERSON
        }
        self.start = start
        self.states: list[GameState | None] = [start]
        self.actions: list[str] = []
        self.events: list[tuple[Event, ...]] = []
        self.path = path_for(self.id)
        self.lock = threading.RLock()
        self.idle = threading.Event()
        self.idle.set()
        self.touched = time.monotonic()
        self.last_person = next((s for s, k in enumerate(self.kinds) if k == PERSON), 0)
        self.bot_error: str | None = None
        self.save_error: str | None = None
        self.saved = -1  # the version last saved

    @property
    def state(self) -> GameState:
        state = self.states[-1]
        assert state is not None
        return state

    def state_at(self, version: int) -> GameState:
        """The state after ``version`` decisions, or the oldest one kept after it (only the
        last :data:`STATES_KEPT` are kept)."""
        return next(s for s in self.states[version:] if s is not None)

    @property
    def version(self) -> int:
        """The number of decisions so far."""
        return len(self.actions)

    @property
    def finished(self) -> bool:
        return is_terminal(self.state)

    def secret_of(self, seat: int | None) -> str:
        """The secret naming ``seat`` (None: the hot-seat secret)."""
        return next(s for s, named in self.secrets.items() if named == seat)

    def metadata(self) -> dict[str, Any]:
        """What the saved record says of the table: who sat where, and the seed."""
        return {"source": SOURCE, "play": {"seats": list(self.kinds), "seed": self.seed}}

    def record(self, *, public: bool = False) -> GameRecord:
        """The record of the whole game so far (``public``: without the seed, which tells the
        deck's order)."""
        metadata = self.metadata()
        if public:
            del metadata["play"]["seed"]
        return GameRecord.from_start(self.start, self.actions, metadata=metadata)

    def rng(self, purpose: str) -> random.Random:
        """The random numbers of the next decision (for chance, or a bot)."""
        return random.Random(f"{self.seed}:{self.version}:{purpose}")

    def decide(self, action: Action, seat: int | None) -> None:
        """Apply ``action`` (by ``seat``; None for chance) and keep its events.

        Raises:
            RulesError: the referee refuses it; the game is unchanged.
        """
        done = step(self.state, action, seat=seat)
        self.actions.append(str(action))
        self.events.append(done.events)
        self.states.append(done.state)
        if len(self.states) > STATES_KEPT + 1:
            self.states[-STATES_KEPT - 2] = None
        if seat is not None and self.kinds[seat] == PERSON:
            self.last_person = seat

    def chance(self) -> None:
        """Draw chance outcomes until a player decides or the game is over."""
        while is_chance(self.state):
            self.decide(sample_outcome(self.state, self.rng("chance")), None)

    def deciding(self) -> int | None:
        """The seat whose decision it is (None at chance or once the game is over)."""
        if is_terminal(self.state) or is_chance(self.state):
            return None
        return pending_decision(self.state).seat

    def bot_to_move(self) -> int | None:
        """The seat of the bot that decides next, if a bot does."""
        seat = self.deciding()
        return seat if seat is not None and self.kinds[seat] != PERSON else None

    def save(self) -> None:
        """Write the record to :attr:`path` (temporary file, then rename), unless this
        version is saved already."""
        if self.path is None or self.saved == self.version:
            return
        try:
            write_text(self.path, self.record().to_json() + "\n")
            self.saved = self.version
            self.save_error = None
        except OSError as err:  # told in the views; the game goes on in memory
            self.save_error = f"cannot save {self.path}: {err.strerror or err}"


# --- the store --------------------------------------------------------------------------------


class GameStore:
    """The games in memory (at most ``max_games``) and how they move on.

    Args:
        save_dir: The folder each game's record is written to (None: not saved).
        max_games: The most games kept in memory.
        background: Let the bots move in a thread of their own (the person's answer does not
            wait for them); else they move before the answer.
    """

    def __init__(
        self, save_dir: str | None = None, *, max_games: int = 64, background: bool = True
    ) -> None:
        if max_games < 1:
            raise ValueError("a store keeps at least one game")
        self.save_dir = save_dir
        self.max_games = max_games
        self.background = background
        self._games: collections.OrderedDict[str, Game] = collections.OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def _path(self, game_id: str) -> str | None:
        if self.save_dir is None:
            return None
        os.makedirs(self.save_dir, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        return os.path.join(self.save_dir, f"ethnos-{stamp}-{game_id}.json")

    # --- making games ----------------------------------------------------------------------

    def create(self, setup: object) -> Game:
        """A new game from the setup a request gives (see the API's ``POST /api/games``).

        Raises:
            PlayError: 400 for a setup that is not one (with the rule for one the rules
                refuse).
        """
        players, kinds, tribes, options, seed = check_setup(setup)
        try:
            start, start_events = _traced_new_game(players, tribes, options)
        except RulesError as err:
            raise refused(400, _with_rule(err), rule=err.rule) from None
        game = Game(start, start_events, kinds, seed, self._path)
        self._settle(game)
        self._keep(game)
        return game

    def resume(self, record: GameRecord) -> Game:
        """The game a saved record holds, to be played on (its seats and seed from the
        record's metadata), saved as a new game is: under a new name in the store's folder
        (the record read is never written).

        Raises:
            RecordError: the record is kept at one seat, or its metadata does not say who sat.
            RulesError: the record's setup or a decision is refused.
        """
        if record.seat is not None:
            raise RecordError("a record kept at one seat cannot be played on: it hides cards")
        play = record.metadata.get("play")
        kinds: Any = play.get("seats") if isinstance(play, Mapping) else None
        if kinds is None:
            kinds = [PERSON] * record.players
        known = bots()
        if (
            not isinstance(kinds, Sequence)
            or len(kinds) != record.players
            or any(k != PERSON and k not in known for k in kinds)
        ):
            raise RecordError(
                f"metadata.play.seats must name, for each of the {record.players} seats,"
                f" {PERSON!r} or a bot ({', '.join(sorted(known))})"
            )
        seed = play.get("seed") if isinstance(play, Mapping) else None
        if type(seed) is not int:
            seed = secrets.randbits(63)
        start, start_events = trace(record.new_game)
        game = Game(start, start_events, list(kinds), seed, self._path)
        for text in record.actions:
            seat = pending_decision(game.state).seat
            game.decide(parse_action(text), seat)
        self._settle(game)
        self._keep(game)
        return game

    def _keep(self, game: Game) -> None:
        with self._lock:
            self._games[game.id] = game
            while len(self._games) > self.max_games:
                self._drop_one()

    def _drop_one(self) -> None:
        """Drop the game touched longest ago, a finished one if any."""
        games = list(self._games.values())
        finished = [g for g in games if g.finished]
        oldest = min(finished or games, key=lambda g: g.touched)
        del self._games[oldest.id]

    # --- finding and acting ----------------------------------------------------------------

    def find(self, game_id: str, secret: str) -> tuple[Game, int | None]:
        """The game and the seat a secret names (None: the hot-seat secret).

        Raises:
            PlayError: 404 for an unknown game or secret.
        """
        game = self._games.get(game_id)
        if game is None:
            raise refused(404, "no such game here (finished games are dropped after a while)")
        seat = game.secrets.get(secret, -1)
        if seat == -1 or not secrets.compare_digest(game.secret_of(seat), secret):
            raise refused(404, "no such seat in this game")
        game.touched = time.monotonic()
        return game, seat

    def viewer(self, game: Game, seat: int | None) -> int:
        """The seat whose view a secret shows: its own, or for the hot-seat secret the person
        whose decision it is (else the last person who decided)."""
        if seat is not None:
            return seat
        deciding = game.deciding()
        if deciding is not None and game.kinds[deciding] == PERSON:
            return deciding
        return game.last_person

    def act(self, game: Game, seat: int | None, text: object, version: object) -> None:
        """A person's decision: ``text`` in the action notation, made at ``version``.

        The bots do not move yet: call :meth:`settle` then.

        Raises:
            PlayError: 400 for a body of the wrong types, 409 when the game has moved on, 403
                when it is not this seat's decision, 422 (with the refusal's rule and reason)
                when the referee refuses it. The game is then unchanged.
        """
        if not isinstance(text, str) or not text.strip() or len(text) > 500:
            raise refused(400, "'action' must be a decision in the action notation (text)")
        if type(version) is not int:
            raise refused(400, "'version' must be the version of the view acted on (an int)")
        with game.lock:
            if version != game.version:
                raise refused(
                    409, said("stale: the game moved on (version {version})", version=game.version)
                )
            deciding = game.deciding()
            who = seat if seat is not None else deciding
            if who is None or deciding != who or game.kinds[who] != PERSON:
                waiting = pending_decision(game.state).text
                raise refused(403, said("not your decision: {decision}", decision=waiting))
            try:
                game.decide(parse_action(text), who)
            except RulesError as err:
                error = Said(str(err), "{rule}: {reason}", {"rule": err.rule, "reason": err.reason})
                raise PlayError(422, {"error": error, "refusal": refusal(err, text)}) from None
            game.chance()
            game.save()

    def settle(self, game: Game) -> None:
        """Let chance and the bots move on after a person's decision (:meth:`act` leaves it
        to the caller, so that the person's answer is built before the bots think)."""
        self._settle(game)

    def _settle(self, game: Game) -> None:
        """Move chance and the bots on: at once, or in a thread of its own."""
        with game.lock:
            game.chance()
            game.save()
            if game.bot_to_move() is None or not game.idle.is_set():
                return
            game.idle.clear()
        if self.background:
            threading.Thread(target=self._bots, args=(game,), daemon=True).start()
        else:
            self._bots(game)

    def _bots(self, game: Game) -> None:
        """The bots decide in turn until a person must decide or the game is over; each bot
        thinks without the lock, from its seat's information state."""
        try:
            while True:
                with game.lock:
                    game.chance()
                    seat = game.bot_to_move()
                    if seat is None:  # idle under the lock: a person's act then sees it
                        game.save()
                        game.idle.set()
                        return
                    version, record = game.version, game.record()
                    rng = game.rng("bot")
                action = self._bot_choice(game, record, seat, rng)
                with game.lock:
                    if game.version != version:  # nobody else decides here; just in case
                        continue
                    try:
                        game.decide(action, seat)
                    except RulesError as err:
                        game.bot_error = f"bot {game.kinds[seat]} at seat {seat}: {err}"
                        game.decide(legal_actions(game.state)[0], seat)
                    game.save()
        finally:
            game.idle.set()

    def _bot_choice(self, game: Game, record: GameRecord, seat: int, rng: random.Random) -> Action:
        kind = game.kinds[seat]
        try:
            return game.bots[seat].choose(information_state(record, seat), rng)
        except Exception as err:  # a bot's defect: tell it, and play on
            game.bot_error = f"bot {kind} at seat {seat} failed: {type(err).__name__}: {err}"
            with game.lock:
                return rng.choice(legal_actions(game.state))

    def wait(self, game: Game, timeout: float = 60.0) -> bool:
        """Wait until the bots have moved (for tests and the command line)."""
        return game.idle.wait(timeout)


# --- checking a setup -------------------------------------------------------------------------


def check_setup(
    setup: object,
) -> tuple[int, list[str], list[str] | None, Any, int]:
    """The players, seat kinds, tribes, options and seed of a ``POST /api/games`` body.

    Raises:
        PlayError: 400 naming what is wrong.
    """
    if not isinstance(setup, dict):
        raise refused(400, "the setup is a JSON object")
    unknown = sorted(set(setup) - {"players", "seats", "tribes", "options", "seed"})
    if unknown:
        raise refused(400, f"unknown key(s) in the setup: {', '.join(map(repr, unknown))}")
    players = setup.get("players")
    if type(players) is not int or not 2 <= players <= 6:
        raise refused(400, "'players' must be a number from 2 to 6", rule="SETUP-1")
    kinds = setup.get("seats", [PERSON] + [DEFAULT_OPPONENT] * (players - 1))
    known = bots()
    if (
        not isinstance(kinds, list)
        or len(kinds) != players
        or not all(isinstance(k, str) and (k == PERSON or k in known) for k in kinds)
    ):
        raise refused(
            400,
            f"'seats' must list, for each of the {players} seats, {PERSON!r} or a bot"
            f" ({', '.join(sorted(known))})",
        )
    tribes = setup.get("tribes")
    if tribes is not None and not (
        isinstance(tribes, list) and all(isinstance(t, str) for t in tribes) and len(tribes) < 20
    ):
        raise refused(400, "'tribes' must be null (at random) or a list of tribe codes")
    options = setup.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise refused(400, "'options' must be an object of rule options")
    try:
        chosen = options_from_dict(options)
    except RecordError as err:
        raise refused(400, err.args[0] if err.args else str(err), rule="OPTIONS") from None
    seed = setup.get("seed")
    if seed is None:
        seed = secrets.randbits(63)
    if type(seed) is not int or not -MAX_SEED < seed < MAX_SEED:
        raise refused(400, "'seed' must be null (at random) or an int")
    return players, kinds, tribes, chosen, seed


def _traced_new_game(
    players: int, tribes: list[str] | None, options: Any
) -> tuple[GameState, tuple[Event, ...]]:
    return trace(new_game, players, tribes=tribes, options=options)


def _with_rule(err: RulesError) -> Said:
    """``RULE: reason``, the reason said in the language of the answer."""
    english = f"{err.rule}: {err.reason}"
    return Said(english, "{rule}: {reason}", {"rule": err.rule, "reason": err.reason})


def refusal(err: RulesError, text: str) -> dict[str, str]:
    """The refusal of a decision as the API tells it."""
    from .views import rule_link

    return {**rule_link(err.rule), "reason": err.reason, "text": text}
