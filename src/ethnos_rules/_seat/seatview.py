"""What one seat knows: a game as the player in one seat saw it, and replaying such a game.

A player sees every public event and their own cards. They do not see the cards the other
players draw (starting cards, recruits from the deck, Wizards' draws), the cards those players'
Elves keep, or the hands they discard at the end of an Age. The events of
:func:`~ethnos_rules.step` say who sees what (``visible_to``), so :func:`seat_actions` writes a
whole game as one seat saw it: an unseen card is ``?`` (``reveal ?``, ``keep ?``), and the rest
of another player's hand, which goes face up into the row, is shown (``rest CARDS``).

:func:`seat_decisions` replays such a record. It plays the game on a *witness*: a complete state
consistent with everything the seat saw, in which the other players' unseen cards are one
possibility. When a decision shows cards the witness did not give that player (a band, the rest
of a hand, a pass with ten Skeletons), their unseen cards are relabelled: each takes a card whose
place the seat does not know, from the deck or from another player's unseen cards. If no
relabelling lets the rules accept the decision, no complete game fits the record.

Why this is exact. Within an Age a card drawn unseen can be any card of the deck: the deck is
shuffled uniformly, and a card still in the deck now was in it at every earlier draw of the Age.
Nothing the seat saw depends on which card it was until it is shown. So whether a record fits
depends only on which cards each player shows, and when; the witness keeps exactly that freedom,
since every card still unseen may be relabelled at any time. At the start of each Age every card
goes back into the deck, so nothing unseen carries over.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Generator, Iterator, Sequence
from typing import TypeGuard

import attrs

from .._replay.replay import Decision, Refusal, new_decision
from .._rules.actions import Action, Keep, Pass, PlayBand, RestShown, Reveal, StopChain
from .._rules.bands import band_actions, leaders
from .._rules.chance import DrawPending
from .._rules.components import DRAGON, HIDDEN, Card, multiset_add
from .._rules.engine import Step, step
from .._rules.errors import HiddenCardError, IllegalActionError, RulesError, WrongDecisionError
from .._rules.events import (
    AgeBegan,
    BandPlayed,
    CardDrawn,
    CardKept,
    ChainOffered,
    Event,
    Passed,
    Recruited,
    RestToRow,
)
from .._rules.notation import parse_action
from .._rules.said import and_said, cards_said, said, said_list, said_n, word
from .._rules.state import GameState, Stage, copy_player, copy_state
from .._rules.tribes import KeepPending
from .._rules.turn import can_recruit


def seat_actions(start: GameState, actions: Sequence[Action], seat: int) -> tuple[Action, ...]:
    """The decisions of a whole game as the player in ``seat`` saw them: a card another player
    draws or keeps unseen becomes ``?``, and the rest of another player's hand going face up
    into the row is shown after the decision that discards it (``rest CARDS``).

    Raises:
        RulesError: a decision the rules refuse.
    """
    out: list[Action] = []
    state = start
    for action in actions:
        result = step(state, action)
        out += seen_items(action, result.events, seat)
        state = result.state
    return tuple(out)


def seen_items(action: Action, events: Sequence[Event], seat: int) -> list[Action]:
    """One decision, whose events are ``events``, as the player in ``seat`` records it: the
    decision, its unseen card as ``?``, and then the rest of another player's hand it shows."""
    unseen = [e for e in events if isinstance(e, CardDrawn | CardKept) and not _sees(e, seat)]
    if unseen:
        action = Keep(HIDDEN) if isinstance(action, Keep) else Reveal(HIDDEN)
    return [action, *(RestShown(e.cards) for e in events if _others_rest(e, seat))]


def _sees(event: Event, seat: int) -> bool:
    return event.visible_to is None or seat in event.visible_to


def _others_rest(event: Event, seat: int) -> TypeGuard[RestToRow]:
    return isinstance(event, RestToRow) and event.seat != seat


def turn_owner(state: GameState) -> int | None:
    """The player whose turn it is while the Age is played (their band's follow-ups and their
    draws included), else None."""
    pending = state.pending
    if pending.stage != Stage.PLAY:
        return None
    seats = pending.seats()
    return seats[0] if seats else None


# --- what the seat knows of the other hands -------------------------------------------------------


