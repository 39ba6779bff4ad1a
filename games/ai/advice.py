"""Advice from the Hard AI, for hints and reviews: its move for a seat's view, the estimate
of each candidate it searched, and one plain sentence of why.

Everything comes from the seat's view (exactly what the bots get) and a seed, so two states
that look the same to the seat get the same advice, and the same view and seed always give
the same advice. The estimates are Hard's own (`HardBot.scored`: the figures its search
computes to choose, kept instead of searched again); the sentence is filled in from facts
measured on the view, one template per game family and kind of move (`facts` and `sentence`
below), never text picked at random.

Units (docs/ai.md, "Advice"): Block, Draw, All Fives, Mexican Train and Chicken Foot in points
(the seat's side's expected margin over the others, as Hard's search counts it); Texas 42 in
marks (in points when the room scores points).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.ai import kit_for
from games.ai.hard import HardBot
from games.ai.inference import hand_of, line_hidden_hands, tile_of
from games.ai.policy import View, decision_rng
from games.ai.scored import Scored, only
from games.ai.search import determinize, my_side
from games.ai.texas42 import TRUMPS, follows, hidden_hands, is_trump, suit_strength, trump_of, winner_index
from games.ai.trains_policy import longest_chain
from games.core.actions import Action, normalise_action
from games.core.protocol import Rules
from games.core.tiles import Tile
from games.engine import get_rules
from games.replay import finished_hands

#: The seed advice uses when the caller gives none.
ADVICE_SEED = b"dominoes advice"

LINE_GAMES = ("block", "draw", "allfives")
TRAIN_GAMES = ("mexican_train", "chicken_foot")


@dataclass(frozen=True, slots=True)
class Advice:
    """Hard's move for a view, why, and what it estimated."""

    action: Action
    why: str
    #: The unit of `value` and `estimates`: "points" or "marks".
    unit: str
    #: Hard's estimate of its move; None when it had no choice.
    value: float | None
    #: Every action Hard searched, with its estimate, in the search's order.
    estimates: tuple[tuple[Action, float], ...]
    #: The measured facts the sentence was made from.
    facts: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Review:
    """One decision reviewed: Hard's move, the one played, and what the difference cost."""

    best: Action
    played: Action
    #: Hard's estimate of `best` less its estimate of `played`, never below 0 (0 when they agree).
    loss: float
    why: str
    unit: str
    #: The measured facts `why` was made from (`sentence` words them again in any language).
    facts: Mapping[str, Any] = field(default_factory=dict)


def unit_of(view: View) -> str:
    """"marks" for Texas 42 scored in marks, else "points"."""
    if view.get("game") == "texas42" and view.get("scoring") != "points":
        return "marks"
    return "points"


def advise(rules: Rules[object], view: View, *, seed: bytes = ADVICE_SEED,
           names: Sequence[str] | None = None) -> Advice:
    """Hard's move for `view` (the seat to move's own view), its estimates and why.

    `names` (by seat) name the other players in the sentence; without them "seat n".
    `ValueError` when the seat is not to move.
    """
    scored = _scored(rules, view, seed)
    action = dict(scored.choice)
    facts = facts_of(rules, view, action, scored, seed)
    value = None if len(scored.actions) == 1 else scored.values[scored.best]
    estimates = tuple((dict(a), v) for a, v in zip(scored.actions, scored.values, strict=True))
    return Advice(action, sentence(facts, unit_of(view), names), unit_of(view), value, estimates, facts)


