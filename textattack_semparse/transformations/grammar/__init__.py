"""Grammatical-error transformations (Yin et al. 2020) and their error model."""
