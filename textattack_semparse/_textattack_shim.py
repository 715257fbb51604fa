"""The thin layer that makes the stock ``textattack`` CLI see the plugin's names.

TextAttack resolves recipes and models through closed tables and ``eval``. Right after
``textattack`` is imported (see ``_textattack_semparse_autoload``), :func:`after_import`
fills those tables from the plugin registry with self-contained lookup expressions, and
wraps these entry points so registered names work end to end:

* ``ModelArgs._create_model_from_args``: ``--model`` accepts registered victims and
  local seq2seq directories (TextAttack would load a directory as a classifier), through
  :func:`~textattack_semparse.victims.resolution.resolve_victim`.
* ``DatasetArgs._create_dataset_from_args``: a registered victim brings its dataset;
  ``--dataset-by-model`` accepts registered dataset names; a ``--model`` neither the
  plugin nor TextAttack knows is answered with the closest registered victims.
* ``AttackArgs.create_loggers_from_args``: the summary gains the plugin's rows (gold and
  victim errors left out, standard accuracy without them).
* ``Attacker.attack_dataset``: a plugin error that stops a run (a victim failing too
  often) first writes the logs of the examples already attacked.
* ``AttackCommand.register_subcommand``: usage errors of ``textattack attack`` are one line,
  and ``--recipe`` names the closest recipes instead of listing all of them.
* ``AttackCommand.run``/``AugmentCommand.run``: the checks of ``textattack-semparse attack``
  run first (the victim exists; the recipe judges as the victim's benchmark does); a plugin
  error is one line on stderr and exit status 2, not a traceback; plugin augmentation recipes
  read and write CSV with the :mod:`csv` module, leaving every other column byte-identical
  (TextAttack's writer deletes every ``/``).

Every step is idempotent: running it twice changes nothing.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

from textattack_semparse.cache import cache_dir
from textattack_semparse.errors import SemparseError
from textattack_semparse.registry import Registry, get_registry

_PATCHED = "_textattack_semparse_original"


def before_import() -> None:
    """Runs before TextAttack's package executes: make NLTK's English stopwords findable offline,
    and keep TextAttack's first-import NLTK downloads quiet.

    TextAttack reads the stopwords while it is imported. When NLTK's own search path has them
    (``NLTK_DATA``, ``~/nltk_data``, the prefix and system folders) nothing is done; when the
    plugin's cache has them, its folder is added to ``nltk.data.path`` as NLTK loads. Neither
    imports NLTK (TextAttack does, right after). Otherwise
    :func:`~textattack_semparse.offline.ensure_nltk_stopwords` writes them, importing NLTK.

    On its first import TextAttack downloads six NLTK packages; offline, each attempt prints
    ``[nltk_data] Error loading ...`` lines that are no concern of the user's (everything the
    plugin needs is packaged). Until TextAttack's package has executed, ``nltk.download``
    sends its messages nowhere (:func:`_quiet_nltk_downloads`).
    """
    import _textattack_semparse_autoload
    from textattack_semparse.offline import STOPWORDS_RESOURCE

    _textattack_semparse_autoload.after_import("nltk", _quiet_nltk_downloads)

    if any(os.path.isfile(os.path.join(folder, STOPWORDS_RESOURCE)) for folder in _nltk_search_path()):
        return
    cached = str(cache_dir() / "nltk_data")
    if os.path.isfile(os.path.join(cached, STOPWORDS_RESOURCE)):
        _textattack_semparse_autoload.after_import("nltk.data", functools.partial(_add_nltk_folder, cached))
        return
    from textattack_semparse.offline import ensure_nltk_stopwords

    ensure_nltk_stopwords()


def _nltk_search_path() -> list[str]:
    """The folders ``nltk.data.path`` starts with (NLTK 3.x ``nltk/data.py``), without importing NLTK."""
    folders = [os.path.expanduser(folder) for folder in os.environ.get("NLTK_DATA", "").split(os.pathsep) if folder]
    if "APPENGINE_RUNTIME" not in os.environ and os.path.expanduser("~/") != "~/":
        folders.append(os.path.expanduser("~/nltk_data"))
    folders += [os.path.join(sys.prefix, *parts, "nltk_data") for parts in ((), ("share",), ("lib",))]
    if not sys.platform.startswith("win"):
        folders += ["/usr/share/nltk_data", "/usr/local/share/nltk_data", "/usr/lib/nltk_data", "/usr/local/lib/nltk_data"]
    return folders


def _quiet_nltk_downloads(nltk: Any) -> None:
    """Make ``nltk.download`` print nothing until :func:`_restore_nltk_downloads` (TextAttack's
    package has executed)."""
    download = nltk.download
    if hasattr(download, _PATCHED):
        return

    @functools.wraps(download)
    def quiet_download(*args: Any, **kwargs: Any) -> Any:
        with open(os.devnull, "w", encoding="utf-8") as nowhere:
            return download(*args, **{"quiet": True, "print_error_to": nowhere, **kwargs})

    setattr(quiet_download, _PATCHED, download)
    nltk.download = quiet_download


def _restore_nltk_downloads() -> None:
    nltk: Any = sys.modules.get("nltk")
    original = getattr(getattr(nltk, "download", None), _PATCHED, None)
    if nltk is not None and original is not None:
        nltk.download = original


def _add_nltk_folder(folder: str, nltk_data: ModuleType) -> None:
    if folder not in nltk_data.path:
        nltk_data.path.append(folder)


def after_import(textattack: ModuleType) -> None:
    """Runs after TextAttack's package executed: register the plugin's names."""
    _restore_nltk_downloads()
    try:
        registry = get_registry()
    except SemparseError as error:
        warnings.warn(f"textattack-semparse did not register its components: {error}", stacklevel=2)
        return
    register_names(registry)
    _wrap_classmethod(textattack.ModelArgs, "_create_model_from_args", _create_model_from_args)
    _wrap_classmethod(textattack.DatasetArgs, "_create_dataset_from_args", _create_dataset_from_args)
    _wrap_classmethod(textattack.AttackArgs, "create_loggers_from_args", _create_loggers_from_args)
    _wrap_method(textattack.Attacker, "attack_dataset", _attack_dataset)
    from textattack.commands.attack_command import AttackCommand
    from textattack.commands.augment_command import AugmentCommand

    _wrap_staticmethod(AttackCommand, "register_subcommand", _register_attack_subcommand)
    _wrap_method(AttackCommand, "run", _run_attack)
    _wrap_method(AugmentCommand, "run", _run_augment)


def _lookup_expression(function: str, name: str) -> str:
    # TextAttack evaluates these strings in its own namespace, so they import what they need.
    return f"__import__('textattack_semparse.registry', fromlist=['{function}']).{function}({name!r})"


def register_names(registry: Registry) -> None:
    """Add the registry's names to TextAttack's recipe, augmentation and model tables."""
    from textattack import attack_args, augment_args, model_args

    for name in registry.names("attack-recipe"):
        attack_args.ATTACK_RECIPE_NAMES[name] = _lookup_expression("attack_recipe_class", name)
    for name in registry.names("augmentation-recipe"):
        augment_args.AUGMENTATION_RECIPE_NAMES[name] = _lookup_expression("augmentation_recipe_class", name)
    for entry in registry.entries("victim"):
        # Listed by `textattack list models` and `--model`'s help; built by _create_model_from_args.
        model_args.TEXTATTACK_MODELS[entry.name] = entry.target


def _wrap_classmethod(cls: type, name: str, replacement: Callable[..., Any]) -> None:
    current = getattr(cls, name)
    if hasattr(current, _PATCHED):
        return
    original = current.__func__

    @functools.wraps(original)
    def wrapper(klass: type, args: Any) -> Any:
        return replacement(functools.partial(original, klass), args)

    setattr(wrapper, _PATCHED, original)
    setattr(cls, name, classmethod(wrapper))


def _wrap_method(cls: type, name: str, replacement: Callable[..., Any]) -> None:
    original = getattr(cls, name)
    if hasattr(original, _PATCHED):
        return

    @functools.wraps(original)
    def wrapper(self: Any, *args: Any) -> Any:
        return replacement(functools.partial(original, self), *args)

    setattr(wrapper, _PATCHED, original)
    setattr(cls, name, wrapper)


def _wrap_staticmethod(cls: type, name: str, replacement: Callable[..., Any]) -> None:
    original = getattr(cls, name)
    if hasattr(original, _PATCHED):
        return

    @functools.wraps(original)
    def wrapper(*args: Any) -> Any:
        return replacement(original, *args)

    setattr(wrapper, _PATCHED, original)
    setattr(cls, name, staticmethod(wrapper))


def _register_attack_subcommand(original: Callable[[Any], Any], main_parser: Any) -> Any:
    """``textattack attack``'s parser, with usage errors on one line and ``--recipe`` checked by
    name with the closest names (TextAttack lists every recipe in a many-line usage error); its
    ``--help`` still lists the recipes (the plugin's included) as TextAttack's choices did."""
    result = original(main_parser)
    parser = main_parser.choices["attack"]
    parser.error = functools.partial(_one_line_usage_error, parser)
    for action in parser._actions:
        if action.dest == "attack_recipe":
            if action.choices is not None and action.metavar is None:
                action.metavar = "{" + ",".join(map(str, action.choices)) + "}"  # argparse's rendering of choices
            action.choices = None
            action.type = _attack_recipe_name
    return result


def _one_line_usage_error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    parser.exit(2, f"{parser.prog}: error: {message} (see {parser.prog} --help)\n")


def _attack_recipe_name(name: str) -> str:
    """An argparse type: a recipe TextAttack's table holds (the plugin's names included)."""
    from textattack.attack_args import ATTACK_RECIPE_NAMES

    from textattack_semparse.errors import closest_match_hint

    if name not in ATTACK_RECIPE_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown attack recipe {name!r}.{closest_match_hint(name, ATTACK_RECIPE_NAMES)} `textattack list "
            "attack-recipes` names them"
        )
    return name


def _create_model_from_args(original: Callable[[Any], Any], args: Any) -> Any:
    from textattack_semparse.victims.resolution import is_plugin_victim, resolve_victim

    model = getattr(args, "model", None)
    if model and is_plugin_victim(model):
        return resolve_victim(model, dataset=getattr(args, "dataset_by_model", None))[0]
    return original(args)


def _create_dataset_from_args(original: Callable[[Any], Any], args: Any) -> Any:
    from textattack_semparse.victims.resolution import (
        is_plugin_victim,
        load_dataset,
        required_dataset,
        victim_dataset,
    )

    registry = get_registry()
    if getattr(args, "dataset_from_file", None) or getattr(args, "dataset_from_huggingface", None):
        return original(args)
    requested = getattr(args, "dataset_by_model", None)
    if requested and ("dataset", requested) in registry:
        return load_dataset(requested)
    model = getattr(args, "model", None)
    if model and is_plugin_victim(model):
        return load_dataset(required_dataset(model, victim_dataset(model, requested)))
    if model and not requested and not _textattack_knows(model):
        registry.get("victim", model)  # raises: unknown, with the closest registered victims
    return original(args)


def _textattack_knows(model: str) -> bool:
    """Whether TextAttack's own ``--model`` resolver accepts ``model`` (a name of its tables or a path)."""
    from textattack_semparse.textattack_tables import is_textattack_model

    return is_textattack_model(model) or Path(model).exists()


