"""``ethnos-rules play``: a table in the browser to learn Ethnos by playing (issue 32).

- :mod:`.games` keeps the games being played: the record of each, who sits where (a person or
  a bot), a secret per seat, and moves chance and the bots on after each person's decision,
  saving the record after every decision.
- :mod:`.views` is what one seat is shown: only its observation, the events it saw, each with
  its sentence and rule.
- :mod:`.server` is the Starlette application (``app(store)``): the JSON API the page talks
  to, the pages under ``static/`` and the rules text at ``/rules``.

Starlette, uvicorn and markdown-it-py come with the ``[play]`` extra; only :mod:`.server`
imports them.
"""
