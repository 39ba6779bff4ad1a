"""The course of a 42 hand: deal, auction, trumps, tricks, and the deal of the next hand.

These are the unchecked steps behind `Texas42Rules.advance`; `legal_actions` here is the one
source of what is allowed, and `explain_illegal` says why anything else is not.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from games.core.actions import Action
from games.core.fairness import commitment, deal, hand_seed, shuffle
from games.core.tiles import Tile, full_set, make_tile
from games.texas42.bidding import (
    PASS,
    PLUNGE_DOUBLES,
    SPLASH_DOUBLES,
    explain_bid,
    high_bid,
    legal_bids,
    may_pass,
    plunge_value,
    splash_value,
)
from games.texas42.marks import MADE, THROWN_IN, award, decide
from games.texas42.state import (
    NELLO,
    PLUNGE,
    SEATS,
    SEVENS_CHOICE,
    SPLASH,
    Config,
    Hand,
    Outcome,
    Texas42State,
    Trick,
    side_of,
    trump_suit,
)
from games.texas42.tricks import (
    DOUBLES_SUIT,
    SEVENS,
    TRICKS,
    led_suit,
    legal_plays,
    trick_points,
    winning_index,
)

HAND_SIZE = 7
BIDDING = "bidding"
TRUMP = "trump"
PLAYING = "playing"
OVER = "over"
SUIT_NAMES = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "trumps")


@lru_cache(maxsize=1024)
def deal_hand(master: bytes, number: int) -> Hand:
    """Hand `number` of the match: the fair shuffle and deal, each hand kept in canonical order.

    docs/engine.md, "Fair shuffle".

    Memoised because the 27 HMACs of a shuffle cost more than a whole hand of play, and AI
    rollouts from one view all end by dealing the same next hand; a `Hand` is immutable, so
    states may share it.
    """
    seed = hand_seed(master, number)
    hands, _ = deal(shuffle(full_set(6), seed), SEATS, HAND_SIZE)
    ordered = tuple(tuple(sorted(h)) for h in hands)
    return Hand(number=number, seed=seed, commitment=commitment(seed), dealt=ordered, hands=ordered)


def new_state(config: Config, master: bytes) -> Texas42State:
    return Texas42State(config=config, master=master, scores=(0, 0), revealed=(), hand=deal_hand(master, 0))


# Derived facts of a hand ----------------------------------------------------------------
def phase(hand: Hand) -> str:
    if hand.outcome is not None:
        return OVER
    if len(hand.bids) < SEATS:
        return BIDDING
    return TRUMP if hand.trump is None else PLAYING


def bidder(hand: Hand) -> int | None:
    best = high_bid(hand.bids)
    return None if best is None else best[0]


def contract(hand: Hand) -> str | None:
    """"plunge" or "splash" when the standing bid is one, else None."""
    best = high_bid(hand.bids)
    if best is None:
        return None
    return next((name for seat, name in hand.contracts if seat == best[0]), None)


def trump_namer(hand: Hand) -> int | None:
    """Who names trumps (and leads the first trick): the bidder, or after a plunge or a splash
    the bidder's partner."""
    seat = bidder(hand)
    if seat is None or contract(hand) is None:
        return seat
    return (seat + 2) % SEATS


def doubles_held(tiles: tuple[Tile, ...]) -> int:
    return sum(1 for t in tiles if t.low == t.high)


def contract_bids(state: Texas42State, seat: int) -> list[tuple[int, str]]:
    """The plunge and splash bids `seat` may make now: (value, name), splash first."""
    config = state.config
    hand = state.hand
    if not (config.plunge or config.splash):
        return []
    best = high_bid(hand.bids)
    standing = None if best is None else best[1]
    doubles = doubles_held(hand.hands[seat])
    out: list[tuple[int, str]] = []
    value = splash_value(standing)
    if config.splash and doubles >= SPLASH_DOUBLES and value is not None:
        out.append((value, SPLASH))
    if config.plunge and doubles >= PLUNGE_DOUBLES:
        out.append((plunge_value(standing), PLUNGE))
    return out


def sitting_out(hand: Hand) -> int | None:
    """The nello bidder's partner, who plays no tile."""
    if hand.trump != NELLO:
        return None
    seat = bidder(hand)
    return None if seat is None else (seat + 2) % SEATS


def leader(hand: Hand) -> int | None:
    """Who leads (or led) the trick in progress: the bidder first, then each trick's winner."""
    if hand.trump is None:
        return None
    if hand.trick:
        return hand.trick[0][0]
    if hand.tricks:
        return hand.tricks[-1].winner
    return trump_namer(hand)