@attrs.define
class Seen:
    """What one seat knows of the other players' hands: the cards of theirs it has seen
    (taken from the row, and not shown since), and who holds only Skeletons (a pass)."""

    seat: int
    known: tuple[Counter[Card], ...]
    locked: tuple[bool, ...]

    @classmethod
    def at_start(cls, seat: int, players: int) -> Seen:
        """Nothing seen yet."""
        return cls(seat, (Counter(),) * players, (False,) * players)

    def copy(self) -> Seen:
        """An independent copy (the counters are never changed in place, only replaced)."""
        return Seen(self.seat, self.known, self.locked)

    def learn(self, events: Sequence[Event]) -> None:
        """Take in what ``events`` show the seat."""
        for event in events:
            if isinstance(event, AgeBegan):
                self.known = (Counter(),) * len(self.known)
                self.locked = (False,) * len(self.known)
            elif getattr(event, "seat", self.seat) == self.seat:
                continue
            elif isinstance(event, Recruited) and event.card is not None:
                self._know(event.seat, self.known[event.seat] + Counter((event.card,)))
            elif isinstance(event, BandPlayed | RestToRow) and self.known[event.seat]:
                cards = event.band.cards if isinstance(event, BandPlayed) else event.cards
                self._know(event.seat, self.known[event.seat] - Counter(cards))
            elif isinstance(event, Passed):
                self.locked = (*self.locked[: event.seat], True, *self.locked[event.seat + 1 :])

    def _know(self, player: int, cards: Counter[Card]) -> None:
        self.known = (*self.known[:player], cards, *self.known[player + 1 :])

    def unseen(self, state: GameState, player: int) -> Counter[Card]:
        """The witness's labels of the cards of ``player`` that the seat has not seen."""
        return Counter(state.players[player].hand) - self.known[player]


def whereabouts(state: GameState, seen: Seen, card: Card, player: int | None = None) -> str:
    """Where the seat knows the copies of ``card`` are, but in ``player``'s hand: where it sees
    them, and where it knows they must be (a hand that passed holds only Skeletons), e.g.
    ``seat 0's band and the row``, or with how many in each place when a kind has more than
    two copies (``2 in seat 0's band and 10 in seat 1's hand (it passed, so it holds only
    Skeletons)``). ``nowhere`` if it knows of none."""
    return _places_text(_places(state, seen, card, player), state.rules.copies[card.index])


def _places(state: GameState, seen: Seen, card: Card, player: int | None) -> list[tuple[int, str]]:
    """How many copies of ``card`` the seat knows in each place, ``player``'s hand left out."""
    places: list[tuple[int, str]] = []
    if state.row.count(card):
        places.append((state.row.count(card), word("the row")))
    for q, held in enumerate(state.players):
        bands = [band.cards.count(card) for band in held.bands if card in band.cards]
        if len(bands) == 1:
            places.append((sum(bands), said("seat {seat}'s band", seat=q)))
        elif bands:
            places.append((sum(bands), said("seat {seat}'s bands", seat=q)))
    for q, held in enumerate(state.players):
        if q == player:
            continue
        if q == seen.seat and held.hand.count(card):
            places.append((held.hand.count(card), said("seat {seat}'s hand", seat=q)))
        elif seen.locked[q] and held.hand.count(card):
            where = said("seat {seat}'s hand (it passed, so it holds only Skeletons)", seat=q)
            places.append((held.hand.count(card), where))
        elif q != seen.seat and seen.known[q][card]:
            where = said("seat {seat}'s hand (taken from the row)", seat=q)
            places.append((seen.known[q][card], where))
    return places


def _places_text(places: list[tuple[int, str]], copies: int) -> str:
    if not places:
        return word("nowhere")
    if copies <= 2 or len(places) == 1:
        return and_said([where for _, where in places])
    return and_said([said("{n} in {where}", n=n, where=where) for n, where in places])


