"""The action notation (rule NOTATION, the table in ``ethnos_rules._rules.actions``): every kind of
action round-trips through its text, the text is canonical, and malformed text is refused with
MalformedActionError only."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ethnos_rules import (
    DRAGON,
    FIRST_EDITION,
    Action,
    AddToHorde,
    Checkpoint,
    ChooseFirstPlayer,
    ChooseTribe,
    Colour,
    EmptyHorde,
    Keep,
    Kingdom,
    LayTokens,
    MalformedActionError,
    Pass,
    Place,
    PlayBand,
    Recruit,
    Reveal,
    StopChain,
    TakeTroll,
    WizardDraw,
    card,
    parse_action,
    play_random,
)
from helpers import refused

CANONICAL = [
    ("tribe ELF", ChooseTribe(FIRST_EDITION.tribe("ELF"))),
    ("tokens Rhea 2 4 8", LayTokens(Kingdom.RHEA, (2, 4, 8))),
    ("tokens Althea 0 2", LayTokens(Kingdom.ALTHEA, (0, 2))),
    ("first 2", ChooseFirstPlayer(2)),
    ("reveal ELF-red", Reveal(card("ELF-red"))),
    ("reveal SKE", Reveal(card("SKE"))),
    ("reveal DRAGON", Reveal(DRAGON)),
    ("recruit ELF-red", Recruit(card("ELF-red"))),
    ("recruit deck", Recruit(None)),
    ("band *ELF-red", PlayBand(card("ELF-red"))),
    ("band *ELF-red ELF-blue SKE", PlayBand(card("ELF-red"), (card("ELF-blue"), card("SKE")))),
    (
        "band *HAL-red DWA-red HAL-red SKE SKE",
        PlayBand.of(card("HAL-red"), *map(card, ["SKE", "HAL-red", "SKE", "DWA-red"])),
    ),
    ("pass", Pass()),
    ("place Rhea", Place(Kingdom.RHEA)),
    ("place none", Place(None)),
    ("troll 4", TakeTroll(4)),
    ("troll none", TakeTroll(None)),
    ("checkpoint Duris", Checkpoint(Kingdom.DURIS)),
    ("checkpoint none", Checkpoint(None)),
    ("horde add", AddToHorde(True)),
    ("horde none", AddToHorde(False)),
    ("chain stop", StopChain()),
    ("keep ELF-red", Keep(card("ELF-red"))),
    ("keep done", Keep(None)),
    ("wizard 3", WizardDraw(3)),
    ("wizard 0", WizardDraw(0)),
    ("empty red blue", EmptyHorde((Colour.RED, Colour.BLUE))),
    ("empty none", EmptyHorde(())),
]


@pytest.mark.parametrize(("text", "action"), CANONICAL, ids=[t for t, _ in CANONICAL])
def test_canonical_text_round_trips(text: str, action: Action) -> None:
    """NOTATION: each kind of action parses from its canonical text, prints back to it, and
    ``parse_action(str(a)) == a``."""
    assert parse_action(text) == action
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_every_action_kind_is_covered() -> None:
    """NOTATION: the round-trip table above covers every action class of the notation."""
    kinds = {type(a) for _, a in CANONICAL}
    assert kinds == {
        ChooseTribe,
        LayTokens,
        ChooseFirstPlayer,
        Reveal,
        Recruit,
        PlayBand,
        Pass,
        Place,
        TakeTroll,
        Checkpoint,
        AddToHorde,
        StopChain,
        Keep,
        WizardDraw,
        EmptyHorde,
    }


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("band *ELF-red SKE ELF-blue", "band *ELF-red ELF-blue SKE"),
        ("band ELF-blue *ELF-red", "band *ELF-red ELF-blue"),
        ("band SKE *DWA-red SKE DWA-red", "band *DWA-red DWA-red SKE SKE"),
        ("  recruit \t deck  ", "recruit deck"),
        ("tokens Rhea 8 2 4", "tokens Rhea 2 4 8"),
        ("tokens rhea 10 0 4", "tokens Rhea 0 4 10"),
        ("empty blue red", "empty red blue"),
        ("empty RED", "empty red"),
        ("place rhea", "place Rhea"),
        ("checkpoint STRATON", "checkpoint Straton"),
        ("reveal elf-RED", "reveal ELF-red"),
        ("reveal dragon", "reveal DRAGON"),
        ("recruit ske", "recruit SKE"),
        ("tribe elves", "tribe ELF"),
        ("tribe Wingfolk", "tribe WIN"),
        ("keep hal-gray", "keep HAL-gray"),
    ],
)
def test_canonical_form(text: str, canonical: str) -> None:
    """NOTATION: spacing, case of names and order of a band's other cards (and of tokens and
    Horde colours) do not matter; ``str`` gives the one canonical text."""
    action = parse_action(text)
    assert str(action) == canonical
    assert parse_action(canonical) == action


MALFORMED = [
    "",
    "   ",
    "fly",
    "Recruit deck",  # verbs are lower case
    "recruit",
    "recruit ELF-red ELF-blue",
    "recruit ELF",  # a tribe is not a card
    "recruit ELF-pink",
    "recruit SKE-red",  # Skeletons have no colour
    "band",
    "band ELF-red",  # no Leader
    "band *ELF-red *ELF-blue",  # two Leaders
    "band *",
    "band **ELF-red",
    "band *ELF-red XYZ-red",
    "pass now",
    "place",
    "place Atlantis",
    "place Rhea Duris",
    "troll",
    "troll -1",
    "troll x",
    "troll 2.5",
    "checkpoint",
    "checkpoint nowhere",
    "horde",
    "horde maybe",
    "horde add none",
    "chain",
    "chain go",
    "chain stop now",
    "keep",
    "keep all",
    "wizard",
    "wizard -2",
    "wizard all",
    "wizard 1 2",
    "empty pink",
    "empty none red",
    "tokens",
    "tokens Atlantis 0 2 4",
    "tokens Rhea 2 x 4",
    "tokens Rhea -2 4 8",
    "first",
    "first -1",
    "first one",
    "first 1 2",
    "reveal",
    "reveal DRAGONS",
    "reveal ELF-red ELF-red",
    "tribe",
    "tribe XYZ",
    "tribe ELF DWA",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_text_refused(text: str) -> None:
    """NOTATION: text that is not an action raises MalformedActionError with rule NOTATION
    (a ValueError subclass carrying the text)."""
    with pytest.raises(MalformedActionError) as err:
        parse_action(text)
    assert err.value.rule == "NOTATION"
    assert isinstance(err.value, ValueError)
    assert err.value.reason


@pytest.mark.parametrize("text", ["empty", "tokens Rhea"])
def test_missing_arguments_are_malformed(text: str) -> None:
    """NOTATION: a verb without the words its table entry requires is malformed, like
    ``place`` or ``wizard`` alone (``empty none`` is the canonical way to keep the Horde)."""
    with pytest.raises(MalformedActionError):
        parse_action(text)


@pytest.mark.parametrize("value", [None, 3, b"pass", ["pass"]])
def test_non_text_refused(value: object) -> None:
    """NOTATION: only a str is action text."""
    with pytest.raises(MalformedActionError) as err:
        parse_action(value)  # type: ignore[arg-type]
    assert err.value.rule == "NOTATION"


VOCABULARY = [
    "tribe", "tokens", "first", "reveal", "recruit", "band", "pass", "place", "troll",
    "checkpoint", "horde", "chain", "keep", "wizard", "empty", "ELF", "elves", "ELF-red",
    "*ELF-red", "*SKE", "SKE", "DWA-blue", "*", "**", "-", "DRAGON", "deck", "none", "done",
    "add", "stop", "Rhea", "rhea", "red", "blue", "0", "2", "10", "-1", "²", "٣", "1.5", "",
    "ELF-", "-red", "*ELF-red*",
]  # fmt: skip


def _parse_or_refuse(text: str) -> Action | None:
    try:
        return parse_action(text)
    except MalformedActionError as err:
        assert err.rule == "NOTATION"
        return None


@given(st.lists(st.sampled_from(VOCABULARY), max_size=6).map(" ".join))
def test_word_salad_never_raises_another_exception(text: str) -> None:
    """NOTATION: any sequence of notation-like words is an action or a MalformedActionError;
    an accepted text's canonical form parses back to the same action."""
    action = _parse_or_refuse(text)
    if action is not None:
        assert parse_action(str(action)) == action


