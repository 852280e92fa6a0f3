# gazette: the two commands a newcomer needs are `make run` and `make test`.
# Both install what is missing first (Debian packages, .venv), so they work on a
# fresh Debian machine as root.

VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup run test check lint bench samples clean-outputs

setup:
	@bash scripts/setup.sh

run: setup
	$(BIN)/gazette run

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

# Two test workers (the suite waits on processes more than it computes); the
# end-to-end tests go to whichever worker is free.
test: lint
	$(BIN)/pytest -n 2 --dist worksteal --durations=10

# The inner loop: lint, types, and the tests not marked slow (no Tesseract runs, Prefect
# servers, browsers or `gazette` processes).
check: lint
	$(BIN)/pytest -n 2 -m "not slow" -q

# Every benchmark, one after another; what each printed and where it ran go to
# bench/results.json (BENCHMARKS.md quotes them). Some two hours on 2 cores, most of it
# the pairing benchmark's 28 runs of gazette (2 halves x 2 editions x 7 English forms,
# 3-4 minutes each).
bench: setup
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/run_all.py --shared ../shared

# Regenerate the sample PDFs in raw/samples/ from the seed texts (needs fpdf2, a dev extra).
samples: setup
	$(BIN)/python scripts/make_samples.py

clean-outputs:
	rm -rf cleaned/* aligned/* .gazette
