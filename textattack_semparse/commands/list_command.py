"""``textattack-semparse list``: registered names, import paths and providers."""

from __future__ import annotations

import argparse

from textattack_semparse.project import docs_url
from textattack_semparse.registry import KIND_HOOKS, get_registry


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("list",
        epilog=f"Documentation: {docs_url('plugins.md')}", help="list registered recipes, victims and datasets")
    parser.add_argument("kind", nargs="?", choices=list(KIND_HOOKS))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    registry = get_registry()
    for kind in [args.kind] if args.kind else list(KIND_HOOKS):
        print(f"{kind}s:")
        for entry in sorted([*registry.entries(kind), *registry.families(kind)], key=lambda entry: entry.name):
            options = f" {dict(entry.options)}" if entry.options else ""
            dataset = f" [dataset: {entry.dataset}]" if entry.dataset else ""
            print(f"  {entry.display_name:32} {entry.target}{options}{dataset}  ({entry.provider})")
    return 0
