"""What each seat sees of a 42 match, and the way back from a view to a full state.

The log is derived from the hand (bids, trumps, tricks), never stored beside it, so a view
and the state it came from cannot disagree; `state_from_view` reads the same log back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from games.core.tiles import Tile, full_set, make_tile
from games.texas42.bidding import PASS, high_bid
from games.texas42.flow import (
    bidder,
    contract,
    leader,
    legal_actions,
    phase,
    points_taken,
    sitting_out,
    to_move,
    tricks_won,
    trump_namer,
)
from games.texas42.state import SEATS, TEAMS, Config, Hand, Outcome, Texas42State, Trick

Event = dict[str, Any]


def hand_log(hand: Hand) -> list[Event]:
    """The public events of a hand in order: bid/pass, trump, play, trick, hand_end."""
    events: list[Event] = [_bid_entry(hand, seat, value, "type") for seat, value in hand.bids]
    if hand.trump is not None:
        events.append({"type": "trump", "seat": trump_namer(hand), "suit": hand.trump})
    append = events.append
    for trick in hand.tricks:
        for seat, tile in trick.plays:
            append({"type": "play", "seat": seat, "tile": [tile.low, tile.high]})
        append({
            "type": "trick", "winner": trick.winner, "points": trick.points,
            "tiles": [[tile.low, tile.high] for _, tile in trick.plays],
        })
    for seat, tile in hand.trick:
        append({"type": "play", "seat": seat, "tile": [tile.low, tile.high]})
    outcome = hand.outcome
    if outcome is not None:
        best = high_bid(hand.bids)
        append({
            "type": "hand_end", "result": outcome.result,
            "bidder": None if best is None else best[0], "bid": None if best is None else best[1],
            "points": list(points_taken(hand)), "side": outcome.side, "award": outcome.award,
            "early": outcome.early,
        })
    return events


def _bid_entry(hand: Hand, seat: int, value: int, style: str) -> Event:
    """A bid or pass as the log (`style` "type") or the view's `bids` list shows it; a plunge or
    a splash carries its `contract`."""
    if value == PASS:
        return {"type": "pass", "seat": seat} if style == "type" else {"seat": seat, "pass": True}
    entry: Event = ({"type": "bid", "seat": seat, "value": value} if style == "type"
                    else {"seat": seat, "bid": value})
    name = next((n for s, n in hand.contracts if s == seat), None)
    if name is not None:
        entry["contract"] = name
    return entry


def _high_bid(hand: Hand) -> dict[str, Any] | None:
    """The standing bid, `{"seat", "value"}`, with its `contract` when it is a plunge or splash."""
    best = high_bid(hand.bids)
    if best is None:
        return None
    out: dict[str, Any] = {"seat": best[0], "value": best[1]}
    name = contract(hand)
    if name is not None:
        out["contract"] = name
    return out


def hand_summary(hand: Hand) -> dict[str, Any]:
    """The `last_hand` of the view: the whole finished hand, its seed revealed."""
    outcome = hand.outcome
    assert outcome is not None
    best = high_bid(hand.bids)
    return {
        "number": hand.number,
        "seed": hand.seed.hex(),
        "commitment": hand.commitment,
        "dealt": [[[t.low, t.high] for t in h] for h in hand.dealt],
        "hands_left": [[[t.low, t.high] for t in h] for h in hand.hands],
        "points": list(points_taken(hand)),
        "tricks_won": list(tricks_won(hand)),
        "winner": outcome.side,
        "blocked": False,
        "result": outcome.result,
        "early": outcome.early,
        "award": outcome.award,
        "bidder": None if best is None else best[0],
        "bid": None if best is None else best[1],
        "trump": hand.trump,
        "log": hand_log(hand),
    }


def result(state: Texas42State) -> dict[str, Any] | None:
    if state.hand.outcome is None:
        return None
    scores = list(state.scores)
    winner = 0 if scores[0] >= state.config.target else 1
    return {
        "scores": scores,
        "teams": [list(t) for t in TEAMS],
        "winner": winner,
        "winning_seats": list(TEAMS[winner]),
        "hands": state.hand.number + 1,
        "scoring": "points" if state.config.points_scoring else "marks",
    }


def view(state: Texas42State, seat: int | None) -> dict[str, Any]:
    if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
        raise ValueError(f"seat must be 0 to {SEATS - 1} or None, not {seat!r}")
    hand = state.hand
    config = state.config
    mover = to_move(state)
    out: dict[str, Any] = {
        "game": "texas42",
        "players": SEATS,
        "seat": seat,
        "options": config.as_dict(),
    }
    if seat is not None:
        out["hand"] = [[t.low, t.high] for t in hand.hands[seat]]
    out.update({
        "hand_sizes": [len(h) for h in hand.hands],
        "boneyard": 0,
        "to_move": mover,
        "legal": legal_actions(state) if seat is not None and seat == mover else [],
        "log": hand_log(hand),
        "scores": list(state.scores),
        "teams": [list(t) for t in TEAMS],
        "hand_number": hand.number,
        "commitment": hand.commitment,
        "revealed": list(state.revealed),
        "last_hand": None if state.last is None else hand_summary(state.last),
        "match_over": mover is None,
        "result": result(state),
        "scoring": "points" if config.points_scoring else "marks",
        "target": config.target,
        "phase": phase(hand),
        "shuffler": hand.shuffler,
        "bids": [_bid_entry(hand, s, v, "view") for s, v in hand.bids],
        "high_bid": _high_bid(hand),
        "bidder": bidder(hand) if len(hand.bids) == SEATS else None,
        "trump": hand.trump,
        "trick": [{"seat": s, "tile": [t.low, t.high]} for s, t in hand.trick],
        "leader": leader(hand),
        "tricks_won": list(tricks_won(hand)),
        "points_taken": list(points_taken(hand)),
        "sitting_out": sitting_out(hand),
        "decided": None if hand.outcome is None else hand.outcome.result,
    })
    return out


# From a view back to a state ------------------------------------------------------------
def _hand_from_log(
    log: Sequence[Mapping[str, Any]], hands: tuple[tuple[Tile, ...], ...], *, number: int, seed: bytes,
    commitment: str, dealt: tuple[tuple[Tile, ...], ...] | None,
) -> Hand:
    bids: list[tuple[int, int]] = []
    contracts: list[tuple[int, str]] = []
    trump = None
    tricks: list[Trick] = []
    plays: list[tuple[int, Tile]] = []
    played: list[list[Tile]] = [[] for _ in range(SEATS)]
    outcome = None
    for event in log:
        kind = event["type"]
        if kind == "bid":
            bids.append((event["seat"], event["value"]))
            if "contract" in event:
                contracts.append((event["seat"], event["contract"]))
        elif kind == "pass":
            bids.append((event["seat"], PASS))
        elif kind == "trump":
            trump = event["suit"]
        elif kind == "play":
            tile = make_tile(*event["tile"])
            plays.append((event["seat"], tile))
            played[event["seat"]].append(tile)
        elif kind == "trick":
            tricks.append(Trick(tuple(plays), event["winner"], event["points"]))
            plays = []
        elif kind == "hand_end":
            outcome = Outcome(event["result"], event["side"], event["award"], event["early"])
    if dealt is None:
        dealt = tuple(tuple(sorted((*hands[k], *played[k]))) for k in range(SEATS))
    return Hand(
        number, seed, commitment, dealt, hands, tuple(bids), trump, tuple(tricks), tuple(plays), outcome,
        tuple(contracts),
    )


def _sorted_hands(raw: Sequence[Sequence[Any]]) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(sorted(make_tile(*t) for t in h)) for h in raw)


def state_from_view(
    view: Mapping[str, Any], hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
) -> Texas42State:
    """A full state equal to `view`, the hidden tiles placed as `hands` says.

    The unknown seeds are replaced by stand-ins derived from the commitment, so later deals of
    a sampled state are arbitrary but reproducible. `ValueError` when the tiles do not fit.
    """
    if boneyard:
        raise ValueError("42 has no boneyard: every tile is in a hand")
    if len(hands) != SEATS:
        raise ValueError(f"42 needs {SEATS} hands, not {len(hands)}")
    placed = _sorted_hands(hands)
    if [len(h) for h in placed] != list(view["hand_sizes"]):
        raise ValueError(f"hands of {[len(h) for h in placed]} tiles do not fit {view['hand_sizes']}")
    seat = view.get("seat")
    if seat is not None and list(placed[seat]) != sorted(make_tile(*t) for t in view["hand"]):
        raise ValueError(f"seat {seat}'s own hand must be the one in the view")
    commitment = view["commitment"]
    stand_in = hashlib.sha256(b"texas42 sample " + commitment.encode("ascii")).digest()
    hand = _hand_from_log(
        view["log"], placed, number=view["hand_number"], seed=stand_in, commitment=commitment, dealt=None
    )
    shown = [t for h in placed for t in h] + [t for trick in hand.tricks for _, t in trick.plays]
    shown += [t for _, t in hand.trick]
    if sorted(shown) != list(full_set(6)):
        raise ValueError("the hands and the tiles played must make up the set exactly once")
    last = None
    summary = view.get("last_hand")
    if summary is not None:
        last = _hand_from_log(
            summary["log"], _sorted_hands(summary["hands_left"]), number=summary["number"],
            seed=bytes.fromhex(summary["seed"]), commitment=summary["commitment"],
            dealt=_sorted_hands(summary["dealt"]),
        )
    if hand.outcome is not None and last is not None:
        hand = last
    scores = view["scores"]
    return Texas42State(
        config=Config.from_options(view["options"]), master=stand_in, scores=(scores[0], scores[1]),
        revealed=tuple(view["revealed"]), hand=hand, last=last,
    )
