"""A finished hand replayed position by position, every hand face up, for the replay page.

`hand_positions(rules, start, actions)` takes the state at the deal of a hand and the hand's
actions in order (`[[seat, action], ...]`, as in a match record) and returns each position
from the deal to the end: the spectator's view, every seat's tiles and what the move did.

The last action of a hand ends it, and the rules deal the next hand in the same step (only
the match's last hand stays on the table). So that the final position shows the table as
the hand ended, with its last tile laid, that action is played once more on a copy of the
position made to be the match's last hand (the match target reached, or the last round);
only the copy's table is kept, the scores and the hand's summary come from the real state.
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from games.core.errors import IllegalAction, MalformedAction
from games.core.protocol import Rules

#: Keys every position shares, sent once per hand rather than with each position.
SHARED = ("game", "players", "seat", "options", "teams", "legal", "commitment", "target")
#: Keys that grow or only matter at the end: sent apart (`events`, `summary`) or not at all.
APART = ("log", "last_hand", "result", "match_over", "revealed")
#: Keys that say which hand or round this is: the copy made to end the match may say otherwise.
WHICH = ("hand_number", "round", "rounds", "lead", "target")


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """One finished hand of a match: the state at its deal and its `[seat, action]` pairs."""

    start: Any
    actions: list[list[Any]]


def finished_hands(
    rules: Rules[Any], start: Any, played: Sequence[Sequence[Any]], *, limit: int | None = None,
) -> tuple[list[FinishedHand], Any]:
    """The `[seat, action]` pairs of a match from its deal, cut into its finished hands (at
    most `limit` of them, the pairs after those not replayed), and the state after the last
    pair replayed. A hand ends with the action that deals the next (the count of deals
    moves) or ends the match; pairs of a hand still being played are left out. Replayed
    through the checked `apply`, so the cut is exactly the rules' own."""
    state = start
    hands: list[FinishedHand] = []
    current = FinishedHand(start, [])
    for seat, action in played:
        if limit is not None and len(hands) >= limit:
            break
        before = rules.hand_index(state)
        state = rules.apply(state, action)
        current.actions.append([seat, action])
        if rules.hand_index(state) != before or rules.result(state) is not None:
            hands.append(current)
            current = FinishedHand(state, [])
    return hands, state


def hand_positions(rules: Rules[Any], start: Any, actions: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """Every position of one finished hand. `start` is the state right after its deal."""
    first = rules.view(start, None)
    number = rules.hand_index(start)
    shared = {k: first[k] for k in SHARED if k in first}
    positions = [_position(rules, start, first, (None, None), 0)]
    state = start
    for index, (seat, action) in enumerate(actions):
        before = state
        state = rules.apply(before, action)
        last = index == len(actions) - 1
        if last and (rules.hand_index(state) != number or rules.result(state) is not None):
            table = _as_ended(rules, before, action, state)
            positions.append(_closing(rules, table, positions[-1], state, (seat, action)))
        else:
            view = rules.view(state, None)
            positions.append(_position(rules, state, view, (seat, action), positions[-1]["log_length"]))
    after = rules.view(state, None)
    summary = after.get("last_hand")
    for p in positions:
        del p["log_length"]
    return {
        "hand": number,
        "shared": shared,
        "scores_before": first.get("scores"),
        "scores_after": after.get("scores"),
        "summary": summary if summary and summary.get("number") == number else None,
        "match_over": bool(after.get("match_over")),
        "result": after.get("result"),
        "positions": positions,
    }


def _hands(rules: Rules[Any], state: Any, players: int) -> list[list[list[int]]]:
    return [list(rules.view(state, seat).get("hand") or []) for seat in range(players)]


def _strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in SHARED and k not in APART}


def _position(rules: Rules[Any], state: Any, view: dict[str, Any], move: tuple[Any, Any],
              logged: int) -> dict[str, Any]:
    """A position inside the hand; `move` is `(seat, action)` that led to it, `logged` the
    length of the log before it."""
    log = view.get("log") or []
    return {
        "seat": move[0],
        "action": move[1],
        "view": _strip(view),
        "hands": _hands(rules, state, view["players"]),
        "events": log[logged:],
        "log_length": len(log),
    }


def _closing(rules: Rules[Any], table: Any, previous: dict[str, Any], real: Any,
             move: tuple[Any, Any]) -> dict[str, Any]:
    """The final position: the ended copy's table, the real state's scores and hands."""
    view = rules.view(table, None)
    real_view = rules.view(real, None)
    ended = real_view.get("last_hand") or {}
    out = _strip(view)
    for key in WHICH:
        if key in previous["view"]:
            out[key] = previous["view"][key]
        else:
            out.pop(key, None)
    if isinstance(out.get("layout"), dict) and "lead" in out["layout"]:
        # The hand's lead as it was laid; when the closing move is the lead itself (All Fives
        # can reach its target with the first tile), the ended copy's own.
        before_layout = previous["view"].get("layout") or {}
        if before_layout.get("lead") is not None:
            out["layout"] = {**out["layout"], "lead": before_layout["lead"]}
    out["scores"] = real_view.get("scores")
    out["to_move"] = None
    # The hand's own log, as the real state keeps it in its summary, ends with the hand's end.
    log = ended.get("log") or view.get("log") or []
    hands = ended.get("hands_left")
    return {
        "seat": move[0],
        "action": move[1],
        "view": out,
        "hands": [list(h) for h in hands] if hands is not None else _hands(rules, table, view["players"]),
        "events": log[previous["log_length"]:] if len(log) >= previous["log_length"] else log,
        "log_length": len(log),
    }


def _as_ended(rules: Rules[Any], before: Any, action: Any, after: Any) -> Any:
    """`action` played on a copy of `before` made to be the match's last hand, so that the
    table stays as the hand ended instead of the next deal; `after` where the match did end.
    A game this does not know (or a copy its rules refuse) shows the table before the last
    action: the same hand, one tile short, rather than the next deal."""
    if rules.result(after) is not None:
        return after
    name = rules.name
    try:
        if name == "texas42":
            # The finished hand, tricks and all, is kept as `last`: shown in place of the new deal.
            ended = deepcopy(rules.dump(after))
            ended["hand"] = ended["last"]
            return rules.load(ended)
        data = deepcopy(rules.dump(before))
        if name in ("block", "draw", "allfives", "fiveup"):
            data["options"]["target"] = 1
            data["scores"] = [max(1, s) for s in data["scores"]]
        elif name == "mexican_train":
            data["rounds"] = data["round"] + 1
        elif name == "chicken_foot":
            data["hand"] = data["top"]
        else:
            return before
        return rules.apply(rules.load(data), action)
    except (KeyError, TypeError, ValueError, IllegalAction, MalformedAction):
        return before
