"""Advice (hints, reviews): Hard's move from the seat's view only, and sentences whose facts
are true of the position."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.ai import kit_for
from games.ai.advice import HandToReview, advise, review, review_hand, sentence, unit_of
from games.ai.inference import tile_of
from games.ai.search import determinize
from games.ai.texas42 import follows, is_trump, trump_of
from games.core.actions import normalise_action
from games.engine import get_rules
from tests.ai.support import tiles_said

SEED = b"advice tests"


def position(game: str, players: int, options: dict[str, Any], seed: int, wanted: Any, steps: int = 400) -> Any:
    """The first state of a seeded random match where the seat to move has a choice and
    `wanted(rules, state)` holds."""
    rules = get_rules(game)
    state = rules.new_match(players, options, seed=bytes([seed]) * 32)
    rng = random.Random(seed)
    for _ in range(steps):
        if rules.to_move(state) is None:
            break
        legal = rules.legal_actions(state)
        if len(legal) > 1 and wanted(rules, state):
            return rules, state
        state = rules.advance(state, rng.choice(legal))
    pytest.fail(f"no {game} position found")


def hand(rules: Any, state: Any, seat: int) -> list[Any]:
    return [tile_of(t) for t in rules.view(state, seat)["hand"]]


@pytest.mark.parametrize(("game", "players"), [
    ("draw", 2), ("block", 3), ("allfives", 2), ("texas42", 4), ("mexican_train", 4), ("chicken_foot", 3),
    ("fiveup", 4),
])
def test_advice_depends_on_the_view_alone(game: str, players: int) -> None:
    """Two states that look the same to the seat (the hidden tiles dealt two other ways)
    get the same advice; the advice is one of the seat's legal moves."""
    rules, state = position(game, players, {}, 3, lambda r, s: len(r.view(s, r.to_move(s))["log"]) > 4)
    seat = rules.to_move(state)
    view = rules.view(state, seat)
    other = determinize(rules, kit_for(game), view, random.Random(99))
    assert rules.view(other, seat) == view
    assert [hand(rules, other, s) for s in range(players)] != [hand(rules, state, s) for s in range(players)]
    one, two = advise(rules, view, seed=SEED), advise(rules, rules.view(other, seat), seed=SEED)
    assert one == two
    assert normalise_action(one.action) in [normalise_action(a) for a in view["legal"]]
    assert one.unit == ("marks" if game == "texas42" else "points") == unit_of(view)
    assert one.why.endswith(".") and one.why.count(".") <= 3


def test_line_sentence_states_the_ends_left_the_tiles_kept_and_the_voids_shown() -> None:
    """Draw: after a seat has passed or drawn, the advice names what it lacks (true of its
    real hand), and the ends and tiles kept that the sentence gives are the engine's."""
    def after_a_draw(rules: Any, state: Any) -> bool:
        log = rules.view(state, None)["log"]
        me = rules.to_move(state)
        return any(e["type"] in ("draw", "pass") and e.get("seat") != me for e in log) and any(
            a["type"] == "play" for a in rules.legal_actions(state))
    rules, state = position("draw", 2, {}, 7, after_a_draw)
    seat = rules.to_move(state)
    advice = advise(rules, rules.view(state, seat), seed=SEED)
    facts = advice.facts
    for other, numbers in facts["voids"].items():
        real = hand(rules, state, int(other))
        assert not any(t.has(n) for t in real for n in numbers), (other, numbers, real)
    if advice.action["type"] == "play" and not facts["goes_out"]:
        after = rules.apply(state, advice.action)
        ends = sorted(int(e["value"]) for e in rules.view(after, seat)["ends"])
        assert facts["ends"] == ends
        rest = hand(rules, after, seat)
        assert facts["answers"] == sum(1 for t in rest if any(t.has(v) for v in ends))
        assert f"you keep {facts['answers']} tile" in advice.why or "you keep none" in advice.why
        for n in set(ends):
            assert str(n) in advice.why
    assert advice.why.startswith("Play ") or advice.why.startswith("Draw")


def test_all_fives_sentence_gives_the_points_a_scoring_play_makes() -> None:
    def scoring_play(rules: Any, state: Any) -> bool:
        before = rules.scores(state)
        return any(rules.scores(rules.advance(state, a)) != before for a in rules.legal_actions(state))
    rules, state = position("allfives", 2, {}, 5, scoring_play)
    seat = rules.to_move(state)
    advice = advise(rules, rules.view(state, seat), seed=SEED)
    side = next(i for i, team in enumerate(rules.view(state, seat)["teams"]) if seat in team)
    scored = rules.scores(rules.apply(state, advice.action))[side] - rules.scores(state)[side]
    assert advice.facts["scored"] == scored
    assert (f"it scores {scored} points" in advice.why) == (scored > 0)