def review(rules: Rules[object], view: View, played: Action, *, seed: bytes = ADVICE_SEED,
           names: Sequence[str] | None = None) -> Review:
    """`played` against Hard's move for `view`: the loss by Hard's estimate.

    When Hard's search did not value `played` (it searched only its best few), both moves are
    searched again on the same deals, from the same view with only those two legal.
    """
    advice = advise(rules, view, seed=seed, names=names)
    best = advice.action
    if normalise_action(best) == normalise_action(played):
        return Review(best, dict(played), 0.0, advice.why, advice.unit, advice.facts)
    searched = {repr(normalise_action(a)): v for a, v in advice.estimates}
    mine, theirs = searched.get(repr(normalise_action(best))), searched.get(repr(normalise_action(played)))
    if mine is None or theirs is None:
        pair = {**view, "legal": [best, dict(played)]}
        again = _scored(rules, pair, seed)
        mine, theirs = again.value_of(best), again.value_of(played)
    loss = 0.0 if mine is None or theirs is None else max(0.0, mine - theirs)
    return Review(best, dict(played), round(loss, 2), advice.why, advice.unit, advice.facts)


def _scored(rules: Rules[object], view: View, seed: bytes) -> Scored:
    bot = HardBot(rules.name, kit_for(rules.name), seed)
    try:
        return bot.scored(view)
    except ValueError:
        raise
    except Exception:  # a search that fails still gives the move a table would get
        return only(bot.choose(view))


# Facts -------------------------------------------------------------------------------

def facts_of(rules: Rules[object], view: View, action: Action, scored: Scored, seed: bytes) -> dict[str, Any]:
    """What the sentence says, measured on the view: per family, plus Hard's margin."""
    game = str(view.get("game") or rules.name)
    facts: dict[str, Any] = {"game": game, "kind": str(action["type"]), "action": dict(action),
                             "forced": len(scored.actions) == 1 and len(view.get("legal") or ()) == 1}
    if action.get("tile") is not None:
        facts["tile"] = list(tile_of(action["tile"]))
    if game in LINE_GAMES:
        facts.update(line_facts(rules, view, action, seed))
    elif game == "texas42":
        facts.update(texas42_facts(view, action))
    elif game in TRAIN_GAMES:
        facts.update(train_facts(view, action))
    elif game == "fiveup":
        facts.update(fiveup_facts(rules, view, action, seed))
    facts.update(margin_facts(scored))
    return facts




def fiveup_facts(rules: Rules[object], view: View, action: Action, seed: bytes) -> dict[str, Any]:
    """A Five-Up move: the count it leaves and the points it makes (claimed, where the muggins
    house rule asks for claims), whether it goes out, or the unclaimed points it takes.
    `end_values` names each open end by its number: the end ids are tile numbers, which
    mean nothing to a player."""
    facts: dict[str, Any] = {
        "ends_before": sorted(int(e["value"]) for e in view.get("ends") or ()),
        "end_values": {str(e["id"]): int(e["value"]) for e in view.get("ends") or ()},
    }
    if action["type"] == "muggins":
        facts["taken"] = int((view.get("unclaimed") or {}).get("points") or 0)
        return facts
    if action["type"] != "play":
        return facts
    tile = tile_of(action["tile"])
    facts["goes_out"] = len(hand_of(view)) == 1
    facts["pips"] = tile.pips
    claimed = {**action, "claim": True} if (view.get("options") or {}).get("muggins") else action
    state = determinize(rules, kit_for(rules.name), view, decision_rng(seed, view))
    after = rules.advance(state, claimed)
    side = my_side(view)
    if rules.hand_index(after) == int(view.get("hand_number") or 0) and rules.to_move(after) is not None:
        facts["count"] = int(rules.view(after, int(view["seat"])).get("count") or 0)
        facts["scored"] = int(rules.scores(after)[side]) - int((view.get("scores") or [0] * (side + 1))[side])
    return facts


def margin_facts(scored: Scored) -> dict[str, Any]:
    """How much better Hard's move is than the next best it searched, and which that is."""
    if len(scored.actions) < 2:
        return {}
    others = [i for i in range(len(scored.actions)) if i != scored.best]
    runner = max(others, key=lambda i: (scored.values[i], -i))
    return {"value": round(scored.values[scored.best], 2), "runner_up": dict(scored.actions[runner]),
            "margin": round(scored.values[scored.best] - scored.values[runner], 2)}


