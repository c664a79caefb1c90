"""A device's label from its browser's User-Agent: "Chrome on Android", "Safari on iPhone".

A few substrings, checked in order, are enough for a label a person recognises in a list of
their own devices (a full User-Agent parser would be a large dependency for a display string)."""

from __future__ import annotations

# Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", Android says "Linux".
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"),
             ("CriOS", "Chrome"), ("Chrome/", "Chrome"), ("Chromium/", "Chromium"),
             ("Safari/", "Safari"))
_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
            ("Windows", "Windows"), ("Mac OS X", "Mac"), ("Macintosh", "Mac"),
            ("CrOS", "ChromeOS"), ("Linux", "Linux"))
MAX_LABEL = 80


def device_label(user_agent: str | None) -> str:
    """A short, readable name for the device that sent `user_agent`."""
    agent = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in agent), None)
    if browser and system:
        return f"{browser} on {system}"
    return (browser or system or "A browser")[:MAX_LABEL]
