"""``textattack-semparse report RUN [RUN ...] --output report.html``: one self-contained report of runs."""

from __future__ import annotations

import argparse

from textattack_semparse.commands.output import positive_int

_DESCRIPTION = """\
Build one report from any mix of runs: the --output-dir of `robustness run` (Table QA runs too),
`attack`, `grammar-attack` and `icl`, TextAttack's own --log-to-csv / --log-summary-to-json files,
`robustness evaluate --output-json` files, or a directory holding such run directories. The report
has a summary table per kind of run in the papers' terms (several runs side by side, each with its
difference to the first), plots, the adversarial examples worst first (filterable and paged in
HTML), and the command line and software versions that produced each input.

--format html (default) writes one self-contained page (inline style, SVG plots, no network
needed to view it); --format markdown writes Markdown with the plots as SVG files in
<output stem>_files/, for a paper draft or an issue (docs/report.md).
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report",
        help="one self-contained HTML (or Markdown) report of robustness runs, attacks and ICL grids",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("runs", nargs="+", metavar="RUN", help="run directories, log files, or directories of runs")
    parser.add_argument("--output", required=True, help="the report file to write (e.g. report.html)")
    parser.add_argument("--format", choices=("html", "markdown"), default="html", help="html (default) or markdown")
    parser.add_argument("--title", help="the report's title (default: the victims' names)")
    parser.add_argument(
        "--max-examples",
        type=positive_int,
        default=None,
        help="list at most this many examples, worst first (default 5000; all are counted in the tables)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from textattack_semparse.report.render import render_html, render_markdown
    from textattack_semparse.report.report import MAX_EXAMPLES, build_report
    from textattack_semparse.runs.run_directory import atomic_write_text

    report = build_report(args.runs, max_examples=args.max_examples or MAX_EXAMPLES)
    output = Path(args.output)
    if args.format == "html":
        text = render_html(report, title=args.title)
    else:
        figures = output.parent / f"{output.stem}_files"
        text = render_markdown(report, figures, title=args.title, relative_to=output.parent)
    atomic_write_text(output, text)
    shown = len(report.examples)
    print(
        f"Report of {len(report.sources)} input(s): {len(report.tables)} tables, {len(report.plots)} plots, "
        f"{shown} of {report.examples_total} examples listed"
    )
    print(f"Wrote {output.resolve()}")
    return 0
