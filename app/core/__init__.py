"""The table's plain rules and builders, below the store and above the rows: rooms and seats,
absence, pace, clocks, the log's words, snapshots, offers and move ids. Both `app/store` and the
services (app/table, app/play, ...) import these; they import nothing of either (only
`app.store.models`, the row types).
"""
