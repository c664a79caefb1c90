# Two commands on a fresh machine: `make run` serves the game (SQLite), `make test` tests all.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench backup restore

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# HOST=127.0.0.1 keeps the server to this machine; the default 0.0.0.0 lets friends on the LAN join.
HOST ?= 0.0.0.0
PORT ?= 8000

run: $(STAMP)
	$(VENV)/bin/uvicorn app.main:app --host $(HOST) --port $(PORT) --ws-max-size 65536 --http app.guard.deadlines:HeaderDeadline --ws app.guard.lean_ws:LeanWebSocket

test: $(STAMP)
	$(VENV)/bin/ruff check app games bots tests bench
	scripts/check-services $(PY) -m pytest -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) -m bench.playouts
	$(PY) -m bench.rooms

# Backups (app/ops/backup.py) of the database DATABASE_URL names (.env is read too): SQLite's online
# backup API while the server runs, or pg_dump; restore replaces the database's contents.
BACKUP_DIR ?= backups

backup: $(STAMP)
	$(PY) -m app.ops.backup create --dir "$(BACKUP_DIR)"

restore: $(STAMP)
	@test -n "$(FILE)" || { echo "usage: make restore FILE=backups/ziggurat-….dump (or .sqlite3)" >&2; exit 2; }
	$(PY) -m app.ops.backup restore "$(FILE)"