def line_voids(view: View) -> dict[int, list[int]]:
    """The numbers each other seat has shown it lacks (a pass or a draw on those ends)."""
    out: dict[int, list[int]] = {}
    for seat, hidden in line_hidden_hands(view).items():
        if not hidden.slots:
            continue
        lacking = sorted(n for n in range(int((view.get("options") or {}).get("set", 6)) + 1)
                         if all(n in slot for slot in hidden.slots))
        if lacking:
            out[seat] = lacking
    return out


def line_facts(rules: Rules[object], view: View, action: Action, seed: bytes) -> dict[str, Any]:
    """A line game's play: the ends it leaves, the tiles kept that answer them, the points it
    scores (All Fives), whether it goes out, and the voids of the others it plays into."""
    me = int(view["seat"])
    hand = hand_of(view)
    voids = line_voids(view)
    facts: dict[str, Any] = {"voids": {str(s): v for s, v in voids.items()},
                             "ends_before": sorted(int(e["value"]) for e in view.get("ends") or ())}
    if action["type"] != "play":
        return facts
    tile = tile_of(action["tile"])
    rest = [t for t in hand if t != tile]
    facts["goes_out"] = not rest
    facts["pips"] = tile.pips
    state = determinize(rules, kit_for(rules.name), view, decision_rng(seed, view))
    after = rules.advance(state, action)
    side = my_side(view)
    facts["scored"] = int(rules.scores(after)[side]) - int((view.get("scores") or [0] * (side + 1))[side])
    if rules.hand_index(after) != int(view.get("hand_number") or 0) or rules.to_move(after) is None:
        facts["ends"] = []
        facts["answers"] = 0
        facts["shut_out"] = {}
        return facts
    ends = sorted(int(e["value"]) for e in rules.view(after, me).get("ends") or ())
    facts["ends"] = ends
    facts["answers"] = sum(1 for t in rest if any(t.has(v) for v in set(ends)))
    teams = view.get("teams") or []
    partners = set(teams[side]) if teams else {me}
    facts["shut_out"] = {str(s): sorted(set(ends) & set(v)) for s, v in voids.items()
                         if s not in partners and set(ends) and set(ends) <= set(v)}
    return facts


def texas42_voids(view: View) -> dict[int, list[str]]:
    """The suits each other seat has shown it lacks (it did not follow them): the 42 kit's
    inference (`texas42.hidden_hands`), read back as suits."""
    trump = trump_of(view.get("trump"))
    every = [Tile(a, b) for a in range(7) for b in range(a, 7)]
    suits = [*range(7), TRUMPS] if trump is not None else list(range(7))
    out: dict[int, list[str]] = {}
    followers = {s: [t for t in every if follows(t, s, trump)] for s in suits}
    for seat, hidden in hidden_hands(view).items():
        lacking = [_suit_name(s) for s in suits
                   if followers[s] and all(t in hidden.banned for t in followers[s])]
        if lacking:
            out[seat] = sorted(lacking)
    return out


def _suit_name(suit: int) -> str:
    return "trumps" if suit == TRUMPS else f"{suit}s"