@given(st.text(max_size=40))
def test_arbitrary_text_never_raises_another_exception(text: str) -> None:
    """NOTATION: arbitrary Unicode text is an action or a MalformedActionError, nothing else."""
    action = _parse_or_refuse(text)
    if action is not None:
        assert parse_action(str(action)) == action


CARDS = st.sampled_from(FIRST_EDITION.cards)
KINGDOMS = st.sampled_from(list(Kingdom))
NATURALS = st.integers(min_value=0, max_value=99)

ACTIONS: st.SearchStrategy[Action] = st.one_of(
    st.sampled_from(FIRST_EDITION.tribes).map(ChooseTribe),
    st.builds(
        LayTokens, KINGDOMS, st.lists(NATURALS, min_size=1, max_size=3).map(sorted).map(tuple)
    ),
    NATURALS.map(ChooseFirstPlayer),
    st.one_of(CARDS, st.just(DRAGON)).map(Reveal),
    st.one_of(CARDS, st.none()).map(Recruit),
    st.builds(lambda lead, rest: PlayBand.of(lead, *rest), CARDS, st.lists(CARDS, max_size=9)),
    st.just(Pass()),
    st.one_of(KINGDOMS, st.none()).map(Place),
    st.one_of(NATURALS, st.none()).map(TakeTroll),
    st.one_of(KINGDOMS, st.none()).map(Checkpoint),
    st.booleans().map(AddToHorde),
    st.just(StopChain()),
    st.one_of(CARDS, st.none()).map(Keep),
    NATURALS.map(WizardDraw),
    st.sets(st.sampled_from(list(Colour))).map(sorted).map(tuple).map(EmptyHorde),
)


