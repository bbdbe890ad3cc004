"""``ethnos-rules play``: a table in the browser to learn Ethnos by playing (issue 32).

- :mod:`.games` keeps the games being played: the record of each, who sits where (a person or
  a bot), a secret per seat, and moves chance and the bots on after each person's decision,
  saving the record after every decision.
- :mod:`.views` is what one seat is shown: only its observation, the events it saw, each with
  its sentence and rule.
- :mod:`.server` is the Starlette application (``app(store)``) of the API in
  ``/tmp/play/API.md`` and the pages under ``static/``.

Starlette, uvicorn and markdown-it-py come with the ``[play]`` extra; only :mod:`.server`
imports them.
"""
