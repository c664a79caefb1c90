"""Mail through any SMTP server (aiosmtplib), from SMTP_URL and MAIL_FROM.

Every mail but the verification carries the one-click unsubscribe link, in its text and as
`List-Unsubscribe` (+ `List-Unsubscribe-Post`, RFC 8058, which mail clients show as a button).
The `Message-ID` is the outbox row's: a mail sent again after a crash between the send and its
mark is recognisably the same mail."""

from __future__ import annotations

from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

import aiosmtplib

from app.notify.texts import Text

SMTP_TIMEOUT = 10.0


class MailFailed(Exception):
    """The server could not be reached or refused the mail: try again later."""


def message(sender: str, to: str, text: Text, row_id: int, domain: str,
            unsubscribe: str | None) -> EmailMessage:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = sender, to, text.subject
    mail["Message-ID"] = f"<ziggurat-notify-{row_id}@{domain}>"
    body = text.body
    if unsubscribe is not None:
        mail["List-Unsubscribe"] = f"<{unsubscribe}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        body += f"\nStop these mails (one click, no sign-in): {unsubscribe}\n"
    mail.set_content(body)
    return mail


async def send(smtp_url: str, mail: EmailMessage) -> None:
    """Deliver `mail` through the server SMTP_URL names (smtp:// with STARTTLS when the server
    offers it, smtps:// with TLS from the start)."""
    url = urlsplit(smtp_url)
    tls = url.scheme == "smtps"
    try:
        await aiosmtplib.send(
            mail, hostname=url.hostname or "localhost", port=url.port or (465 if tls else 587),
            username=unquote(url.username) if url.username else None,
            password=unquote(url.password) if url.password else None,
            use_tls=tls, start_tls=None if not tls else False, timeout=SMTP_TIMEOUT)
    except (aiosmtplib.SMTPException, OSError) as exc:
        raise MailFailed(f"{type(exc).__name__}: {exc}") from exc
