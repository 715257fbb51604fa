"""Render a :class:`~textattack_semparse.report.report.Report` as one self-contained HTML file or as Markdown.

The HTML page inlines its style, its plots (SVG ``data:`` URIs) and a small script that filters
and pages the examples: it opens offline and can be mailed as one file. The Markdown is for a
paper draft or an issue: the same tables, the plots as SVG files beside it, the worst examples.
Templates are Jinja2 (``templates/``), autoescaped for HTML. Original to textattack-semparse.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from textattack_semparse.report.examples import OUTCOME_MEANINGS
from textattack_semparse.report.formatting import format_value
from textattack_semparse.report.report import Report, Table, validation_summary
from textattack_semparse.report.sources import KINDS

PAGE_SIZE = 50
"""Examples per page of the HTML report."""
MARKDOWN_EXAMPLES = 20
"""Examples the Markdown report lists (the worst)."""


def markdown_cell(text: Any) -> str:
    """``text`` safe inside a Markdown table cell: pipes escaped, line breaks as spaces."""
    return str(text).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def markdown_table(table: Table) -> str:
    """``table`` as a GitHub-flavoured Markdown table: the row label, then one column per
    :class:`~textattack_semparse.report.report.Column`, numbers right-aligned."""
    heading = table.rows[0].kind if table.rows else "run"
    lines = [
        "| " + " | ".join(markdown_cell(text) for text in (heading, *(column.heading for column in table.columns))) + " |",
        "|---|" + "---:|" * len(table.columns),
    ]
    for row in table.rows:
        values = (format_value(value, signed=column.metric.startswith("delta_")) for value, column in zip(row.values, table.columns))
        lines.append("| " + " | ".join(markdown_cell(text) for text in (row.label, *values)) + " |")
    return "\n".join(lines)


def _environment(*, html: bool) -> Environment:
    environment = Environment(
        loader=PackageLoader("textattack_semparse.report", "templates"),
        autoescape=select_autoescape(enabled_extensions=("html.j2",), default=False) if html else False,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters["figure"] = format_value
    environment.filters["cell"] = markdown_cell
    environment.filters["markdown_table"] = markdown_table
    environment.filters["validation_summary"] = validation_summary
    environment.filters["versions"] = lambda versions: ", ".join(f"{name} {version}" for name, version in versions.items())
    return environment


def _context(report: Report, title: str | None) -> dict[str, Any]:
    victims = list(dict.fromkeys(source.victim for source in report.sources))
    return {
        "report": report,
        "title": title or f"Robustness report: {', '.join(victims)}",
        "labels": report.labels,
        "source_kinds": KINDS,
        "outcome_meanings": OUTCOME_MEANINGS,
        "page_size": PAGE_SIZE,
    }


def render_html(report: Report, *, title: str | None = None) -> str:
    """The report as one self-contained HTML page."""
    return _environment(html=True).get_template("report.html.j2").render(**_context(report, title))


def render_markdown(report: Report, figures_dir: Path, *, title: str | None = None, relative_to: Path | None = None) -> str:
    """The report as Markdown; its plots are written to ``figures_dir`` as SVG files and linked
    relative to ``relative_to`` (the Markdown file's folder)."""
    figures_dir.mkdir(parents=True, exist_ok=True)
    plots = []
    for plot in report.plots:
        path = figures_dir / f"{plot.id}.svg"
        path.write_bytes(base64.b64decode(plot.uri.partition(",")[2]))
        link = path.relative_to(relative_to) if relative_to is not None and path.is_relative_to(relative_to) else path
        plots.append({"title": plot.title, "caption": plot.caption, "file": link.as_posix()})
    return _environment(html=False).get_template("report.md.j2").render(
        **_context(report, title), plots=plots, examples=report.examples[:MARKDOWN_EXAMPLES]
    )
