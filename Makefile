# Two entry points, each doing all set-up on a fresh machine:
#   make run    install the app and serve it on http://localhost:$(PORT) (PORT=8501 unless set)
#   make test   install everything the tests need (Chromium included), lint, and run them all
#
# Which Python: PYTHON (python3 unless set). If it is a virtual environment's Python (an activated
# venv, say), it is used as it is. Otherwise a project virtual environment, $(VENV), is created from it
# and used, so a system Python that is externally managed (PEP 668) is never installed into.
# pip installs the versions pinned in constraints.txt (`make constraints` refreshes them), and runs
# only when pyproject.toml or constraints.txt is newer than a stamp file inside that environment.
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8501
CHROMIUM ?= /usr/bin/chromium

IN_VENV := $(shell $(PYTHON) -c 'import sys; print(int(sys.prefix != sys.base_prefix))' 2>/dev/null)
ifeq ($(IN_VENV),1)
PY := $(shell $(PYTHON) -c 'import sys; print(sys.executable)')
ENV_DIR := $(shell $(PYTHON) -c 'import sys; print(sys.prefix)')
else
PY := $(VENV)/bin/python
ENV_DIR := $(VENV)
$(PY):
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); echo "Could not create $(VENV) (on Debian/Ubuntu: apt-get install python3-venv)"; exit 1; }
endif

.PHONY: run test install install-test chromium fonts postgresql lint bench catalogs compile-catalogs slide-fonts

install: $(ENV_DIR)/.installed-app
install-test: $(ENV_DIR)/.installed-test

$(ENV_DIR)/.installed-app: pyproject.toml constraints.txt | $(PY)
	@if [ "$(ENV_DIR)/.installed-test" -nt pyproject.toml ] && [ "$(ENV_DIR)/.installed-test" -nt constraints.txt ]; \
		then :; else $(PY) -m pip install -q -c constraints.txt -e ".[app]"; fi
	@touch $@

$(ENV_DIR)/.installed-test: pyproject.toml constraints.txt | $(PY)
	$(PY) -m pip install -q -c constraints.txt -e ".[app,test]"
	@touch $@

# constraints.txt: every package the installs above take, pinned, so that each CI run installs what the
# last refresh was tested with, not the newest of everything (Babel once changed under `make catalogs`
# on the day of a release). Refreshed on purpose: the newest versions pyproject.toml allows, installed
# into a throwaway environment from $(PYTHON); then run `make test` and commit the file if it passes.
.PHONY: constraints
constraints:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(PYTHON) -m venv "$$tmp/venv" && \
	"$$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check -e ".[app,test]" && \
	{ echo "# Every package 'make install' and 'make test' install, pinned: pip installs with '-c constraints.txt',"; \
	  echo "# so each CI run gets what the last refresh was tested with, not the newest of everything."; \
	  echo "# Refreshed on purpose only: 'make constraints', then 'make test', then commit (docs/contributing.md)."; \
	  "$$tmp/venv/bin/python" -c 'import platform as p; print(f"# Made on Python {p.python_version()}, {p.system()} {p.machine()}.")'; \
	  "$$tmp/venv/bin/python" -m pip freeze --exclude-editable; } > constraints.txt.new && \
	mv constraints.txt.new constraints.txt && echo "constraints.txt refreshed: now run make test, then commit it"

# Debian's Chromium for the Playwright browser tests (Playwright cannot download its own here).
chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi
	@test -x "$(CHROMIUM)" || { echo "Chromium is missing at $(CHROMIUM)"; exit 1; }

# Debian's CJK fonts, so the Chinese pages render in the browser tests (no boxes).
fonts:
	@if ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq fonts-noto-cjk >/dev/null; \
	fi

# The fonts the lesson's PDF embeds (ndcg_core/teaching/slides/fonts/), cut from Debian's Noto Sans CJK
# by scripts/slide_fonts.py. Only after a translation brings a character they lack (a test says so).
slide-fonts: install fonts
	$(PY) scripts/slide_fonts.py

# Translations (docs/contributing.md, "Translations"): `make catalogs` extracts every marked string,
# updates each language's .po (new strings appear untranslated, changed ones fuzzy) and compiles the
# .mo files.
# `compile-catalogs` (run by `make run` and `make test`) only compiles; any warning fails it.
LOCALES := ndcg_core/locale
POT := $(LOCALES)/messages.pot
PYBABEL = $(PY) -m babel.messages.frontend
catalogs: install
	$(PYBABEL) extract -F babel.cfg -o $(POT) --add-location=file --sort-output -c TRANSLATORS: \
		--project=ndcg-teaching-app --no-wrap app.py views ndcg_core
	$(PYBABEL) update -i $(POT) -d $(LOCALES) -D messages --no-wrap --ignore-obsolete \
		--ignore-pot-creation-date -l zh
	@$(MAKE) --no-print-directory compile-catalogs

compile-catalogs: install
	@out=$$($(PYBABEL) compile -d $(LOCALES) -D messages --statistics 2>&1); status=$$?; echo "$$out"; \
		if [ $$status -ne 0 ] || echo "$$out" | grep -qiE "warning|error|fuzzy"; then \
		echo "The catalogs do not compile cleanly (see above)"; exit 1; fi

