"""Benchmark: rewrites per second of ``robustness build``, this checkout against a baseline commit.

Issue 27 asks for ten times the rewrites per second of the build every user runs first:
``robustness build --dataset geo-lambda-test --setting huang-2021`` with the nine offline
perturbations and the default meaning judge. One run builds the same test set with this
checkout's package and with the package of ``--baseline`` (default: the commit before issue 27;
its ``textattack_semparse/`` is extracted with ``git archive`` into a temporary directory),
each in a fresh process through the CLI, alternating which goes first, ``--repeat`` times. Each
build's wall-clock time includes start-up (imports, models, WordNet), as a user waits for it.
This checkout builds twice per round: first with no Sentence-BERT embedding stored
(:mod:`textattack_semparse.linguistics.embedding_store`; the builds get a cache directory of
their own), then the same build again, as a user's next build of the test set (another seed,
``robustness run`` for another victim) reads the embeddings of the texts it ranks from the
store; the two must write byte-identical files. It prints each build's rewrites per second and
the median ratios, and compares the files of the baseline and the first build (``--no-judge``:
they must be byte-identical; with the judge, the commit before issue 27 judges every candidate
before drawing and this checkout judges in the draw order, so a file differs where the judge
rejected a candidate it read).

Needs SEMPARSE_DATA_DIR (geo-lambda-test) and git.

    .venv/bin/python bench/robustness_build.py [--num-examples N] [--repeat 3] [--baseline REV] [--no-judge]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from textattack_semparse.linguistics.embedding_store import STORE_NAME

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "737eb7a"  # main before issue 27 ("Speed where users wait")
TARGET = 10.0
FILES = (".jsonl", ".json")
UNCOMPARED = {"invocations.jsonl", "run.json", "build.jsonl"}  # times and the run's own record


def extract_package(revision: str, into: Path) -> Path:
    """``textattack_semparse/`` of ``revision`` under ``into`` (``git archive``)."""
    into.mkdir(parents=True)
    archive = into / "package.tar"
    with archive.open("wb") as handle:
        subprocess.run(["git", "-C", str(ROOT), "archive", revision, "textattack_semparse"], stdout=handle, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def build(package_root: Path, output_dir: Path, args: argparse.Namespace) -> tuple[float, int]:
    """Seconds of one ``robustness build`` run with the package under ``package_root``, and the rewrites it wrote."""
    command = [
        sys.executable, "-m", "textattack_semparse.cli", "robustness", "build", "--dataset", args.dataset,
        "--setting", "huang-2021", "--output-dir", str(output_dir), "--no-progress", "--overwrite",
    ]  # fmt: skip
    if args.num_examples is not None:
        command += ["--num-examples", str(args.num_examples)]
    if args.no_judge:
        command.append("--no-judge")
    environment = {**os.environ, "PYTHONPATH": str(package_root), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    imported = subprocess.run(
        [sys.executable, "-c", "import textattack_semparse; print(textattack_semparse.__file__)"],
        env=environment, cwd=output_dir.parent, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    if not imported.startswith(str(package_root)):
        sys.exit(f"the build would import {imported}, not the package under {package_root}")
    start = time.perf_counter()
    # The working directory holds no package: Python puts it first on the path.
    subprocess.run(command, env=environment, cwd=output_dir.parent, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    manifest = json.loads((output_dir / "manifest.json").read_text())
    return seconds, sum(count["utterances"] for count in manifest["counts"].values())


def compare(baseline: Path, current: Path) -> tuple[list[str], list[str]]:
    """Files of the two builds that are byte-identical, and those that differ."""
    same, different = [], []
    for path in sorted(baseline.iterdir()):
        if path.suffix in FILES and path.name not in UNCOMPARED:
            other = current / path.name
            (same if other.exists() and other.read_bytes() == path.read_bytes() else different).append(path.name)
    return same, different


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="geo-lambda-test")
    parser.add_argument("--num-examples", type=int, default=None, help="the first N examples (default: all)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", default=BASELINE, help=f"git revision measured against (default {BASELINE})")
    parser.add_argument("--no-judge", action="store_true", help="build without the meaning judge")
    args = parser.parse_args()
    if not os.environ.get("SEMPARSE_DATA_DIR"):
        sys.exit("bench/robustness_build.py needs SEMPARSE_DATA_DIR (geo-lambda-test)")
    with tempfile.TemporaryDirectory(prefix="robustness-build-bench-") as scratch:
        work = Path(scratch)
        # The builds' own cache directory (WordNet's copy, the Sentence-BERT store), prepared by one
        # untimed small build, so that no timed build converts WordNet.
        os.environ["TEXTATTACK_SEMPARSE_CACHE"] = str(work / "cache")
        store = work / "cache" / STORE_NAME
        build(ROOT, work / "warm-up", argparse.Namespace(**{**vars(args), "num_examples": 2}))
        # Apart from the builds' output directories, which --overwrite empties on every round.
        baseline_root = extract_package(args.baseline, work / "baseline-package")
        rates: dict[str, list[float]] = {"baseline": [], "first": [], "again": []}
        for round_ in range(args.repeat):
            store.unlink(missing_ok=True)  # the first build of this checkout finds no stored embedding
            runs = {}
            order = [("baseline", baseline_root), ("first", ROOT), ("again", ROOT)]
            for name, root in order if round_ % 2 == 0 else order[1:] + order[:1]:
                runs[name] = build(root, work / name, args)
                seconds, rewrites = runs[name]
                rates[name].append(rewrites / seconds)
                print(f"round {round_ + 1} {name:8s} {rewrites:5d} rewrites in {seconds:7.1f} s: {rewrites / seconds:6.2f}/s")
            same, different = compare(work / "baseline", work / "first")
            print(f"round {round_ + 1} first / baseline {rates['first'][-1] / rates['baseline'][-1]:.2f}x, again / baseline "
                  f"{rates['again'][-1] / rates['baseline'][-1]:.2f}x; byte-identical to the baseline's: {', '.join(same) or 'none'}; "
                  f"different: {', '.join(different) or 'none'}")
            _, changed = compare(work / "first", work / "again")
            if changed:
                sys.exit(f"the build from stored embeddings wrote other files than the first: {', '.join(changed)}")
    first, again = (statistics.median(r / b for r, b in zip(rates[name], rates["baseline"])) for name in ("first", "again"))
    verdict = "met" if first >= TARGET else "not met"
    print(f"rewrites per second over the baseline's ({args.baseline}), median of {args.repeat}: first build {first:.2f}x "
          f"(target >= {TARGET:g}: {verdict}); the same build again, its Sentence-BERT embeddings stored: {again:.2f}x "
          "(every file byte-identical to the first's)")


if __name__ == "__main__":
    main()
