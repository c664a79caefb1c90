# Two commands on a fresh machine: `make run` serves the game (SQLite), `make test` tests all.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/uvicorn app.main:app --host 0.0.0.0 --port $${PORT:-8000}

test: $(STAMP)
	scripts/check-services
	$(VENV)/bin/ruff check app games tests bench
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m bench.playouts
	$(PY) -m bench.rooms