def _shortage(state: GameState, seen: Seen, player: int, card: Card, need: Need) -> str:
    """Why ``player``'s hand cannot hold as many copies of ``card`` as ``need`` asks."""
    copies = state.rules.copies[card.index]
    places = _places(state, seen, card, player)
    free = copies - sum(n for n, _ in places)
    passed: str = ""  # a hand that passed: why it must hold only Skeletons
    if need.skeletons_only:
        held = len(state.players[player].hand)
        passed = said_n(
            "seat {player} passes with a full hand, so its {n} card are all Skeletons; but",
            "seat {player} passes with a full hand, so its {n} cards are all Skeletons; but",
            held,
            player=player,
        )
    else:
        held = need.cards[card] or 1
    if card.tribe not in state.tribes:
        text = said("{tribe} are not in play", tribe=word(card.tribe.name))
        if passed:
            return said("{passed} {text}", passed=passed, text=text)
        return said(
            "{text}, so seat {player} cannot hold {card}", text=text, player=player, card=card
        )
    if free <= 0:
        where = _places_text(places, copies)
        if copies > 2 and len(places) > 1:
            where = said("elsewhere: {where}", where=where)
        else:
            where = said("in {where}", where=where)
        if copies == 1:
            text = said("the only {card} is already {where}", card=card, where=where)
        elif copies == 2:
            text = said("both {card} are already {where}", card=card, where=where)
        else:
            text = said(
                "all {copies} {card} are already {where}", copies=copies, card=card, where=where
            )
        if passed:
            return said("{passed} {text}", passed=passed, text=text)
        return said("{text}, so seat {player} cannot hold one more", text=text, player=player)
    located = [said_n("{n} is in {where}", "{n} are in {where}", n, where=w) for n, w in places]
    text = said(
        "only {free} of the {copies} {card} can be in its hand: {located}",
        free=free,
        copies=copies,
        card=card,
        located=and_said(located),
    )
    if not places:
        text = said("the game has only {copies} {card}", copies=copies, card=card)
    if passed:
        return said("{passed} {text}", passed=passed, text=text)
    return said(
        "seat {player} must hold {held} {card} here, but {text}",
        player=player,
        held=held,
        card=card,
        text=text,
    )


# --- relabelling the witness ---------------------------------------------------------------------


@attrs.frozen
class Need:
    """What a player's hand must hold for the decisions seen: ``cards`` (bands and a rest shown),
    only Skeletons (a pass), and, with ``chain_after``, a card that can lead a band besides
    the cards of the turn's bands (a Centaur chain was offered after the last one, and
    stopped)."""

    cards: Counter[Card] = attrs.field(factory=Counter)
    skeletons_only: bool = False
    chain_after: Counter[Card] | None = None


def relabel(state: GameState, seen: Seen, player: int, need: Need) -> tuple[GameState, str | None]:
    """``state`` with ``player``'s unseen cards relabelled so that the hand holds ``need``: each
    new label comes from the deck or from another player's unseen cards (who takes the old
    label), so nothing the seat saw changes. The second value says why it is impossible."""
    hand = state.players[player]
    known, labels = seen.known[player], seen.unseen(state, player)
    if need.skeletons_only:
        leads = leaders(state.rules)
        if any(c in leads for c in known):
            shown = cards_said(sorted(c for c in known if c in leads))
            why = said(
                "seat {player} passes holding {shown}, which can form a band (TURN-3)",
                player=player,
                shown=shown,
            )
            return state, why
        skeleton = next((c for c in state.rules.cards if c not in leads), None)
        if skeleton is None:  # an edition without Skeletons
            why = said(
                "seat {player} passes, but every card of this edition can lead a band",
                player=player,
            )
            return state, why
        wanted = Counter({skeleton: labels.total()})
    elif seen.locked[player]:  # a hand that passed is full, so it stays as it is all Age
        shown = cards_said(sorted(need.cards.elements()))
        why = said(
            "seat {player} passed earlier this Age with a full hand, so it holds only Skeletons "
            "and cannot take a card before the Age ends (TURN-3); it cannot show {shown}",
            player=player,
            shown=shown,
        )
        return state, why
    else:
        wanted = _with_band_leader(state, seen, player, need, need.cards - known)
    if wanted.total() > labels.total():
        why = said(
            "{holding}, too few for {cards}",
            holding=_holding(player, len(hand.hand), known),
            cards=cards_said(sorted(wanted.elements())),
        )
        return state, why
    missing, spare = wanted - labels, labels - wanted
    players, deck = list(state.players), list(state.deck)
    donors: dict[int, Counter[Card]] | None = None  # asked only if the deck lacks a card
    for card in sorted(missing.elements()):
        give = min(spare)
        spare = +(spare - Counter((give,)))
        if deck[card.index]:
            deck[card.index] -= 1
            deck[give.index] += 1
            continue
        if donors is None:
            donors = {q: seen.unseen(state, q) for q in _donors(seen, player)}
        donor = next((q for q, theirs in donors.items() if theirs[card]), None)
        if donor is None:
            return state, _shortage(state, seen, player, card, need)
        donors[donor] += Counter((give,))
        donors[donor] -= Counter((card,))
        cards = (*seen.known[donor].elements(), *donors[donor].elements())
        players[donor] = copy_player(players[donor], hand=multiset_add((), cards))
    mine = (*known.elements(), *wanted.elements(), *spare.elements())
    players[player] = copy_player(hand, hand=multiset_add((), mine))
    return copy_state(state, players=tuple(players), deck=tuple(deck)), None