# Debian's PostgreSQL 15 for the Class-mode storage tests: they start a throwaway cluster of their own
# (tests/postgres_support.py), as the package's `postgres` user when run as root.
PG_BIN ?= /usr/lib/postgresql/15/bin
postgresql:
	@if [ ! -x "$(PG_BIN)/initdb" ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq postgresql >/dev/null; \
	fi
	@test -x "$(PG_BIN)/initdb" || { echo "PostgreSQL's initdb is missing at $(PG_BIN)"; exit 1; }

# Debian's nginx: the proxy test (tests/app/test_replicas_setup.py) and `make bench-class` run the
# repository's proxy config (deploy/nginx.conf) in it, in a temporary folder of their own.
NGINX ?= /usr/sbin/nginx
.PHONY: nginx
nginx:
	@if [ ! -x "$(NGINX)" ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq nginx >/dev/null; \
	fi
	@test -x "$(NGINX)" || { echo "nginx is missing at $(NGINX)"; exit 1; }

# Streamlit runs headless (.streamlit/config.toml): open the printed address yourself.
# scripts/serve.py is `streamlit run server.py` (app.py's pages and the route a waiting phone asks)
# that also loads what the first page needs while the server starts (see its docstring);
# `streamlit run app.py` works too: its first page is slower and phones poll every 15 s, not 2.
run: install compile-catalogs
	@echo "Serving the app at http://localhost:$(PORT) (Ctrl+C stops it)"
	$(PY) scripts/serve.py --server.port $(PORT)

lint: install-test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

# The tests run on every CPU this run may use (scripts/cpus.py: the process's affinity and any cgroup
# quota, not the host's core count that `-n auto` reads), one pytest-xdist worker each. The browser
# tests stay together on one worker (--dist loadgroup and their xdist_group, tests/browser/conftest.py):
# they share one app server and one Chromium. Being the largest group, they start first, beside the
# other layers on the other workers. TEST_WORKERS=0 runs everything in one process.
# One layer alone: $(PY) -m pytest -m engine (teaching, app, browser).
TEST_WORKERS ?= $(shell $(PYTHON) scripts/cpus.py 2>/dev/null || echo 1)
test: install-test chromium fonts postgresql nginx lint compile-catalogs
	NDCG_CHROMIUM=$(CHROMIUM) NDCG_PG_BIN=$(PG_BIN) NDCG_NGINX=$(NGINX) $(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

bench: install-test
	$(PY) benchmarks/app_speed.py

# Data-set NDCG (ndcg_core.evaluate) against scikit-learn, pytrec_eval, ir_measures and ranx,
# at 1M and 10M run rows (several minutes: the peers are slow at 10M). SIZES=1e6 for a shorter run.
# Both paths side by side: from DataFrames in memory, and file -> per-query values from TREC files
# (plain and .gz), each tool in its own one-thread process with its peak memory, and ndcg-eval
# against a pytrec_eval script as whole new processes (--whole). Six shapes, MS MARCO dev- and TREC
# DL-style among them (benchmarks/dataset_speed.py's SHAPES).
SIZES ?= 1e6,1e7
.PHONY: bench-data
bench-data: install-test
	$(PY) benchmarks/dataset_speed.py --sizes $(SIZES) --whole

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
	$(HEAVY_PY) -m pip install -q -e ".[app]" pytest hypothesis $(HEAVY_PEERS)
	touch $@

check-heavy-peers: $(HEAVY_VENV)/.installed
	$(HEAVY_VENV)/bin/pytest checks_heavy -rxX

# Server memory: 10 browser sessions each upload a 1M-row data set, then close; memory is watched
# for 5 minutes (about 10 minutes in all). Server CPU per interaction and interactions/s per core.
.PHONY: bench-memory bench-capacity
bench-memory: install-test chromium
	$(PY) benchmarks/memory_sessions.py --sessions 10 --rows 1e6 --wait 300

bench-capacity: install-test chromium
	$(PY) benchmarks/capacity.py --repeats 20 --items 6,100 --browser-clicks 30

# Class mode: 60 simulated students submit to one room within 10 s on a real server; prints submit ->
# visible on the lecturer's page p50/p95, errors, answers lost, and the playground's responsiveness.
# Then the replicas mode (benchmarks/class_replicas.py): 1 app process and 2 replicas on a throwaway
# PostgreSQL behind Debian's nginx (deploy/nginx.conf); 300 phones opening the join link within 60 s
# (time to "Your name", the server's CPU per join), then 100, 200 and 300 phones polling a room and
# answering (send -> lecturer's page p50/p95, CPU of each part), and one replica killed mid-class
# (identity kept, nothing lost). Issue 39's targets: docs/performance.md.
CLASS_REPLICAS ?= 1,2
CLASS_PHONES ?= 100,200,300
.PHONY: bench-class
bench-class: install-test chromium postgresql nginx
	$(PY) benchmarks/class_load.py --students 60 --window 10
	$(PY) benchmarks/class_replicas.py --replicas $(CLASS_REPLICAS) --phones $(CLASS_PHONES) \
		--join 300 --join-window 60 --browser-phones 5 --stop-replica