def _create_loggers_from_args(original: Callable[[Any], Any], args: Any) -> Any:
    from textattack_semparse.metrics.attack_log_figure import AttackLogFigure
    from textattack_semparse.metrics.attack_metrics import STANDARD_ACCURACY_ROW, SUMMARY_ROWS
    from textattack_semparse.scoring.outcome import Outcome

    log_manager = original(args)
    log_manager.metrics.setdefault(SUMMARY_ROWS[Outcome.GOLD_ERROR], AttackLogFigure("gold_errors"))
    log_manager.metrics.setdefault(SUMMARY_ROWS[Outcome.VICTIM_ERROR], AttackLogFigure("victim_errors"))
    log_manager.metrics.setdefault(STANDARD_ACCURACY_ROW, AttackLogFigure("standard_accuracy"))
    return log_manager


def _attack_dataset(original: functools.partial[Any]) -> Any:
    attacker = original.args[0]
    try:
        return original()
    except SemparseError as error:
        log_manager = attacker.attack_log_manager
        if log_manager is not None and log_manager.results:
            try:
                log_manager.log_summary()
                log_manager.flush()
            except Exception as log_error:  # noqa: BLE001 - the run's own error is the one to report
                warnings.warn(f"Could not write the logs of the examples already attacked: {log_error!r}", stacklevel=2)
        raise error