def _holding(player: int, held: int, known: Counter[Card]) -> str:
    """What the seat knows of ``player``'s ``held`` cards, ``known`` taken from the row."""
    if held == 0:
        return said("seat {player} holds no cards", player=player)
    if not known:
        return said_n(
            "seat {player} holds {n} card", "seat {player} holds {n} cards", held, player=player
        )
    unseen = held - known.total()
    return said_n(
        "seat {player} holds {n} card: {taken} taken from the row and {unseen} unseen",
        "seat {player} holds {n} cards: {taken} taken from the row and {unseen} unseen",
        held,
        player=player,
        taken=cards_said(sorted(known.elements())),
        unseen=unseen or word("none"),
    )


def _donors(seen: Seen, player: int) -> list[int]:
    """The players whose unseen cards may be relabelled to give ``player`` a card."""
    return [
        q for q in range(len(seen.known)) if q not in (player, seen.seat) and not seen.locked[q]
    ]


def _with_band_leader(
    state: GameState, seen: Seen, player: int, need: Need, wanted: Counter[Card]
) -> Counter[Card]:
    """With ``chain_after``: make sure one more unseen card can lead a band, if none of the
    cards the hand must hold besides those bands can: one of the player's own unseen cards if
    it can, else a card of the deck or of another player's unseen cards."""
    if need.chain_after is None:
        return wanted
    remaining = seen.known[player] + wanted - need.chain_after
    if any(band_actions((card,)) for card in remaining):
        return wanted
    labels = seen.unseen(state, player)
    deck = Counter({c: n for c, n in zip(state.rules.cards, state.deck, strict=True) if n})
    others = sum((seen.unseen(state, q) for q in _donors(seen, player)), Counter())
    for source in (labels - wanted, deck + others - (wanted - labels)):
        leader = next((c for c in sorted(source) if band_actions((c,))), None)
        if leader is not None:
            return wanted + Counter((leader,))
    return wanted


def in_deck(state: GameState, seen: Seen, card: Card) -> GameState:
    """``state`` with a copy of ``card`` in the deck: if the deck has none, one player whose
    unseen cards include it (by the witness's labels) takes a card of the deck instead. If no
    unseen card can be it, or no card is being drawn (the deck is not yet made while tribes are
    chosen), ``state`` as it is: the rules then refuse the draw."""
    deck = list(state.deck)
    if not isinstance(state.pending, DrawPending) or not 0 <= card.index < len(deck):
        return state
    if deck[card.index]:
        return state
    swap = next((c for c, n in zip(state.rules.cards, deck, strict=True) if n), None)
    for other, player in enumerate(state.players):
        if other == seen.seat or seen.locked[other] or not seen.unseen(state, other)[card]:
            continue
        if swap is None:
            return state
        hand = list(player.hand)
        hand.remove(card)
        deck[card.index] += 1
        deck[swap.index] -= 1
        players = list(state.players)
        players[other] = copy_player(player, hand=multiset_add(tuple(hand), [swap]))
        return copy_state(state, players=tuple(players), deck=tuple(deck))
    return state


# --- replaying a record kept at one seat --------------------------------------------------------


@attrs.define
class _Turn:
    """Another player's turn under way: where it began, and what its decisions showed."""

    player: int
    start: GameState
    seen: Seen
    first: int
    bands: list[Counter[Card]] = attrs.field(factory=list)
    rest: Counter[Card] | None = None
    chain_after: Counter[Card] | None = None
    played: int = 0
    decisions: list[Decision] = attrs.field(factory=list)
    rested: bool = False
    tried: set[tuple[object, ...]] = attrs.field(factory=set)

    def need(self, shown_so_far: int = 0) -> Need:
        """What the hand must still hold, after the first ``shown_so_far`` bands."""
        cards = sum(self.bands[shown_so_far:], Counter()) + (self.rest or Counter())
        return Need(cards, chain_after=self.chain_after if shown_so_far == 0 else None)

    def learnt(self) -> tuple[object, ...]:
        """What the turn is known to show (bands, rest, a chain stopped), as a key."""
        return (
            tuple(_key(band) for band in self.bands),
            None if self.rest is None else _key(self.rest),
            None if self.chain_after is None else _key(self.chain_after),
        )


