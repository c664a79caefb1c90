"""Bounds on numbers from requests: Postgres integers are 32-bit, and no room has more seats
than this, so anything larger is a 422 rather than a database error (a 500)."""

MAX_INT32 = 2**31 - 1
MAX_SEAT = 63