@given(ACTIONS)
def test_any_action_round_trips(action: Action) -> None:
    """NOTATION: ``parse_action(str(a)) == a`` for generated actions of every kind, and the text
    is already canonical."""
    text = str(action)
    assert parse_action(text) == action
    assert str(parse_action(text)) == text


def test_recorded_game_round_trips() -> None:
    """NOTATION: every decision of a whole random game (chance included) round-trips."""
    game = play_random(4, seed=3)
    for action in game.actions:
        assert parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["place ıthys", "recruit ſke", "place Ｒhea", "tribe ＥＬＦ"])
def test_look_alike_letters_are_malformed(text: str) -> None:
    """NOTATION: the notation is plain ASCII; look-alike letters that ``str.upper`` would fold
    into a kingdom or card name are refused, not read as that name."""
    with pytest.raises(MalformedActionError) as err:
        parse_action(text)
    assert "ASCII" in err.value.reason


# --- odd input: non-text, odd characters, huge numbers, tolerated spellings ----------------------


@pytest.mark.parametrize("value", [None, b"recruit deck", 5, ["pass"], Pass()])
def test_parse_action_needs_text(value: Any) -> None:
    """NOTATION: only a str is parsed."""
    err = refused(lambda: parse_action(value), MalformedActionError)
    assert "must be a str" in err.reason


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty action text"),
        (" \t\n ", "empty action text"),
        ("\x00", "unknown verb"),
        ("🐉", "unknown verb"),
        ("RECRUIT deck", "unknown verb 'RECRUIT'"),
        ("recruit DECK", "unknown card 'DECK'"),
        ("recruit ELF-red\u200b", "plain ASCII"),
        ("recruit ÉLF-red", "plain ASCII"),
        ("band **ELF-red", "unknown card '*ELF-red'"),
        ("band *ELF-red *ELF-red", "exactly one Leader"),
        ("band *DRAGON", "unknown card 'DRAGON'"),
        ("reveal SKE-red", "unknown card 'SKE-red'"),
        ("tokens Rhea ２", "plain ASCII"),
        ("tokens Rhea 2 ٣", "plain ASCII"),
        ("first ¹", "plain ASCII"),
        ("wizard 0x3", "not a non-negative integer"),
        ("wizard -0", "not a non-negative integer"),
        ("troll 4.0", "not a non-negative integer"),
        ("tokens Rhea " + "9" * 5000, "cannot parse"),
        ("place None", "unknown kingdom 'None'"),
        ("place Rhea Duris", "expected one word"),
        ("horde ADD", "expected 'add' or 'none'"),
        ("chain go", "unknown action 'chain go'"),
        ("empty none red", "unknown colour 'none'"),
        ("empty gray grey", "unknown colour 'grey'"),
        ("pass now", "expected nothing after the verb"),
        ("x" * 100_000, "unknown verb"),
        ("recruit " + "ELF-red" * 10_000, "unknown card"),
    ],
)
def test_parse_action_odd_text(text: str, words: str) -> None:
    """NOTATION: odd text — control characters, emoji, look-alike digits and letters,
    zero-width spaces, huge numbers, very long strings — is a MalformedActionError that says
    what could not be read and keeps the text."""
    err = refused(lambda: parse_action(text), MalformedActionError)
    assert err.rule == "NOTATION" and words in err.reason
    if text.strip():
        assert err.action == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("recruit\tdeck", "recruit deck"),
        ("  recruit \n deck  ", "recruit deck"),
        ("recruit\u00a0deck", "recruit deck"),
        ("recruit elf-RED", "recruit ELF-red"),
        ("place rhea", "place Rhea"),
        ("reveal dragon", "reveal DRAGON"),
        ("band SKE *ELF-red ELF-blue", "band *ELF-red ELF-blue SKE"),
        ("empty blue red", "empty red blue"),
    ],
)
def test_parse_action_tolerated_spellings_are_canonical(text: str, canonical: str) -> None:
    """NOTATION: white space of any kind and the case of cards and kingdoms are tolerated, and
    the action is written back in canonical form."""
    assert str(parse_action(text)) == canonical