def texas42_facts(view: View, action: Action) -> dict[str, Any]:
    """42: for a bid or pass, the best suit and its trumps and doubles; for trumps, those of
    the suit named; for a play, whether it takes the trick so far, the count on it, the
    trumps still out and the suits the others have shown they lack."""
    hand = hand_of(view)
    facts: dict[str, Any] = {}
    kind = action["type"]
    if kind in ("bid", "pass"):
        suit = max(range(7), key=lambda s: (suit_strength(hand, s), -s))
        facts.update(_suit_facts(hand, suit))
        high = view.get("high_bid") or {}
        facts["high_bid"] = high.get("value")
        if kind == "bid":
            facts["bid"] = int(action["value"])
        return facts
    if kind == "trump":
        if isinstance(action.get("suit"), int):
            facts.update(_suit_facts(hand, int(action["suit"])))
        facts["named"] = action.get("suit")
        return facts
    trump = trump_of(view.get("trump"))
    tile = tile_of(action["tile"])
    trick = [(int(p["seat"]), tile_of(p["tile"])) for p in view.get("trick") or ()]
    played = [t for _, t in trick] + [tile]
    facts["wins_trick"] = winner_index(played, trump) == len(trick)
    facts["leads"] = not trick
    facts["count"] = sum(t.pips for t in played if t.pips in (5, 10))
    seen = {tile_of(e["tile"]) for e in view.get("log") or () if e.get("type") == "play"}
    every = [Tile(a, b) for a in range(7) for b in range(a, 7)]
    facts["trumps_out"] = sum(1 for t in every if is_trump(t, trump) and t not in seen and t not in hand)
    facts["trump"] = view.get("trump")
    facts["voids"] = {str(s): v for s, v in texas42_voids(view).items()}
    return facts


def _suit_facts(hand: Sequence[Tile], suit: int) -> dict[str, Any]:
    held = [t for t in hand if t.has(suit)]
    return {"suit": suit, "held": len(held), "has_double": Tile(suit, suit) in held,
            "other_doubles": sum(1 for t in hand if t.is_double and not t.has(suit))}


def train_facts(view: View, action: Action) -> dict[str, Any]:
    """Trains: where the tile goes, the train the hand can build on its own line, the other
    trains open to everyone, a double waiting to be answered, and the pips left in hand."""
    me = int(view["seat"])
    hand = hand_of(view)
    ends = list(view.get("ends") or ())
    facts: dict[str, Any] = {
        "open_trains": sorted(int(e["owner"]) for e in ends
                              if e.get("marker") and e.get("owner") is not None and e.get("owner") != me),
        "open_double": view.get("open_double"),
        "pips_before": sum(t.pips for t in hand),
    }
    own = next((e for e in ends if e.get("owner") == me), None)
    if own is not None:
        facts["own"] = str(own["id"])
        facts["plan"] = len(longest_chain(int(own["value"]), hand))
    if action["type"] != "play":
        return facts
    tile = tile_of(action["tile"])
    end = str(action.get("end") or "")
    facts["end"] = end
    facts["where"] = ("own" if own is not None and end == own["id"] else "mexican" if end == "mexican"
                      else "other" if end.startswith("train:") else "layout")
    facts["pips_after"] = facts["pips_before"] - tile.pips
    if own is not None and facts["where"] == "own":
        rest = [t for t in hand if t != tile]
        facts["plan_after"] = len(longest_chain(tile.other(int(own["value"])), rest)) + 1
    return facts


# Sentences ---------------------------------------------------------------------------
#
# Each clause is one message of the translation catalogs: `gettext("...%(x)s...") % {...}`
# with a literal message (extracted by name: the functions given are called `gettext` and
# `ngettext`), counts through `ngettext`. `games/` imports no Django: the defaults give the
# English, and the server passes its own translation functions to word the sentence in a
# reader's language (docs/translating.md).

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _same(message: str) -> str:
    return message


