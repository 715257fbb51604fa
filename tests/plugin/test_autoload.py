"""The import hook installed by the .pth file: present, cheap, idempotent, effective."""

from __future__ import annotations

import subprocess
import sys

import _textattack_semparse_autoload as autoload

from tests.helpers import run_command

HEAVY_MODULES = ("torch", "transformers", "spacy", "sentence_transformers", "nltk", "tensorflow", "textattack")


def _python(code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, check=True)


def test_pth_installs_the_hook_at_startup():
    result = _python(
        "import sys; print(sum(getattr(f, 'textattack_semparse_hook', False) for f in sys.meta_path))"
    )
    assert result.stdout.strip() == "1"


def test_install_twice_keeps_one_hook():
    result = _python(
        "import sys, _textattack_semparse_autoload as a; a.install(); a.install(); "
        "print(sum(getattr(f, 'textattack_semparse_hook', False) for f in sys.meta_path))"
    )
    assert result.stdout.strip() == "1"


def test_hook_imports_nothing_beyond_the_standard_startup():
    # `-X importtime` lists every module imported at start-up with its nesting; the hook's
    # module must be a leaf (it imports only modules Python already loaded), which is what
    # keeps its cost in the microseconds (bench/autoload_cost.py measures it).
    names = [line.split("|")[-1] for line in _python("pass", "-X", "importtime").stderr.splitlines()]
    index = next(i for i, name in enumerate(names) if name.strip() == "_textattack_semparse_autoload")

    def depth(name: str) -> int:
        return len(name) - len(name.lstrip())

    # Children are printed before their parent, one level deeper.
    assert depth(names[index - 1]) <= depth(names[index]), f"the hook imported {names[index - 1].strip()!r}"


def test_processes_that_never_import_textattack_load_nothing_heavy():
    result = _python("import sys, json; print(json.dumps(sorted(sys.modules)))")
    loaded = set(__import__("json").loads(result.stdout))
    assert not loaded & set(HEAVY_MODULES)
    assert "textattack_semparse" not in loaded


def test_hook_only_reacts_to_textattack():
    assert autoload.TextAttackImportHook().find_spec("json") is None


def test_textattack_import_registers_recipes():
    result = _python(
        "import textattack.attack_args as a; print('semparse-geo' in a.ATTACK_RECIPE_NAMES)"
    )
    assert result.stdout.strip().endswith("True")


def test_registration_twice_changes_nothing():
    result = _python(
        "import textattack, textattack.attack_args as a\n"
        "from textattack_semparse import _textattack_shim as s\n"
        "before = dict(a.ATTACK_RECIPE_NAMES); method = textattack.ModelArgs._create_model_from_args\n"
        "s.after_import(textattack)\n"
        "print(dict(a.ATTACK_RECIPE_NAMES) == before, textattack.ModelArgs._create_model_from_args.__func__ is method.__func__)"
    )
    assert result.stdout.strip().endswith("True True")


def test_stock_cli_lists_plugin_recipe_and_augmenter():
    from concurrent.futures import ThreadPoolExecutor

    # Fresh interpreters: what is tested is that the hook registers the names when the stock CLI starts.
    # The three start side by side (each is one core's import of TextAttack).
    commands = [("list", "attack-recipes"), ("augment", "--help"), ("attack", "--help")]
    with ThreadPoolExecutor(len(commands)) as pool:
        recipes, augment_help, attack_help = pool.map(lambda arguments: run_command("textattack", *arguments, fresh=True), commands)
    assert recipes.returncode == 0, recipes.stderr
    assert "semparse-geo" in recipes.stdout
    assert "semparse-function-words" in augment_help.stdout
    assert "semparse-geo" in attack_help.stdout


