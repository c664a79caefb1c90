"""Ziggurat's lobby and session layer: players, rooms, seats, websocket play, persistence, admin."""
