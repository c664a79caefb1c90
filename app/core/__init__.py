"""The table's plain rules and builders, below the store: rooms and seats, absence, pace,
clocks, the log's words, snapshots, offers and move ids, and the views of the stored rows the
services read (`views.py`). Both `app/store` and the services (app/table, app/play, ...) import
these; they import nothing of either, not even the row types.
"""