def test_five_up_sentence_gives_the_count_and_the_points_and_names_ends_by_number() -> None:
    """With the muggins house rule on, the advice claims what it scores; the sentence gives
    the count the play leaves and what it scores, and names the end by the number it shows
    (Five-Up's end ids are tile numbers)."""
    def scoring_play(rules: Any, state: Any) -> bool:
        before = rules.scores(state)
        return bool(rules.view(state, None)["layout"]) and any(
            rules.scores(rules.advance(state, a)) != before for a in rules.legal_actions(state))
    rules, state = position("fiveup", 2, {"muggins": True}, 5, scoring_play)
    seat = rules.to_move(state)
    view = rules.view(state, seat)
    advice = advise(rules, view, seed=SEED)
    assert advice.action["type"] == "play"
    after = rules.apply(state, advice.action)
    scored = rules.scores(after)[seat] - rules.scores(state)[seat]
    if rules.hand_index(after) == rules.hand_index(state) and rules.to_move(after) is not None:
        count = rules.view(after, seat)["count"]
        assert advice.facts["count"] == count and advice.facts["scored"] == scored
        if scored:
            assert advice.action.get("claim") is True
            assert f"it makes a count of {count}, which scores {scored} point" in advice.why
        else:
            assert f"it leaves a count of {count}, which scores nothing" in advice.why
    number = {e["id"]: e["value"] for e in view["ends"]}[advice.action["end"]]
    assert f"on the open {number}" in advice.why


def test_five_up_advice_calls_muggins_on_points_left_unclaimed() -> None:
    def unclaimed(rules: Any, state: Any) -> bool:
        return {"type": "muggins"} in rules.legal_actions(state)
    rules, state = position("fiveup", 2, {"muggins": True}, 3, unclaimed)
    seat = rules.to_move(state)
    view = rules.view(state, seat)
    advice = advise(rules, view, seed=SEED)
    points = view["unclaimed"]["points"]
    assert advice.action == {"type": "muggins"}
    assert advice.why.startswith("Call muggins: the player before you left")
    assert f"left {points} point" in advice.why


def test_texas42_play_sentence_counts_the_trumps_still_out_and_true_voids() -> None:
    def late_play(rules: Any, state: Any) -> bool:
        view = rules.view(state, rules.to_move(state))
        return view.get("trump") is not None and sum(e["type"] == "trick" for e in view["log"]) >= 2
    rules, state = position("texas42", 4, {}, 11, late_play)
    seat = rules.to_move(state)
    view = rules.view(state, seat)
    advice = advise(rules, view, seed=SEED)
    facts = advice.facts
    trump = trump_of(view["trump"])
    out = sum(1 for s in range(4) if s != seat for t in hand(rules, state, s) if is_trump(t, trump))
    assert facts["trumps_out"] == out
    assert f"{out} trump" in advice.why
    suits = {f"{n}s": n for n in range(7)}
    for other, lacking in facts["voids"].items():
        for name in lacking:
            suit = 7 if name == "trumps" else suits[name]
            assert not any(follows(t, suit, trump) for t in hand(rules, state, int(other)))
    count = sum(t.pips for t in [tile_of(p["tile"]) for p in view["trick"]] + [tile_of(advice.action["tile"])]
                if t.pips in (5, 10))
    assert facts["count"] == count


def test_texas42_bid_sentence_names_the_best_suit_and_what_the_hand_holds() -> None:
    rules, state = position("texas42", 4, {}, 2, lambda r, s: r.view(s, r.to_move(s))["phase"] == "bidding")
    seat = rules.to_move(state)
    advice = advise(rules, rules.view(state, seat), seed=SEED)
    facts = advice.facts
    mine = hand(rules, state, seat)
    assert facts["held"] == sum(1 for t in mine if t.has(facts["suit"]))
    assert facts["other_doubles"] == sum(1 for t in mine if t.is_double and not t.has(facts["suit"]))
    assert f"{facts['suit']}s" in advice.why and f"{facts['held']} tile" in advice.why
    assert advice.unit == "marks"