def _key(cards: Counter[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards.elements()))


@attrs.frozen
class _Restart:
    """The turn must be played again from its start, knowing more of what it showed."""

    rest: Counter[Card] | None = None
    band: Counter[Card] | None = None
    stop: bool = False
    decision: Decision | None = None
    discarded: bool = False


Item = tuple[int, str, Action | RulesError]
"""A record's item: its index, its text, and the action read from it (or why it is not one)."""


class SeatReplay:
    """Replays the items of a record kept at ``seat`` from ``start`` on a witness state."""

    def __init__(self, start: GameState, seat: int, events: bool = True) -> None:
        self.state = start
        self.seat = seat
        self.seen = Seen.at_start(seat, start.config.players)
        self.events = events
        self.turn: _Turn | None = None

    def run(self, items: Sequence[Item], kept: _Kept | None = None) -> Iterator[Decision | Refusal]:
        """A :class:`Decision` for each decision (an observation is folded into the decision
        it follows), or a :class:`Refusal` of the first that no complete game fits. With
        ``kept``, from its last checkpoint (whose items these share), keeping new ones."""
        i = 0
        if kept is not None:
            i = yield from kept.resume(self)
        for told in self._run(items, i, kept):
            if kept is not None and isinstance(told, Decision):
                kept.decisions.append(told)
            yield told

    def _run(
        self, items: Sequence[Item], i: int, kept: _Kept | None
    ) -> Iterator[Decision | Refusal]:
        while i < len(items):
            if kept is not None and self.turn is None:
                kept.checkpoint(self, i)
            index, text, action = items[i]
            if isinstance(action, RulesError):
                yield from self._flush()
                yield Refusal(index, text, self.state, action)
                return
            owner = turn_owner(self.state)
            if self.turn is not None and owner != self.turn.player:
                yield from self._flush()
            if self.turn is None and owner is not None and owner != self.seat:
                self.turn = _Turn(owner, self.state, self.seen.copy(), i)
            played = self._play(items, i, action)
            outcome = self._restart(items, i, played) if isinstance(played, _Restart) else played
            if isinstance(outcome, Refusal):
                yield from self._flush()
                yield outcome
                return
            i, decision = outcome
            if decision is None:
                continue
            if self.turn is not None:
                self.turn.decisions.append(decision)
            else:
                yield decision
        yield from self._flush()

    def _flush(self) -> Iterator[Decision]:
        if self.turn is not None:
            yield from self.turn.decisions
            self.turn = None

    # --- one item ------------------------------------------------------------------------------

    def _play(
        self, items: Sequence[Item], i: int, action: Action
    ) -> tuple[int, Decision | None] | Refusal | _Restart:
        index, text, _ = items[i]
        before = self.state
        if isinstance(action, RestShown):
            why = said(
                "a 'rest' follows a decision that discards the rest of another player's hand"
            )
            return Refusal(index, text, before, WrongDecisionError("BAND-6", why, action))
        try:
            self._check_seen(action)
            concrete = self._concrete(action)
            prepared = self._prepare(concrete)
            result = step(prepared, concrete)
        except RulesError as err:
            return Refusal(index, text, before, err)
        shown = [e for e in result.events if _others_rest(e, self.seat)]
        following = items[i + 1][2] if i + 1 < len(items) else None
        restart = self._observed(shown, following, action)
        chain = isinstance(restart, _Restart) and restart.rest is None
        if chain and self._chain_world(prepared, concrete) is None:  # no chain can go on here
            restart = self._unshown(shown)
        if isinstance(restart, str):
            chained = self._chain_world(before, concrete)
            if chained is None:
                return Refusal(index, text, before, WrongDecisionError("BAND-6", restart, action))
            result, shown = chained, []  # then the record's next item is refused there
        events = tuple(e for e in result.events if _sees(e, self.seat)) if self.events else ()
        if isinstance(restart, _Restart):
            # Should the turn fit nothing, the decision may stand and what follows be refused.
            events = tuple(e for e in events if not _others_rest(e, self.seat))
            decision = new_decision(index, text, prepared, action, result.state, events)
            return attrs.evolve(restart, decision=decision, discarded=bool(shown))
        self.seen.learn(result.events)
        self.state = result.state
        if shown and self.turn is not None:
            self.turn.rested = True  # a turn puts the rest of the hand into the row once
        decision = new_decision(index, text, prepared, action, result.state, events)
        return i + (2 if shown else 1), decision

    def _chain_world(self, before: GameState, action: Action) -> Step | None:
        """``action`` played where the player's hand holds a card that can lead a band, if that
        offers a Centaur chain (so that nothing is discarded yet); else None."""
        if self.turn is None:
            return None
        band = Counter(action.cards) if isinstance(action, PlayBand) else Counter()
        need = Need(band, chain_after=band)  # a leader besides the band played now, if any
        state, why = relabel(before, self.seen, self.turn.player, need)
        if why is not None:
            return None
        try:
            result = step(state, action)
        except RulesError:
            return None
        return result if any(isinstance(e, ChainOffered) for e in result.events) else None

    def _check_seen(self, action: Action) -> None:
        """Refuse a card the seat could not see, and a ``?`` for one it saw."""
        pending, seat = self.state.pending, self.seat
        if isinstance(action, Reveal) and isinstance(pending, DrawPending):
            receiver = pending.receiver(self.state)
            if action.hidden and receiver is None:
                raise HiddenCardError(
                    "CHANCE", said("a row card is turned face up: name it"), action
                )
            if action.hidden and receiver == seat:
                raise HiddenCardError(
                    "CHANCE", said("seat {seat} draws this card: name it", seat=seat), action
                )
            if not action.hidden and receiver not in (None, seat) and action.card != _DRAGON:
                raise HiddenCardError(
                    "CHANCE",
                    said(
                        "seat {seat} does not see the card seat {receiver} draws: write 'reveal ?'",
                        seat=seat,
                        receiver=receiver,
                    ),
                    action,
                )
        if isinstance(action, Keep) and isinstance(pending, KeepPending) and action.card:
            if action.hidden and pending.seat == seat:
                raise HiddenCardError(
                    "TRIBE-ELF-1", said("seat {seat} keeps this card: name it", seat=seat), action
                )
            if not action.hidden and pending.seat != seat:
                raise HiddenCardError(
                    "TRIBE-ELF-1",
                    said(
                        "seat {seat} does not see the card seat {seat2} keeps: write 'keep ?'",
                        seat=seat,
                        seat2=pending.seat,
                    ),
                    action,
                )

    def _concrete(self, action: Action) -> Action:
        """The witness's choice for a card the seat did not see."""
        pending = self.state.pending
        if isinstance(action, Reveal) and action.hidden and isinstance(pending, DrawPending):
            deck = self.state.deck  # the likeliest card kind: the one with most copies left
            most = max(range(len(deck)), key=deck.__getitem__, default=0)
            if not deck or not deck[most]:
                why = said("only Dragons are left in the deck, and a Dragon drawn is seen by all")
                raise IllegalActionError("CHANCE", why, action)
            return Reveal(self.state.rules.cards[most])
        if isinstance(action, Keep) and action.hidden and isinstance(pending, KeepPending):
            candidates = pending.candidates(self.state)
            turn = self.turn
            if turn is not None and turn.rest is not None:
                hand = Counter(self.state.players[pending.seat].hand)
                kept = hand - Counter(pending.kept) - turn.rest
                candidates = tuple(c for c in candidates if kept[c]) or candidates
            if not candidates:
                raise IllegalActionError("TRIBE-ELF-1", said("no card can be kept here"), action)
            return Keep(candidates[0])
        return action

    def _prepare(self, action: Action) -> GameState:
        """The witness, relabelled so that a card the seat sees drawn is still in the deck, or
        so that another player's hand holds what ``action`` shows."""
        turn, state = self.turn, self.state
        if isinstance(action, Reveal) and isinstance(action.card, Card):
            return in_deck(state, self.seen, action.card)
        if turn is None or state.pending.seat != turn.player:
            return state
        if isinstance(action, PlayBand):
            if turn.played >= len(turn.bands):
                turn.bands.append(Counter(action.cards))
            need = turn.need(turn.played)
            turn.played += 1
            rule = "BAND-1"
        elif isinstance(action, Pass) and not can_recruit(state, turn.player):
            need, rule = Need(skeletons_only=True), "TURN-3"
        else:
            return state
        relabelled, why = relabel(state, self.seen, turn.player, need)
        if why is not None:
            raise IllegalActionError(rule, why, action)
        return relabelled

    def _observed(
        self, shown: list[RestToRow], following: Action | RulesError | None, action: Action
    ) -> _Restart | str | None:
        """Whether the rest of another player's hand, as the witness discarded it, is what the
        record shows next; else what to learn (a restart) or why the record is wrong."""
        rest = following if isinstance(following, RestShown) else None
        if not shown:  # a rest here may fit if the hand could not go on (a Centaur chain)
            if rest is None or self.turn is None or self.turn.rested:
                return None  # then the rest itself is refused, as out of place
            return _Restart(rest=Counter(rest.cards))
        cards = Counter(shown[0].cards)
        if rest is not None and len(rest.cards) != len(shown[0].cards):
            return self._misfit(shown[0], rest)  # how many cards a hand holds is public
        if rest is not None:
            return None if Counter(rest.cards) == cards else _Restart(rest=Counter(rest.cards))
        if isinstance(following, PlayBand):
            return _Restart(band=Counter(following.cards))
        if isinstance(following, StopChain):
            return _Restart(stop=True)
        return self._unshown(shown)

    @staticmethod
    def _misfit(shown: RestToRow, rest: RestShown) -> str:
        """Why ``rest`` is not the rest of the hand ``shown`` discards: it has more or fewer
        cards than the hand holds (which every seat can count)."""
        held, shows = len(shown.cards), len(rest.cards)
        if shows > held:
            return said(
                "seat {seat} holds {held} when the rest of its hand goes face up into the row "
                "here, but the 'rest' that follows shows {shows} ({cards}): more than the hand "
                "holds",
                seat=shown.seat,
                held=said_n("{n} card", "{n} cards", held),
                shows=said_n("{n} card", "{n} cards", shows),
                cards=cards_said(rest.cards),
            )
        return said(
            "seat {seat} holds {held} when the rest of its hand goes face up into the row "
            "here, but the 'rest' that follows shows {shows} ({cards}): fewer than the hand "
            "holds",
            seat=shown.seat,
            held=said_n("{n} card", "{n} cards", held),
            shows=said_n("{n} card", "{n} cards", shows),
            cards=cards_said(rest.cards),
        )

    def _unshown(self, shown: list[RestToRow]) -> str:
        return said(
            "the rest of seat {seat}'s hand ({cards}) goes face up into the row here; a "
            "record kept at seat {kept} shows it with 'rest ...'",
            seat=shown[0].seat,
            cards=said_n("{n} card", "{n} cards", len(shown[0].cards)),
            kept=self.seat,
        )

    def _restart(
        self, items: Sequence[Item], i: int, learnt: _Restart
    ) -> tuple[int, None] | Refusal:
        """Play the turn again from its start, its hand relabelled for what it showed."""
        turn = self.turn
        assert turn is not None and learnt.decision is not None
        progress = False
        if learnt.rest is not None and turn.rest != learnt.rest:
            turn.rest, progress = learnt.rest, True
        if learnt.band is not None and len(turn.bands) <= turn.played:
            turn.bands.append(learnt.band)  # a Centaur chain goes on with it
            progress = True
        if learnt.stop and turn.chain_after != sum(turn.bands, Counter()):
            turn.chain_after, progress = sum(turn.bands, Counter()), True
        if progress:  # never the same again: what two parts of the turn show may contradict
            progress = turn.learnt() not in turn.tried
            turn.tried.add(turn.learnt())
        if not progress:
            why = said(
                "no hand of seat {seat} fits what this turn shows: {shown}",
                seat=turn.player,
                shown=self._shown_text(turn),
            )
            return self._refuse(items, i, learnt, why)
        start, unfit = relabel(turn.start, turn.seen, turn.player, turn.need())
        if unfit is not None:
            return self._refuse(items, i, learnt, unfit)
        self.state, self.seen = start, turn.seen.copy()
        turn.start, turn.played, turn.decisions, turn.rested = start, 0, [], False
        return turn.first, None

    def _refuse(self, items: Sequence[Item], i: int, learnt: _Restart, why: str) -> Refusal:
        """Refuse what the turn shows, at the decision whose rest or chain it is, or at the item
        after it if some game reaches that item (the decision discards nothing there)."""
        decision = learnt.decision
        assert self.turn is not None and decision is not None
        index, text, action = items[i + 1]
        after = decision.after
        if learnt.discarded:
            chained = self._chain_world(decision.before, decision.action)
            if learnt.rest is None or chained is None:
                error = IllegalActionError("BAND-6", why, items[i][2])
                return Refusal(decision.index, decision.text, decision.before, error)
            after = chained.state
        self.turn.decisions.append(attrs.evolve(decision, after=after))
        return Refusal(index, text, after, IllegalActionError("BAND-6", why, action))

    @staticmethod
    def _shown_text(turn: _Turn) -> str:
        shown = [cards_said(sorted(b.elements())) for b in turn.bands]
        if turn.rest is not None:
            shown.append(said("the rest {cards}", cards=cards_said(sorted(turn.rest.elements()))))
        return said_list(shown, "; ") or word("nothing")


