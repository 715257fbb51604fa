"""Subcommands of ``textattack-semparse``: one module each, with ``register(subparsers)``.

A command module imports only argparse-level code at import time; its ``run`` imports the
heavy machinery, so ``textattack-semparse --help`` stays fast.
"""
