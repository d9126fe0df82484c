# benchdb: `make demo` ingests ../shared/mlperf and serves the site; `make test` runs the tests.
# DATABASE_URL: PostgreSQL for tests (default below); the demo uses SQLite when it is unset.
PYTHON ?= python3
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/benchdb
MLPERF_DATA ?= $(abspath ../shared/mlperf)
VENDOR_DATA ?= $(abspath ../shared/vendor)
MLPERF_INFERENCE_DATA ?= $(abspath ../shared/mlperf-inference)
export MLPERF_DATA VENDOR_DATA MLPERF_INFERENCE_DATA

.PHONY: install services chromium demo serve test test-quick fuzz lint fix bench

install:
	$(PYTHON) -m pip install -q -r requirements.txt

services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in $$(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
	@redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis
	@for i in $$(seq 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 1; done

chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

demo: install
	mkdir -p var
	test -s var/secret_key || $(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret_key
	$(PYTHON) manage.py migrate --noinput
	STATIC_ROOT=$(abspath var/static) $(PYTHON) manage.py collectstatic --noinput -v0
	$(PYTHON) manage.py ingest mlperf-training $(MLPERF_DATA)
	$(PYTHON) manage.py ingest mlperf-inference $(MLPERF_INFERENCE_DATA)
	for f in $(VENDOR_DATA)/*.txt; do $(PYTHON) manage.py ingest vendor "$$f" || exit 1; done
	STATIC_ROOT=$(abspath var/static) SECRET_KEY_FILE=$(abspath var/secret_key) $(PYTHON) manage.py runserver 127.0.0.1:8000

serve:
	mkdir -p var
	test -s var/secret_key || $(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret_key
	STATIC_ROOT=$(abspath var/static) $(PYTHON) manage.py collectstatic --noinput -v0
	STATIC_ROOT=$(abspath var/static) SECRET_KEY_FILE=$(abspath var/secret_key) $(PYTHON) manage.py runserver 127.0.0.1:8000

test: install services chromium
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PYTHON) -m pytest -q

# No browser, no Celery worker: the inner loop (about a minute).
test-quick: services
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PYTHON) -m pytest -q -m "not browser and not worker and not fuzz"

# Hypothesis fuzz targets over the parsers (10,000 cases each; outside the default suite).
# -W: Hypothesis's patch writer imports libcst, whose DeprecationWarning would hide a failure.
FUZZ_EXAMPLES ?= 10000
fuzz: services
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PYTHON) -m pytest -q -m fuzz -W ignore::DeprecationWarning tests/fuzz

# mypy: strict on the pure modules (pyproject.toml lists them), plain on the rest.
PURE = benchdb/vocabulary.py benchdb/logcodec.py benchdb/tables/schemas.py benchdb/tables/schemas_reports.py benchdb/tables/writers.py benchdb/mlperf/training_rules.py benchdb/mlperf/training_energy.py benchdb/mlperf/hpc_rules.py benchdb/mlperf/compliance_rules.py benchdb/mlperf/compliance_eval.py benchdb/mlperf/derived.py benchdb/mlperf/result_ids.py benchdb/mlperf/figures.py benchdb/mlperf/figures_inference.py benchdb/mlperf/chart_marks.py benchdb/mlperf/inference_*.py benchdb/claims/facts.py benchdb/claims/verdicts.py benchdb/claims/explain.py benchdb/claims/subjects.py benchdb/claims/resolve.py benchdb/claims/choices.py benchdb/claims/verdicts_parity.py benchdb/claims/guidelines.py benchdb/claims/families.py benchdb/claims/numbers.py ingest/parsers

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m mypy $(PURE) ingest/training.py ingest/energy.py ingest/store.py ingest/inference.py ingest/inference_store.py ingest/claim_facts.py ingest/result_ids.py ingest/pool.py ingest/training_rows.py

fix:
	$(PYTHON) -m ruff check --fix .
	$(PYTHON) -m ruff format .

bench:
	$(PYTHON) -m pip install -q -r requirements-bench.txt
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(PYTHON) bench/ingest_speed.py