_DRAGON = DRAGON


def seat_decisions(
    start: GameState,
    actions: Sequence[Action | str],
    seat: int,
    *,
    events: bool = True,
    stop: int | None = None,
) -> Iterator[Decision | Refusal]:
    """Replay a record kept at ``seat`` (actions or their texts, ``?`` and ``rest`` included):
    a :class:`Decision` for each decision, on a witness state, with the events the seat saw; or
    a :class:`Refusal` of the first decision that no complete game fits.

    The replays of the last few records are kept at checkpoints between other players' turns,
    so that a record that grows by a decision at a time (a game being played, a bot asking
    again) is replayed from its last checkpoint, not from the start: the witness is the same
    either way, since a turn is played again only from its own start."""
    items: list[Item] = []
    for index, item in enumerate(actions[:stop]):
        text = str(item)
        try:
            items.append((index, text, item if isinstance(item, Action) else parse_action(item)))
        except RulesError as err:
            items.append((index, text, err))
            break
    kept = _REPLAYS.find(start, seat, events, items)
    return SeatReplay(start, seat, events).run(items, kept)


# --- replays kept ---------------------------------------------------------------------------------


@attrs.frozen
class _Checkpoint:
    """A replay between other players' turns: ``at`` items played, ``decisions`` told."""

    at: int
    state: GameState
    seen: Seen
    decisions: int


