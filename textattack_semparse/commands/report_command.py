"""``textattack-semparse report RUN [RUN ...] --output report.html``: one self-contained report of runs."""

from __future__ import annotations

import argparse

from textattack_semparse.commands.arguments import positive_int
from textattack_semparse.experiments import report
from textattack_semparse.project import docs_url

_DESCRIPTION = report.__doc__


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report",
        epilog=f"Documentation: {docs_url('report.md')}",
        help="one self-contained HTML (or Markdown) report of robustness runs, attacks and ICL grids",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("runs", nargs="+", metavar="RUN", help="run directories, log files, or directories of runs")
    parser.add_argument("--output", required=True, help="the report file to write (e.g. report.html)")
    parser.add_argument("--format", choices=report.FORMATS, default="html", help="html (default) or markdown")
    parser.add_argument("--title", help="the report's title (default: the victims' names)")
    parser.add_argument(
        "--max-examples",
        type=positive_int,
        default=None,
        help="list at most this many examples, worst first (default 5000; all are counted in the tables)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = report.ReportConfig(
        runs=args.runs, output=args.output, format=args.format, title=args.title, max_examples=args.max_examples
    )
    result = report.run(config)
    laid_out = result.report
    print(
        f"Report of {len(laid_out.sources)} input(s): {len(laid_out.tables)} tables, {len(laid_out.plots)} plots, "
        f"{len(laid_out.examples)} of {laid_out.examples_total} examples listed"
    )
    print(f"Wrote {result.path}")
    return 0
