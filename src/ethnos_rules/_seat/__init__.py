"""What one seat knows: the observation of a state from a seat (:mod:`.observation`), the game as
a record kept at one seat tells it (:mod:`.seatview`), and the hidden cards resampled to fit what
that seat saw (:mod:`.resample`). Above the rules, which never import it."""
