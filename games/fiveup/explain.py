"""Why an action is refused, in the words a player at the table would use.

Each message is an English template marked for the catalogs (`gettext_noop`) and filled in
here; the server shows the English text.
"""

from __future__ import annotations

from games.core.actions import Action
from games.core.text import gettext_noop
from games.core.tiles import make_tile
from games.fiveup.layout import CROSS, DOUBLE, HALF, end_code, end_id
from games.fiveup.state import GRID, OVER, FiveUpState
from games.fiveup.turns import can_play


def explain_illegal(state: FiveUpState, action: Action) -> str:
    if state.to_move == OVER:
        return gettext_noop("the match is over: no more actions")
    config = state.config
    kind = action.get("type")
    seat = state.to_move
    if kind not in ("play", "draw", "pass", "muggins"):
        return gettext_noop("Five-Up has no %(kind)s action") % {"kind": repr(kind)}
    if kind == "muggins":
        if not config.muggins:
            return gettext_noop("muggins is a house rule that is off at this table: every play scores "
                                "by itself")
        return gettext_noop("there are no unclaimed points to take: muggins may be called only on the "
                            "points the previous player did not claim, before you do anything else")
    able = can_play(state, seat)
    if kind == "draw":
        if able:
            return gettext_noop("you have a tile to play, so you may not draw")
        return gettext_noop("the boneyard is empty: pass")
    if kind == "pass":
        if able:
            return gettext_noop("you have a tile to play, so you may not pass")
        return gettext_noop("you must draw from the boneyard until a tile fits; pass only once it is empty")
    return _explain_play(state, action)


def _explain_play(state: FiveUpState, action: Action) -> str:
    config = state.config
    tile = make_tile(*action["tile"])
    label = tile.label()
    if action.get("claim") and not config.muggins:
        return gettext_noop("there is nothing to claim: scoring is automatic at this table (the muggins "
                            "house rule is off), so play without \"claim\"")
    if tile.high > 6:
        return gettext_noop("%(tile)s is not a tile of the double-six set") % {"tile": label}
    if not state.hands[state.to_move] >> GRID[tile.low][tile.high] & 1:
        return gettext_noop("%(tile)s is not in your hand") % {"tile": label}
    table = state.table
    end = action.get("end")
    if not table.placed:
        return gettext_noop("%(tile)s leads the hand: the first tile takes no end") % {"tile": label}
    open_ids = ", ".join(end_id(code) for code, _, _ in table.ends)
    if end is None:
        return gettext_noop("say which end to play %(tile)s on: %(ends)s") % {"tile": label, "ends": open_ids}
    code = end_code(end)
    found = next((e for e in table.ends if e[0] == code), None)
    if found is None:
        if code is not None and code & 3 >= 2:
            # A crosswise end of a double whose sides are not both covered yet: that double
            # still has a side open ("k", or "0l"/"0r" for a lead double).
            base = code & ~3
            if any(c in (base, base + 1) and k in (DOUBLE, HALF) for c, _, k in table.ends):
                return gettext_noop("there is no %(end)s end yet: a double's crosswise ends open only once "
                                    "both of its sides are covered") % {"end": repr(end)}
        return gettext_noop("there is no %(end)s end: the open ends are %(ends)s") % {
            "end": repr(end), "ends": open_ids}
    _, value, kind = found
    if kind == CROSS:
        return gettext_noop("%(tile)s does not fit: the crosswise end %(end)s of the double shows "
                            "%(value)s") % {"tile": label, "end": end, "value": value}
    return gettext_noop("%(tile)s does not fit: the %(end)s end shows %(value)s") % {
        "tile": label, "end": end, "value": value}
