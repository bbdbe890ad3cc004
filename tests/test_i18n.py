"""The referee's words in other languages (issue 38): the message catalogues are complete and
correct, and the public entry, the play server and the pages say refusals in the language asked.

- every message of the template has a translation in every language, with the same ``{fields}``;
- a translation uses the glossary's word for each game term its English names;
- the compiled ``.mo`` files say what the ``.po`` files say (they are committed);
- the template holds every message the source marks (no message is missed by the extraction);
- a refusal, an event and a decision said in Spanish and Ukrainian through ``translate``.
"""

from __future__ import annotations

import gettext
import json
import re
import string
import tomllib
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from ethnos_rules import (
    FIRST_EDITION,
    LANGUAGES,
    LanguageError,
    RulesError,
    TribeChosen,
    apply,
    parse_action,
    pending_decision,
    position,
    step,
    translate,
)
from ethnos_rules._pictures.drawing import text_width
from ethnos_rules._rules.said import said_n
from ethnos_rules._text import i18n

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "src" / "ethnos_rules" / "locales"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def catalogue(lang: str) -> Catalog:
    with open(LOCALES / lang / "LC_MESSAGES" / "ethnos_rules.po", "rb") as f:
        return read_po(f, locale=lang)


def template() -> Catalog:
    with open(LOCALES / "ethnos_rules.pot", "rb") as f:
        return read_po(f)


def ids(message: Message) -> tuple[str, ...]:
    return (message.id,) if isinstance(message.id, str) else tuple(message.id)


def strings(message: Message) -> tuple[str, ...]:
    return (message.string,) if isinstance(message.string, str) else tuple(message.string or ())


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_four_languages_are_spoken() -> None:
    """English first, then each folder of locales/ with a compiled catalogue."""
    assert LANGUAGES[0] == "en" and {"es", "pt", "uk", "cs"} <= set(LANGUAGES)
    assert i18n.LANGUAGE_NAMES["uk"] == "Українська" and i18n.LANGUAGE_NAMES["cs"] == "Čeština"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str) -> None:
    wanted = {ids(m) for m in template() if m.id}
    have = {ids(m): strings(m) for m in catalogue(lang) if m.id}
    missing = [i[0] for i in wanted if i not in have or not all(have[i])]
    assert not missing, f"{lang}: {len(missing)} untranslated, e.g. {missing[:3]}"
    fuzzy = [m.id for m in catalogue(lang) if m.id and m.fuzzy]
    assert not fuzzy, f"{lang}: fuzzy translations are not used: {fuzzy[:3]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang: str) -> None:
    wrong = []
    for message in catalogue(lang):
        if not message.id:
            continue
        english = set().union(*(fields(i) for i in ids(message)))
        for text in strings(message):
            if text and fields(text) != english:
                wrong.append(f"{ids(message)[0]!r} -> {text!r}")
    assert not wrong, f"{lang}: placeholders dropped or added:\n" + "\n".join(wrong)


# --- the glossary's terms -------------------------------------------------------------------------

NOT_THE_TERM = {
    # (message, term): the English word is there in another sense than the game term's
    ("chance: turn up a row card ({left} left)", "turn"): "'turn up' a card, not a turn",
    ("nothing for {seats} (Age {age} pays {n} place)", "place"): "a place in the ranking",
    ("hordes must be 'empty' or 'keep', not {hordes}", "horde"): "score_now's argument hordes",
    ("Pass the device.", "pass"): "handing the device over",
    ("Pass the device to seat {seat}.", "pass"): "handing the device over",
    ("hot-seat, ", "seat"): "a hot-seat game: one device passed around",
    ("play on this device (hot-seat)", "seat"): "a hot-seat game: one device passed around",
    ("e.g. place Rhea, band *ELF-red ELF-blue, pass", "band"): "notation",
    ("e.g. place Rhea, band *ELF-red ELF-blue, pass", "pass"): "notation",
    (
        "Each option settles a point the rulebook leaves open; the first value is the default "
        "(the guide's page “Rulings and options” says what each means).",
        "ruling",
    ): "the title of an English page",
}
"""A glossary term's English word used in another sense, which the translation rightly does
not say with the term's word."""


def glossary(lang: str) -> dict[str, Any]:
    with open(LOCALES / lang / "glossary.toml", "rb") as f:
        return tomllib.load(f)["terms"]  # type: ignore[no-any-return]