NOTATION_WORDS = [
    "tribe", "tokens", "first", "reveal", "recruit", "band", "pass", "place", "troll",
    "checkpoint", "horde", "chain", "keep", "wizard", "empty", "deck", "none", "add", "stop",
    "done", "DRAGON", "ELF-red", "*ELF-red", "SKE", "*SKE", "Rhea", "red", "0", "3", "-1", "99",
    "ıthys", "ſke", "Ｒhea", "*", "**", "\t", "\u200b", "İ",
]  # fmt: skip


@given(st.lists(st.sampled_from(NOTATION_WORDS) | st.text(max_size=6), max_size=6).map(" ".join))
def test_parse_action_never_raises_anything_else(text: str) -> None:
    """NOTATION: notation words mixed with look-alike letters and arbitrary text give an action
    whose canonical text parses back to it, or a MalformedActionError — nothing else."""
    try:
        action = parse_action(text)
    except MalformedActionError as err:
        assert err.rule == "NOTATION"
        return
    assert parse_action(str(action)) == action


@given(st.lists(st.sampled_from(NOTATION_WORDS) | st.text(max_size=6), max_size=6).map(" ".join))
def test_a_parsed_action_is_well_formed(text: str) -> None:
    """What parse_action builds passes the action's own check: the replay of a record's texts
    applies a text parsed before without checking its fields again (apply_well_formed)."""
    try:
        action = parse_action(text)
    except MalformedActionError:
        return
    action.check()
