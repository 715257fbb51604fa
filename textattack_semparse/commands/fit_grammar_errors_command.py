"""``textattack-semparse fit-grammar-errors M2 ... --output weights.json``: fit a learner-error model."""

from __future__ import annotations

import argparse

from textattack_semparse.project import docs_url


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fit-grammar-errors",
        epilog=f"Documentation: {docs_url('grammatical_errors.md')}",
        help="fit grammatical-error weights and type distribution from M2 files (Yin et al. 2020)",
        description="Estimate the confusion weights w_ij and the error-type distribution of the eight error types "
        "of Yin et al. (2020) from M2 grammatical-error-correction files (NUCLE, CoNLL-2014, BEA-2019/ERRANT) and "
        "write the JSON that the grammatical-error transformations and the nucle-* recipes accept "
        "(error_model=weights.json).",
    )
    parser.add_argument("m2_files", nargs="+", metavar="M2", help="M2 files (S and A lines)")
    parser.add_argument("--output", required=True, help="JSON file to write")
    parser.add_argument(
        "--annotator", help="count only this annotator id (last field of an A line); default: all, merged"
    )
    parser.add_argument(
        "--smoothing", type=float, default=0.0, help="pseudo-count added to every pair of set members (default 0)"
    )
    parser.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="M2TYPE=TYPE",
        help="map an M2 error type to a paper type (Wform=Wchoice), or drop it (R:OTHER=); repeatable",
    )
    parser.set_defaults(func=run)


def _type_map(entries: list[str]) -> dict[str, str | None]:
    from textattack_semparse.errors import DatasetError, closest_match_hint
    from textattack_semparse.transformations.grammar.error_model import ERROR_TYPES

    mapping: dict[str, str | None] = {}
    for entry in entries:
        m2_type, separator, paper_type = entry.partition("=")
        if not separator or not m2_type:
            raise DatasetError(
                f"--map {entry!r} is not M2TYPE=TYPE (e.g. --map Wform=Wchoice, or --map R:OTHER= to drop)."
            )
        if paper_type and paper_type not in ERROR_TYPES:
            raise DatasetError(
                f"--map {entry!r}: {paper_type!r} is not one of {', '.join(ERROR_TYPES)}."
                + closest_match_hint(paper_type, ERROR_TYPES)
            )
        mapping[m2_type] = paper_type or None
    return mapping


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table
    from textattack_semparse.transformations.grammar.error_model import ERROR_TYPES
    from textattack_semparse.transformations.grammar.fit_error_model import (
        fit_error_model,
    )

    model = fit_error_model(
        args.m2_files, annotator=args.annotator, smoothing=args.smoothing, type_map=_type_map(args.map)
    )
    model.to_json(args.output)
    counts = model.counts or {}
    print_table(
        f"Error types in {counts.get('sentences', 0)} sentences of {', '.join(args.m2_files)}",
        ("type", "edits", "share (%)"),
        ((name, counts["types"][name], 100 * model.type_probability(name)) for name in ERROR_TYPES),
    )
    if counts.get("unmapped"):
        print(f"Ignored M2 types (not among the eight): {counts['unmapped']}")
    print(f"Wrote {args.output}")
    return 0