def test_mexican_train_sentence_names_the_open_trains_and_the_pips_kept() -> None:
    def marked(rules: Any, state: Any) -> bool:
        me = rules.to_move(state)
        view = rules.view(state, me)
        return any(e.get("marker") and e.get("owner") not in (None, me) for e in view["ends"]) and any(
            a["type"] == "play" for a in view["legal"])
    rules, state = position("mexican_train", 4, {}, 4, marked)
    seat = rules.to_move(state)
    view = rules.view(state, seat)
    advice = advise(rules, view, seed=SEED, names=["Ann", "Bob", "Cy", "Di"])
    facts = advice.facts
    opened = sorted(e["owner"] for e in view["ends"] if e.get("marker") and e.get("owner") not in (None, seat))
    assert facts["open_trains"] == opened
    for owner in opened:
        assert ["Ann", "Bob", "Cy", "Di"][owner] + "'s" in advice.why
    if advice.action["type"] == "play":
        after = rules.apply(state, advice.action)
        pips = sum(t.pips for t in hand(rules, after, seat))
        assert facts["pips_after"] == pips and f"{pips} pips stay" in advice.why


def test_review_loss_is_zero_for_hards_move_and_hards_estimate_otherwise() -> None:
    rules, state = position("block", 2, {}, 9, lambda r, s: len(r.legal_actions(s)) >= 3)
    view = rules.view(state, rules.to_move(state))
    advice = advise(rules, view, seed=SEED)
    same = review(rules, view, advice.action, seed=SEED)
    assert same.loss == 0 and same.best == advice.action
    other = next(a for a in view["legal"] if normalise_action(a) != normalise_action(advice.action))
    worse = review(rules, view, other, seed=SEED)
    assert worse.best == advice.action and worse.loss >= 0 and worse.unit == "points"
    searched = {repr(normalise_action(a)): v for a, v in advice.estimates}
    if repr(normalise_action(other)) in searched:
        assert advice.value is not None
        assert worse.loss == round(max(0.0, advice.value - searched[repr(normalise_action(other))]), 2)


GAMES = [("draw", 2), ("block", 3), ("allfives", 2), ("texas42", 4), ("mexican_train", 4), ("chicken_foot", 3),
         ("fiveup", 3)]


def seen_tiles(view: dict[str, Any]) -> set[tuple[int, int]]:
    """The tiles a view shows: its hand and every tile on the table or in the log."""
    found: set[tuple[int, int]] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            if len(node) == 2 and all(type(x) is int and 0 <= x <= 18 for x in node):
                found.add((min(node), max(node)))
            for child in node:
                walk(child)

    walk(view)
    return found


def named_tiles(item: dict[str, Any]) -> set[tuple[int, int]]:
    """The tiles a review item names: its two moves and each "a|b" of its sentence."""
    tiles = {(min(t), max(t)) for key in ("played", "best") if (t := item[key].get("tile"))}
    return tiles | tiles_said(item["why"])


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_hands_review_prices_each_choice_from_the_seats_view_then(game: str, players: int) -> None:
    """The review of a whole hand: one item per decision of the seat with a choice, Hard's
    move legal there, the loss in the game's unit (0 where the seat played Hard's move), and
    nothing named that the seat could not see at that moment (the leak check of the
    conformance suite, over the review's replies)."""
    rules = get_rules(game)
    master = bytes([7]) * 32
    state = rules.new_match(players, {}, seed=master)
    rng = random.Random(5)
    actions: list[tuple[int, Any]] = []
    while (mover := rules.to_move(state)) is not None and rules.hand_index(state) == 0:
        action = rng.choice(rules.legal_actions(state))
        actions.append((mover, action))
        state = rules.advance(state, action)
    seat = 1
    items = review_hand(HandToReview(game, players, {}, master, actions, seat, 0), seed=SEED)
    replay = rules.new_match(players, {}, seed=master)
    choices: dict[int, dict[str, Any]] = {}
    for move, (mover, action) in enumerate(actions):
        view = rules.view(replay, seat)
        if mover == seat and len(view["legal"]) > 1:
            choices[move] = view
        replay = rules.apply(replay, action)
    assert [i["move"] for i in items] == list(choices)
    for item in items:
        view = choices[item["move"]]
        assert set(item) == {"hand", "move", "played", "best", "loss", "why", "unit", "facts"}
        assert sentence(item["facts"], item["unit"]) == item["why"]  # worded again, from its facts
        assert item["hand"] == 0 and item["unit"] == unit_of(view)
        assert normalise_action(item["best"]) in [normalise_action(a) for a in view["legal"]]
        assert item["loss"] >= 0 and item["why"].endswith(".")
        if normalise_action(item["best"]) == normalise_action(item["played"]):
            assert item["loss"] == 0
        hidden = named_tiles(item) - seen_tiles(view)
        assert not hidden, f"move {item['move']} names tiles the seat could not see: {sorted(hidden)}"


