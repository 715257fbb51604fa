"""From a ``--model`` name to a victim, and from a dataset name to its examples: one path for
the stock ``textattack`` CLI (through ``_textattack_shim``) and the plugin's own commands."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.errors import DatasetError, RegistryError, VictimError
from textattack_semparse.registry import get_registry
from textattack_semparse.textattack_tables import is_textattack_model
from textattack_semparse.victims.llm_victim_name import is_llm_victim_name, parse_llm_victim_name
from textattack_semparse.victims.seq2seq_victim_name import is_seq2seq_victim_name, parse_seq2seq_victim_name

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark


def is_plugin_victim(model: str) -> bool:
    """Whether ``model`` names a registered victim, a local seq2seq or Table QA (TAPAS, TAPEX)
    model directory, a ``seq2seq:`` hub or local model with its input format, or an in-context
    LLM victim (``hf-causal:PATH``, ``openai:MODEL@URL``)."""
    if ("victim", model) in get_registry() or is_llm_victim_name(model) or is_seq2seq_victim_name(model):
        return True
    if not Path(model).is_dir():
        return False
    # A directory is read by the victims' modules (torch, transformers), imported only for one.
    from textattack_semparse.victims.seq2seq_parser import is_seq2seq_directory
    from textattack_semparse.victims.table_qa_parser import pretrained_table_qa_class

    return pretrained_table_qa_class(model) is not None or is_seq2seq_directory(model)


def check_victim_name(
    model: str, *, textattack_models: bool = False, model_from_huggingface: str | None = None
) -> None:
    """Fail before any work when ``model`` names no victim (workers build it later).

    Accepted: a registered victim, an LLM victim name, a local seq2seq or Table QA model
    directory, and with ``textattack_models`` what ``textattack attack --model`` loads itself
    (its model names, a local directory holding a ``config.json``, or ``model_from_huggingface``).
    The model an LLM or ``seq2seq:`` name points to must be had here (:func:`check_victim_available`).

    Raises:
        VictimError: ``model`` is a path, but not of a model directory; or its model cannot be had.
        RegistryError: An unknown name (with the closest registered victims).
    """
    if model_from_huggingface and textattack_models:
        return
    if is_plugin_victim(model):
        check_victim_available(model)
        return
    path = Path(model)
    if path.exists():
        markers = ("config.json", "t5-wrapper-config.json")
        if textattack_models and path.is_dir() and any((path / marker).is_file() for marker in markers):
            return
        raise VictimError(
            f"{model!r} is not a model directory: expected a folder written by save_pretrained (with a config.json; "
            "a seq2seq parser, TAPAS or TAPEX for this plugin), e.g. one from `textattack-semparse train`. Pass such "
            "a folder, or a registered victim (`textattack-semparse list victim`)."
        )
    if textattack_models and is_textattack_model(model):
        return
    try:
        get_registry().get("victim", model)  # raises RegistryError naming the closest victims
    except RegistryError as error:
        if ":" in model:
            raise
        raise RegistryError(
            f"{error} A hub model is named with its kind: seq2seq:{model} (a seq2seq parser) or hf-causal:{model} "
            "(an LLM prompted in context); with HF_HUB_OFFLINE=1 it must be in the local cache."
        ) from None


def check_victim_available(model: str) -> None:
    """Fail, naming the fix, when the model a victim stands for cannot be had on this machine: a
    path that does not exist, or, with ``HF_HUB_OFFLINE`` set, a hub name missing from the cache.
    Nothing is loaded. Asked of an LLM victim name (``hf-causal:PATH``), a ``seq2seq:`` name and a
    registered victim whose entry names its model (``tapex-wtq``, :func:`registered_victim_unavailable`).
    Workflows call it just before they write their run directory (whose configuration names the
    victim), so a model that is not here never leaves a run that refuses the corrected command.
    Other victims load when first called.

    Raises:
        VictimError: The model cannot be had (:func:`~textattack_semparse.victims.lazy_pretrained.unavailable`).
    """
    if is_llm_victim_name(model):
        problem = parse_llm_victim_name(model).unavailable()
    elif is_seq2seq_victim_name(model):
        problem = parse_seq2seq_victim_name(model).unavailable()
    elif ("victim", model) in get_registry():
        problem = registered_victim_unavailable(model)
    else:
        return
    if problem is not None:
        raise problem


def registered_victim_unavailable(model: str) -> VictimError | None:
    """The error the registered victim ``model`` would fail to load its model with, found without
    importing its module: its entry's ``model_name_or_path`` option (a hub name or a local path, as
    the Table QA victims give it) is looked for
    (:func:`~textattack_semparse.victims.lazy_pretrained.unavailable`); ``None`` for an entry
    without one (a k-NN parser, a trained victim)."""
    from textattack_semparse.victims.lazy_pretrained import unavailable

    entry = get_registry().get("victim", model)
    location = entry.options.get("model_name_or_path")
    if location is None:
        return None
    victim = entry.target.rpartition(":")[2].split(".")[0]  # the class: "TapexParser" of "...:TapexParser.from_benchmark"
    return unavailable(victim, str(location))


def dataset_benchmark(dataset: str | None) -> Benchmark | None:
    """The benchmark a registered dataset is derived from (its entry's ``benchmark`` option);
    ``None`` for no dataset, an unregistered name (a test set saved from a plugin no longer
    installed) or a dataset registered without one."""
    from textattack_semparse.datasets.benchmark import load_benchmark

    registry = get_registry()
    if dataset is None or ("dataset", dataset) not in registry:
        return None
    benchmark = registry.get("dataset", dataset).options.get("benchmark")
    return None if benchmark is None else load_benchmark(benchmark)


def resolve_victim(model: str, *, dataset: str | None = None) -> tuple[Any, str | None]:
    """The victim for ``model`` and the registered dataset it is evaluated on (``None`` if none).

    A registered victim is built from its entry, with its entry's dataset unless ``dataset``
    is given. A local TAPAS or TAPEX/OmniTab directory becomes a :class:`TapasParser` or
    :class:`TapexParser`, and any other local seq2seq directory a :class:`Seq2SeqParser`, bound to
    the benchmark of ``dataset``, so its output is scored as that benchmark's is. An LLM victim name
    (:mod:`~textattack_semparse.victims.llm_victim_name`, e.g. ``hf-causal:PATH`` or
    ``openai:MODEL@URL``) becomes its registered backend's victim, prompted with the database
    and training split of that benchmark. A ``seq2seq:`` name
    (:mod:`~textattack_semparse.victims.seq2seq_victim_name`) becomes a :class:`Seq2SeqParser` that
    reads each example's schema from that benchmark's databases in the format it names.

    Raises:
        RegistryError: Unknown name (with the closest registered victims).
        VictimError: ``model`` is a directory, but no seq2seq model.
    """
    registry = get_registry()
    if ("victim", model) in registry:
        return registry.get("victim", model).create(), victim_dataset(model, dataset)
    if is_llm_victim_name(model):
        return _llm_victim(model, dataset), dataset
    if is_seq2seq_victim_name(model):
        return parse_seq2seq_victim_name(model).create(benchmark=dataset_benchmark(dataset)), dataset
    from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser, is_seq2seq_directory
    from textattack_semparse.victims.table_qa_parser import pretrained_table_qa_class

    table_qa_class = pretrained_table_qa_class(model)
    if table_qa_class is not None:  # before the seq2seq check: a TAPEX directory is a BART one too
        return table_qa_class(model, benchmark=dataset_benchmark(dataset)), dataset
    if is_seq2seq_directory(model):
        return Seq2SeqParser(model, benchmark=dataset_benchmark(dataset)), dataset
    if Path(model).is_dir():
        raise VictimError(
            f"{model!r} is a directory but not a seq2seq model: expected a config.json whose "
            "'architectures' lists a *ForConditionalGeneration class (or with is_encoder_decoder: true)."
        )
    return registry.get("victim", model).create(), victim_dataset(model, dataset)


def _llm_victim(model: str, dataset: str | None) -> Any:
    name = parse_llm_victim_name(model)
    benchmark = dataset_benchmark(dataset)
    if benchmark is None or dataset is None:
        raise DatasetError(
            f"Victim {model!r} needs a dataset to know its benchmark (database and demonstrations); pass one of: "
            f"{', '.join(get_registry().names('dataset'))} (--dataset for textattack-semparse commands, "
            "--dataset-by-model for textattack attack)."
        )
    split_type = get_registry().get("dataset", dataset).options.get("split_type", "question")
    return name.create(benchmark=benchmark, split_type=split_type)


def victim_dataset(model: str, dataset: str | None = None) -> str | None:
    """The dataset a victim is evaluated on: ``dataset``, else the registered victim's own."""
    registry = get_registry()
    if dataset is not None or ("victim", model) not in registry:
        return dataset
    return registry.get("victim", model).dataset


def required_dataset(model: str, dataset: str | None) -> str:
    """``dataset`` (the one :func:`resolve_victim` returned); an error naming the fix when ``None``."""
    if dataset is not None:
        return dataset
    raise DatasetError(
        f"Victim {model!r} names no default dataset; pass one of: {', '.join(get_registry().names('dataset'))} "
        "(--dataset for textattack-semparse commands, --dataset-by-model for textattack attack)."
    )


def load_dataset(name: str) -> Any:
    """The registered dataset ``name`` (a TextAttack dataset)."""
    return get_registry().get("dataset", name).create()


def dataset_rows(name: str) -> tuple[list[tuple[OrderedDict[str, str | None], str]], Benchmark | None]:
    """The items of the registered dataset ``name`` (``(OrderedDict(columns), gold)``, as a TextAttack
    dataset has them) and the benchmark it carries (``None`` if none). A split of a registered
    benchmark is read from the benchmark, without building its TextAttack dataset (nor importing
    TextAttack), for workflows that only read the examples (``evaluate``)."""
    from textattack_semparse.datasets.benchmark import benchmark_split
    from textattack_semparse.datasets.example_rows import example_rows
    from textattack_semparse.registry import BENCHMARK_DATASET

    entry = get_registry().get("dataset", name)
    if entry.target == BENCHMARK_DATASET:
        benchmark, examples = benchmark_split(**entry.options)
        columns, rows = example_rows(examples)
        return [(OrderedDict(zip(columns, values)), gold) for values, gold in rows], benchmark
    data = entry.create()
    return list(data), getattr(data, "benchmark", None)
