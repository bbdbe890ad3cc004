"""Getting to a position: replaying a game's actions through the engine with a visitor
(:mod:`.replay`), and building a state from a description of the table (:mod:`.position`).
Above the rules, which never import it."""
