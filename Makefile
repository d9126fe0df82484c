# benchdb: `make demo` loads every suite's real subset and serves the site; `make test` runs
# the tests. Both install into the virtual environment .venv (never the system Python).
# DATABASE_URL: PostgreSQL for tests (default below; the tests run on a database of their own,
# test_benchdb_<random>); the demo uses SQLite when it is unset.
VENV ?= .venv
PYTHON ?= $(VENV)/bin/python
# pip 23 warns "lxml does not provide the extra 'html_clean'" (justext asks for lxml[html_clean],
# lxml 6.1 spells it html-clean); pip >= 24 normalizes extra names (PEP 685): no warning.
PIP_VERSION ?= 26.3
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/benchdb
HPC_DATA ?= tests/data/hpc
PORT ?= 8000
MLPERF_DATA ?= $(abspath ../shared/mlperf)
VENDOR_DATA ?= $(abspath ../shared/vendor)
MLPERF_INFERENCE_DATA ?= $(abspath ../shared/mlperf-inference)
export MLPERF_DATA VENDOR_DATA MLPERF_INFERENCE_DATA

.PHONY: venv install install-dev services chromium demo demo-data serve test test-quick fuzz lint fix bench

venv: $(VENV)/bin/python
$(VENV)/bin/python:
	python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check pip==$(PIP_VERSION)

# pip runs again only when a requirements file changed (a stamp per set).
install: $(VENV)/.installed
$(VENV)/.installed: requirements.txt | venv
	$(PYTHON) -m pip install -q -r requirements.txt
	touch $@

install-dev: $(VENV)/.installed-dev
$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | venv
	$(PYTHON) -m pip install -q -r requirements-dev.txt
	touch $@ $(VENV)/.installed

services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in $$(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
	@redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis
	@for i in $$(seq 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 1; done

chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

demo: install demo-data
	STATIC_ROOT=$(abspath var/static) SECRET_KEY_FILE=$(abspath var/secret_key) $(PYTHON) manage.py runserver 127.0.0.1:$(PORT)

# Open-division folders whose model_mapping.json the snapshot lacks: the model each one is
# published as (official_results.csv), as the checker's --extra-model-benchmark-map.
define INFERENCE_MODEL_MAP
import csv, sys
rows = csv.DictReader(open(sys.argv[1], newline=""))
print(";".join(sorted({r["model"] + ":" + r["mlperf_model"] for r in rows if r["model"] != r["mlperf_model"]})))
endef
export INFERENCE_MODEL_MAP

# The home page says what the demo holds.
demo serve: export BENCHDB_DATA_NOTE = a small real subset of MLCommons' public results (../shared, tests/data/hpc, tests/data/automotive-v0.5, tests/data/storage-v1.0)

# Every suite's real subset: training, inference, HPC, then the vendor pages (their claims are
# checked against the results loaded before them).
demo-data:
	mkdir -p var
	test -s var/secret_key || $(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret_key
	$(PYTHON) manage.py migrate --noinput --skip-checks  # runserver runs the checks
	STATIC_ROOT=$(abspath var/static) $(PYTHON) manage.py collectstatic --noinput -v0
	$(PYTHON) manage.py ingest mlperf-training $(MLPERF_DATA)
	$(PYTHON) manage.py ingest mlperf-inference $(MLPERF_INFERENCE_DATA) --model-map "$$($(PYTHON) -c "$$INFERENCE_MODEL_MAP" $(MLPERF_INFERENCE_DATA)/official_results.csv)"
	$(PYTHON) manage.py ingest mlperf-inference tests/data/inference-v6  # v6.0, v6.1 subsets
	$(PYTHON) manage.py ingest mlperf-training tests/data/training-v6.0/training_results_v6.0
	$(PYTHON) manage.py ingest mlperf-hpc $(HPC_DATA)
	$(PYTHON) manage.py ingest mlperf-automotive tests/data/automotive-v0.5/automotive_results_v0.5
	$(PYTHON) manage.py ingest mlperf-storage tests/data/storage-v1.0/storage_results_v1.0
	$(PYTHON) manage.py ingest vendor $(VENDOR_DATA)

serve:
	mkdir -p var
	test -s var/secret_key || $(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret_key
	STATIC_ROOT=$(abspath var/static) $(PYTHON) manage.py collectstatic --noinput -v0
	STATIC_ROOT=$(abspath var/static) SECRET_KEY_FILE=$(abspath var/secret_key) $(PYTHON) manage.py runserver 127.0.0.1:$(PORT)

test: install-dev services chromium
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PYTHON) -m pytest -q

# No browser, no Celery worker: the inner loop (about a minute).
test-quick: install-dev services
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PYTHON) -m pytest -q -m "not browser and not worker and not fuzz"

# Hypothesis fuzz targets over the parsers (10,000 cases each; outside the default suite).
# -W: Hypothesis's patch writer imports libcst, whose DeprecationWarning would hide a failure.
FUZZ_EXAMPLES ?= 10000
fuzz: install-dev services
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PYTHON) -m pytest -q -m fuzz -W ignore::DeprecationWarning tests/fuzz

# mypy: over the whole tree, and strict on the pure modules: pure-modules.txt is the one list
# (tests/test_layout.py reads it too).
PURE = $(shell grep -v '^\#' pure-modules.txt)

lint: install-dev
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m mypy benchdb ingest
	$(PYTHON) -m mypy --strict --follow-imports=silent $(PURE)

fix: install-dev
	$(PYTHON) -m ruff check --fix .
	$(PYTHON) -m ruff format .

bench: install-dev
	$(PYTHON) -m pip install -q -r requirements-bench.txt
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PYTHON) bench/ingest_speed.py
