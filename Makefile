# The set-up commands: `make play` (a whole game with the defaults), `make test` and
# `make serve` (the table in a browser).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv play serve test test-long test-cluster test-browser test-load lint typecheck pytest rules-coverage rules-check rules-documents rules-001 rules-004 rules-000 rules-003 rules-002 bench

venv: $(STAMP)

# Re-install only when the project's dependency list changes. The web server's PNG tables
# (CairoSVG) load Debian's libcairo2, installed here when missing (where apt-get may run; the
# rest works without it).
$(STAMP): pyproject.toml
	@ldconfig -p | grep -q 'libcairo\.so\.2' || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcairo2) \
		|| echo "note: libcairo2 is not installed (PNG tables of the web server answer 501)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# The Ray extra, for `make test-cluster` only (a large download the other targets do not need).
RAY_STAMP := $(VENV)/.installed-ray
$(RAY_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	@touch $(RAY_STAMP)

# One whole game: Conquest (III-A-2), two demo armies, greedy against greedy, a random seed.
play: venv
	$(BIN)/confrontation play

# The web server (docs/web.md): open http://127.0.0.1:8000/ to start and play games.
serve: venv
	$(BIN)/confrontation serve

lint: venv
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/lint-imports

typecheck: venv
	$(BIN)/mypy

pytest: venv
	$(BIN)/pytest -n 2 --dist worksteal

# The suite runs once and keeps its collection's `rule` markers (MARKERS) for the five
# documents' checks, so `make test` does not collect the suite a second time. mypy (a single
# process, about a minute from a fresh clone) runs beside the suite's two workers; its report
# is printed when the suite ends, and either failing fails `make test`.
SUITE = RULES_MARKERS_OUT=$(CURDIR)/$(MARKERS) PYTHONPATH=scripts $(BIN)/pytest -n 2 --dist worksteal -p rules_markers_plugin
test: venv lint
	@rm -f $(MARKERS)
	@echo "$(BIN)/mypy (beside the tests; its report follows them)"
	@typed=$$(mktemp); ($(BIN)/mypy >$$typed 2>&1; echo $$? >>$$typed) & mypy=$$!; \
	echo "$(SUITE)"; $(SUITE); \
	tests=$$?; wait $$mypy; echo "$(BIN)/mypy:"; sed '$$d' $$typed; typing=$$(tail -n 1 $$typed); rm -f $$typed; \
	test $$tests -eq 0 && test "$$typing" = 0
	@test -s $(MARKERS) || (echo "make test: the test run kept no rule markers ($(MARKERS))" >&2; exit 1)
	@$(MAKE) --no-print-directory -j 2 --output-sync=target rules-documents
	@rm -f $(MARKERS)

# A local Ray cluster (a head and a worker node on 127.0.0.1, one CPU each) plays
# `simulate --backend ray`: the local results, games on both nodes, none lost when the worker
# node is killed mid-run; the cluster is stopped at the end (docs/cluster.md).
test-cluster: $(RAY_STAMP)
	RAY_USAGE_STATS_ENABLED=0 $(BIN)/pytest -m cluster tests/sim/test_ray_cluster.py

# The browser tests: Playwright (a dev dependency) drives Debian's Chromium, installed here
# when missing; screenshots of the main screens go to docs/web/ (docs/web.md).
CHROMIUM := /usr/bin/chromium
test-browser: venv
	@test -x $(CHROMIUM) || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
	$(BIN)/pytest -m browser tests/web/test_web_browser.py tests/web/test_web_saved_browser.py tests/web/test_web_c4_browser.py

# The server under load (docs/web.md): `confrontation serve` as a real process, 50 concurrent
# AI games through the HTTP API on SQLite, then on a PostgreSQL cluster the test makes and
# stops (Debian's server, installed here when missing).
test-load: venv
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql)
	$(BIN)/pytest -m load -s tests/web/test_web_load.py

rules-coverage: venv
	$(BIN)/python scripts/rules_coverage.py

# The sections finished issues cover must stay both cited in code and tested. The test suite
# is collected once (MARKERS, a fresh file each run) for the five documents' checks.
COVERED := I-B,I-C,I-D,II-A,II-B,II-C,II-D,II-E,II-F
MARKERS := .rules-markers.json
RULES := $(BIN)/python scripts/rules_coverage.py --markers-file $(MARKERS) --missing
rules-check: venv
	@rm -f $(MARKERS)
	@$(MAKE) --no-print-directory rules-documents
	@rm -f $(MARKERS)

# The five documents' checks are independent: `make -j 2` runs them side by side.
rules-documents: rules-001 rules-004 rules-000 rules-003 rules-002
rules-001:
	$(RULES) --document 001 --require-prefix $(COVERED)
rules-004:
	$(RULES) --document 004 --require-prefix XX-A,XX-B,XX-C,XX-D,XX-E,XX-F
rules-000:
	$(RULES) --document 000 --require-prefix C3
rules-003:
	$(RULES) --document 003 --require-prefix CP
rules-002:
	$(RULES) --document 002 --require-prefix C4

# The 10,000-game sweep of issue 22 (`simulate --games 10000 --agents greedy,greedy --jobs 2`,
# games stored in a temporary database): not part of `make test`; fails past ten minutes.
test-long: venv
	$(BIN)/python bench/sweep_bench.py --games 10000 --jobs 2 --limit 600
	# Issue 26: the loaders' and options' fuzzers with 1,000 examples each (15-60 in `make test`)
	CONFRONTATION_FUZZ_EXAMPLES=1000 $(BIN)/pytest tests/cli/test_loader_fuzz.py tests/cli/test_army_fuzz.py

bench: venv
	@for f in bench/*_bench.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done
