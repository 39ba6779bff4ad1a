"""Hard at Mexican Train: Medium's best few moves, each played out many times the Medium way.

Why not the generic search: its heaviest-tile playouts break every seat's planned train, so
they misjudge exactly the choices that matter here, and six deals per move cannot tell two
moves apart. Here every seat's playout follows Medium's own rule on the full state for a few
turns, every candidate is played on the same sampled deals (common random numbers), and Hard
leaves Medium's choice only when another move is better by a clear margin over those deals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TypeVar

from games.ai.inference import hand_of
from games.ai.kit import Kit
from games.ai.policy import View
from games.ai.sampling import sample_deal
from games.ai.scored import Scored
from games.ai.search import PLAYOUT_CAP, my_side
from games.ai.trains_fast import TrainsState, trains_state
from games.ai.trains_policy import Planner, state_action
from games.ai.trains_sim import Move, TrainSim, move_of
from games.ai.trains_sim import playout as sim_playout
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import pip_total

#: A Mexican Train state, as the engine steps it.
S = TypeVar("S", bound=TrainsState)

#: Medium's best few actions are searched; the rest are almost never right.
CANDIDATES = 4
#: Playouts per decision (work, not time): `PLAYOUTS // CANDIDATES` sampled deals, every
#: candidate played out on each.
PLAYOUTS = 320
#: Playouts stop after this many moves and count the pips then held. A short look ahead on
#: many deals judges a move better than whole hands on few: the rest of a hand is mostly the
#: luck of the draw, which drowns the difference one move makes.
HORIZON = 12
#: A candidate replaces Medium's choice only if its mean gain over it is this many
#: standard errors above zero ...
MARGIN_SE = 1.0
#: ... and at least this many pips.
MARGIN_PIPS = 0.5


def playout(rules: Rules[S], state: S, first: Action, horizon: int = PLAYOUT_CAP) -> list[int]:
    """The pips each seat holds `horizon` moves after `first` (or takes, if the hand ends first).

    Every seat plays Medium's rule. A seat laying its last tile ends the playout before the
    engine scores the hand, and the state searched is the match's last hand (see
    `last_hand_view`), so no playout pays for the summary and the next deal the engine builds.
    """
    planner = Planner()
    start = state.totals
    action: Action | None = first
    for step in range(PLAYOUT_CAP):
        seat = state.turn
        if seat is None:
            break
        if step >= horizon:
            return [pip_total(h, state.double_blank) for h in state.hands]
        if action is None:
            legal = rules.legal_actions(state)
            action = legal[0] if len(legal) == 1 else state_action(state, legal, planner)
        if action["type"] == "play" and len(state.hands[seat]) == 1:
            return [0 if s == seat else pip_total(h, state.double_blank) for s, h in enumerate(state.hands)]
        state = rules.advance(state, action)
        action = None
    return [a - b for a, b in zip(state.totals, start)]


def last_hand_view(view: View) -> View:
    """The view as if this hand were the match's last: the search never looks past it."""
    options = dict(view.get("options") or {})
    options["rounds"] = int(view.get("round") or 0) + 1
    return {**view, "options": options}


def gain(pips: Sequence[int], seat: int) -> float:
    """The pips the others take this hand beyond ours (lower totals win): higher is better."""
    others = [p for i, p in enumerate(pips) if i != seat]
    return sum(others) / len(others) - pips[seat]


def choose(
    rules: Rules[object],
    kit: Kit,
    view: View,
    legal: list[Action],
    *,
    prior: Sequence[float],
    rng: random.Random,
    playouts: int | None = None,
) -> Scored:
    """Medium's choice, unless a searched alternative beats it clearly on the same deals;
    each candidate's value is its mean gain (`gain`) over those deals."""
    order = sorted(range(len(legal)), key=lambda i: (-prior[i], i))
    picked = order[:CANDIDATES]
    base = picked[0]
    if len(picked) < 2:
        return Scored((legal[base],), (0.0,), 0)
    deals = max(2, (playouts or PLAYOUTS) // CANDIDATES)
    seat = my_side(view)
    searched = last_hand_view(view)
    values: dict[int, list[float]] = {i: [] for i in picked}
    hidden, unseen = kit.hidden(searched), kit.unseen(searched)
    position: TrainSim | None = None
    firsts: list[Move] = []
    own = hand_of(searched)
    for _ in range(deals):
        hands, boneyard = sample_deal(searched, hidden, unseen, rng, own)
        if position is None:
            position = TrainSim(trains_state(rules.state_from_view(searched, hands, boneyard)))
            firsts = [move_of(legal[i], position.players) for i in picked]
        sim = position.redealt(hands, boneyard)
        for i, first in zip(picked, firsts):
            values[i].append(gain(sim_playout(sim.copy(), first, HORIZON), seat))
    best, best_gain = base, 0.0
    for i in picked[1:]:
        diffs = [a - b for a, b in zip(values[i], values[base])]
        mean = sum(diffs) / deals
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (deals - 1))
        if mean > max(MARGIN_PIPS, MARGIN_SE * spread / math.sqrt(deals)) and mean > best_gain:
            best, best_gain = i, mean
    return Scored(tuple(legal[i] for i in picked), tuple(sum(values[i]) / deals for i in picked),
                  picked.index(best))
