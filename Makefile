# gazette: the two commands a newcomer needs are `make run` and `make test`.
# Both install what is missing first (Debian packages, .venv), so they work on a
# fresh Debian machine as root.

VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup run test lint samples clean-outputs

setup:
	@bash scripts/setup.sh

run: setup
	$(BIN)/gazette run

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

# Regenerate the sample PDFs in raw/samples/ from the seed texts (needs fpdf2, a dev extra).
samples: setup
	$(BIN)/python scripts/make_samples.py

clean-outputs:
	rm -rf cleaned/* aligned/* .gazette
