"""Absent players: a grace period, a majority vote to hand the seat to a bot, and the way back.

Everything lives in the database (seats.absent_since, seat_votes, seats.replaced_id,
handovers), so a vote started on one process can be finished on another, or after a restart.
These are the rules, on plain attributes of a room and its seats; the store reads and writes
the rows (`app.store.orm`: under the room's row lock, the seat rows locked too, so that a
player reconnecting at the moment of the last vote either keeps the seat or finds it handed
over, never half).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from app.config import get_settings
from app.core.pace import turn_based
from app.errors import ApiError
from app.utc import as_utc, utcnow


def standin_level(room: Any) -> str:
    """The level of a bot that stands in for a player (a vote, a leave, the admin): the room's
    own choice, else (a room older than the choice) the server's BOT_LEVEL."""
    return getattr(room, "standin_level", None) or get_settings().bot_level


def absent_from(seat: Any, room: Any) -> datetime | None:
    """Since when a held seat has had no connection during the game (None: present or no one)."""
    if room.status != "active" or seat.player_id is None or seat.connections > 0 \
            or turn_based(room):
        return None  # nobody is away in a turn-based game: they play when they have a minute
    since = seat.absent_since or room.last_move_at or room.created_at
    return as_utc(since)


def vote_opens(since: datetime) -> datetime:
    return since + timedelta(seconds=get_settings().absent_grace_seconds)


def votes_needed(seats: Sequence[Any], target: int, voter_seat: int | None = None) -> int:
    """A majority of the connected players other than the absent one (a voter counts as
    connected: they are plainly there)."""
    return len(_electorate(seats, target, voter_seat)) // 2 + 1


def _electorate(seats: Sequence[Any], target: int, voter_seat: int | None) -> set[int]:
    return {s.seat for s in seats if s.player_id is not None and s.seat != target
            and (s.connections > 0 or s.seat == voter_seat)}


def count_votes(room: Any, seats: Sequence[Any], votes: Iterable[Any]) -> dict[int, list[int]]:
    """For each absent seat, the seats of the connected players whose vote counts now.

    `votes`: rows with `seat`, `voter_id` and `at` (ORM objects or plain records alike)."""
    by_player = {s.player_id: s for s in seats if s.player_id is not None}
    found: dict[int, list[int]] = {}
    for vote in votes:
        target = next((s for s in seats if s.seat == vote.seat), None)
        voter = by_player.get(vote.voter_id)
        since = absent_from(target, room) if target is not None else None
        if since is None or voter is None or voter.connections == 0 or as_utc(vote.at) < since:
            continue  # the seat came back since, or the voter left: the vote lapsed
        found.setdefault(vote.seat, []).append(voter.seat)
    return {seat: sorted(voters) for seat, voters in found.items()}


def vote_seats(room: Any, seats: Sequence[Any], voter: Any, target: int) -> tuple[Any, Any]:
    """The voter's seat and the absent seat `target` they vote to hand to a bot; refused
    unless that vote may be cast now."""
    if room.status != "active":
        raise ApiError(409, "not_playing", "Seats are handed to bots only during a game.")
    if turn_based(room):
        raise ApiError(409, "turn_based", "Nobody is away in a turn-based game: the clock moves "
                       "for a player whose time runs out, and the seat stays theirs.")
    mine = next((s for s in seats if s.player_id == voter.id), None)
    if mine is None:
        raise ApiError(403, "not_seated", "Only the players at the table can vote.")
    seat = next((s for s in seats if s.seat == target), None)
    if seat is None:
        raise ApiError(422, "bad_seat", f"This room has no seat {target}.")
    if seat is mine:
        raise ApiError(409, "own_seat", "You cannot vote on your own seat; leave instead.")
    since = absent_from(seat, room)
    if since is None:
        raise ApiError(409, "not_absent", f"Seat {target + 1} is not an absent player's.")
    opens = vote_opens(since)
    if utcnow() < opens:
        wait = int((opens - utcnow()).total_seconds()) + 1
        raise ApiError(409, "too_soon", f"Give them a moment: voting opens in {wait} s.")
    return mine, seat


def bot_takes(room: Any, seat: Any) -> str | None:
    """A bot takes the seat; its player (returned: None if nobody held it) may take it back."""
    player = seat.player_id
    seat.player_id, seat.bot, seat.connections, seat.absent_since = (None, standin_level(room),
                                                                      0, None)
    seat_handed(room)
    if player is not None:
        seat.replaced_id = player
    return player


