"""Bots and learning agents: a fixed integer action space, tensors and returns.

The layer that the OpenSpiel game (:mod:`ethnos_rules.openspiel`) and the PettingZoo environment
(:mod:`ethnos_rules.pettingzoo`) share, for anyone who writes an agent or an adapter of their
own. See the docs page "Bots and learning agents".
"""

from ._agents.bounds import max_chance_events, max_game_length, max_history_tokens
from ._agents.encoding import (
    BAND_DONE,
    BLOCKS,
    NUM_DISTINCT_ACTIONS,
    TOKEN_VALUES,
    Block,
    EncodedState,
    action_id,
    action_text,
    block_of,
    encode,
)
from ._agents.playouts import playout
from ._agents.scaling import Scaler, observation_bounds
from ._agents.tensors import (
    HIDDEN_KEEP,
    HIDDEN_REVEAL,
    NUM_TOKENS,
    OBSERVATION_PIECES,
    SEAT_PIECES,
    SHOWN,
    ObservationWriter,
    Recall,
    history_tensor,
    information_state_tensor,
    information_state_text,
    item_tokens,
    observation_pieces,
    observation_size,
    observation_tensor,
    observation_text,
    returns,
    seen_actions,
    token_text,
)

__all__ = [
    "BAND_DONE",
    "BLOCKS",
    "HIDDEN_KEEP",
    "HIDDEN_REVEAL",
    "NUM_DISTINCT_ACTIONS",
    "NUM_TOKENS",
    "OBSERVATION_PIECES",
    "SEAT_PIECES",
    "SHOWN",
    "TOKEN_VALUES",
    "Block",
    "EncodedState",
    "ObservationWriter",
    "Recall",
    "Scaler",
    "action_id",
    "action_text",
    "block_of",
    "encode",
    "history_tensor",
    "information_state_tensor",
    "information_state_text",
    "item_tokens",
    "max_chance_events",
    "max_game_length",
    "max_history_tokens",
    "observation_bounds",
    "observation_pieces",
    "observation_size",
    "observation_tensor",
    "observation_text",
    "playout",
    "returns",
    "seen_actions",
    "token_text",
]
