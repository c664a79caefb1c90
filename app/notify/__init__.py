"""Notifications (issue 36): "your turn", a reminder, the game's end and invitations, by e-mail
and webhook, for players who are not looking at the room.

`policy` says what a move makes due (pure; the move pipeline asks it only in turn-based rooms);
the store writes those rows into the outbox in the move's own transaction (`notify_outbox`);
`worker` claims due rows in every process and sends them through `mail` and `webhook`;
`service` keeps a player's channels (`settings`), and `storage` is the narrow storage protocol
all of it uses."""
