"""From a ``--model`` name to a victim, and from a dataset name to its examples: one path for
the stock ``textattack`` CLI (through ``_textattack_shim``) and the plugin's own commands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.errors import DatasetError, VictimError
from textattack_semparse.registry import get_registry

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark


def is_plugin_victim(model: str) -> bool:
    """Whether ``model`` names a registered victim, a local seq2seq model directory or a local
    causal LM (``hf-causal:PATH``)."""
    from textattack_semparse.victims.seq2seq_parser import is_seq2seq_directory

    return ("victim", model) in get_registry() or is_causal_lm_name(model) or is_seq2seq_directory(model)


HF_CAUSAL_PREFIX = "hf-causal:"
"""Victim names ``hf-causal:PATH[?shots=K&selection=NAME&seed=S&max_new_tokens=N&batch_size=B]``."""
_CAUSAL_INT_OPTIONS = ("shots", "seed", "max_new_tokens", "batch_size")
_CAUSAL_OPTIONS = (*_CAUSAL_INT_OPTIONS, "selection")


def is_causal_lm_name(model: str) -> bool:
    """Whether ``model`` names a local causal LM victim (``hf-causal:PATH``).

    Example:
        >>> is_causal_lm_name("hf-causal:/models/smollm2.gguf"), is_causal_lm_name("knn-geo")
        (True, False)
    """
    return isinstance(model, str) and model.startswith(HF_CAUSAL_PREFIX)


def causal_lm_name(path: str, **options: Any) -> str:
    """``hf-causal:PATH`` with the options that are not ``None`` appended as a query.

    Example:
        >>> causal_lm_name("/m/x.gguf", shots=5, selection="random", seed=None)
        'hf-causal:/m/x.gguf?shots=5&selection=random'
    """
    unknown = set(options) - set(_CAUSAL_OPTIONS)
    if unknown:
        raise ValueError(f"Unknown hf-causal option(s) {sorted(unknown)}; known: {', '.join(_CAUSAL_OPTIONS)}.")
    query = "&".join(f"{key}={value}" for key, value in options.items() if value is not None)
    return HF_CAUSAL_PREFIX + path + (f"?{query}" if query else "")


def parse_causal_lm_name(model: str) -> tuple[str, str | None, dict[str, Any]]:
    """``(directory or hub name, gguf file or None, options)`` of an ``hf-causal:`` name.

    A path ending in ``.gguf`` is split into its parent directory and file name.

    Example:
        >>> parse_causal_lm_name("hf-causal:/m/x.gguf?shots=2&selection=cluster-tfidf")
        ('/m', 'x.gguf', {'shots': 2, 'selection': 'cluster-tfidf'})
    """
    body = model[len(HF_CAUSAL_PREFIX) :]
    options: dict[str, Any] = {}
    if "?" in body:
        body, query = body.rsplit("?", 1)
        for item in filter(None, query.split("&")):
            key, sep, value = item.partition("=")
            if not sep or key not in _CAUSAL_OPTIONS:
                raise VictimError(
                    f"Victim {model!r}: bad option {item!r}; write hf-causal:PATH?key=value&... with keys "
                    f"{', '.join(_CAUSAL_OPTIONS)}."
                )
            if key in _CAUSAL_INT_OPTIONS:
                try:
                    options[key] = int(value)
                except ValueError:
                    raise VictimError(f"Victim {model!r}: option {key} must be an int, got {value!r}.") from None
            else:
                options[key] = value
    if not body.strip():
        raise VictimError(f"Victim {model!r} names no model; write hf-causal:PATH (a directory or a .gguf file).")
    if body.endswith(".gguf"):
        path = Path(body)
        return str(path.parent), path.name, options
    return body, None, options


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
    is given. A local seq2seq directory becomes a :class:`Seq2SeqParser` bound to the
    benchmark of ``dataset``, so its output is scored as that benchmark's is. ``hf-causal:PATH``
    (see :func:`parse_causal_lm_name`) becomes a
    :class:`~textattack_semparse.llm.causal_lm_parser.CausalLMParser` prompted with the database
    and training split of that benchmark.

    Raises:
        RegistryError: Unknown name (with the closest registered victims).
        VictimError: ``model`` is a directory, but no seq2seq model.
    """
    from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser, is_seq2seq_directory

    registry = get_registry()
    if ("victim", model) not in registry and is_causal_lm_name(model):
        return _causal_lm_victim(model, dataset), dataset
    if ("victim", model) not in registry:
        if is_seq2seq_directory(model):
            return Seq2SeqParser(model, benchmark=dataset_benchmark(dataset)), dataset
        if Path(model).is_dir():
            raise VictimError(
                f"{model!r} is a directory but not a seq2seq model: expected a config.json whose "
                "'architectures' lists a *ForConditionalGeneration class (or with is_encoder_decoder: true)."
            )
    return registry.get("victim", model).create(), victim_dataset(model, dataset)


def _causal_lm_victim(model: str, dataset: str | None) -> Any:
    from textattack_semparse.llm.causal_lm_parser import CausalLMParser

    location, gguf_file, options = parse_causal_lm_name(model)
    benchmark = dataset_benchmark(dataset)
    if benchmark is None:
        raise DatasetError(
            f"Victim {model!r} needs a dataset to know its benchmark (database and demonstrations); pass one of: "
            f"{', '.join(get_registry().names('dataset'))} (--dataset for textattack-semparse commands, "
            "--dataset-by-model for textattack attack)."
        )
    entry = get_registry().get("dataset", dataset)
    split_type = entry.options.get("split_type", "question")
    return CausalLMParser(location, gguf_file=gguf_file, benchmark=benchmark, split_type=split_type, **options)


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
