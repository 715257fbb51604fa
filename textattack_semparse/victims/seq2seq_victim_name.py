"""``seq2seq:`` victim names: a hub or local encoder-decoder with the input format it was trained on.

``seq2seq:MODEL[?key=value&...]``, where ``MODEL`` is a Hugging Face hub name or a local model
directory, selects a :class:`~textattack_semparse.victims.seq2seq_parser.Seq2SeqParser` from any
command that takes ``--model`` (the stock ``textattack attack`` included). Options:

- ``format``: how the question and the example's database schema become the model input
  (:mod:`~textattack_semparse.victims.schema_serialized_input`: ``picard``, ``unifiedskg``,
  ``template``); without it the question alone is the input;
- ``db_content`` (0/1): write the database values the question mentions (the "+DB content" models);
- ``template``: the user's template, for ``format=template`` (percent-encode ``&``, ``?`` and
  ``%`` in it as ``%26``, ``%3F`` and ``%25``);
- ``db_id_in_output`` (0/1): the model writes ``db_id |`` before the query; default 1 for
  ``picard``, else 0;
- ``num_beams``, ``max_new_tokens``, ``max_input_length``, ``batch_size``: decoding and batching,
  as :class:`Seq2SeqParser` takes them;
- ``rerank`` (0/1): rerank the beam with the reconstruction model a parser trained by
  ``textattack-semparse train`` saves beside it (geo-lambda's); default 1, ``rerank=0`` decodes
  with the parser alone (several times faster on a CPU).

Example::

    textattack attack --recipe semparse-spider --dataset-by-model spider-dev \\
        --model "seq2seq:tscholak/cxmefzzi?format=picard&db_content=1&num_beams=4"

Original to textattack-semparse.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from textattack_semparse.errors import VictimError

SCHEME = "seq2seq"
OPTIONS: dict[str, type] = {
    "format": str,
    "db_content": bool,
    "template": str,
    "db_id_in_output": bool,
    "num_beams": int,
    "max_new_tokens": int,
    "max_input_length": int,
    "batch_size": int,
    "rerank": bool,
}
"""Option -> type of ``seq2seq:`` victim names."""


@dataclass(frozen=True)
class Seq2SeqVictimName:
    """A parsed ``seq2seq:`` name: the model (hub name or directory) and its typed options."""

    model: str
    options: dict[str, Any] = field(default_factory=dict)

    def unavailable(self) -> VictimError | None:
        """The error the model would fail to load with, found without loading it, or ``None``."""
        from textattack_semparse.victims.lazy_pretrained import unavailable

        return unavailable("Seq2SeqParser", self.model)

    def create(self, *, benchmark: Any) -> Any:
        """The :class:`Seq2SeqParser`, bound to ``benchmark`` (whose databases a ``format`` reads).

        Raises:
            VictimError: A ``format`` without a benchmark that has databases.
            ConfigurationError: An unknown format or a bad template.
        """
        from textattack_semparse.victims.schema_serialized_input import SchemaSerializedInput
        from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser

        options = dict(self.options)
        input_format = options.pop("format", None)
        db_content = options.pop("db_content", False)
        template = options.pop("template", None)
        db_id_in_output = options.pop("db_id_in_output", input_format == "picard")
        formatter = None
        if input_format is not None:
            databases = None if benchmark is None else benchmark.scoring.databases
            if databases is None:
                raise VictimError(
                    f"Victim {self}: format={input_format} serialises each example's database schema, but "
                    f"{'no dataset was given' if benchmark is None else f'benchmark {benchmark.name!r} has no database'}; "
                    "pass a dataset with databases (e.g. --dataset spider-dev, --dataset-by-model for textattack attack)."
                )
            formatter = SchemaSerializedInput(databases, input_format, db_content=db_content, template=template)
        elif db_content or template is not None:
            raise VictimError(f"Victim {self}: db_content and template need a format (format=picard, unifiedskg or template).")
        return Seq2SeqParser(
            self.model, benchmark=benchmark, input_formatter=formatter, db_id_in_output=db_id_in_output, **options
        )

    def __str__(self) -> str:
        query = "&".join(f"{key}={_option_text(value)}" for key, value in self.options.items())
        return f"{SCHEME}:{self.model}" + (f"?{query}" if query else "")


def is_seq2seq_victim_name(model: Any) -> bool:
    """Whether ``model`` is a ``seq2seq:`` victim name.

    Example:
        >>> is_seq2seq_victim_name("seq2seq:tscholak/cxmefzzi?format=picard"), is_seq2seq_victim_name("knn-geo")
        (True, False)
    """
    return isinstance(model, str) and model.startswith(f"{SCHEME}:")


def parse_seq2seq_victim_name(model: str) -> Seq2SeqVictimName:
    """Split a ``seq2seq:`` name into the model and typed options.

    Raises:
        VictimError: No model, an unknown option, or a value of the wrong type.

    Example:
        >>> parse_seq2seq_victim_name("seq2seq:t5-small?format=picard&db_content=1&num_beams=4")
        Seq2SeqVictimName(model='t5-small', options={'format': 'picard', 'db_content': True, 'num_beams': 4})
    """
    if not is_seq2seq_victim_name(model):
        raise VictimError(f"{model!r} is not a seq2seq victim name; write {SCHEME}:MODEL?format=picard&... .")
    body = model[len(SCHEME) + 1 :]
    target, _, query = body.partition("?")
    target = target.strip()
    if not target:
        raise VictimError(f"Victim {model!r} names no model; write {SCHEME}:HUB_NAME_OR_DIRECTORY[?options].")
    options: dict[str, Any] = {}
    for item in filter(None, query.split("&")):
        key, sep, value = item.partition("=")
        if not sep or key not in OPTIONS:
            raise VictimError(
                f"Victim {model!r}: bad option {item!r}; write {SCHEME}:MODEL?key=value&... with keys {', '.join(OPTIONS)}."
            )
        options[key] = _typed(model, key, urllib.parse.unquote(value))
    return Seq2SeqVictimName(target, options)


def _typed(model: str, key: str, value: str) -> Any:
    kind = OPTIONS[key]
    if kind is bool:
        if value not in ("0", "1", "true", "false"):
            raise VictimError(f"Victim {model!r}: option {key} must be 0 or 1, got {value!r}.")
        return value in ("1", "true")
    if kind is int:
        try:
            return int(value)
        except ValueError:
            raise VictimError(f"Victim {model!r}: option {key} must be an integer, got {value!r}.") from None
    return value


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(int(value))
    return urllib.parse.quote(str(value), safe=" {}|:,;()")