def _one_line_errors(original: Callable[[Any], Any], args: Any) -> Any:
    try:
        return original(args)
    except SemparseError as error:
        print(f"textattack: error: {' '.join(str(error).split())}", file=sys.stderr)
        raise SystemExit(2) from None


def _run_attack(original: Callable[[Any], Any], args: Any) -> Any:
    """``textattack attack`` with the checks of ``textattack-semparse attack`` first: the victim
    exists, and the recipe judges outputs as the victim's benchmark does."""
    return _one_line_errors(_checked(original), args)


def _checked(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(args: Any) -> Any:
        _check_attack(args)
        return original(args)

    return run


def _check_attack(args: Any) -> None:
    from textattack_semparse.experiments.attack import check_example_range
    from textattack_semparse.recipes.recipe_fit import check_recipe_fits_dataset
    from textattack_semparse.victims.resolution import check_victim_name, is_plugin_victim, victim_dataset

    count = getattr(args, "num_examples", None)  # absent unless given (or None with --num-successful-examples)
    check_example_range(-1 if count is None else count, getattr(args, "num_examples_offset", 0) or 0)
    model = getattr(args, "model", None)
    if not model:
        return
    check_victim_name(model, textattack_models=True, model_from_huggingface=getattr(args, "model_from_huggingface", None))
    recipe = getattr(args, "attack_recipe", None)
    if recipe and is_plugin_victim(model):
        check_recipe_fits_dataset(recipe, victim_dataset(model, getattr(args, "dataset_by_model", None)))


def _run_augment(original: Callable[[Any], Any], args: Any) -> Any:
    registry = get_registry()
    if getattr(args, "interactive", False) or ("augmentation-recipe", args.recipe) not in registry:
        return original(args)
    from textattack_semparse.augmentation.csv_augmentation import augment_csv_from_args
    from textattack_semparse.registry import augmentation_recipe_class

    return _one_line_errors(lambda _: augment_csv_from_args(augmentation_recipe_class(args.recipe), args), args)
