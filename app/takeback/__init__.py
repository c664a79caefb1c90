"""Take-backs a player asks for (issue 39, point 7), like lichess's takeback offer.

The free take-back (`app.play.undo`) covers a slip inside one's own step. Past that — the turn
passed, the next player moved — a player may *ask*: the other seated people accept or decline,
and once all accept the game goes back to before the asker's last move, for everyone. Bots
always accept (a bot has nothing to lose and a person playing the computer is learning); a
seat a bot holds for an away player counts as a bot. Never across revealed information: every
move taken back must have drawn nothing at random, addressed nothing to one seat, and shown
nobody anything hidden (`judge`). An ask lives at the room's version: any move lapses it.

- `judge`: the pure judgement on the replayed log (what goes back, whether anything was
  revealed, who must answer).
- `store`: the narrow storage protocol (`AskStore`) and its SQLAlchemy implementation; asks and
  answers are lines of the audit log (`admin_actions`), the take-back itself the `take_back`
  line the players' log shows ("Move 7 taken back: …").
- `service`: the socket frames (`takeback_ask`, `takeback_answer`), the `takeback` pushes, and
  the relay for other processes.
"""