def test_a_review_asks_for_a_finished_hand() -> None:
    """The pairs of a hand still being played are no hand to review: the worker says so
    rather than reviewing half a hand."""
    rules = get_rules("draw")
    master = bytes([9]) * 32
    state = rules.new_match(2, {}, seed=master)
    played: list[tuple[int, Any]] = []
    for _ in range(3):
        mover = rules.to_move(state)
        assert mover is not None
        action = rules.legal_actions(state)[0]
        played.append((mover, action))
        state = rules.apply(state, action)
    with pytest.raises(ValueError, match="not among the 0 finished hands"):
        review_hand(HandToReview("draw", 2, {}, master, played, 0, 0), seed=SEED)


def _upper(message: str) -> str:
    """A "translation" that changes every word of a message and keeps its placeholders."""
    return "".join(part if part.startswith("%(") else part.upper()
                   for part in re.split(r"(%\(\w+\)s)", message))


def _facts_of_every_kind() -> list[tuple[dict[str, Any], str]]:
    """Facts that take each family's sentence through its clauses (as `facts_of` makes them)."""
    rng = random.Random(3)
    out: list[tuple[dict[str, Any], str]] = []
    ends = [None, "left", "right", "up", "down", "mexican", "train:2", "arm:1", "toe:0:2", "mine"]
    for i in range(400):
        game = GAMES[i % len(GAMES)][0]
        kind = rng.choice(["play", "play", "draw", "pass", "end_turn", "bid", "trump"])
        action: dict[str, Any] = {"type": kind}
        if kind == "play":
            action.update(tile=[rng.randint(0, 6), rng.randint(0, 6)], end=rng.choice(ends))
        elif kind == "bid":
            action["value"] = 30
        elif kind == "trump":
            action["suit"] = rng.choice([4, "doubles", "follow_me", "nello", "sevens"])
        facts: dict[str, Any] = {"game": game, "kind": kind, "action": action, "forced": i % 13 == 0,
                                 "own": "mine", "margin": rng.choice([0.0, 0.2, 1.0, 3.0]),
                                 "runner_up": {"type": "play", "tile": [1, 2], "end": rng.choice(ends)}}
        facts.update(ends_before=[2, 5], goes_out=i % 7 == 0, scored=rng.choice([0, 1, 10]),
                     ends=rng.choice([[], [3], [3, 4, 6]]), answers=rng.choice([0, 1, 3]),
                     shut_out={"1": [3, 4]}, pips=rng.choice([0, 1, 7]))
        if game == "texas42" and rng.random() < 0.5:
            facts.update(suit=4, held=rng.choice([1, 3]), has_double=rng.random() < 0.5,
                         other_doubles=rng.choice([0, 1, 2]))
        facts.update(count=rng.choice([0, 10]), leads=rng.random() < 0.3, wins_trick=rng.random() < 0.5,
                     trump=rng.choice([None, 4]), trumps_out=rng.choice([1, 4]),
                     voids={"2": ["3s", "trumps"]} if game == "texas42" else facts["shut_out"])
        facts.update(where=rng.choice(["own", "mexican", "other", "layout"]), plan_after=rng.choice([1, 4]),
                     open_double=rng.choice([None, 5]), pips_after=rng.choice([0, 1, 9]), open_trains=[0, 2])
        out.append((facts, rng.choice(["points", "marks"])))
    return out


def test_every_word_of_a_sentence_goes_through_the_translation_given() -> None:
    """Worded with another `gettext` and `ngettext`, no English word is left over: what is
    not a message is a name, a number, the tile notation or punctuation."""
    names = ["ann", "bob", "cy", "di"]
    for facts, unit in _facts_of_every_kind():
        english = sentence(facts, unit, names)
        other = sentence(facts, unit, names, gettext=_upper,
                         ngettext=lambda one, many, n: _upper(one if n == 1 else many))
        assert other.upper() == english.upper(), (english, other)
        left = re.sub(r"\b(ann|bob|cy|di)\b", "", other)
        assert not re.search(r"[a-z]", left), (english, other)