def test_textattack_imports_offline_quietly_with_the_plugins_stopword_list(tmp_path):
    import os

    cache = tmp_path / "cache"
    code = (
        "import nltk\n"
        "try:\n    print('preinstalled', nltk.data.find('corpora/stopwords/english'))\n"
        "except LookupError:\n    print('missing')\n"
        "import textattack\n"
        "print('download restored:', not hasattr(nltk.download, '_textattack_semparse_original'))\n"
        "from nltk.corpus import stopwords\n"
        "print(len(stopwords.words('english')))\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "TEXTATTACK_SEMPARSE_CACHE": str(cache), "NLTK_DATA": str(tmp_path / "none")}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    # HOME is new, so this is TextAttack's first import: its NLTK downloads fail offline, quietly.
    assert (tmp_path / ".cache" / "textattack" / "post_install_check_3").exists()  # TextAttack's downloads ran
    assert "[nltk_data]" not in result.stderr, result.stderr
    assert "download restored: True" in result.stdout
    first, count = result.stdout.splitlines()[0], int(result.stdout.splitlines()[-1])
    provided = cache / "nltk_data" / "corpora" / "stopwords" / "english"
    if first == "missing":
        assert provided.is_file() and count == len(provided.read_text().split())
    else:  # NLTK's own file is installed on this machine: it is used, not replaced
        assert not provided.exists()


def test_stock_cli_attacks_a_local_seq2seq_directory(tmp_path):
    # TextAttack alone would load the directory as a sequence classifier.
    from tests.helpers import save_tiny_t5

    model = save_tiny_t5(tmp_path / "t5", "what is the capital of texas SELECT FROM WHERE".split())
    summary = tmp_path / "s.json"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-deletion", "--model", str(model),
        "--dataset-by-model", "geo-question-test", "--num-examples", "2", "--log-summary-to-json", str(summary),
        env={"SEMPARSE_DATA_DIR": ""},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    results = __import__("json").loads(summary.read_text())["Attack Results"]
    assert results["Number of skipped attacks:"] == 2  # a random model parses nothing right
    # A Seq2SeqParser bound to the dataset's benchmark, so its SQL is scored by execution on geo-mini.
    assert "SemanticParsingGoalFunction" in result.stdout and "T5ForConditionalGeneration" in result.stdout + result.stderr
    assert "ExecutionScorer(mode='classical'" in result.stdout and "geo-mini" in result.stdout


def test_stock_cli_unknown_model_is_a_one_line_error():
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-geo", "--model", "knn-gep", "--num-examples", "1",
        env={"SEMPARSE_DATA_DIR": ""},
    )
    assert result.returncode == 2, result.stderr[-3000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("textattack: error: Unknown victim 'knn-gep'. Did you mean 'knn-geo'?")


def _import_textattack(env: dict[str, str], code: str = "") -> subprocess.CompletedProcess[str]:
    """``import textattack`` in a fresh process; prints whether the plugin's shim imported NLTK itself."""
    import os

    program = (
        "import sys\n"
        "import textattack_semparse._textattack_shim as shim\n"
        "def before():\n"
        "    shim._before()\n"
        "    print('nltk imported by the hook:', 'nltk' in sys.modules)\n"
        "shim._before, shim.before_import = shim.before_import, before\n"
        "import textattack, textattack.attack_args as a\n"
        "print('registered:', 'semparse-geo' in a.ATTACK_RECIPE_NAMES)\n" + code
    )
    return subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env={**os.environ, **env}, timeout=600
    )


def test_hook_does_not_import_nltk_when_nltk_has_the_stopwords():
    from textattack_semparse.offline import ensure_nltk_stopwords

    folder = ensure_nltk_stopwords() or __import__("pathlib").Path.home() / "nltk_data"
    result = _import_textattack({"NLTK_DATA": str(folder)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines()[:2] == ["nltk imported by the hook: False", "registered: True"]


def test_hook_does_not_import_nltk_when_only_the_plugins_cache_has_the_stopwords(tmp_path):
    from textattack_semparse.offline import ensure_nltk_stopwords

    ensure_nltk_stopwords()  # the plugin's cache has the file (or NLTK's own path does)
    result = _import_textattack(
        {"NLTK_DATA": str(tmp_path / "none")},
        "import nltk.data\nfrom nltk.corpus import stopwords\nprint(len(stopwords.words('english')) > 100)\n",
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines() == ["nltk imported by the hook: False", "registered: True", "True"]


def test_disable_variable_leaves_the_hook_out():
    import os

    env = {**os.environ, autoload.DISABLE_ENV: "1"}
    result = subprocess.run(
        [sys.executable, "-c", "import sys; print(sum(getattr(f, 'textattack_semparse_hook', False) for f in sys.meta_path))"],
        capture_output=True, text=True, env=env, check=True,
    )
    assert result.stdout.strip() == "0"


def test_after_import_runs_a_callback_once_after_the_module_executes():
    result = _python(
        "import sys, _textattack_semparse_autoload as a\n"
        "seen = []\n"
        "a.after_import('colorsys', lambda m: seen.append(hasattr(m, 'rgb_to_hsv')))\n"
        "import colorsys; del sys.modules['colorsys']; import colorsys\n"
        "a.after_import('colorsys', lambda m: seen.append('loaded already'))\n"
        "print(seen)"
    )
    assert result.stdout.strip() == "[True, 'loaded already']"
