"""Solomon's Temple, Phase II: the attacker's armies, Lay Siege, Secret Passages, Destruction and
the sack of the Temple, then the defender's Israelite Armies and their re-location.

Book, "When it is your turn ... II. Military Phase (Your opponent's turn)": in a player's turn
the OPPONENT attacks that player's board, then the player on turn defends ("The first sub-phase
is played by the attacking player. The second part of the military phase is played by the
defending player."). So the attacker is the seat not on turn; its tokens stand on the board of
the player on turn (`state["armies"][defender]`). `rules.py` hands this module its steps
(`military`, `sack`, `siege_move` by the attacker; `defend`, `relocate` by the defender) and adds
the moves every step shares (the attacker's instants, the defender's cards laid down).
"""

from __future__ import annotations

from random import Random

from games.protocol import Event, Move, State
from games.solomons_temple import board
from games.solomons_temple.common import (
    army_at,
    distinct,
    fasting,
    open_instant,
    to_build,
    use_card,
)
from games.solomons_temple.data import ARMY_TOKENS, COLS, ENTRY, GATES, ROWS

# -- A. The attacking player's sub-phase ---------------------------------------------------------


def apply_to_military(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    """Phase I is over (`seat` is the player on turn): the opponent's attack on `seat`'s board
    begins. The Prophet's owner rolls "At the beginning of the Military Phase"."""
    attacker, target = 1 - seat, seat
    state["step"], state["actor"] = "military", attacker
    if state["play"][target]["prophet"]:
        roll = rng.randint(1, 6)
        face = "star" if roll <= 3 else "sword"
        state["die"] = {"roll": roll, "face": face, "turn": state["turn_no"], "by": target}
        state["listened"] = face == "star"
        if state["play"][attacker]["siege"] and not state["listened"]:
            state["play"][attacker]["siege"] += 1
        text = f"Seat {target + 1} rolled the Prophet die: " + (
            "Star of David. The people listen; no attack this turn."
            if state["listened"]
            else "Sword. The people do not listen; the attack goes on."
        )
        events = [Event(text, data={"die": roll, "face": face, "seat": target})]
        if state["listened"]:
            _open_defend(state, attacker)
        return events
    if state["play"][attacker]["siege"]:
        state["play"][attacker]["siege"] += 1
    return []


def legal_military(state: State, seat: int, anytime: list[Move]) -> list[Move]:
    """Step 2 (armies, moves, Lay Siege, Secret Passages) until the first Destruction; then only
    step 3, one Destruction per army (book: "After step 2, Destruction cards are played").
    `anytime`: the cards rules.py lets the player lay down at any time of its turn."""
    target = 1 - seat
    siege = state["play"][seat]["siege"]
    moves: list[Move] = [{"type": "end_military"}]
    if siege >= 2:  # "discard Lay Siege any time during the Military Phase on subsequent turns"
        moves.append({"type": "drop_siege"})
    moves += anytime
    if not state["wrecking"]:
        moves += _step_two(state, seat)
    if "Destruction" not in state["hand"][seat] or 0 < siege < 3:
        return moves  # while the siege counts no card is played on an army
    guarded = state["guarded"][target]
    for i, cell in enumerate(state["armies"][target]):
        here = tuple(cell)
        if i in state["wrecked"]:
            continue
        for g in range(3):
            if guarded[g] and board.next_to(here, (1, GATES[g])):
                moves.append({"type": "destroy", "army": i, "target": g})
        if board.next_to_temple(here) and state["structures"][target]:
            moves.append({"type": "destroy", "army": i, "target": "temple"})
    return moves


def _step_two(state: State, seat: int) -> list[Move]:
    """New armies, one space per army, Lay Siege and its gate, one Secret Passage per army."""
    target = 1 - seat
    armies = state["armies"][target]
    hand = set(state["hand"][seat])
    guarded = state["guarded"][target]
    siege = state["play"][seat]["siege"]
    moves: list[Move] = []
    if (
        "Babylonian Army" in hand
        and len(armies) < ARMY_TOKENS
        and not army_at(state, target, ENTRY)
    ):
        moves.append({"type": "army"})
    if "Lay Siege" in hand and not siege and len(armies) >= 2:
        moves.append({"type": "siege"})
    if siege >= 3:
        moves += [{"type": "siege_break", "gate": g} for g in range(3) if guarded[g]]
    for i, cell in enumerate(armies):
        if i not in state["moved"]:
            moves += _steps(state, target, i, "move")
        if i in state["carded"] or 0 < siege < 3 or "Secret Passage" not in hand:
            continue
        for g in range(3):
            other = _through(tuple(cell), g)
            if guarded[g] and other and not army_at(state, target, other):
                moves.append({"type": "passage", "army": i})
    return moves


def _steps(state: State, target: int, i: int, kind: str) -> list[Move]:
    """One-space moves of army `i` on `target`'s board onto free spaces it may stand on."""
    here = state["armies"][target][i]
    moves: list[Move] = []
    for d, (dr, dc) in board.DIRS.items():
        to = (here[0] + dr, here[1] + dc)
        if board.passable(to, state["guarded"][target]) and not army_at(state, target, to):
            moves.append({"type": kind, "army": i, "dir": d})
    return moves


def _through(here: tuple[int, int], g: int) -> tuple[int, int] | None:
    col = GATES[g]
    if here == (0, col):
        return (2, col)
    if here == (2, col):
        return (0, col)
    return None


def apply_army(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    use_card(state, seat, "Babylonian Army")
    state["armies"][1 - seat].append(list(ENTRY))
    if _gate_threat(state):
        open_instant(state, "military", seat=1 - seat)  # the defender, who is on turn
    return []


def _gate_threat(state: State) -> bool:
    """King David's defender could still shut a gate in an army's face this Military Phase: an
    open, empty gate with an army next to it that has not moved yet. Public facts only."""
    target = state["turn"]
    if not state["play"][target]["david"] or fasting(state, target):
        return False
    for g, col in enumerate(GATES):
        if state["guarded"][target][g] or army_at(state, target, (1, col)):
            continue
        for i, cell in enumerate(state["armies"][target]):
            if i not in state["moved"] and tuple(cell) in ((0, col), (2, col)):
                return True
    return False


def apply_move(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    cell = state["armies"][1 - seat][move["army"]]
    dr, dc = board.DIRS[move["dir"]]
    cell[0] += dr
    cell[1] += dc
    state["moved"].append(move["army"])
    return []


def _remove_army(state: State, board_seat: int, index: int) -> None:
    """An army token goes home; indices in this turn's bookkeeping shift down past it."""
    del state["armies"][board_seat][index]
    for key in ("moved", "carded", "wrecked"):
        state[key] = [i - (i > index) for i in state[key] if i != index]


def apply_destroy(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    target = 1 - seat
    use_card(state, seat, "Destruction")
    state["wrecking"] = True
    state["wrecked"].append(move["army"])
    if move["target"] != "temple":
        state["guarded"][target][move["target"]] = False
        state["discard"][target].append("Guarded Gate")
        return [Event(f"Gate {move['target'] + 1} of Seat {target + 1} is open again.")]
    texts = [f"The Temple of Seat {target + 1} is sacked"]
    prophet = state["play"][target]["prophet"]
    if prophet:
        state["play"][target]["prophet"] = None
        state["discard"][target].append(prophet)
        texts.append(f"{prophet} is carried off")
    _remove_army(state, target, move["army"])
    state["sack"] = min(2, len(state["furnishings"][target]))
    if state["sack"]:
        state["step"] = "sack"
        texts.append(f"Seat {seat + 1} chooses {state['sack']} Furnishing(s) to carry off")
    else:
        texts.append("no Furnishing stood")
    return [Event("; ".join(texts) + ".")]


def legal_sack(state: State, seat: int) -> list[Move]:
    """The attacker picks the Furnishings a Destruction on the Temple sends back, one a move."""
    return [{"type": "sack", "card": c} for c in distinct(state["furnishings"][1 - seat])]


def apply_sack(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    target = 1 - seat
    state["furnishings"][target].remove(move["card"])
    state["deck"][target].append(move["card"])
    rng.shuffle(state["deck"][target])
    state["sack"] -= 1
    if not state["sack"]:
        state["step"] = "military"
    return []


def apply_passage(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    use_card(state, seat, "Secret Passage")
    cell = state["armies"][1 - seat][move["army"]]
    for g in range(3):
        other = _through(tuple(cell), g)
        if other and state["guarded"][1 - seat][g]:
            cell[0], cell[1] = other
            break
    state["carded"].append(move["army"])
    return []


def apply_siege(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["hand"][seat].remove("Lay Siege")
    state["play"][seat]["siege"] = 1
    return []


def _end_siege(state: State, seat: int) -> None:
    if state["play"][seat]["siege"]:
        state["play"][seat]["siege"] = 0
        state["discard"][seat].append("Lay Siege")


def apply_siege_break(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    target = 1 - seat
    state["guarded"][target][move["gate"]] = False
    state["discard"][target].append("Guarded Gate")
    _end_siege(state, seat)
    if legal_siege_move(state, seat)[:-1]:
        state["step"] = "siege_move"
    return []


def legal_siege_move(state: State, seat: int) -> list[Move]:
    """After the siege breaks a gate, one army may move one space, on top of its own move."""
    moves: list[Move] = []
    for i in range(len(state["armies"][1 - seat])):
        moves += _steps(state, 1 - seat, i, "siege_move")
    return [*moves, {"type": "pass"}]


def apply_siege_move(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    cell = state["armies"][1 - seat][move["army"]]
    dr, dc = board.DIRS[move["dir"]]
    cell[0] += dr
    cell[1] += dc
    state["step"] = "military"
    return []


def apply_drop_siege(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    _end_siege(state, seat)
    return []


# -- B. The defending player's sub-phase ---------------------------------------------------------


def _open_defend(state: State, attacker: int) -> None:
    state["step"], state["actor"] = "defend", 1 - attacker


def apply_end_military(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    _open_defend(state, seat)
    return []


def legal_defend(state: State, seat: int) -> list[Move]:
    """The defender's Israelite Armies (rules.py adds the cards laid down), or `pass`. One is
    offered only with an army inside the walls (it re-locates only those), two with any army on
    the board (they discard all): an Israelite Army that could move no army is not offered."""
    moves: list[Move] = [{"type": "pass"}]
    count = state["hand"][seat].count("Israelite Army")
    armies = [tuple(a) for a in state["armies"][seat]]
    if not count or fasting(state, seat) or not armies:
        return moves
    if any(board.inside(a) for a in armies):
        moves.append({"type": "israelite"})
    if count >= 2:
        moves.append({"type": "israelite2"})
    return moves


def apply_israelite(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    use_card(state, seat, "Israelite Army")
    armies = state["armies"][seat]
    if move["type"] == "israelite2":
        use_card(state, seat, "Israelite Army")
        armies.clear()
        # "... discards all Babylonian Armies before the Lay Siege requirements are met, the Lay
        # Siege card is discarded": once its two turns are counted it stays (a gate may still go).
        if state["play"][1 - seat]["siege"] < 3:
            _end_siege(state, 1 - seat)
        to_build(state)
        return [Event("All Babylonian armies are routed.")]
    state["relocate"] = [i for i, cell in enumerate(armies) if board.inside(tuple(cell))]
    if not state["relocate"]:
        return [Event("No army stands inside the walls.")]
    state["step"] = "relocate"
    return [Event(f"Seat {seat + 1} re-locates the armies inside the walls, one by one.")]


def legal_relocate(state: State, seat: int) -> list[Move]:
    """Where the next army inside the walls may go: any free space an army may stand on (book:
    "any space on the board", "No Armies may be placed on the same spot"), or where it is."""
    index = state["relocate"][0]
    here = tuple(state["armies"][seat][index])
    moves: list[Move] = []
    for r in range(ROWS):
        for c in range(COLS):
            if (r, c) != here and board.passable((r, c), state["guarded"][seat]) and not (
                army_at(state, seat, (r, c))
            ):
                moves.append({"type": "relocate", "army": index, "row": r, "col": c})
    stay = {"type": "relocate", "army": index, "row": here[0], "col": here[1], "stay": True}
    return [*moves, stay]


def apply_relocate(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["armies"][seat][move["army"]] = [move["row"], move["col"]]
    state["relocate"].pop(0)
    if not state["relocate"]:
        state["step"] = "defend"  # more Israelite Armies may follow ("as many as you wish")
    return []
