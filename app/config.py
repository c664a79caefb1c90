"""Settings, read once from the environment (and a `.env` file if present)."""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bots.levels import LEVELS

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER_TOKENS = {"change-me", "changeme", "admin", "secret", ""}
MIN_ADMIN_TOKEN = 16  # characters, of at least two classes (issue 24: `x`, `12345678` started)
MIN_ADMIN_DISTINCT = 8  # different characters: `aaaaaaaaaaaaaaa1` is no secret either


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = f"sqlite+aiosqlite:///{ROOT / 'data' / 'ziggurat.db'}"
    admin_token: str | None = None
    bot_delay_ms: int = 350
    # Bot thinking runs in this many worker processes (0: one per core minus one, at least one).
    bot_workers: int = 0
    # Scales each bot level's search (its iteration cap); tests run bots at a fraction of it.
    bot_budget_scale: float = 1.0
    # A bot decision not back this long after its level's budget plays a fallback move instead.
    bot_timeout_grace_seconds: float = 5.0
    # The level of the bot that stands in for a player (a vote, a leave, the admin) in rooms made
    # without a level of their own (`standin_level` on POST /api/rooms).
    bot_level: str = "normal"
    # How long a seat's player may be gone mid-game before the others may vote a bot in.
    absent_grace_seconds: float = 60.0
    # After the admin hands a seat to a bot, its player may not take it back for this long
    # (issue 24: an immediate reclaim undid the admin's decision); the admin is not held.
    admin_handover_hold_seconds: float = 600.0
    # A process silent this long is taken for dead and its seats for disconnected.
    presence_timeout_seconds: float = 60.0
    # A closed seated socket's `room` push waits this long, coalesced with the room's other
    # connects and closes (app/table/presence_push.py; 0: at once).
    presence_push_seconds: float = 0.5
    max_message_bytes: int = 16_384
    rate_per_second: float = 20.0
    rate_burst: int = 40
    max_body_bytes: int = 65_536
    # HTTP requests under way at once in one process (0: no limit); moves never wait for it.
    rest_concurrency: int = 16
    # Of those, at most this many from one address (0: no cap); its others wait for its own.
    rest_concurrency_per_address: int = 8
    # Abuse limits, per minute (0: off). Generous: a load test from one address stays under.
    players_per_minute_per_address: int = 12_000
    rooms_per_minute_per_player: int = 60
    rooms_per_minute_per_address: int = 6_000
    joins_per_minute_per_player: int = 120
    joins_per_minute_per_address: int = 12_000
    failures_per_minute_per_address: int = 120  # unknown room codes and wrong admin tokens
    # Games with bots or turn clocks going at once (0: no cap): per host, across processes; per
    # address, counted over the players this process saw seat bots from it (app.table.bot_caps).
    bot_games_per_player: int = 10
    bot_games_per_address: int = 40
    # Open websockets per process (0: no cap); sockets without a token count by address.
    sockets_per_player: int = 16
    sockets_per_anonymous_address: int = 64
    sockets_per_room: int = 256
    # A websocket that sends nothing (not even a ping) for this long is closed (0: never).
    ws_idle_seconds: float = 120.0
    # Request headers must be complete this long after their first byte (app.guard.deadlines).
    header_timeout_seconds: float = 10.0
    # A request body must be complete this long after its headers (0: no limit; guard/deadlines.py).
    body_timeout_seconds: float = 20.0
    # A player token not renewed for this long stops working (0: tokens never expire).
    token_ttl_days: float = 30.0
    # Room expiry (expiry.py; 0: never): a waiting room untouched this long closes, a game with
    # no move this long closes, and closed rooms are deleted this long after their last change.
    lobby_expiry_hours: float = 24.0
    abandoned_expiry_days: float = 14.0
    room_retention_days: float = 90.0
    room_sweep_seconds: float = 600.0
    static_dir: Path = ROOT / "static"
    # The host's view (app/ops): `/metrics` takes this bearer token or ADMIN_TOKEN; the console
    # lists a room as stuck when a person has had the move this long with no clock running;
    # `json` logs one JSON line per request and socket event.
    metrics_token: str | None = None
    stuck_minutes: float = 60.0
    log_format: str = "text"
    # The address people reach this server at, e.g. https://games.example.org (no path): links
    # to sign another device in point there, and passkeys are bound to its host (the WebAuthn
    # relying party id) and origin. None: the address each request came to (fine for links;
    # passkeys also need it to be https, or http://localhost).
    public_url: str | None = None
    # Link codes (app/people/links.py): made per player, and tried per address, per minute.
    links_per_minute_per_player: int = 10
    link_tries_per_minute_per_address: int = 30

    @field_validator("public_url")
    @classmethod
    def _an_origin(cls, url: str | None) -> str | None:
        if url is None or not url.strip():
            return None
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname \
                or parts.path.strip("/") or parts.query or parts.fragment:
            raise ValueError("PUBLIC_URL must be an origin such as https://games.example.org "
                             "(scheme and host, an optional port, no path)")
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def mail_origin(self) -> str:
        """Where the links in mails point (room, verify, unsubscribe): PUBLIC_URL, else the
        address `make run` serves on this machine (a mail has no request to take it from)."""
        return self.public_url or "http://localhost:8000"
    # Notifications (app/notify/). "Your turn" goes to a player not connected to the room for
    # this long (never while they are).
    notify_after_seconds: float = 60.0
    # smtp://user:password@host:587 (STARTTLS when offered) or smtps://… (TLS); unset: no mail.
    smtp_url: str | None = None
    mail_from: str = "Ziggurat <ziggurat@localhost>"
    # Tests only: webhooks may then be plain http and reach loopback addresses.
    webhook_allow_loopback: bool = False
    # How often each process's worker looks for due notifications; the first retry's wait
    # (doubled at each failure, at most an hour) and the attempts before a row is given up.
    notify_poll_seconds: float = 1.0
    notify_retry_seconds: float = 30.0
    notify_max_attempts: int = 8
    # A worker's claim on a row lasts this long: a process killed mid-send leaves the row to
    # another worker (or itself, restarted) after it; longer than any one send takes.
    notify_claim_seconds: float = 120.0
    # Mails per player and per address in any 24 hours (verification mails included).
    mails_per_player_per_day: int = 40
    mails_per_address_per_day: int = 20
    # A digest player's held mails go out together this long after the first was held.
    digest_seconds: float = 86_400.0

    @field_validator("bot_level")
    @classmethod
    def _a_level(cls, level: str) -> str:
        if level not in LEVELS:
            raise ValueError(f"BOT_LEVEL must be one of {', '.join(LEVELS)}")
        return level

    @field_validator("log_format")
    @classmethod
    def _a_format(cls, value: str) -> str:
        if value not in ("text", "json"):
            raise ValueError("LOG_FORMAT must be text or json")
        return value

    @field_validator("admin_token", "metrics_token")
    @classmethod
    def _not_the_example(cls, token: str | None, info: ValidationInfo) -> str | None:
        """The server refuses to start with the example admin token from the compose file."""
        if token is None:
            return None
        name = (info.field_name or "admin_token").upper()
        if token.strip().lower() in PLACEHOLDER_TOKENS:
            raise ValueError(f"{name} is still a placeholder; set a long random secret "
                             "(or unset it to turn admin off)")
        if len(token) < MIN_ADMIN_TOKEN or _classes(token) < 2 \
                or len(set(token)) < MIN_ADMIN_DISTINCT:
            raise ValueError(f"{name} is too weak: use at least {MIN_ADMIN_TOKEN} "
                             f"characters, {MIN_ADMIN_DISTINCT} of them different, mixing "
                             "letters, digits or symbols (e.g. `openssl rand -hex 24`)")
        return token

    @property
    def async_database_url(self) -> str:
        """The URL with an async driver, whatever spelling the operator used."""
        url = self.database_url
        for plain, driver in (("postgres://", "postgresql+asyncpg://"),
                              ("postgresql://", "postgresql+asyncpg://"),
                              ("sqlite://", "sqlite+aiosqlite://")):
            if url.startswith(plain):
                return driver + url[len(plain):]
        return url

    @property
    def token_ttl(self) -> timedelta | None:
        return timedelta(days=self.token_ttl_days) if self.token_ttl_days > 0 else None


def _classes(token: str) -> int:
    """How many of lower-case, upper-case, digits and anything else a token mixes."""
    return len({"lower" if c.islower() else "upper" if c.isupper() else
                "digit" if c.isdigit() else "other" for c in token})


@lru_cache
def get_settings() -> Settings:
    return Settings()