def tricks_won(hand: Hand) -> tuple[int, int]:
    won = [0, 0]
    for trick in hand.tricks:
        won[side_of(trick.winner)] += 1
    return won[0], won[1]


def points_taken(hand: Hand) -> tuple[int, int]:
    taken = [0, 0]
    for trick in hand.tricks:
        taken[side_of(trick.winner)] += trick.points
    return taken[0], taken[1]


def to_move(state: Texas42State) -> int | None:
    hand = state.hand
    if hand.outcome is not None:
        return None
    if len(hand.bids) < SEATS:
        return (hand.shuffler + 1 + len(hand.bids)) % SEATS
    if hand.trump is None:
        return trump_namer(hand)
    if not hand.trick:
        return leader(hand)
    seat = (hand.trick[-1][0] + 1) % SEATS
    return (seat + 1) % SEATS if seat == sitting_out(hand) else seat


def legal_actions(state: Texas42State) -> list[Action]:
    hand = state.hand
    current = phase(hand)
    if current == BIDDING:
        best = high_bid(hand.bids)
        actions: list[Action] = [{"type": "pass"}] if may_pass(hand.bids, state.config.force) else []
        actions += [{"type": "bid", "value": v} for v in legal_bids(None if best is None else best[1])]
        seat = to_move(state)
        assert seat is not None
        specials = contract_bids(state, seat)
        return actions + [{"type": "bid", "value": v, "contract": name} for v, name in specials]
    if current == TRUMP:
        best = high_bid(hand.bids)
        assert best is not None
        choices = state.config.trump_choices(best[1], contract(hand))
        return [{"type": "trump", "suit": choice} for choice in choices]
    if current == PLAYING:
        seat = to_move(state)
        assert seat is not None
        trump = trump_suit(hand.trump, state.config)
        plays = legal_plays(hand.hands[seat], [t for _, t in hand.trick], trump)
        return [{"type": "play", "tile": [t.low, t.high]} for t in plays]
    return []


# Steps ----------------------------------------------------------------------------------
def advance(state: Texas42State, action: Action) -> Texas42State:
    """Apply a legal action; a hand that ends deals the next one unless the match is over."""
    hand = state.hand
    seat = to_move(state)
    assert seat is not None, "the match is over"
    kind = action["type"]
    if kind in ("bid", "pass"):
        value = action["value"] if kind == "bid" else PASS
        hand = replace(hand, bids=(*hand.bids, (seat, value)))
        if "contract" in action:
            hand = replace(hand, contracts=(*hand.contracts, (seat, action["contract"])))
        if len(hand.bids) == SEATS and high_bid(hand.bids) is None:
            return _finish(state, replace(hand, outcome=Outcome(THROWN_IN, None, 0, False)))
        return state.with_hand(hand)
    if kind == "trump":
        return state.with_hand(replace(hand, trump=action["suit"]))
    return _play(state, seat, make_tile(*action["tile"]))


def _play(state: Texas42State, seat: int, tile: Tile) -> Texas42State:
    hand = state.hand
    hands = list(hand.hands)
    hands[seat] = tuple(t for t in hands[seat] if t != tile)
    trick = (*hand.trick, (seat, tile))
    if len(trick) < (SEATS - 1 if hand.trump == NELLO else SEATS):
        return state.with_hand(Hand(
            hand.number, hand.seed, hand.commitment, hand.dealt, tuple(hands), hand.bids, hand.trump,
            hand.tricks, trick, None, hand.contracts,
        ))
    tiles = [t for _, t in trick]
    best = high_bid(hand.bids)
    assert best is not None
    side = side_of(best[0])
    favoured = [side_of(s) == side for s, _ in trick] if hand.trump == SEVENS_CHOICE else ()
    winner = trick[winning_index(tiles, trump_suit(hand.trump, state.config), favoured)][0]
    done = Trick(trick, winner, trick_points(tiles))
    hand = Hand(
        hand.number, hand.seed, hand.commitment, hand.dealt, tuple(hands), hand.bids, hand.trump,
        (*hand.tricks, done), (), None, hand.contracts,
    )
    taken = points_taken(hand)
    won = tricks_won(hand)
    result = decide(
        best[1], hand.trump == NELLO, bidders=taken[side], opponents=taken[1 - side],
        bidder_tricks=won[side], tricks_played=len(hand.tricks),
    )
    if result is None:
        return state.with_hand(hand)
    scorer = side if result == MADE else 1 - side
    outcome = Outcome(result, scorer, award(best[1], state.config.points_scoring), len(hand.tricks) < TRICKS)
    return _finish(state, replace(hand, outcome=outcome))