def seat_handed(room: Any) -> None:
    """A seat changed hands mid-game: write the room row too. On Postgres a move is committed
    only if the room row is as the mover read it (Postgres: `roomcache`, by xmin), so a move
    judged on the old seats (a bot's, in flight) is judged again on the new ones."""
    room.updated_at = utcnow()


def reclaimed_seat(room: Any, seats: Sequence[Any], player: Any) -> Any:
    """The seat a bot holds for the replaced `player`, refused if there is none to take back."""
    seat = next((s for s in seats if s.replaced_id == player.id), None)
    if seat is None or seat.bot is None:
        raise ApiError(409, "nothing_to_reclaim", "No seat of yours is held by a bot here.")
    if room.status != "active":
        raise ApiError(409, "game_over", "The game is over; there is no seat to take back.")
    return seat


def admin_hold_until(last: Any | None) -> datetime | None:
    """When the player may take back a seat the admin handed to a bot (`last`: the seat's last
    hand-over, with kind, cause, at; None: none), or None when no admin's hold applies. The
    room payload says it (`replaced.reclaim_after`), so every page tells the same time."""
    if last is None or last.kind != "bot" or last.cause != "admin":
        return None
    return as_utc(last.at) + timedelta(seconds=get_settings().admin_handover_hold_seconds)


def not_held_by_admin(last: Any | None) -> None:
    """A seat the admin handed to a bot stays the bot's for ADMIN_HANDOVER_HOLD_SECONDS: the
    player's immediate reclaim would undo the admin's decision. Judged on the seat's last
    hand-over (`last`: kind, cause, at; None: none), so it holds across processes and restarts."""
    hold = get_settings().admin_handover_hold_seconds
    until = admin_hold_until(last)
    if until is not None and utcnow() < until:
        raise ApiError(409, "held_by_admin", "The admin handed your seat to a bot; you can take "
                       f"it back from {until:%H:%M} UTC ({hold / 60:g} minutes after), or ask "
                       "the admin.")


def seat_back(room: Any, seat: Any, player: Any) -> None:
    """The replaced player holds the seat again, absent until their socket counts."""
    seat.player_id, seat.bot, seat.replaced_id = player.id, None, None
    seat.connections, seat.absent_since = 0, utcnow()
    seat_handed(room)


def absence_fields(room: Any, seats: Sequence[Any], votes: Iterable[Any],
                   handovers: Sequence[Any], names: dict[str, str]
                   ) -> tuple[dict[int, dict[str, Any]], list[dict[str, Any]]]:
    """The wire fields: per seat (absent_since, vote_after, votes, votes_needed, replaced) and
    the room's handovers, oldest first. `names`: the names of replaced and handed-over players.
    Plain rows or ORM objects alike, so that Postgres can read them all in one statement."""
    if room.status == "lobby":
        return {}, []
    counted = count_votes(room, seats, votes) if room.status == "active" else {}
    per_seat = {}
    for seat in seats:
        since = absent_from(seat, room)
        per_seat[seat.seat] = {
            "absent_since": since.isoformat() if since else None,
            "vote_after": vote_opens(since).isoformat() if since else None,
            "votes": counted.get(seat.seat, []),
            "votes_needed": votes_needed(seats, seat.seat) if since else None,
            "replaced": ({"id": seat.replaced_id, "name": names.get(seat.replaced_id, "?"),
                          **_replaced_how(seat.seat, handovers)}
                         if seat.replaced_id else None),
        }
    return per_seat, [{"seat": h.seat, "kind": h.kind, "cause": h.cause, "version": h.version,
                       "at": as_utc(h.at).isoformat(),
                       "player": {"id": h.player_id, "name": names.get(h.player_id, "?")}}
                      for h in handovers]


def _replaced_how(seat: int, handovers: Sequence[Any]) -> dict[str, Any]:
    """Why a bot holds the seat (`cause`: vote, left, admin; None: unknown) and from when
    its player may take it back (`reclaim_after`, ISO; None: now), from its last hand-over."""
    last = next((h for h in reversed(handovers) if h.seat == seat), None)
    until = admin_hold_until(last)
    return {"cause": last.cause if last is not None and last.kind == "bot" else None,
            "reclaim_after": until.isoformat() if until is not None else None}
