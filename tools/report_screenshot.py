"""Make the README's picture of a report: the top of ``REPORT.html`` (summary tables and the first
plots) as headless Chromium renders it, saved as a PNG.

    python tools/report_screenshot.py REPORT.html OUT.png [--width 1280] [--height 1600] [--full-page]

Exits with status 1, leaving no PNG, when the page logs errors or requests anything it cannot load
(a README must not show a broken report), and with status 2 when the report is missing or Chromium cannot be had.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: make `tools` importable

from tools.browser import BrowserUnavailable, screenshot  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, take the screenshot and report where it went."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("report", type=Path, help="the HTML report (textattack-semparse report ... --output REPORT.html)")
    parser.add_argument("output", type=Path, help="the PNG to write")
    parser.add_argument("--width", type=int, default=1280, help="viewport width in CSS pixels (default 1280)")
    parser.add_argument("--height", type=int, default=1600, help="height of the picture in CSS pixels (default 1600)")
    parser.add_argument("--full-page", action="store_true", help="the whole page instead of its top --height pixels")
    args = parser.parse_args(argv)
    try:
        problems = screenshot(args.report, args.output, width=args.width, height=args.height, full_page=args.full_page)
    except (BrowserUnavailable, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if problems:
        args.output.unlink(missing_ok=True)
        print(f"error: {args.report} is broken in Chromium, no screenshot kept:", *problems, sep="\n  ", file=sys.stderr)
        return 1
    print(f"Wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
