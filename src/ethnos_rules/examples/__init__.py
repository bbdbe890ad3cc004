"""Runnable examples for agents at research scale, installed with the package.

Each is a module to run with ``python -m``:

- ``python -m ethnos_rules.examples.ismcts_match``: OpenSpiel's ``ISMCTSBot`` against the
  library's bots, with the win rate and its Wilson interval (needs the ``[openspiel]`` extra);
- ``python -m ethnos_rules.examples.reinforce``: a numpy policy-gradient learner trained in
  the Gymnasium environment against the library's bots (needs the ``[gymnasium]`` extra).

``--help`` lists each one's options. See the docs page "Agents at research scale".
"""
