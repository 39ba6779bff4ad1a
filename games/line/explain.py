"""Why an action is refused, in the words a player at the table would use."""

from __future__ import annotations

from games.core.actions import Action
from games.core.layout import CLOSED, END_IDS, END_INDEX
from games.core.tiles import make_tile
from games.line.moves import can_draw, fitting
from games.line.state import OVER, LineState
from games.line.tables import bits, table


def explain_illegal(state: LineState, action: Action) -> str:
    config = state.config
    if state.to_move == OVER:
        return "the match is over: no more actions"
    tiles = table(config.top)
    hand = state.hands[state.to_move]
    layout = state.layout
    kind = action.get("type")
    fits = hand & fitting(state)
    open_names = [END_IDS[e] for e, _ in layout.open_ends()]
    if kind == "play":
        tile = make_tile(*action["tile"])
        if tile.high > config.top:
            return f"{tile.label()} is not a tile of the double-{config.top} set"
        if not hand >> tiles.index(tile) & 1:
            return f"{tile.label()} is not in your hand"
        if layout.is_empty:
            if "end" in action:
                return f"{tile.label()} leads the hand: the first tile takes no end"
            if state.lead >= 0:
                lead = tiles.tiles[state.lead]
                why = "the highest double" if lead.is_double else "the heaviest tile (nobody holds a double)"
                return f"you must lead {lead.label()}, {why}"
            return f"{tile.label()} cannot be led now"
        end = action.get("end")
        if end is None:
            return f"say which end to play {tile.label()} on: {' or '.join(open_names)}"
        e = END_INDEX.get(end, CLOSED)
        if e == CLOSED or layout.ends[e] == CLOSED:
            if end in ("up", "down") and config.spinner:
                return f"there is no {end} end yet: the spinner opens up and down once both sides are covered"
            return f"there is no {end!r} end: the open ends are {' and '.join(open_names)}"
        return f"{tile.label()} does not fit: the {end} end shows {layout.ends[e]}"
    if kind in ("draw", "pass"):
        if layout.is_empty:
            return "you lead this hand: play a tile"
        if fits:
            first = tiles.tiles[next(bits(fits))]
            return f"you hold {first.label()}, which fits: you must play"
        if kind == "draw":
            if not config.draws:
                return "there is no drawing in Block: you cannot play, so pass"
            if state.boneyard and config.reserve:
                return f"the last {config.reserve} tiles of the boneyard are never drawn: pass"
            return "the boneyard is empty: pass"
        if can_draw(state, len(state.boneyard)):
            return "you cannot play: draw from the boneyard"
    if kind in ("bid", "trump", "end_turn"):
        return f"there is no {kind} in {config.game}: play a tile, draw or pass"
    return "that is not a legal action now"
