# Build scaffolding for ethnos_rules.
#
#   make demo   - tell a seeded game; write its record, pictures and replay page to build/demo
#   make play   - a table in the browser to learn the game by playing (ethnos-rules play)
#   make test   - every check: ruff, import layers, mypy --strict, pytest, Sphinx (warnings are errors);
#                 installs Debian's chromium first for the browser tests when missing and root
#                 (scripts/ensure-chromium.sh; where it cannot, those tests skip saying why)
#   make docs   - build the HTML docs into docs/_build/html
#   make docs-i18n - the docs in each language of src/ethnos_rules/locales/<lang>/ with the docs'
#                 catalogues (the learner's pages are translated) into docs/_build/html/<lang>/,
#                 English into docs/_build/html, all with a language switcher;
#                 make docs-i18n-update [LANGS=xx] writes the docs' catalogues of each language
#   make bench  - benchmarks side by side with python-chess; writes docs/reference/performance-results.md
#   make ladder - the bots' round robin at 2, 3, 4 and 6 players (scripts/ladder.py; many hours,
#                 resumable; JOBS=N processes); writes docs/guide/09-how-strong-are-the-bots.md
#   make lint   - ruff check + ruff format --check + lint-imports (the layers)
#   make mutation - mutation testing of the rule modules (mutmut), the score per module; not in
#                 `make test`: it takes long (see docs/guide/08-how-this-referee-is-tested.md)
#   make exhaustive - every reachable state of small games checked against the rules written out
#                 by brute force (tests/exhaustive/); not in `make test`: it takes minutes
#   make messages - the referee's message catalogues (issue 38): extract the messages of the source
#                 into src/ethnos_rules/locales/ethnos_rules.pot, add the new ones to each language's
#                 .po, compile each .po to the .mo the library reads (scripts/messages.py, Babel);
#                 the .mo files are committed, and tests/test_i18n.py checks they match the .po
#   make clean  - remove the venv, caches and build output
#
# Each target that needs tools creates .venv by itself (see `venv`).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := test
.PHONY: venv demo play test lint typecheck pytest docs docs-i18n docs-i18n-update doctest-docs bench \
	ladder mutation messages clean

# Reinstall only when pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: venv
	$(BIN)/python examples/play_seeded_game.py

play: venv
	$(BIN)/ethnos-rules play

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: venv
	$(BIN)/mypy --strict

pytest: venv
	bash scripts/ensure-chromium.sh
	$(BIN)/pytest

docs: venv
	$(BIN)/sphinx-build -W --keep-going -b html docs docs/_build/html

# The learner's pages in other languages (issue 38): Sphinx's gettext workflow with sphinx-intl.
# A language is one folder of src/ethnos_rules/locales (its README.md): the docs' catalogues
# are its LC_MESSAGES/{index,learn,rules,tribes}.po (docs/conf.py); a message without a
# translation stays English. LANGS: each language folder (a glossary.toml); docs-i18n builds
# those of them that have the docs' catalogues (an index.po).
LOCALES := src/ethnos_rules/locales
LANGS ?= $(patsubst $(LOCALES)/%/glossary.toml,%,$(wildcard $(LOCALES)/*/glossary.toml))
DOCS_LANGS = $(filter $(LANGS),$(patsubst $(LOCALES)/%/LC_MESSAGES/index.po,%,$(wildcard $(LOCALES)/*/LC_MESSAGES/index.po)))
LEARNER_PAGES := index learn/ten-minutes $(patsubst docs/%.md,%,$(wildcard docs/rules/0*.md docs/tribes/*.md))
OTHER_PAGES := $(filter-out $(LEARNER_PAGES),$(patsubst docs/%.md,%,$(wildcard docs/*.md docs/*/*.md)))
comma := ,
empty :=
space := $(empty) $(empty)

docs-i18n: venv
	$(BIN)/sphinx-build -W --keep-going -t i18n -b html docs docs/_build/html
	for lang in $(DOCS_LANGS); do \
		$(BIN)/sphinx-build -W --keep-going -t i18n -D language=$$lang -b html \
			-d docs/_build/doctrees-$$lang docs docs/_build/html/$$lang || exit 1; \
	done

# The English messages of the learner's pages into docs/_build/gettext-learner/<part>.pot, then
# into each language's <part>.po, keeping the translations made (tests/test_docs_i18n.py says
# which are missing). The other pages are excluded, as the test reads them: a tenth of the time,
# the same messages. The links to them are left unresolved, unwarned; the index's two toctree
# globs still warn that they match nothing (Sphinx gives that warning no type to suppress).
docs-i18n-update: venv
	rm -rf docs/_build/gettext-learner
	$(BIN)/sphinx-build -q -b gettext -D suppress_warnings=ref.doc \
		-D exclude_patterns=_build,$(subst $(space),$(comma),$(addsuffix .md,$(OTHER_PAGES))) \
		docs docs/_build/gettext-learner
	$(BIN)/sphinx-intl update -w 0 -p docs/_build/gettext-learner -d $(LOCALES) $(addprefix -l ,$(LANGS))

doctest-docs: venv
	$(BIN)/sphinx-build -W --keep-going -b doctest docs docs/_build/doctest

bench: venv
	$(BIN)/python benchmarks/bench.py --markdown docs/reference/performance-results.md

# Each game's result is kept in build/ladder/results.jsonl as it ends: run it again to go on.
JOBS ?= 2
ladder: venv
	$(BIN)/python scripts/ladder.py -j $(JOBS)

# mutmut on the rule modules ([tool.mutmut] in pyproject.toml), each survivor rerun against the
# whole suite; prints killed / timeout / survived / equivalent and the score per module.
mutation: venv
	$(BIN)/python scripts/mutation.py

# Small editions' every reachable state, two processes; prints the states and transitions per
# scope and fails on any violation (tests/test_exhaustive.py runs the smallest in `make test`).
exhaustive: venv
	cd tests && ../$(BIN)/python -m exhaustive --jobs 2

messages: venv
	$(BIN)/python scripts/messages.py extract update compile

# Runs in order and stops at the first failing command.
test: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy --strict
	bash scripts/ensure-chromium.sh
	$(BIN)/pytest
	$(BIN)/sphinx-build -W --keep-going -b html docs docs/_build/html
	$(BIN)/sphinx-build -W --keep-going -b doctest docs docs/_build/doctest

clean:
	rm -rf $(VENV) docs/_build build dist mutants .mypy_cache .ruff_cache .pytest_cache .hypothesis .import_linter_cache
	find . -name '__pycache__' -type d -prune -exec rm -rf {} +
	find . -name '*.egg-info' -type d -prune -exec rm -rf {} +
