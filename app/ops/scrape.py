"""A metrics scrape: who may read them, and the figures read at scrape time."""

from __future__ import annotations

from app.config import Settings
from app.context import Context
from app.errors import ApiError
from app.guard.auth import check_admin
from app.ops import metrics


def authorise_scrape(settings: Settings, token: str | None) -> None:
    """METRICS_TOKEN (for Prometheus, which then needs no admin rights) or ADMIN_TOKEN."""
    if not settings.metrics_token and not settings.admin_token:
        raise ApiError(403, "admin_disabled", "Metrics are off: the server has neither "
                       "METRICS_TOKEN nor ADMIN_TOKEN set.")
    for expected in (settings.metrics_token, settings.admin_token):
        if expected:
            try:
                check_admin(expected, token)
                return
            except ApiError:
                continue
    raise ApiError(403, "not_admin", "That is neither the metrics token nor the admin token.")


async def metrics_text(hall: Context) -> tuple[bytes, str]:
    """The exposition, with the rooms counted (one query) and this process's sockets."""
    metrics.set_rooms(await hall.ops.room_counts())
    metrics.SOCKETS_OPEN.set(hall.sockets.open_total())
    return await metrics.render()
