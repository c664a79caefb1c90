"""The host's routes (app/ops): Prometheus metrics and the admin console's stuck rooms."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from app.api.deps import AdminDep, hall_of
from app.guard.auth import bearer
from app.ops import stuck
from app.ops.scrape import authorise_scrape, metrics_text

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """This process's metrics in Prometheus's text format (bearer METRICS_TOKEN or ADMIN_TOKEN)."""
    hall = hall_of(request)
    authorise_scrape(hall.settings, bearer(request.headers.get("authorization")))
    body, content_type = await metrics_text(hall)
    return Response(body, media_type=content_type)


@router.get("/api/admin/stuck", dependencies=[AdminDep])
async def stuck_rooms(request: Request) -> list[dict[str, Any]]:
    """Rooms that look stuck (errored, a bot or a clock not moving, a long wait without a
    clock), each with its reason, the longest stuck first."""
    return await stuck.stuck_rooms(hall_of(request))