def plain(text: str) -> str:
    """``text`` without what is notation: fields, quoted text, option names and values
    (``elves_keep=exactly_x``), rule ids (``TRIBE-WIN-1``) and card codes (``ELF-red``)."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"'[^']*'", " ", text)
    text = re.sub(r"\S*[_=]\S*|ethnos-rules", " ", text)
    text = re.sub(r"\b[A-Z][A-Z0-9]*(?:-[A-Za-z0-9]+)+\b", " ", text)
    return re.sub(r"\b[A-Z]{2,}\b", " ", text)  # codes: DRAGON, SKE, ASCII


def term_misses(lang: str) -> list[str]:
    terms = glossary(lang)
    misses = []
    for message in catalogue(lang):
        if not message.id:
            continue
        for english, text in zip(ids(message) * 3, strings(message), strict=False):
            said = plain(text).lower()
            for key, term in terms.items():
                if not term.get("checked", True) or (ids(message)[0], key) in NOT_THE_TERM:
                    continue
                if not any(
                    re.search(rf"\b{re.escape(w)}\b", plain(english), re.IGNORECASE)
                    for w in term["en_forms"]
                ):
                    continue
                words = [*term["forms"], term["translation"]]
                if not any(re.search(rf"(?<!\w){re.escape(w.lower())}", said) for w in words):
                    misses.append(f"{key} ({term['translation']}): {english!r} -> {text!r}")
    return misses


@pytest.mark.parametrize("lang", TRANSLATED)
def test_glossary_terms_are_translated_with_the_glossary_words(lang: str) -> None:
    misses = term_misses(lang)
    assert not misses, f"{lang}: terms said otherwise than the glossary:\n" + "\n".join(misses)


def test_a_term_said_otherwise_is_found() -> None:
    """The glossary check fails on a translation that says a term with another word."""
    terms = glossary("es")
    band = terms["band"]
    wrong = "la banda usa cartas".replace("banda", "grupo")
    assert not any(re.search(rf"(?<!\w){re.escape(f)}", wrong) for f in band["forms"])
    assert any(re.search(rf"(?<!\w){re.escape(f)}", "la banda usa cartas") for f in band["forms"])


# --- the compiled catalogues and the extraction ---------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalogue_says_what_the_po_says(lang: str) -> None:
    compiled = i18n.catalogue_of(lang)
    for message in catalogue(lang):
        if not message.id:
            continue
        if isinstance(message.id, str):
            assert compiled.gettext(message.id) == message.string, message.id
        else:
            singular, plural = message.id
            for n in (1, 2, 5, 21, 1_000_000):
                assert compiled.ngettext(singular, plural, n) in strings(message), (singular, n)
    assert compiled.ngettext("{n} card", "{n} cards", 1) != compiled.ngettext(
        "{n} card", "{n} cards", 5
    )


def test_the_template_holds_every_marked_message() -> None:
    import importlib.util
    import os

    if "MUTANT_UNDER_TEST" in os.environ:  # read the sources as text: mutmut's hold every mutant
        pytest.skip("under mutmut the sources hold each mutant's strings, which are no messages")

    spec = importlib.util.spec_from_file_location("messages", ROOT / "scripts" / "messages.py")
    assert spec is not None and spec.loader is not None
    messages = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(messages)
    extracted = {ids(m) for m in messages.extracted() if m.id}
    kept = {ids(m) for m in template() if m.id}
    new, gone = sorted(extracted - kept)[:3], sorted(kept - extracted)[:3]
    assert extracted == kept, f"run `make messages`: new {new}, gone {gone}"


def test_every_tribe_name_is_a_term() -> None:
    assert {t.name for t in FIRST_EDITION.tribes} <= set(i18n.TERMS)


# --- the public entry -----------------------------------------------------------------------------


def band_refusal() -> RulesError:
    state = position(3, ["DWA", "ELF", "GIA", "ORC", "SKE"], hands={0: "ORC-red DWA-blue SKE"})
    with pytest.raises(RulesError) as refused:
        apply(state, parse_action("band *SKE ORC-red"))
    return refused.value


def test_a_refusal_in_spanish_and_ukrainian() -> None:
    err = band_refusal()
    assert err.rule == "BAND-4"
    assert err.reason == "a Skeleton can never be the Leader (TRIBE-SKE-1)"  # unchanged
    assert translate(err) == err.reason
    assert translate(err, "es") == "un Esqueleto nunca puede ser el Líder (TRIBE-SKE-1)"
    assert translate(err, "uk") == "скелет ніколи не може бути Лідером (TRIBE-SKE-1)"


def test_a_refusal_with_values_in_each_language() -> None:
    state = position(3, ["DWA", "ELF", "GIA", "ORC", "SKE"], hands={0: "ORC-red"})
    with pytest.raises(RulesError) as refused:
        apply(state, parse_action("recruit ELF-blue"))
    err = refused.value
    assert "ELF-blue" in err.reason
    said = {lang: translate(err, lang) for lang in LANGUAGES}
    assert said["es"] == "no hay ELF-blue en la fila"
    assert len(set(said.values())) == len(LANGUAGES)
    assert all("ELF-blue" in text for text in said.values())


def test_events_and_decisions_with_words_and_plurals() -> None:
    state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "WIZ"], hands={0: "ORC-red ORC-red"})
    events = step(state, parse_action("band *ORC-red ORC-red")).events
    assert translate(events[0], "es") == (
        "El asiento 0 juega una banda de 2 cartas (*ORC-red ORC-red), con ORC-red (Orcos) como "
        "Líder (BAND-4)."
    )
    assert "з 2 карт (" in translate(events[0], "uk") and "(Орки)" in translate(events[0], "uk")
    assert i18n.say(said_n("{n} card", "{n} cards", 2), "uk") == "2 карти"
    assert i18n.say(said_n("{n} card", "{n} cards", 5), "uk") == "5 карт"
    assert i18n.say(said_n("{n} card", "{n} cards", 21), "cs") == "21 karet"
    assert translate(TribeChosen(FIRST_EDITION.tribe("ELF")), "cs") == (
        "Elfové jsou vybráni náhodně (SETUP-3)."
    )
    decision = pending_decision(state)
    assert translate(decision, "pt") == "assento 0: recrutar ou jogar um bando"


def test_region_and_locale_names_choose_the_language() -> None:
    err = band_refusal()
    assert translate(err, "es_ES.UTF-8") == translate(err, "es")
    assert i18n.environment_language({"LANG": "uk_UA.UTF-8"}) == "uk"
    assert i18n.environment_language({"LANGUAGE": "fr:cs", "LANG": "es_ES"}) == "cs"
    assert i18n.environment_language({"LC_ALL": "C", "LANG": "pt_BR"}) == "pt"
    assert i18n.environment_language({}) == "en"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(LanguageError, match="'fr'"):
        translate(band_refusal(), "fr")


def test_a_sentence_that_is_not_marked_stays_english() -> None:
    assert translate("not a message of the catalogue", "es") == "not a message of the catalogue"
    assert gettext.NullTranslations().gettext("x") == "x"


# --- every sentence is marked ---------------------------------------------------------------------

REFUSING = [ROOT / "src" / "ethnos_rules" / name for name in ("_rules", "_replay", "_seat")]
"""The packages whose refusals a person reads: the rules, positions, records kept at one seat."""
ERRORS = {
    "RulesError",
    "MalformedActionError",
    "WrongDecisionError",
    "GameOverError",
    "IllegalActionError",
    "ImpossibleOutcomeError",
    "SetupError",
    "HiddenCardError",
}


def unmarked_reasons(source: str) -> list[int]:
    """The lines where a refusal of the rules is given its reason as a bare string."""
    import ast

    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or len(node.args) < 2:
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        reason = node.args[1]
        bare = isinstance(reason, ast.JoinedStr) or (
            isinstance(reason, ast.Constant) and isinstance(reason.value, str)
        )
        if name in ERRORS and bare:
            lines.append(node.lineno)
    return lines


def test_every_refusal_of_the_rules_is_marked() -> None:
    unmarked = {
        path.name: found
        for folder in REFUSING
        for path in sorted(folder.glob("*.py"))
        if (found := unmarked_reasons(path.read_text("utf-8")))
    }
    assert not unmarked, f"reasons not made with said(): {unmarked}"


def test_an_unmarked_reason_is_found() -> None:
    assert unmarked_reasons('raise IllegalActionError("BAND-2", f"no {x}", action)\n') == [1]
    assert unmarked_reasons('raise IllegalActionError("BAND-2", said("no {x}", x=x))\n') == []


def test_every_sentence_of_whole_games_is_said_in_every_language() -> None:
    """Three random games: every event's sentence and every decision's text is a Said whose
    template the catalogue has, and each language says it with its fields filled in."""
    import random

    from ethnos_rules import is_terminal, legal_actions, new_game, sample_outcome
    from ethnos_rules._rules.said import Said

    known = {ids(m)[0] for m in template() if m.id}
    unknown: set[str] = set()
    told = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(2 + seed)
        while not is_terminal(state):
            decision = pending_decision(state)
            assert isinstance(decision.text, Said), decision.text
            unknown |= {decision.text.template} - known
            actions = legal_actions(state)
            action = sample_outcome(state, rng) if not actions else rng.choice(actions)
            done = step(state, action)
            for event in done.events:
                sentence = type(event).__str__(event)
                assert isinstance(sentence, Said), (type(event).__name__, sentence)
                for lang in TRANSLATED:
                    text = translate(event, lang)
                    assert "{" not in text and text != str(event), (lang, text)
                told += 1
            state = done.state
    assert not unknown, f"templates the catalogue lacks: {sorted(unknown)[:3]}"
    assert told > 300


# --- the play server ------------------------------------------------------------------------------


def test_the_play_server_refuses_a_band_in_spanish(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from ethnos_rules._play.games import GameStore
    from ethnos_rules._play.server import app

    with TestClient(app(GameStore(str(tmp_path))), raise_server_exceptions=False) as client:
        body = {"players": 2, "seats": ["person", "person"], "seed": 3}
        created = client.post("/api/games", json=body).json()
        root = created["hotseat"].replace("/hotseat/", "/api/games/")
        view = client.get(root + "/view?lang=es").json()
        assert view["pending"]["text"].startswith("asiento ")  # "asiento 0: reclutar o …"
        absent = next(c for c in ("ELF-red", "DWA-blue", "ORC-green") if c not in view["hand"])
        tried = f"band *{absent}"
        answers = {
            lang: client.post(
                root + ("/act" if lang == "en" else f"/act?lang={lang}"),
                json={"action": tried, "version": view["version"]},
            )
            for lang in ("en", "es", "uk")
        }
        assert {a.status_code for a in answers.values()} == {422}
        refusal = {lang: a.json()["refusal"] for lang, a in answers.items()}
        assert refusal["en"]["reason"] == f"the band uses cards that are not in the hand: {absent}"
        assert refusal["es"]["reason"] == f"la banda usa cartas que no están en la mano: {absent}"
        assert refusal["uk"]["reason"].startswith("загін використовує карти")
        for said in refusal.values():
            assert said["rule"] == "BAND-1" and said["rule_url"] == "/rules#BAND-1"
        assert answers["es"].json()["error"].startswith("BAND-1: la banda")
        # the page itself, its script and the selector
        page = client.get(created["hotseat"] + "?lang=es").text
        assert '<html lang="es">' in page and "Tu mano" in page and "Your hand" not in page
        assert '<option value="es" selected>Español</option>' in page
        assert 'src="/static/table.js?lang=es"' in page
        script = client.get("/static/table.js?lang=uk").text
        assert json.dumps("Відмовлено: ") in script and '_("Refused: ")' not in script
        assert '"Refused: "' in client.get("/static/table.js").text
        # a language the referee does not speak is English
        assert "Your hand" in client.get(created["hotseat"] + "?lang=xx").text


# --- the HTML replay ------------------------------------------------------------------------------


def test_the_replay_page_in_spanish_and_czech() -> None:
    from ethnos_rules import GameRecord, play_random
    from ethnos_rules._text.html_replay import replay_html
    from replay_pages import hint_of, page_data

    record = GameRecord.from_playthrough(play_random(2, seed=4))
    english = replay_html(record)
    assert english == replay_html(record, lang="en")
    for lang, words in {
        "es": ("por turno", "La preparación", "Empieza la Edad I de II (AGE-1).", "Le toca"),
        "cs": ("po tazích", "Příprava", "Začíná Věk I z II (AGE-1).", "Na tahu je místo"),
    }.items():
        page = replay_html(record, lang=lang)
        assert f'<html lang="{lang}">' in page and words[0] in page
        data = page_data(page)
        assert data["turns"][0]["title"] == words[1]
        lines = [line for view in data["views"] for line in view["lines"]]
        assert words[2] in lines
        english_lines = [line for view in page_data(english)["views"] for line in view["lines"]]
        assert sum(a != b for a, b in zip(lines, english_lines, strict=True)) > 0.9 * len(lines)
        hints = [hint_of(data, view)["who"] for view in data["views"]]
        assert any(h.startswith(words[3]) for h in hints)
    with pytest.raises(LanguageError):
        replay_html(record, lang="xx")


# --- the command line ----------------------------------------------------------------------------


def test_the_command_line_speaks_the_locale_or_lang(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ethnos_rules import GameRecord, play_random
    from ethnos_rules.cli import main

    record = GameRecord.from_playthrough(play_random(2, seed=4))
    good = tmp_path / "good.json"
    good.write_text(record.to_json(), "utf-8")
    runner = CliRunner()
    english = runner.invoke(main, ["replay", str(good)], env={"LANG": "C", "LANGUAGE": ""})
    spanish = runner.invoke(main, ["replay", str(good)], env={"LANG": "es_ES.UTF-8"})
    assert "Tribes in play" in english.output and "Tribus en juego" in spanish.output
    chosen = runner.invoke(main, ["--lang", "uk", "replay", str(good)], env={"LANG": "es_ES"})
    assert "Племена в грі" in chosen.output and "Tribus" not in chosen.output
    page = tmp_path / "page.html"
    wrote = runner.invoke(
        main, ["replay", "--html", str(page), str(good)], env={"LANGUAGE": "cs:en"}
    )
    assert wrote.exit_code == 0 and "zapsáno" in wrote.output
    assert '<html lang="cs">' in page.read_text("utf-8")
    # a refusal that validate prints, in the language asked
    broken = tmp_path / "broken.json"
    broken.write_text(record.to_json().replace('"tribe TRO"', '"band *ORC-red ELF-blue"', 1))
    told = runner.invoke(main, ["--lang", "es", "validate", str(broken)])
    assert told.exit_code == 1
    assert "SETUP-3 – toca un resultado del azar ('tribe'), no una decisión" in told.output
    assert runner.invoke(main, ["--lang", "fr", "replay", str(good)]).exit_code == 2


def test_the_replay_page_tells_the_narrations_own_lines_in_spanish() -> None:
    from ethnos_rules import GameRecord, play_random
    from ethnos_rules._text.html_replay import replay_html
    from replay_pages import page_data

    record = GameRecord.from_playthrough(play_random(3, seed=5))
    lines = [
        line
        for view in page_data(replay_html(record, lang="es"))["views"]
        for line in view["lines"]
    ]
    told = "\n".join(lines)
    for spanish in (
        "Fichas de Gloria (puestas al azar",
        "Cartas iniciales (AGE-2): asiento",
        "La fila (AGE-3):",
    ):
        assert spanish in told
    assert "Gloria final: asiento 0 " in told
    for english in ("Glory tokens", "Starting cards", "The row (", "Final Glory", "bands of"):
        assert english not in told


def test_the_command_line_tells_the_game_and_validates_in_czech(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ethnos_rules import GameRecord, play_random
    from ethnos_rules.cli import main

    record = GameRecord.from_playthrough(play_random(2, seed=4))
    good, broken = tmp_path / "good.json", tmp_path / "broken.json"
    good.write_text(record.to_json(), "utf-8")
    broken.write_text(record.to_json().replace('"tribe TRO"', '"band *ORC-red ELF-blue"', 1))
    runner = CliRunner()
    told = runner.invoke(main, ["--lang", "cs", "validate", str(broken), str(good)])
    assert told.exit_code == 1
    assert "NEPLATNÝ u rozhodnutí 3 (Věk I: 'band *ORC-red ELF-blue'): SETUP-3 – " in told.output
    assert "; rozhodovat mělo: náhoda; povolené: tribe CEN, " in told.output
    assert "good.json: platný: hráčů: 2, rozhodnutí: " in told.output
    assert told.output.rstrip().endswith("platné: 1, neplatné: 1, nečitelné: 0")
    for english in ("INVALID", "valid", "legal:", "was to decide"):
        assert english not in told.output
    english = runner.invoke(main, ["--lang", "en", "validate", str(broken), str(good)]).output
    assert "INVALID at decision 3 (Age I: 'band *ORC-red ELF-blue')" in english
    assert english.rstrip().endswith("1 valid, 1 invalid, 0 unreadable")
    story = runner.invoke(main, ["--lang", "cs", "replay", str(good)]).output
    for czech in (
        "Hra Ethnos pro 2 hráče.",
        "=== Věk I z II ===",
        "Tah 1: ",
        "Konečná sláva: místo 0 ",
    ):
        assert czech in story
    assert "\n  místo  království  mořský lid  obr  skupiny  tento Věk  Sláva\n" in story
    for english in ("A game of Ethnos", "=== Age", "Turn 1:", "Final Glory", "Kingdoms (END-2):"):
        assert english not in story
    state = runner.invoke(main, ["--lang", "cs", "replay", "--at", "40", str(good)]).output
    assert "--- Stav po 40 rozhodnutích ---" in state
    assert "\nbalíček: " in state and "\nmísto 0: sláva " in state and "\n  ruka: " in state


def test_a_board_picture_in_ukrainian() -> None:
    from ethnos_rules import observation, parse_action, position, step, svg

    state = position(
        4, ["DWA", "ELF", "GIA", "MER", "ORC", "TRO"], hands={0: "ELF-red", 1: "DWA-blue"}
    )
    result = step(state, parse_action("band *ELF-red"))
    english = svg.board(result.state, changes=result.events)
    assert english == svg.board(result.state, changes=result.events, lang="en")
    picture = svg.board(result.state, changes=result.events, lang="uk")
    drawn = " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", picture))
    desc = picture.split("<desc>")[1].split("</desc>")[0]
    for ukrainian in ("Епоха I з ", "усі руки відкрито", "місце 0: 0 маркерів", "Ряд", "Колода: "):
        assert ukrainian in drawn
    for ukrainian in ("Рука (1):", "Загони:", "новий загін", "лідер", "Доріжка русалів"):
        assert ukrainian in drawn
    assert "Позначено як щойно змінене: загін, який розіграло місце 0" in desc
    for english in ("seat ", "markers", "Row", "Deck", "Hand", "Bands", "new band", "leader"):
        assert english not in drawn and english not in desc
    seen = svg.view(observation(result.state, 1), lang="uk")
    assert "як бачить місце 1" in seen and "Рука: 0 карт (приховані)" in seen
    with pytest.raises(LanguageError):
        svg.board(state, lang="xx")


def test_a_seats_facts_start_after_its_label_in_every_language() -> None:
    """A seat's label is longer in some languages ("el asiento 0"): its facts line starts
    after it (it ran into the label), and where it was in English (x = 84)."""
    from ethnos_rules import position, svg

    state = position(4, ["DWA", "ELF", "GIA", "MER", "ORC", "TRO"])
    for lang, glory in (("en", "Glory 0"), ("es", "Gloria 0")):
        picture = svg.board(state, lang=lang)
        mark = r"<use href='#mark-0'[^>]*/>"  # the seat's marker, then its label
        label = re.search(
            mark + r"<text x='([\d.]+)'[^>]*font-weight=.bold.>([^<]*)</text>", picture
        )
        facts = re.search(r"<text x='([\d.]+)'[^>]*>" + glory + " ·", picture)
        assert label is not None and facts is not None, lang
        label_end = float(label[1]) + text_width(label[2], 11) * 1.1
        assert float(facts[1]) >= label_end + 8, (lang, label[2], facts[1])
        if lang == "en":
            assert float(facts[1]) == 84


def test_a_refusal_and_a_decision_keep_their_template_through_pickle() -> None:
    """A refusal sent between processes (validate_many) is still said in another language."""
    import pickle

    err = pickle.loads(pickle.dumps(band_refusal()))
    assert err.reason == "a Skeleton can never be the Leader (TRIBE-SKE-1)"
    assert translate(err, "pt") == "um Esqueleto nunca pode ser o Líder (TRIBE-SKE-1)"
    state = position(3, ["DWA", "ELF", "GIA", "ORC", "SKE"])
    decision = pickle.loads(pickle.dumps(pending_decision(state)))
    assert decision == pending_decision(state)
    assert translate(decision, "uk") == "місце 0: найняти або розіграти загін"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_pages_words_are_safe_in_their_html(lang: str) -> None:
    """A page's word is written into its HTML as it is (text and attribute values): its
    translation adds no double quote and no markup the English does not have."""
    for message in catalogue(lang):
        if not message.id or not any(path.endswith(".html") for path, _ in message.locations):
            continue
        for english, text in zip(ids(message) * 3, strings(message), strict=False):
            for mark in ('"', "<", ">"):
                assert text.count(mark) == english.count(mark), (english, text)