CHECKPOINT_EVERY = 24
"""Items between two checkpoints of a replay kept."""


@attrs.define
class _Kept:
    """The replay of one record: its item texts, its checkpoints and the decisions told."""

    texts: tuple[str, ...]
    checkpoints: list[_Checkpoint]
    decisions: list[Decision]

    def resume(self, replay: SeatReplay) -> Generator[Decision, None, int]:
        """Set ``replay`` at the last checkpoint, telling the decisions before it; the number
        of items played."""
        if not self.checkpoints:
            return 0
        last = self.checkpoints[-1]
        replay.state, replay.seen = last.state, last.seen.copy()
        yield from self.decisions[: last.decisions]
        return last.at

    def checkpoint(self, replay: SeatReplay, at: int) -> None:
        """Keep where ``replay`` is, at ``at`` items, if it is far enough from the last."""
        last = self.checkpoints[-1].at if self.checkpoints else 0
        if at - last >= CHECKPOINT_EVERY and at < len(self.texts):
            self.checkpoints.append(
                _Checkpoint(at, replay.state, replay.seen.copy(), len(self.decisions))
            )


class _Replays:
    """The replays of the last few records (a lock keeps threads apart)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self.kept: dict[tuple[GameState, int, bool], _Kept] = {}
        self.lock = threading.Lock()

    def find(self, start: GameState, seat: int, events: bool, items: Sequence[Item]) -> _Kept:
        """A new replay kept for ``items``, from the last checkpoint of the replay kept for
        the same start whose texts ``items`` share up to and with that checkpoint's item."""
        texts = tuple(text for _, text, _ in items)
        key = (start, seat, events)
        with self.lock:
            old = self.kept.pop(key, None)
            checkpoints: list[_Checkpoint] = []
            if old is not None:
                checkpoints = [
                    c for c in old.checkpoints if texts[: c.at + 1] == old.texts[: c.at + 1]
                ]
            told = checkpoints[-1].decisions if checkpoints else 0
            kept = _Kept(texts, checkpoints, old.decisions[:told] if old is not None else [])
            self.kept[key] = kept
            while len(self.kept) > self.size:
                del self.kept[next(iter(self.kept))]
        return kept


_REPLAYS = _Replays()
