"""``textattack-semparse evaluate``: standard accuracy of a victim, without attack."""

from __future__ import annotations

import argparse

from textattack_semparse.commands.output import add_scoring_arguments


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("evaluate", help="standard (execution/exact) accuracy of a victim")
    parser.add_argument(
        "--model",
        required=True,
        help="registered victim name, local seq2seq directory, or an in-context LLM victim (needs --dataset): "
        "hf-causal:PATH (a local causal LM directory or .gguf file) or openai:MODEL@URL (an OpenAI-compatible server)",
    )
    parser.add_argument("--dataset", help="registered dataset (default: the victim's own)")
    parser.add_argument("--num-examples", type=int, help="evaluate the first N examples only")
    parser.add_argument(
        "--shots", type=int, help="LLM victims: demonstrations in the prompt (default 5)"
    )
    parser.add_argument(
        "--selection",
        help="LLM victims: few-shot selector (random, confidence, cluster-ed, cluster-tfidf, cluster-cwe, "
        "ppl-asc, ppl-desc; default random)",
    )
    add_scoring_arguments(parser)
    parser.add_argument(
        "--test-suite-dir",
        help="folder of distilled test suites (one per benchmark, from 'test-suite build'); reports test-suite "
        "accuracy beside single-database accuracy (default: $SEMPARSE_TEST_SUITE_DIR)",
    )
    parser.add_argument("--output", help="write the report as JSON here")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table, write_json
    from textattack_semparse.commands.run_options import progress_enabled
    from textattack_semparse.metrics.standard_accuracy import evaluate_victim
    from textattack_semparse.runs.progress import progress_bar

    model = victim_name_with_options(args.model, shots=args.shots, selection=args.selection)
    with progress_bar(None, f"parsing with {args.model}", enabled=progress_enabled(args)) as bar:
        report = evaluate_victim(
            model,
            dataset=args.dataset,
            limit=args.num_examples,
            execution_mode=args.execution_mode,
            gold_timeout=args.gold_timeout,
            test_suite_dir=args.test_suite_dir,
            progress=bar,
        )
    print_table(
        f"Standard accuracy of {args.model} on {report['dataset']}",
        ("metric", "value"),
        (
            (name.replace("_", " "), value)
            for name, value in report.items()
            if name not in ("dataset", "scoring", "single_database", "response_cache")
        ),
    )
    print(f"Scoring: {report['scoring']}")
    if "response_cache" in report:
        cache = report["response_cache"]
        print(f"Response cache: {cache['hits']} hits, {cache['misses']} misses ({cache['path']})")
    write_json(args.output, report)
    return 0


def victim_name_with_options(model: str, *, shots: int | None = None, selection: str | None = None) -> str:
    """``model`` with ``--shots``/``--selection`` folded into an LLM victim name.

    Raises:
        SystemExit: The options are given for a victim that is not an LLM victim.

    Example:
        >>> victim_name_with_options("hf-causal:/m/x.gguf", shots=2)
        'hf-causal:/m/x.gguf?shots=2'
    """
    from textattack_semparse.victims.llm_victim_name import is_llm_victim_name, with_options

    given = {key: value for key, value in (("shots", shots), ("selection", selection)) if value is not None}
    if not given:
        return model
    if not is_llm_victim_name(model):
        flags = " and ".join(f"--{key}" for key in given)
        raise SystemExit(
            f"error: {flags} {'apply' if len(given) > 1 else 'applies'} to in-context LLM victims only "
            f"(--model hf-causal:PATH or openai:MODEL@URL); drop {flags} for {model!r}, or pass an LLM victim."
        )
    if shots is not None and shots < 0:
        raise SystemExit(f"error: --shots must be >= 0, got {shots}.")
    return with_options(model, **given)
