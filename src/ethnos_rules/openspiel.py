"""Ethnos as an OpenSpiel game: ``import ethnos_rules.openspiel`` registers ``python_ethnos``.

>>> import pyspiel
>>> import ethnos_rules.openspiel
>>> game = pyspiel.load_game("python_ethnos", {"players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 534)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 12)

Parameters (all optional): ``players`` (2 to 6, default 2); ``tribes``, the tribe codes in
play separated by ``/`` (``"CEN/ELF/MER/ORC/SKE/WIZ"``; in a dict of parameters, commas or
spaces do too, and the game's string writes them with ``/``, since a comma ends a parameter
there) (default: chosen by chance, SETUP-3); and each switchable rule option
of spec §12, those ``Options.choices()`` lists, by its name (``placement``,
``merfolk_checkpoints``, ...), as text. The glory tokens and the Merfolk board are not
parameters: the game has the printed ones. ``scaled_observation`` (default false): the
observation tensor scaled into [0, 1] (:class:`ethnos_rules.agents.Scaler`), for networks.

The ids are those of :mod:`ethnos_rules.agents`, chance included (explicit stochastic chance
with the rules' exact probabilities, as floats). A band is built in several decisions of the
same player (its Leader, its cards, done). The observer made by ``make_py_observer`` honours
``public_info``, ``private_info`` (none, the observing seat's hand, or every hand) and
``perfect_recall`` (the seat's information state as tokens; it needs ``public_info``).
Returns are :func:`ethnos_rules.agents.returns`: 1 for a sole winner, shared wins split, and
the sum 0.

States implement ``resample_from_infostate`` with the library's exact sampler
(:func:`~ethnos_rules.resample`), so OpenSpiel's ``ISMCTSBot`` plays the game; value its
leaves with :class:`RandomPlayouts`. :class:`BotPlayer` plays a library bot as an OpenSpiel
bot. ``state.information_state_tokens(seat)`` gives a seat's information state as tokens for
sequence models (vocabulary: :func:`ethnos_rules.agents.token_text`). ``state.decisions``
counts the decisions so far as a record of the game counts them (chance included, a band once).
"""

from __future__ import annotations

import operator
import pickle
import random
import re
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from ethnos_rules import (
    Action,
    GameState,
    InformationState,
    Options,
    RulesError,
    SetupError,
    WrongDecisionError,
    new_game,
    step,
)
from ethnos_rules._agents.encoding import EDITION
from ethnos_rules._agents.tensors import MAX_PLAYERS, Played, Seen
from ethnos_rules._agents.worlds import World, draw_world, knowledge
from ethnos_rules._rules.randomness import check_random
from ethnos_rules._rules.setup import check_seat
from ethnos_rules.agents import (
    NUM_DISTINCT_ACTIONS,
    EncodedState,
    ObservationWriter,
    Recall,
    Scaler,
    action_text,
    encode,
    history_tensor,
    information_state_text,
    max_chance_events,
    max_game_length,
    max_history_tokens,
    observation_pieces,
    observation_text,
    playout,
    returns,
)

if TYPE_CHECKING:
    from ethnos_rules.bots import Bot

SHORT_NAME = "python_ethnos"