def _english_ngettext(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _tile(raw: Sequence[int]) -> str:
    return f"{raw[0]}|{raw[1]}"


def _who(seat: int | str, names: Sequence[str] | None, gettext: Gettext) -> str:
    s = int(seat)
    if names is not None and 0 <= s < len(names) and names[s]:
        return str(names[s])
    return gettext("seat %(number)s") % {"number": s + 1}


def _numbers(values: Sequence[Any], gettext: Gettext) -> str:
    items = [str(v) for v in values]
    if len(items) <= 1:
        return "".join(items)
    # Translators: the end of a list, "4, 5 and 6" (the items are numbers, names or suits).
    return gettext("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


def _by_seat(found: Mapping[str, Any] | None) -> list[tuple[str, Any]]:
    """A facts mapping keyed by seat, in seat order (as `facts_of` makes it; a store that
    orders object keys its own way gives it back the same)."""
    return sorted((found or {}).items(), key=lambda item: int(item[0]))


def _action_words(action: Action, own: str | None, gettext: Gettext,
                  end_values: Mapping[str, int] | None = None) -> str:
    """The action in words; `own` is the id of the seat's own train, if it has one, and
    `end_values` the number each end shows where the end ids are not words (Five-Up)."""
    kind = action["type"]
    if kind == "play":
        tile = _tile(tile_of(action["tile"]))
        end = action.get("end")
        if end_values and end is not None and str(end) in end_values:
            # Translators: Five-Up, a tile on an open end named by its number: "play 6|4 on the open 4".
            values = {"tile": tile, "number": end_values[str(end)]}
            return gettext("play %(tile)s on the open %(number)s") % values
        return _play_words(tile, end, own, gettext)
    if kind == "muggins":
        # Translators: Five-Up's muggins house rule: take the points the player before left unclaimed.
        return gettext("call muggins")
    if kind == "bid":
        return gettext("bid %(value)s") % {"value": action["value"]}
    if kind == "trump":
        suit = action["suit"]
        if isinstance(suit, int):
            # Translators: naming a suit trumps in Texas 42: "call 5s trumps" (the fives).
            return gettext("call %(number)ss trumps") % {"number": suit}
        named = {"doubles": gettext("call doubles"), "follow_me": gettext("call follow me"),
                 "nello": gettext("call nello"), "sevens": gettext("call sevens")}
        return named.get(str(suit)) or gettext("call %(name)s") % {"name": str(suit).replace("_", " ")}
    if kind == "draw":
        # Translators: an action, "draw" a tile from the boneyard (after "Hard rates it ... than").
        return gettext("draw")
    if kind == "pass":
        return gettext("pass")
    if kind == "end_turn":
        return gettext("end your turn")
    return str(kind)


def _play_words(tile: str, end: Any, own: str | None, gettext: Gettext) -> str:
    """Playing `tile` on end `end` (an end id of the view, or None for the lead)."""
    values = {"tile": tile}
    if end is None:
        return gettext("play %(tile)s") % values
    if end == own:
        return gettext("play %(tile)s on your own train") % values
    end = str(end)
    if end == "left":
        return gettext("play %(tile)s on the left end") % values
    if end == "right":
        return gettext("play %(tile)s on the right end") % values
    if end == "up":
        return gettext("play %(tile)s on the up end") % values
    if end == "down":
        return gettext("play %(tile)s on the down end") % values
    if end == "mexican":
        return gettext("play %(tile)s on the Mexican train") % values
    if end.startswith("train:"):
        return gettext("play %(tile)s on train %(number)s") % {**values, "number": int(end.split(":")[1]) + 1}
    parts = end.split(":")
    if parts[0] == "arm" and len(parts) == 2:
        # Translators: Chicken Foot, an arm of the lead double, numbered from 0.
        return gettext("play %(tile)s on arm %(arm)s") % {**values, "arm": parts[1]}
    if parts[0] == "toe" and len(parts) == 3:
        # Translators: Chicken Foot, a toe of a foot, both numbered from 0: "toe 1 2".
        return gettext("play %(tile)s on toe %(foot)s %(toe)s") % {**values, "foot": parts[1],
                                                                    "toe": parts[2]}
    return gettext("play %(tile)s on %(end)s") % {**values, "end": end.replace(":", " ")}


def amount(value: float, unit: str, gettext: Gettext = _same, ngettext: Ngettext = _english_ngettext) -> str:
    """A loss or a margin in words: "6 points", "0.4 marks" (marks to a tenth)."""
    if unit == "marks":
        return gettext("%(amount)s marks") % {"amount": f"{value:.1f}"}
    text = f"{value:.0f}"
    if unit == "points":
        return ngettext("%(amount)s point", "%(amount)s points", int(text)) % {"amount": text}
    return f"{text} {unit[:-1] if text == '1' else unit}"


def _margin(facts: Mapping[str, Any], unit: str, gettext: Gettext, ngettext: Ngettext) -> str:
    if "margin" not in facts:
        return ""
    margin = float(facts["margin"])
    runner = _action_words(facts["runner_up"], facts.get("own"), gettext, facts.get("end_values"))
    if margin < (0.05 if unit == "marks" else 0.5):
        return gettext("Hard rates it about even with %(move)s") % {"move": runner}
    return gettext("Hard rates it about %(amount)s better than %(move)s") % {
        "amount": amount(margin, unit, gettext, ngettext), "move": runner}


def sentence(facts: Mapping[str, Any], unit: str, names: Sequence[str] | None = None, *,
             gettext: Gettext = _same, ngettext: Ngettext = _english_ngettext) -> str:
    """The one sentence of why, from `facts_of`'s facts: a template per family and move kind.

    In English by default; `gettext` and `ngettext` (Django's, on the server) word it in the
    language they translate to. The facts are plain JSON, so a sentence can be worded again
    from stored facts for each reader."""
    action = facts["action"]
    head = _action_words(action, facts.get("own"), gettext, facts.get("end_values"))
    head = head[0].upper() + head[1:]
    if facts.get("forced"):
        return gettext("%(move)s: it is the only legal move.") % {"move": head}
    game = facts["game"]
    if game in LINE_GAMES:
        body = _line_words(facts, names, gettext, ngettext)
    elif game == "texas42":
        body = _texas42_words(facts, names, gettext, ngettext)
    elif game == "fiveup":
        body = _fiveup_words(facts, gettext, ngettext)
    else:
        body = _train_words(facts, names, gettext, ngettext)
    rating = _margin(facts, unit, gettext, ngettext)
    return f"{head}{': ' + body if body else ''}{'; ' + rating if rating else ''}."


def _line_words(facts: Mapping[str, Any], names: Sequence[str] | None, gettext: Gettext,
                ngettext: Ngettext) -> str:
    if facts["kind"] != "play":
        return gettext("no tile fits the open ends (%(ends)s)") % {
            "ends": _numbers(facts["ends_before"], gettext)}
    if facts.get("goes_out"):
        return gettext("it is your last tile, so you go out and win the hand")
    parts = []
    scored = int(facts.get("scored") or 0)
    if scored:
        parts.append(ngettext("it scores %(points)s point", "it scores %(points)s points", scored)
                     % {"points": scored})
    ends = sorted(set(facts.get("ends") or []))
    if ends:
        answers = int(facts.get("answers") or 0)
        if len(ends) == 1:
            values = {"end": ends[0], "count": answers}
            parts.append(ngettext(
                "it leaves %(end)s at every end and you keep %(count)s tile that can follow",
                "it leaves %(end)s at every end and you keep %(count)s tiles that can follow",
                answers) % values if answers
                         else gettext("it leaves %(end)s at every end and you keep none") % values)
        else:
            values = {"ends": _numbers(ends, gettext), "count": answers}
            parts.append(ngettext("it leaves %(ends)s open and you keep %(count)s tile that can follow",
                                  "it leaves %(ends)s open and you keep %(count)s tiles that can follow",
                                  answers) % values if answers
                         else gettext("it leaves %(ends)s open and you keep none") % values)
    for seat, numbers in _by_seat(facts.get("shut_out")):
        parts.append(gettext("%(name)s has shown no %(numbers)s to play on them") % {
            "name": _who(seat, names, gettext), "numbers": _numbers(numbers, gettext)})
    pips = int(facts.get("pips") or 0)
    if not parts and pips:
        parts.append(ngettext("it sheds %(pips)s pip", "it sheds %(pips)s pips", pips) % {"pips": pips})
    return ", ".join(parts)


def _fiveup_words(facts: Mapping[str, Any], gettext: Gettext, ngettext: Ngettext) -> str:
    kind = facts["kind"]
    if kind == "muggins":
        taken = int(facts.get("taken") or 0)
        return ngettext("the player before you left %(points)s point unclaimed",
                        "the player before you left %(points)s points unclaimed", taken) % {"points": taken}
    if kind != "play":
        return gettext("no tile fits the open ends (%(ends)s)") % {
            "ends": _numbers(facts["ends_before"], gettext)}
    if facts.get("goes_out"):
        return gettext("it is your last tile, so you go out and win the hand")
    if "count" not in facts:
        return ""
    count, scored = int(facts["count"]), int(facts.get("scored") or 0)
    if scored:
        return ngettext("it makes a count of %(count)s, which scores %(points)s point",
                        "it makes a count of %(count)s, which scores %(points)s points", scored) % {
            "count": count, "points": scored}
    return gettext("it leaves a count of %(count)s, which scores nothing") % {"count": count}


def _suit_words(name: str, gettext: Gettext) -> str:
    """A suit as `texas42_voids` names it: "trumps", or "5s" for the fives."""
    if name == "trumps":
        # Translators: Texas 42, the trump suit, as in "Ann showed out of 5s and trumps".
        return gettext("trumps")
    if name[:-1].isdigit():
        # Translators: Texas 42, a suit by its number: "5s" is the fives.
        return gettext("%(number)ss") % {"number": int(name[:-1])}
    return name


def _texas42_words(facts: Mapping[str, Any], names: Sequence[str] | None, gettext: Gettext,
                   ngettext: Ngettext) -> str:
    kind = facts["kind"]
    if kind in ("bid", "pass", "trump") and "suit" in facts:
        suit = facts["suit"]
        held = int(facts["held"])
        others = int(facts["other_doubles"])
        values = {"tiles": ngettext("%(count)s tile", "%(count)s tiles", held) % {"count": held},
                  "suit": suit, "double": f"{suit}|{suit}",
                  "doubles": ngettext("%(count)s other double", "%(count)s other doubles", others)
                  % {"count": others}}
        if facts.get("has_double"):
            # Translators: what a Texas 42 hand holds of a suit: "3 tiles with a 5, the 5|5 among
            # them, and 1 other double".
            holding = gettext(
                "%(tiles)s with a %(suit)s, the %(double)s among them, and %(doubles)s") % values
        else:
            holding = gettext("%(tiles)s with a %(suit)s, and %(doubles)s") % values
        said = {"suit": suit, "holding": holding}
        if kind == "bid":
            return gettext("your best trump suit is %(suit)ss: you hold %(holding)s") % said
        if kind == "pass":
            return gettext("your best trump suit is only %(suit)ss, where you hold %(holding)s") % said
        return gettext("you hold %(holding)s") % said
    if kind != "play":
        return ""
    parts = []
    count = {"count": facts.get("count")}
    if facts.get("leads"):
        parts.append(gettext("you lead, %(count)s count on the tile") % count if facts.get("count")
                     else gettext("you lead"))
    elif facts.get("wins_trick"):
        parts.append(gettext("it takes the trick so far, with %(count)s count in it") % count)
    else:
        parts.append(gettext("it does not take the trick, which holds %(count)s count") % count)
    if facts.get("trump") is not None:
        out = int(facts["trumps_out"])
        parts.append(ngettext("%(count)s trump still out", "%(count)s trumps still out", out)
                     % {"count": out})
    for seat, suits in _by_seat(facts.get("voids")):
        parts.append(gettext("%(name)s showed out of %(suits)s") % {
            "name": _who(seat, names, gettext),
            "suits": _numbers([_suit_words(str(s), gettext) for s in suits], gettext)})
    return ", ".join(parts)


def _train_words(facts: Mapping[str, Any], names: Sequence[str] | None, gettext: Gettext,
                 ngettext: Ngettext) -> str:
    kind = facts["kind"]
    parts = []
    if kind == "play":
        where = facts.get("where")
        if where == "own" and "plan_after" in facts:
            plan = int(facts["plan_after"])
            parts.append(ngettext(
                "it keeps your own train going, %(count)s tile long with what your hand can build",
                "it keeps your own train going, %(count)s tiles long with what your hand can build",
                plan) % {"count": plan})
        elif where == "own":
            parts.append(gettext("it builds your own train"))
        elif where == "mexican":
            parts.append(gettext("it saves your own train's tiles for later"))
        elif where == "other":
            parts.append(gettext("it plays on an open train and saves your own train's tiles"))
        if facts.get("open_double") is not None and where != "own":
            parts.append(gettext("a double was waiting for an answer"))
        pips = int(facts["pips_after"])
        parts.append(ngettext("%(pips)s pip stays in your hand", "%(pips)s pips stay in your hand", pips)
                     % {"pips": pips})
    elif kind == "draw":
        parts.append(gettext("no tile of yours fits where you may play"))
    elif kind == "pass":
        parts.append(gettext("you cannot play, so your train stays open to everyone"))
    elif kind == "end_turn":
        parts.append(gettext("no tile you hold goes further on your own train"))
    opened = facts.get("open_trains") or []
    if opened:
        # Translators: whose train: "Ann's" in "the open trains are Ann's and Bob's".
        owners = [gettext("%(name)s's") % {"name": _who(s, names, gettext)} for s in opened]
        parts.append(gettext("the open trains are %(owners)s") % {"owners": _numbers(owners, gettext)})
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class HandToReview:
    """One seat's finished hand to review, as plain data (a worker process may run it): the
    match's rules, its `master` seed, the `[seat, action]` pairs of the match from its start
    through at least the end of hand `hand` (`played`; later pairs are ignored), and the
    seats' names. The hands are cut from `played` by the worker, so the server process that
    queues a review only reads rows and never replays the match."""

    game: str
    players: int
    options: Mapping[str, Any]
    master: bytes
    played: Sequence[Sequence[Any]]
    seat: int
    hand: int
    names: Sequence[str] | None = None


def review_hand(job: HandToReview, *, seed: bytes = ADVICE_SEED) -> list[dict[str, Any]]:
    """Every decision of the seat with a choice in the hand, reviewed from its view then.

    The match is dealt from its master seed and replayed through the checked `apply`. Each
    item is `{"hand", "move", "played", "best", "loss", "why", "unit", "facts"}`, `move` the
    index of the action in the hand (the replay's position just before it), `why` in English
    and `facts` what it was made from, so a reader's language can word it again (`sentence`).
    A hand that `played` does not finish is a `ValueError`.
    """
    rules = get_rules(job.game)
    start = rules.new_match(job.players, dict(job.options), seed=job.master)
    hands, _ = finished_hands(rules, start, job.played, limit=job.hand + 1)
    if not 0 <= job.hand < len(hands):
        raise ValueError(f"hand {job.hand} is not among the {len(hands)} finished hands played")
    state = hands[job.hand].start
    out: list[dict[str, Any]] = []
    for move, (mover, action) in enumerate(hands[job.hand].actions):
        if mover == job.seat:
            view = rules.view(state, job.seat)
            if len(view.get("legal") or ()) > 1:
                done = review(rules, view, action, seed=seed, names=job.names)
                out.append({"hand": job.hand, "move": move, "played": done.played, "best": done.best,
                            "loss": done.loss, "why": done.why, "unit": done.unit,
                            "facts": dict(done.facts)})
        state = rules.apply(state, action)
    return out
