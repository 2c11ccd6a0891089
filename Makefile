# Two entry points, each doing all set-up on a fresh machine:
#   make run    install the app and start it on http://localhost:8501
#   make test   install everything the tests need (Chromium included) and run them all
PYTHON ?= python3
CHROMIUM ?= /usr/bin/chromium

.PHONY: run test install install-test chromium lint bench

install:
	$(PYTHON) -m pip install -q -e .

install-test:
	$(PYTHON) -m pip install -q -e ".[test]"

# Debian's Chromium for the Playwright browser tests (Playwright cannot download its own here).
chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi
	@test -x "$(CHROMIUM)" || { echo "Chromium is missing at $(CHROMIUM)"; exit 1; }

run: install
	$(PYTHON) -m streamlit run app.py

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .

test: install-test chromium lint
	NDCG_CHROMIUM=$(CHROMIUM) $(PYTHON) -m pytest

bench: install-test
	$(PYTHON) benchmarks/app_speed.py

# Data-set NDCG (ndcg_core.evaluate) against scikit-learn, pytrec_eval, ir_measures and ranx,
# at 1M and 10M run rows (several minutes: the peers are slow at 10M). SIZES=1e6 for a shorter run.
SIZES ?= 1e6,1e7
.PHONY: bench-data
bench-data: install-test
	$(PYTHON) benchmarks/dataset_speed.py --sizes $(SIZES)

# Optional, NOT part of `make test`: the torchmetrics and tf_ranking presets against the real
# libraries (checks_heavy/, which pytest's testpaths leave out), in a virtual environment of their
# own (.venv-heavy, about 3.5 GB: TensorFlow 1.9 GB, torch 0.75 GB), so the shared Python environment
# never gets torch or TensorFlow. The install runs once (a stamp file; again only when
# pyproject.toml changes); later runs only run the checks. HEAVY_TORCH=torch==2.13.0 takes the CPU
# build where pip finds one on disk (this machine); from PyPI alone it pulls several GB of CUDA.
HEAVY_VENV ?= .venv-heavy
HEAVY_PY := $(HEAVY_VENV)/bin/python
HEAVY_TORCH ?= torch==2.13.0
HEAVY_PEERS ?= torchmetrics==1.9.0 tensorflow-ranking==0.5.3
.PHONY: check-heavy-peers
$(HEAVY_VENV)/.installed: pyproject.toml
	test -x $(HEAVY_PY) || $(PYTHON) -m venv $(HEAVY_VENV)
	$(HEAVY_PY) -m pip install -q "$(HEAVY_TORCH)"
	$(HEAVY_PY) -m pip install -q -e . pytest hypothesis $(HEAVY_PEERS)
	touch $@

check-heavy-peers: $(HEAVY_VENV)/.installed
	$(HEAVY_VENV)/bin/pytest checks_heavy -rxX

# Server memory: 10 browser sessions each upload a 1M-row data set, then close; memory is watched
# for 5 minutes (about 10 minutes in all). Server CPU per interaction and interactions/s per core.
.PHONY: bench-memory bench-capacity
bench-memory: install-test chromium
	$(PYTHON) benchmarks/memory_sessions.py --sessions 10 --rows 1e6 --wait 300

bench-capacity: install-test chromium
	$(PYTHON) benchmarks/capacity.py --repeats 20 --items 6,100 --browser-clicks 30