_OPTION_DEFAULTS = {name: values[0] for name, values in Options.choices().items()}
_PARAMETERS: dict[str, Any] = {
    "players": 2,
    "tribes": "",
    "scaled_observation": False,
    **_OPTION_DEFAULTS,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Ethnos (first edition), by ethnos-rules",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=EDITION.players[1],
    min_num_players=EDITION.players[0],
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def _setup(params: dict[str, Any]) -> tuple[int, tuple[str, ...] | None, Options]:
    players = int(params["players"])
    tribes = (
        tuple(re.split(r"[/,\s]+", str(params["tribes"]).strip())) if params["tribes"] else None
    )
    chosen: dict[str, Any] = {name: str(params[name]) for name in _OPTION_DEFAULTS}
    options = Options(**chosen)
    new_game(players, tribes=tribes, options=options)  # refuses a bad setup here, typed
    return players, tribes, options


class EthnosGame(pyspiel.Game):
    """The OpenSpiel game ``python_ethnos``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_PARAMETERS, **(params or {})}
        self.players, self.tribes, self.options = _setup(merged)
        self.scaled = merged["scaled_observation"]
        if not isinstance(self.scaled, bool):
            raise ValueError(f"scaled_observation is true or false, not {self.scaled!r}")
        n = self.players
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_DISTINCT_ACTIONS,
            max_chance_outcomes=NUM_DISTINCT_ACTIONS,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(n, self.options),
        )
        given = dict(params or {})
        if self.tribes:  # "/" only: a comma would end the parameter in the game's string
            given["tribes"] = "/".join(self.tribes)
        super().__init__(_GAME_TYPE, info, given)
        self.history_length = max_history_tokens(n, self.options)
        self.start = new_game(n, tribes=self.tribes, options=self.options)

    # A copy or a pickle is the game made anew from its parameters: pyspiel's own pickling
    # of a Python game rebuilds the C++ game only, without this class's attributes.
    def __reduce__(self) -> tuple[Any, ...]:
        return (EthnosGame, (self.get_parameters(),))

    def new_initial_state(self) -> EthnosState:
        """The start of a game: chance chooses the tribes (unless given), the tokens, the
        first player."""
        return EthnosState(self)

    def max_chance_nodes_in_history(self) -> int:
        """An upper bound on the chance outcomes of a game."""
        return max_chance_events(self.players, self.options)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> EthnosObserver:
        """An observer of the kind ``iig_obs_type`` asks for (the observation by default)."""
        return EthnosObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


_TERMINAL, _CHANCE = int(pyspiel.PlayerId.TERMINAL), int(pyspiel.PlayerId.CHANCE)


def _player_id(node: EncodedState) -> int:
    """OpenSpiel's id of who is to move in ``node``: the seat, or its ids for chance and the
    end (what :func:`~ethnos_rules.to_move` says, read without its checks at every step)."""
    pending = node.state.pending
    if pending.terminal:
        return _TERMINAL
    if pending.chance:
        return _CHANCE
    seat = pending.seat
    assert seat is not None  # a player's decision names its player
    return seat


class _Log:
    """Decisions taken, newest first, as an immutable chain: a clone (OpenSpiel deep-copies a
    Python state's attributes) shares it.

    Attributes:
        before: The decisions before the last one, or None.
        decision: The last decision.
        length: How many decisions in all.
    """

    __slots__ = ("before", "decision", "length")

    def __init__(self, before: _Log | None, decision: Action) -> None:
        self.before, self.decision = before, decision
        self.length: int = 1 if before is None else before.length + 1

    def __deepcopy__(self, memo: Any) -> _Log:
        return self

    def decisions(self) -> list[Action]:
        """Each decision, from the first."""
        out: list[Action] = []
        link: _Log | None = self
        while link is not None:
            out.append(link.decision)
            link = link.before
        return out[::-1]


class EthnosState(pyspiel.State):
    """A state of ``python_ethnos``: the game state, the band being built, and what each seat
    (and everyone) has seen so far."""

    _replaying = False  # while the ids of a drawn world are taken (resample_from_infostate)

    def __init__(self, game: EthnosGame) -> None:
        super().__init__(game)
        self.start = game.start
        self.node = EncodedState.of(game.start)
        # Each seat's information state is worked out from the decisions with their events:
        # those known, the state they reach, and the decisions since, whose events are worked
        # out only when asked for. (Keeping each decision's state for that instead kept the
        # whole game alive, which Python's garbage collector walked again and again.)
        self._played, self._reached = Played.empty(), game.start
        self._unlogged: _Log | None = None

    @property
    def played(self) -> Played:
        """Every decision so far with its events (a band's Leader and cards are not one)."""
        if self._unlogged is not None:
            played, state = self._played, self._reached
            for decision in self._unlogged.decisions():
                result = step(state, decision)
                played, state = played.add(decision, result.events), result.state
            self._played, self._reached, self._unlogged = played, state, None
        return self._played

    @property
    def decisions(self) -> int:
        """How many decisions have been made, chance included, as a record of the game counts
        them (a band counts once, however many ids built it)."""
        return self._played.length + (0 if self._unlogged is None else self._unlogged.length)

    @property
    def recall(self) -> tuple[Recall, ...]:
        """What each seat saw, then what everyone saw, then every decision as it was."""
        seats, played = range(self.node.state.config.players), self.played
        return (*map(played.recall, seats), *map(played.recall, ("public", "all")))

    @property
    def game_state(self) -> GameState:
        """The rules' state (between the steps of a band, the state before it)."""
        return self.node.state

    @property
    def node(self) -> EncodedState:
        """The game, as an :class:`~ethnos_rules.agents.EncodedState`."""
        return self._node

    @node.setter
    def node(self, node: EncodedState) -> None:
        # OpenSpiel asks for the player to move several times a decision: it is told once.
        self._node, self._player = node, _player_id(node)

    def current_player(self) -> int:
        return self._player

    # is_chance_node, is_player_node and legal_actions are answered here for Python callers,
    # as OpenSpiel's C++ State answers them (which C++ callers still ask): through C++, each
    # call would come back into Python for the player to move.
    def is_chance_node(self) -> bool:
        return self._player == _CHANCE

    def is_player_node(self) -> bool:
        return self._player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal ids of ``player`` (by default the one to move; none for another player
        or at the end), or at a chance node its outcomes' ids, sorted."""
        if player is None or player == self._player:
            return list(self._node.legal_ids())  # () at the end; the outcomes at chance
        return []

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._player:
            return []
        return list(self._node.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._node.chance_floats()

    def _apply_action(self, action: int) -> None:
        if self._replaying:  # a drawn world's ids: its node and decisions are set at the end
            return
        after, decision = self._node.step_id(action)
        self._node, self._player = after, _player_id(after)  # the node's setter
        if decision is not None:  # a band's Leader and cards only build the band
            self._unlogged = _Log(self._unlogged, decision)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EthnosState:
        """A state that ``player_id`` cannot tell from this one, drawn from the exact posterior
        (:func:`~ethnos_rules.resample`): the other hands and the deck drawn to fit everything
        the seat saw, with the band being built, if any, built again. Its history is a whole
        game's ids, so it plays on, clones and pickles like any state.

        OpenSpiel's ``ISMCTSBot`` calls it at every simulation.

        Args:
            player_id: The seat whose information state the new state keeps.
            probability_sampler: What draws the hidden cards: a :class:`random.Random`, a
                ``numpy.random.Generator``, or a callable that returns floats in [0, 1)
                (OpenSpiel's ``UniformProbabilitySampler``; two of its floats seed the draw).

        Raises:
            SetupError: (``SETUP-1``) ``player_id`` is not a seat of the game.
            RulesError: (``CHANCE``) ``probability_sampler`` is none of those.
        """
        check_seat(player_id, self.node.state.config.players)
        drawn = draw_world(self.start, self.played, player_id, probability_sampler)
        movers = [step.player for step in self.full_history()]
        band = self.node.band
        sampled = EthnosState(self.get_game())
        sampled._replay(drawn, movers[: len(movers) - len(band)], band)
        return sampled

    def _replay(self, drawn: World, movers: list[int], band: tuple[int, ...]) -> None:
        """Take the ids of ``drawn`` (in a state just made), each moved by the player that
        ``movers`` gives (who moves is public: the same as in the game it was drawn from),
        then the band's steps ``band``. The ids go through OpenSpiel's ``apply_action``,
        which keeps the history, while the game itself is taken as drawn rather than applied
        again id by id."""
        self._replaying = True
        try:
            for mover, action in zip(movers, drawn.ids(), strict=True):
                self._player = mover  # whom OpenSpiel records as moving
                self.apply_action(action)
        finally:
            self._replaying = False
        self.node = EncodedState(drawn.state)
        self._played, self._reached, self._unlogged = drawn.played, drawn.state, None
        for action in band:
            self.apply_action(action)

    def information_state_tokens(self, player_id: int) -> list[int]:
        """What ``player_id`` knows as a sequence of tokens, for sequence models: each item it
        saw (:func:`~ethnos_rules.agents.item_tokens`), then the band being built; the
        vocabulary is :func:`~ethnos_rules.agents.token_text`. (The information-state tensor
        holds the same tokens plus one, padded with zeros, after the seat's one-hot.)

        Raises:
            SetupError: (``SETUP-1``) ``player_id`` is not a seat of the game.
        """
        check_seat(player_id, self.node.state.config.players)
        return [*self.played.recall(player_id).tokens(), *self.node.band]

    def knowledge(self, player_id: int) -> InformationState:
        """What ``player_id`` knows of the game so far, as the library's bots take it (the
        band being built is not in it: a band is one decision there).

        Raises:
            SetupError: (``SETUP-1``) ``player_id`` is not a seat of the game.
        """
        check_seat(player_id, self.node.state.config.players)
        return knowledge(self.start, self.played, player_id)

    def _action_to_string(self, player: int, action: int) -> str:
        return action_text(action)

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        return list(returns(self.node.state))

    # pyspiel pickles a state through its own serialisation, which protocols 0 and 1 cannot
    # carry: the interpreter would abort ("no pybind11-registered base types").
    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        if operator.index(protocol) < 2:
            raise pickle.PicklingError(
                f"python_ethnos states pickle with protocol 2 or later, not {protocol}"
            )
        return super().__reduce_ex__(protocol)

    def __str__(self) -> str:
        text = str(self.node.state)
        if self.node.band:
            text += "\nband being built: " + ", ".join(map(action_text, self.node.band))
        return text


class EthnosObserver:
    """An OpenSpiel observer (``set_from``, ``string_from``, ``tensor``, ``dict``)."""

    def __init__(self, game: EthnosGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"python_ethnos observers take no parameters, not {params}")
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        private = iig_obs_type.private_info
        self.private = {
            pyspiel.PrivateInfoType.NONE: "none",
            pyspiel.PrivateInfoType.SINGLE_PLAYER: "seat",
            pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
        }[private]
        if self.recall and not self.public:
            raise ValueError("a perfect-recall observer of python_ethnos needs public_info")
        self.players = game.players
        # One writer for every seat: a tensor is the last board with the changed pieces
        # written anew, turned to the observer.
        self._writer = ObservationWriter(0, game.players, public=self.public, private=self.private)
        pieces: list[tuple[str, tuple[int, ...]]]
        if self.recall:
            pieces = [("observer", (MAX_PLAYERS,)), ("history", (game.history_length,))]
        else:
            pieces = observation_pieces(public=self.public, private=self.private)
        # Scaled into [0, 1] if the game says so (not the tokens of an information state).
        self._scale = (
            Scaler(game.players, game.options, public=self.public, private=self.private)
            if game.scaled and not self.recall
            else None
        )
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def _recall(self, state: EthnosState, player: int) -> Recall:
        kinds: dict[str, Seen] = {"seat": player, "none": "public", "all": "all"}
        return state.played.recall(kinds[self.private])

    def set_from(self, state: EthnosState, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` observes of ``state``."""
        check_seat(player, self.players)
        if not self.recall:
            tensor = self._writer.write(state.node, player)
            self.tensor[:] = tensor if self._scale is None else self._scale(tensor)
            return
        self.tensor.fill(0)
        self.dict["observer"][player] = 1
        recall = self._recall(state, player)
        history = self.dict["history"]
        history_tensor([*recall.tokens(), *state.node.band], history.size, history)

    def string_from(self, state: EthnosState, player: int) -> str:
        """What ``player`` observes of ``state``, as text."""
        check_seat(player, self.players)
        if self.recall:
            return information_state_text(self._recall(state, player), state.node, player)
        return observation_text(state.node, player, public=self.public, private=self.private)


class RandomPlayouts(mcts.Evaluator):
    """An evaluator for OpenSpiel's ``MCTSBot`` and ``ISMCTSBot``: a state's value is the mean
    of the returns of ``playouts`` random games played on from it with the rules' own
    functions (:func:`~ethnos_rules.agents.playout`: a band begun finished at random, then
    whole decisions), far cheaper than OpenSpiel's ``RandomRolloutEvaluator``, which plays on
    id by id through the state. The prior is uniform over the legal ids (the chance outcomes'
    probabilities at chance).

    Args:
        playouts: Random games per evaluation (1 by default).
        rng: A :class:`random.Random`, a ``numpy.random.Generator``, or a seed for a new
            :class:`random.Random` (None: unseeded).

    Raises:
        ValueError: ``playouts`` is not a whole number from 1.
        RulesError: (``CHANCE``) ``rng`` is none of those.
    """

    def __init__(self, playouts: int = 1, rng: Any = None) -> None:
        if type(playouts) is not int or playouts < 1:
            raise ValueError(f"playouts must be a whole number from 1, not {playouts!r}")
        self.playouts = playouts
        self.rng = random.Random(rng) if rng is None or type(rng) is int else rng
        check_random(self.rng)

    def evaluate(self, state: EthnosState) -> Any:
        """The mean returns of the playouts from ``state``, one number a seat."""
        total = np.zeros(state.get_game().num_players())
        for _ in range(self.playouts):
            total += returns(playout(state.node, self.rng))
        return total / self.playouts

    def prior(self, state: EthnosState) -> list[tuple[int, float]]:
        """Uniform over the legal ids; at chance, the outcomes' probabilities."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1 / len(legal)) for action in legal]


class BotPlayer(pyspiel.Bot):
    """A library bot (:class:`~ethnos_rules.bots.Bot`, e.g. ``bots.bot("greedy")``) as an
    OpenSpiel bot, to play ``python_ethnos`` beside OpenSpiel's own (``evaluate_bots``, a
    loop of ``bot.step(state)``).

    At the start of a decision it gives the bot what its seat knows
    (:meth:`EthnosState.knowledge`) and plays the bot's choice id by id: a band is its
    Leader's id, then each card's, then ``band done``, over as many calls of :meth:`step`.

    Args:
        bot: The library bot.
        rng: The generator the bot draws with: a :class:`random.Random` or a seed for one.

    Raises:
        SetupError: (``SETUP-1``) ``bot`` has no name, description and ``choose``.
        RulesError: (``CHANCE``) ``rng`` is no random.Random or seed.
    """

    def __init__(self, bot: Bot, rng: random.Random | int | None = None) -> None:
        from ethnos_rules.bots import Bot  # only here: the game itself needs no bots

        pyspiel.Bot.__init__(self)
        if not isinstance(bot, Bot):
            raise SetupError("SETUP-1", f"a bot has a name, description and choose(): {bot!r}")
        self.bot = bot
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        check_random(self.rng)
        self._ids: list[int] = []  # the steps of a band still to take

    def step(self, state: EthnosState) -> int:
        """The next id of the bot's decision for the seat to move in ``state``.

        Raises:
            WrongDecisionError: chance is to move, or the game is over.
            RulesError: a band begun in ``state`` that this bot did not begin.
        """
        if state.node.band:
            if not self._ids:
                raise RulesError("BAND-1", f"{self.bot.name} did not begin the band being built")
            return self._ids.pop(0)
        player = state.current_player()
        if player < 0:
            raise WrongDecisionError("CHANCE", f"{self.bot.name} has nothing to decide here")
        self._ids = list(encode(self.bot.choose(state.knowledge(player), self.rng)))
        return self._ids.pop(0)

    def restart_at(self, state: EthnosState) -> None:
        self._ids = []

    def inform_action(self, state: EthnosState, player_id: int, action: int) -> None:
        pass

    def __repr__(self) -> str:
        return f"BotPlayer({self.bot!r})"


pyspiel.register_game(_GAME_TYPE, EthnosGame)
