"""Robustness evaluation: meaning-preserving test sets and the papers' robustness metrics."""