def _finish(state: Texas42State, hand: Hand) -> Texas42State:
    """Score the ended hand, reveal its seed, and deal the next hand unless the match is won."""
    outcome = hand.outcome
    assert outcome is not None
    scores = list(state.scores)
    if outcome.side is not None:
        scores[outcome.side] += outcome.award
    revealed = (*state.revealed, hand.seed.hex())
    done = replace(state, scores=(scores[0], scores[1]), revealed=revealed, last=hand)
    if max(scores) >= state.config.target:
        return replace(done, hand=hand)
    return replace(done, hand=deal_hand(state.master, hand.number + 1))


# Refusals -------------------------------------------------------------------------------
OTHER_ACTIONS = {
    "draw": "42 has no boneyard: all 28 tiles are dealt, so there is nothing to draw",
    "end_turn": "42 has no end_turn: each seat plays one tile a trick",
}


def explain_illegal(state: Texas42State, action: Action) -> str:
    hand = state.hand
    kind = action["type"]
    current = phase(hand)
    if current == OVER:
        return "the match is over: no more actions"
    if kind in OTHER_ACTIONS:
        return OTHER_ACTIONS[kind]
    if current == BIDDING:
        if kind == "bid":
            best = high_bid(hand.bids)
            if "contract" in action:
                return _explain_contract(state, action["contract"], action["value"])
            why = explain_bid(action["value"], None if best is None else best[1])
            seat = to_move(state)
            assert seat is not None
            named = [name for value, name in contract_bids(state, seat) if value == action["value"]]
            if named:
                why += f"; a {named[-1]} of {action['value']} is bid with \"contract\": \"{named[-1]}\""
            return why
        if kind == "pass":
            return "the other three seats passed: the shuffler must bid at least 30"
        later = "the high bidder names trumps once every seat has bid" if kind == "trump" else (
            "tiles are played once trumps are named")
        return f"the hand is in the bidding: bid or pass; {later}"
    if current == TRUMP:
        if kind == "trump":
            return _explain_trump(state, action["suit"])
        return ("the bidding is over: the high bidder (after a plunge or a splash, the partner) "
                "must name trumps first")
    if kind != "play":
        return f"the bidding is over and trumps are named: play a tile, not {kind}"
    if "end" in action:
        return "a 42 play names only its tile, never an end"
    tile = make_tile(*action["tile"])
    seat = to_move(state)
    assert seat is not None
    held = hand.hands[seat]
    if tile not in held:
        return f"you do not hold {tile.label()}"
    trump = trump_suit(hand.trump, state.config)
    following = " ".join(t.label() for t in legal_plays(held, [t for _, t in hand.trick], trump))
    if trump == SEVENS:
        return f"in sevens each seat plays its tile closest to seven pips: you hold {following}"
    suit = led_suit(hand.trick[0][1], trump)
    name = "doubles" if suit == TRICKS and trump == DOUBLES_SUIT else SUIT_NAMES[suit]
    return f"you must follow suit: {name} were led and you hold {following}"


def _explain_contract(state: Texas42State, name: str, value: int) -> str:
    """Why a plunge or splash bid is refused: the option, the doubles held, or its value."""
    if not getattr(state.config, name):
        return f"a {name} bid needs the room option {name!r}"
    seat = to_move(state)
    assert seat is not None
    need = PLUNGE_DOUBLES if name == PLUNGE else SPLASH_DOUBLES
    held = doubles_held(state.hand.hands[seat])
    if held < need:
        return f"a {name} needs at least {need} doubles in your hand; you hold {held}"
    open_value = {n: v for v, n in contract_bids(state, seat)}.get(name)
    if open_value is None:
        return f"a {name} is two or three marks: it cannot beat the standing bid"
    return f"a {name} here is a bid of {open_value}, not {value}"


def _explain_trump(state: Texas42State, suit: object) -> str:
    """Why a trump name is refused: its option is off, or the bid does not allow it."""
    hand = state.hand
    config = state.config
    option = {"doubles": "doubles_trump"}.get(str(suit), str(suit))
    if suit in ("doubles", "follow_me", "nello", "sevens") and not getattr(config, option):
        return f"naming {suit} needs the room option {option!r}"
    best = high_bid(hand.bids)
    assert best is not None
    if contract(hand) is not None:
        return (f"after a {contract(hand)} the partner names trumps for a side that must take "
                f"every trick: not {suit}")
    if suit == NELLO:
        return (f"nello needs a winning bid of at least {config.nello_min_marks} mark"
                f"{'s' if config.nello_min_marks > 1 else ''} ({42 * config.nello_min_marks}), "
                f"not {best[1]} (room option 'nello_min_marks')")
    return f"sevens needs a winning bid of at least 42, not {best[1]}"
