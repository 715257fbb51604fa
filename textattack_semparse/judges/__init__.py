"""Meaning judges: is a rewrite of a question the same question? (:mod:`.meaning_judge`)."""
