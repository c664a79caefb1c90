"""The host's view: metrics, stuck rooms, backups, graceful restarts and structured logs."""
