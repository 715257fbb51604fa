"""``textattack-semparse validate``: the papers' human step (:mod:`textattack_semparse.experiments.validate`).

``export`` writes the rewrites of test sets, attacks, augmented files and ICL studies as blind
items with an offline annotation page and a CSV for crowdsourcing platforms; ``import`` reads
the annotators' judgments, keeps what a rule (Huang et al.'s two of three by default) keeps and
writes each source in its own format with only those rewrites; ``judge`` runs meaning judges on
pairs; ``agreement`` measures a judge against people.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from textattack_semparse.commands.arguments import positive_int, seed_parent
from textattack_semparse.commands.hf_output import check_hf_output, hf_parent, write_hf_output
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.project import docs_url
from textattack_semparse.validation.decision_rules import HUANG_2021, RULES
from textattack_semparse.validation.judgments import MTURK_COLUMNS
from textattack_semparse.validation.validation_items import SAME_MEANING, TASKS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "validate",
        epilog=f"Documentation: {docs_url('validation.md')}",
        help="have people judge rewrites (export, import), or measure a meaning judge against them",
        description="The human step of Huang et al. (2021) and Zhuo et al. (2023): export rewrites for annotators "
        "(an offline annotation page, or a CSV for a crowdsourcing platform), import their judgments into a copy of "
        "the source with only the rewrites they kept, judge rewrites automatically, and measure a judge against people.",
    )
    commands = parser.add_subparsers(dest="validate_command", required=True)

    export = commands.add_parser(
        "export",
        parents=[seed_parent()],
        help="write a source's rewrites as blind items: items.jsonl, items.csv, annotate.html, key.json",
        description="SOURCE is a robustness test set (robustness build/run), an attack run (attack, grammar-attack) or "
        "TextAttack CSV log (its successful examples), an augmented training file (augment; with --original), or an "
        "ICL study (icl). Writes DIR/items.jsonl and DIR/items.csv (blind: no perturbation or source; shuffled, "
        "deduplicated), DIR/annotate.html (one offline page: give it to each annotator), and, private, DIR/key.json "
        "(for import) and DIR/pairs.jsonl (for validate judge).",
    )
    export.add_argument("sources", nargs="+", metavar="SOURCE", help="test sets, attack runs or logs, augmented files, ICL studies")
    export.add_argument("--output-dir", required=True, help="directory for the items, the page and the key")
    export.add_argument(
        "--task",
        choices=TASKS,
        default=SAME_MEANING,
        help="same-meaning: judge each rewrite (Huang et al. 2021's task; default); best-of-k: choose the best of each "
        "original question's candidates or none (Zhuo et al. 2023)",
    )
    export.add_argument("--sample", type=positive_int, metavar="N", help="export N items drawn at random (default: all)")
    export.add_argument(
        "--per-perturbation", action="store_true", help="with --sample N: N items of each perturbation (a stratified sample)"
    )
    export.add_argument(
        "--original",
        metavar="FILE|DATASET",
        help="for an augmented file: the file that was augmented (augment --input) or its dataset (augment --dataset)",
    )
    export.add_argument("--overwrite", action="store_true", help="replace an earlier export in DIR")
    export.set_defaults(func=run_export)

    imported = commands.add_parser(
        "import",
        parents=[hf_parent()],
        help="decide the annotators' judgments and write the source with only the rewrites kept",
        description="Reads judgment CSV files (annotate.html's judgments-<name>.csv, or a platform's results with "
        "--columns), keeps each rewrite the rule keeps, and writes OUT in each source's own format with only those "
        "rewrites (robustness evaluate, report and train --augment take it like the original), plus "
        "OUT/validation.json: acceptance per perturbation and overall, Fleiss' kappa, the disputed items.",
    )
    imported.add_argument("export_dir", metavar="DIR", help="the --output-dir of validate export")
    imported.add_argument("judgments", nargs="+", metavar="JUDGMENTS.csv", help="the annotators' judgment files")
    imported.add_argument("--output-dir", required=True, help="a new directory for the validated copy and validation.json")
    imported.add_argument(
        "--rule",
        choices=RULES,
        default=HUANG_2021,
        help="; ".join(f"{name}: {text}" for name, text in RULES.items()) + f" (default {HUANG_2021})",
    )
    imported.add_argument(
        "--columns",
        metavar="FIELD=COLUMN,...",
        help=f"the columns holding item_id, annotator and label in a platform's results, e.g. Amazon Mechanical "
        f"Turk: {MTURK_COLUMNS} (default: item_id,annotator,label)",
    )
    imported.add_argument("--overwrite", action="store_true", help="replace an existing --output-dir")
    imported.set_defaults(func=run_import)

    judge = commands.add_parser(
        "judge",
        help="judge pairs with meaning judges: adds verdict and reason to each line",
        description='Reads JSONL lines {"original", "rewrite", "gold"?} (other keys kept; an export\'s pairs.jsonl) and '
        'writes them with "verdict" (same, different, unsure) and "reason". Several --judge must all say same.',
    )
    judge.add_argument(
        "--judge",
        dest="judges",
        action="append",
        required=True,
        metavar="NAME",
        help="a registered judge: default, llm:<LLM victim>, nli:<model> (textattack-semparse list judge); repeatable",
    )
    judge.add_argument("--input", required=True, metavar="PAIRS.jsonl", help="the pairs to judge")
    judge.add_argument("--output", required=True, metavar="VERDICTS.jsonl", help="where the judged pairs go")
    judge.set_defaults(func=run_judge)

    agreement = commands.add_parser(
        "agreement",
        help="a judge's agreement with people: accuracy, Cohen's kappa, recall of the rejected rewrites",
        description="Compares the verdicts of validate judge with people's labels: judgment CSV files (joined on "
        "item_id), or JSONL files of labelled pairs with a 'label' key; with neither, the verdict lines' own 'label'. "
        "Reports accuracy, Cohen's kappa and the share of the rewrites people rejected that the judge did not call "
        "same, overall and per 'class' and 'perturbation' when the lines have them.",
    )
    agreement.add_argument("verdicts", metavar="VERDICTS.jsonl", help="the output of validate judge")
    agreement.add_argument(
        "people", nargs="*", metavar="JUDGMENTS.csv|LABELLED.jsonl", help="people's judgments or labelled pairs"
    )
    agreement.add_argument(
        "--rule", choices=RULES, default=HUANG_2021, help="decides a rewrite several people labelled (default huang-2021)"
    )
    agreement.add_argument("--columns", metavar="FIELD=COLUMN,...", help="the columns of a platform's results, as for import")
    agreement.add_argument("--output-json", metavar="FILE", help="also write the table as JSON")
    agreement.set_defaults(func=run_agreement)

    ablate = commands.add_parser(
        "ablate",
        help="what each veto and the reader of the default judge change on labelled pairs",
        description='Reads JSONL lines {"original", "rewrite", "label", "gold"?, "schema"?} (label: same, different or '
        "unsure; only same is kept) and reports the default judge's agreement with the labels whole, with each veto "
        "left out, with the vetoes alone and with the reader alone, and how often each veto fired on rewrites "
        "people kept.",
    )
    ablate.add_argument("--input", required=True, metavar="LABELLED.jsonl", help="the labelled pairs")
    ablate.add_argument(
        "--reader", metavar="MODEL", help="a CrossEncoder or a folder of judge train (default: the packaged reader)"
    )
    ablate.add_argument("--output-json", metavar="FILE", help="also write the tables as JSON")
    ablate.set_defaults(func=run_ablate)


def run_export(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.arguments import run_context
    from textattack_semparse.experiments import validate
    from textattack_semparse.validation.validation_key import ITEMS_CSV, KEY_FILE, PAGE, PAIRS_JSONL

    config = validate.ExportConfig(
        sources=args.sources,
        output_dir=args.output_dir,
        task=args.task,
        seed=args.seed,
        sample=args.sample,
        per_perturbation=args.per_perturbation,
        original=args.original,
        overwrite=args.overwrite,
    )
    result = validate.export(config, run_context(args))
    key = result.key
    print(
        f"Exported {len(key.items)} {key.task} items from {key.rewrites} rewrites of {len(key.sources)} source(s) "
        f"(seed {key.seed}{_sample_note(key.sample, key.per_perturbation)}) to {result.directory}"
    )
    print(f"For the annotators: {result.files[PAGE]} (open it in a browser) or {result.files[ITEMS_CSV]} (a platform's upload)")
    print(f"Keep private: {result.files[KEY_FILE]} (for validate import), {result.files[PAIRS_JSONL]} (for validate judge)")
    return 0


def _sample_note(sample: int | None, per_perturbation: bool) -> str:
    if sample is None:
        return ""
    return f", a sample of {sample}{' per perturbation' if per_perturbation else ''}"


def run_import(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.arguments import run_context
    from textattack_semparse.commands.output import print_table, print_written
    from textattack_semparse.experiments import validate
    from textattack_semparse.validation.validation_key import ValidationKey
    from textattack_semparse.validation.validation_report import REPORT_FILE

    config = validate.ImportConfig(
        export_dir=args.export_dir,
        judgments=args.judgments,
        output_dir=args.output_dir,
        rule=args.rule,
        columns=args.columns,
        overwrite=args.overwrite,
    )
    check_hf_output(args)
    sources = len(ValidationKey.read(args.export_dir).sources)
    if args.push_to_hub is not None and sources > 1:
        raise ConfigurationError(
            f"--push-to-hub pushes one set, but the export holds {sources} sources; write them with --hf-dir and push "
            "each folder with datasets.load_from_disk(FOLDER).push_to_hub(REPO_ID)."
        )
    result = validate.import_judgments(config, run_context(args))
    report = result.report
    rows = [(name, value.judged, value.kept, value.acceptance) for name, value in report.perturbations.items()]
    rows.append(("all", report.overall.judged, report.overall.kept, report.overall.acceptance))
    print_table(f"Rewrites kept by {report.rule}", ["perturbation", "judged", "kept", "acceptance %"], rows)
    print(f"{report.rule}: {report.rule_description}")
    kappa = "n/a" if report.fleiss_kappa is None else f"{report.fleiss_kappa:.3f}"
    print(
        f"{len(report.annotators)} annotator{'' if len(report.annotators) == 1 else 's'}, {report.judgments} judgments; "
        f"Fleiss' kappa {kappa}; "
        f"{len(report.disputed)} disputed items; {report.rewrites_kept} rewrites kept, {report.rewrites_dropped} dropped"
    )
    print_written(*result.outputs, result.directory / REPORT_FILE)
    for output in result.outputs:
        write_hf_output(
            args,
            output,
            title=f"{output.name}, validated by people ({report.rule})",
            source=f"validate export {args.export_dir}",
            settings={
                "meaning judge": f"{len(report.annotators)} annotators, decided by {report.rule}: "
                f"{report.rule_description}",
                "judgments": ", ".join(str(path) for path in args.judgments),
                "rewrites kept": f"{report.rewrites_kept} of {report.rewrites_kept + report.rewrites_dropped}",
            },
            tags=("human-validated", "semantic-parsing"),
            hf_dir=None if sources == 1 or args.hf_dir is None else Path(args.hf_dir) / output.name,
        )
    return 0


def run_judge(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.arguments import run_context
    from textattack_semparse.commands.output import print_written
    from textattack_semparse.experiments import validate

    result = validate.judge(validate.JudgeConfig(judges=args.judges, input=args.input, output=args.output), run_context(args))
    counts = ", ".join(f"{count} {verdict}" for verdict, count in sorted(result.verdicts.items()))
    print(f"Judge {result.judge}: {counts}")
    print_written(result.output)
    return 0


def run_agreement(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.arguments import run_context
    from textattack_semparse.commands.output import print_table, print_written
    from textattack_semparse.experiments import validate

    config = validate.AgreementConfig(
        verdicts=args.verdicts, people=args.people, rule=args.rule, columns=args.columns, output_json=args.output_json
    )
    result = validate.agreement(config, run_context(args))
    columns = ["pairs", "accuracy %", "Cohen's kappa", "people rejected", "rejected recall %"]
    for field, title in (("", "The judge against people (keep = same)"), ("class", "by class"), ("perturbation", "by perturbation")):
        prefix = f"{field}: " if field else ""
        rows = [row for row in result.rows if (row.group.startswith(prefix) if field else row.group == "all")]
        if rows:
            print_table(
                title,
                [field or "rewrites", *columns],
                [
                    (row.group.removeprefix(prefix), row.pairs, row.accuracy, row.cohen_kappa, row.people_rejected, row.rejected_recall)
                    for row in rows
                ],
            )
    print_written(result.output_json)
    return 0


def run_ablate(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table, print_written
    from textattack_semparse.experiments import validate

    result = validate.ablate(validate.AblateConfig(args.input, reader=args.reader, output_json=args.output_json))
    print_table(
        f"The default judge against the labels (reader threshold {result.threshold:.2f})",
        ["variant", "pairs", "agreement %", "rejected of people's rejections %", "kept what people rejected"],
        [(row.group, row.pairs, row.accuracy, row.rejected_recall, row.judge_kept_rejected) for row in result.rows],
    )
    print_table("Vetoes", ["veto", "fired", "on rewrites people kept"], [(v.veto, v.fired, v.people_kept) for v in result.vetoes])
    if result.output_json is not None:
        print_written(result.output_json)
    return 0
