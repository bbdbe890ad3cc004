"""``python -m ethnos_rules``: the ``ethnos-rules`` command (``python -m ethnos_rules play``)."""

from .cli import main

if __name__ == "__main__":  # pragma: no cover
    main()
