"""Errors are values with stable codes, raised anywhere and turned into the wire format here."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class ApiError(Exception):
    """A refusal a person can read: HTTP status, stable `code`, one sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, Any]:
        return error_body(self.code, self.message)


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def _first_problem(exc: RequestValidationError) -> str:
    problem = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
    text = problem.get("msg", "The request is not valid.")
    return f"{where}: {text}" if where else text


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        hall = getattr(request.app.state, "hall", None)
        if hall is not None:
            hall.quotas.failed(exc.code, request.client.host if request.client else "unknown")
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(error_body("bad_request", _first_problem(exc)), status_code=422)

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        """A bug still answers in the contract's error shape; the traceback goes to the log
        (Starlette re-raises after this response), never to the caller."""
        return JSONResponse(error_body("internal_error", "Something went wrong on the server; "
                                       "try again."), status_code=500)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code)
