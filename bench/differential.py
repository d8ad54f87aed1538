"""A differential run: the same generated questions to two trees, every answer compared.

``record`` sends a deterministic stream of requests (from ``--seed``) to the app of the tree it
runs in, in process through Flask's test client on a temporary database, and writes each
answer (status code and body) as one canonical JSON line to a gzipped file. ``compare`` reads
two such files, from before and after a change, and prints what differs (exit 1 if anything):

    python bench/differential.py record before.jsonl.gz [--seed 19 --hands 100000 --checks 20000]
    python bench/differential.py compare before.jsonl.gz after.jsonl.gz

Only interfaces that stay put while the modules behind them are rewritten are used: the JSON API
(``POST /api/v1/score`` and ``POST /api/v1/check``, as ``docs/api.md`` documents them), and for
stored matches the import page, the no-JS match and hand forms, the live preview of each typed
hand (its whole fragment; every fifth also with a box typed wrong) and ``GET /api/v1/matches/<id>``.
The questions cover every preset, house-rule options, counted hands (card counts), going out and
going out concealed, impossible hands (so the problems are compared too), every question kind of
the checker (meld, initial meld, pickup with and without melds, going out, discard, wild cards
sent alone with ``onto``) and every shipped language (en, es, pt_BR, de) by Accept-Language.

Hands are sent as matches of up to 60 hands. A refused match is recorded, then sent again
without the hands its problems name, so most hands get a score as well as some a refusal; what
is sent next depends only on earlier answers, so two trees that agree send the same requests.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LANGUAGES = ("en", "es", "pt-BR", "de", "de-DE,de;q=0.9,en;q=0.5", "pt-br", "es-MX,es;q=0.8", "fr", "")
BOOL = (False, True)
CLASSIC_OPTIONS = {
    "target": "target",
    "decks": (2, 3, 4),
    "jokers_per_deck": (2, 3),
    "canastas_to_go_out": (1, 2, 3, 4),
    "harder_first_meld": BOOL,
    "tough_end": BOOL,
    "canasta_required_for_positive": BOOL,
    "wild_canasta": ("none", "1000", "palace"),
    "sequences": BOOL,
    "black_three_in_hand": (5, 100),
    "pile_always_frozen": BOOL,
    "pickup_with_wild": BOOL,
    "pickup_onto_canasta": BOOL,
    "max_wilds": (2, 3),
    "wilds_not_more_than_naturals": BOOL,
    "black_three_freezes": BOOL,
    "top_counts_for_minimum": BOOL,
    "restore_pile_penalty": (0, 5, 50, 100, 1000),
    "max_hands": (None, 1, 5, 30, 1000),
}
SAMBA_OPTIONS = {
    key: CLASSIC_OPTIONS[key]
    for key in (
        "target", "jokers_per_deck", "canastas_to_go_out", "black_three_in_hand", "pile_always_frozen",
        "max_wilds", "wilds_not_more_than_naturals", "black_three_freezes", "top_counts_for_minimum",
        "restore_pile_penalty", "max_hands",
    )
}  # fmt: skip
AMERICAN_OPTIONS = {key: CLASSIC_OPTIONS[key] for key in ("target", "canastas_to_go_out", "restore_pile_penalty")}
AMERICAN_OPTIONS["max_hands"] = CLASSIC_OPTIONS["max_hands"]
# docs/rules.md "Presets": sides, decks, the kinds each preset has and its house rules.
PRESETS: dict[str, dict[str, Any]] = {
    "classic": {"sides": 2, "decks": 2, "kinds": ("natural", "mixed"), "options": CLASSIC_OPTIONS},
    "classic-2p": {"sides": 2, "decks": 2, "kinds": ("natural", "mixed"), "options": CLASSIC_OPTIONS},
    "classic-3p": {"sides": 3, "decks": 2, "kinds": ("natural", "mixed"), "options": CLASSIC_OPTIONS},
    "classic-5p": {"sides": 2, "decks": 2, "kinds": ("natural", "mixed"), "options": CLASSIC_OPTIONS},
    "classic-6p-3x2": {"sides": 3, "decks": 3, "kinds": ("natural", "mixed"), "options": CLASSIC_OPTIONS},
    "classic-6p-2x3": {"sides": 2, "decks": 3, "kinds": ("natural", "mixed"), "options": CLASSIC_OPTIONS},
    "american": {
        "sides": 2,
        "decks": 2,
        "kinds": ("natural", "mixed", "sevens", "aces", "wild", "jokers", "twos"),
        "options": AMERICAN_OPTIONS,
    },
    "samba": {"sides": 2, "decks": 3, "kinds": ("natural", "mixed", "sequence"), "options": SAMBA_OPTIONS},
    "bolivia": {"sides": 2, "decks": 3, "kinds": ("natural", "mixed", "sequence", "wild"), "options": SAMBA_OPTIONS},
    "chile": {"sides": 2, "decks": 3, "kinds": ("natural", "mixed", "sequence", "wild"), "options": SAMBA_OPTIONS},
}
SPECIAL_HANDS = ("straight", "pairs", "pairs_wild", "garbage")
CARD_CLASSES = (
    ("joker", "2", "2", "A", "A", "A") + ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4") * 3 + ("black3",)
)
# The least points of cards each kind of canasta holds, roughly (a mixed canasta 50, a wild one 140 to 260).
LEAST_POINTS = {"natural": 40, "mixed": 50, "sequence": 50, "sevens": 35}
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("S", "H", "D", "C")
HAND_FIELD = re.compile(r"^hands\[(\d+)\]")


# --- hands --------------------------------------------------------------------------------


def choose_options(rng: random.Random, preset: str, long: bool) -> dict[str, Any]:
    """Some house rules of ``preset`` (a high target for a long match, so it is not over early)."""
    allowed = PRESETS[preset]["options"]
    options: dict[str, Any] = {}
    if rng.random() < 0.7:
        for key in rng.sample(sorted(allowed), rng.randint(1, min(5, len(allowed)))):
            values = allowed[key]
            options[key] = rng.choice((100, 1500, 5000, 30000, 100000)) if values == "target" else rng.choice(values)
    if long:
        options["target"] = 100000
    if options.get("max_hands") is not None and long:
        options["max_hands"] = 1000
    if rng.random() < 0.02:  # a house rule the preset does not have, or a value out of range
        options[rng.choice(("no_such_rule", "decks", "target", "sequences"))] = rng.choice((7, "x", -5, None))
    return options


def kinds_for(preset: str, options: dict[str, Any]) -> list[str]:
    """The canasta kinds a match of ``preset`` with ``options`` scores (docs/rules.md "House rules")."""
    kinds = list(PRESETS[preset]["kinds"])
    if options.get("sequences") is True:
        kinds.append("sequence")
    wild = options.get("wild_canasta")
    if wild == "1000":
        kinds.append("wild")
    elif wild == "palace":
        kinds += ["wild_big", "wild_small"]
    return kinds


def points(rng: random.Random, most: int) -> int:
    return 5 * rng.randint(0, most // 5)


def card_counts(rng: random.Random, cards: int) -> dict[str, int]:
    """About ``cards`` cards by class, as players count them (now and then by the K-8 and 7-4 groups)."""
    counts: Counter[str] = Counter()
    grouped = rng.random() < 0.3
    for _ in range(cards):
        card = rng.choice(CARD_CLASSES)
        if grouped and card in ("K", "Q", "J", "10", "9", "8"):
            card = "K-8"
        elif grouped and card in ("7", "6", "5", "4"):
            card = "7-4"
        counts[card] += 1
    return dict(sorted(counts.items()))


def side_entry(rng: random.Random, preset: str, kinds: list[str], went_out: bool) -> dict[str, Any]:
    """One side's ENTRY, mostly possible: canastas with the points they need, cards left, threes."""
    entry: dict[str, Any] = {}
    canastas = Counter(
        rng.choice(kinds[:2] if rng.random() < 0.8 else kinds) for _ in range(rng.choice((0, 0, 1, 1, 2, 2, 3)))
    )
    if went_out and sum(canastas.values()) < 2:
        canastas["natural"] += 2 - sum(canastas.values())
    if went_out and preset in ("bolivia", "chile") and "sequence" not in canastas:
        canastas["sequence"] = 1
    if canastas:
        entry["canastas"] = dict(sorted(canastas.items()))
    counted = rng.random() < 0.15
    if counted:
        entry["melded_cards"] = card_counts(rng, 7 * sum(canastas.values()) + rng.randint(0, 10))
        if not went_out:
            entry["hand_cards"] = card_counts(rng, rng.randint(0, 8))
    else:
        least = sum(LEAST_POINTS.get(kind, 260) * count for kind, count in canastas.items())
        entry["melded_points"] = least + points(rng, 150 if rng.random() < 0.9 else 800)
        if not went_out and rng.random() < 0.8:
            entry["hand_points"] = points(rng, 100)
    if went_out:
        entry["went_out"] = True
        if rng.random() < (0.15 if preset.startswith("classic") else 0.01):
            entry["concealed"] = True
    _extras(rng, preset, kinds, entry)
    return entry


def _extras(rng: random.Random, preset: str, kinds: list[str], entry: dict[str, Any]) -> None:
    """The fields only some presets read: black threes, special hands, unfinished melds, held sets."""
    if rng.random() < 0.1:
        entry["penalty_points"] = rng.choice((0, 50, 100, 500))
    if preset == "american":
        if rng.random() < 0.2:
            entry["black_threes"] = rng.randint(0, 2)
        if entry.get("went_out") and rng.random() < 0.08:
            entry["special_hand"] = rng.choice(SPECIAL_HANDS)
            for field in ("canastas", "melded_points", "melded_cards", "black_threes"):
                entry.pop(field, None)
        if rng.random() < 0.1:
            entry["incomplete"] = rng.sample(["sevens", "aces", "wild"], rng.randint(1, 2))
        if rng.random() < 0.1 and not entry.get("went_out"):
            held = rng.randint(1, 2)
            entry["held_sets"] = {rng.choice(("sevens", "aces")): held}
            _at_least(entry, 60 * held)
    elif preset in ("bolivia", "chile") or rng.random() < 0.05:
        if rng.random() < 0.3 and not entry.get("went_out"):
            entry["black_threes_in_hand"] = rng.randint(0, 3)
            _at_least(entry, 5 * entry["black_threes_in_hand"])
    if "wild_big" in kinds and rng.random() < 0.1:
        entry["incomplete"] = ["wild"]


def _at_least(entry: dict[str, Any], least: int) -> None:
    """Cards in hand worth at least ``least`` (unless they are counted by card)."""
    if "hand_cards" not in entry:
        entry["hand_points"] = max(entry.get("hand_points", 0), least)


def make_hand(rng: random.Random, preset: str, kinds: list[str], sides: int, decks: int) -> dict[str, Any]:
    """One hand: at most one side goes out, red threes shared out of those the decks hold."""
    out = rng.randrange(sides) if rng.random() < 0.85 else None
    entries = [side_entry(rng, preset, kinds, side == out) for side in range(sides)]
    for _ in range(rng.randint(0, 2 * decks)):
        side = rng.randrange(sides)
        entries[side]["red_threes"] = entries[side].get("red_threes", 0) + 1
    hand: dict[str, Any] = {"entries": entries}
    if preset == "classic-3p" and rng.random() < 0.6:
        hand["partnership"] = sorted(rng.sample(range(3), 2))
    if rng.random() < 0.07:
        spoil(rng, hand, kinds)
    return hand


SPOILERS = (
    ("melded_points", -5),
    ("melded_points", 7),
    ("hand_points", 12),
    ("red_threes", 13),
    ("went_out", "yes"),
    ("concealed", True),
    ("canastas", {"no_such_kind": 1}),
    ("canastas", {"natural": 40}),
    ("special_hand", "flush"),
    ("melded_cards", {"joker": 30}),
    ("hand_cards", {"K-8": 90, "7-4": 3}),
    ("melded_cards", {"K": 3, "K-8": 2}),
    ("surprise", 1),
    ("black_threes", -1),
    ("incomplete", ["sevens", "nothing"]),
    ("penalty_points", 3),
)


def spoil(rng: random.Random, hand: dict[str, Any], kinds: list[str]) -> None:
    """Make a hand impossible in one of the ways docs/rules.md "Impossible hands" names (or a malformed field)."""
    entries = hand["entries"]
    entry = rng.choice(entries)
    roll = rng.random()
    if roll < 0.15:
        for other in entries[:2]:
            other["went_out"] = True
    elif roll < 0.25:
        entry["melded_points"] = 0
        entry["canastas"] = {kinds[0]: 2}
    elif roll < 0.3:
        entries.append({})
    else:
        field, value = rng.choice(SPOILERS)
        entry[field] = value


# --- rules-check questions ----------------------------------------------------------------


def deck(decks: int, jokers: int) -> list[str]:
    cards = [rank + suit for rank in RANKS for suit in SUITS] * decks
    return cards + ["JK"] * (jokers * decks)


def spell(rng: random.Random, card: str) -> str:
    """A card as a player might type it: suit left off, lower case, ``T`` for ten, ``*`` for a joker."""
    if card == "JK":
        return rng.choice(("JK", "JK", "jk", "*"))
    rank, suit = card[:-1], card[-1]
    if rank != "3" and rng.random() < 0.3:
        suit = ""
    if rank == "10" and rng.random() < 0.2:
        rank = "T"
    text = rank + suit
    return text.lower() if rng.random() < 0.1 else text


def natural(card: str) -> bool:
    return card != "JK" and not card.startswith("2") and not card.startswith("3")


def rank_of(card: str) -> str:
    return "JK" if card == "JK" else card[:-1]


def group_melds(rng: random.Random, cards: list[str], max_melds: int = 3) -> list[list[str]]:
    """Melds made from ``cards``: naturals of a rank, now and then with a wild card or two."""
    by_rank: dict[str, list[str]] = {}
    wilds = [card for card in cards if not natural(card) and not card.startswith("3")]
    for card in cards:
        if natural(card):
            by_rank.setdefault(rank_of(card), []).append(card)
    melds = []
    for rank in sorted(by_rank, key=lambda r: (-len(by_rank[r]), r))[:max_melds]:
        meld = list(by_rank[rank])
        while wilds and (len(meld) < 3 or rng.random() < 0.3):
            meld.append(wilds.pop())
        if len(meld) >= 2 or rng.random() < 0.2:
            melds.append(meld)
    return melds


def sequence(rng: random.Random, pool: list[str]) -> list[str] | None:
    """A suit sequence (samba family, Palace) drawn out of ``pool``, when it holds one."""
    suit = rng.choice(SUITS)
    order = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    start = rng.randrange(len(order) - 3)
    run = [rank + suit for rank in order[start : start + rng.randint(3, 5)]]
    if all(card in pool for card in run):
        for card in run:
            pool.remove(card)
        return run
    return None


def check_question(rng: random.Random, index: int) -> dict[str, Any]:
    """One "Can I do this?" question: a position dealt from the preset's decks, one action."""
    preset = rng.choice(sorted(PRESETS))
    options = choose_options(rng, preset, long=False)
    options.pop("target", None)
    jokers = options.get("jokers_per_deck", 2) if isinstance(options.get("jokers_per_deck"), int) else 2
    decks = options.get("decks") if options.get("decks") in (2, 3, 4) else PRESETS[preset]["decks"]
    pool = deck(decks, jokers)
    rng.shuffle(pool)
    pool = [card for card in pool if not card.startswith("3") or rng.random() < 0.15]
    action = ("meld", "initial", "pickup", "go_out", "discard")[index % 5]
    body: dict[str, Any] = {"variant": preset, "action": "meld" if action == "initial" else action}
    if options:
        body["options"] = options
    hand = [pool.pop() for _ in range(rng.randint(1, 14))]
    table = [] if action == "initial" or rng.random() < 0.3 else group_melds(rng, [pool.pop() for _ in range(20)])
    table = [meld for meld in table if len(meld) >= 3]
    if table:
        body["table"] = table
    if rng.random() < 0.25:
        body["initial_meld_done"] = bool(table) if rng.random() < 0.7 else not table
    body["score"] = rng.choice((-200, 0, 0, 1200, 1500, 2995, 3000, 5000, 7000))
    QUESTIONS[action](rng, body, hand, pool)
    if rng.random() < 0.05:
        body["hand"] = [spell(rng, card) for card in hand] + [rng.choice(("3", "1X", "KK", "KS", "ZZ"))]
    else:
        body["hand"] = [spell(rng, card) for card in hand]
    body["melds"] = [[spell(rng, card) for card in meld] for meld in body.get("melds", [])] or body.get("melds")
    if body["melds"] is None:
        del body["melds"]
    return body


def _meld(rng: random.Random, body: dict[str, Any], hand: list[str], pool: list[str]) -> None:
    hand += [card for card in (pool.pop() for _ in range(rng.randint(0, 6)))]
    melds = group_melds(rng, hand, rng.randint(1, 3))
    run = sequence(rng, pool) if rng.random() < 0.2 else None
    if run:
        hand += run
        melds.append(run)
    wild = next((card for card in hand if card == "JK" or card.startswith("2")), None)
    if wild and body.get("table") and rng.random() < 0.3:
        melds = [meld for meld in melds if wild not in meld] + [[wild]]
        body["onto"] = {f"melds[{len(melds) - 1}]": f"table[{rng.randrange(len(body['table']))}]"}
    if rng.random() < 0.05 and melds:
        melds[0] = melds[0] + [pool.pop()]  # a card not in hand
    body["melds"] = melds


def _initial(rng: random.Random, body: dict[str, Any], hand: list[str], pool: list[str]) -> None:
    body["initial_meld_done"] = False if rng.random() < 0.9 else True
    hand += [pool.pop() for _ in range(rng.randint(3, 8))]
    body["melds"] = group_melds(rng, hand, rng.randint(1, 4))


def _pickup(rng: random.Random, body: dict[str, Any], hand: list[str], pool: list[str]) -> None:
    top = pool.pop()
    if rng.random() < 0.6:
        rank = rank_of(top)
        hand += [card for card in pool if rank_of(card) == rank][: rng.randint(1, 2)]
    size = rng.choice((1, 2, 5, 12, 30))
    body["pile"] = {"top": spell(rng, top), "frozen": rng.random() < 0.3, "size": size}
    if rng.random() < 0.5:
        melds = group_melds(rng, hand + [top], rng.randint(1, 3))
        if rng.random() < 0.1:
            melds = [meld for meld in melds if top not in meld]
        body["melds"] = melds


def take_rank(pool: list[str], count: int) -> list[str]:
    """``count`` natural cards of one rank out of ``pool`` (fewer if no rank has that many)."""
    ranks = Counter(rank_of(card) for card in pool if natural(card))
    rank = max(sorted(ranks), key=lambda r: ranks[r])
    cards = [card for card in pool if rank_of(card) == rank][:count]
    for card in cards:
        pool.remove(card)
    return cards


def _go_out(rng: random.Random, body: dict[str, Any], hand: list[str], pool: list[str]) -> None:
    """Going out: mostly a hand that melds whole, beside a canasta already down (or made now)."""
    if rng.random() < 0.7:
        hand.clear()
        melds = [take_rank(pool, rng.choice((3, 3, 4, 7))) for _ in range(rng.randint(1, 3))]
        hand += [card for meld in melds for card in meld]
        if rng.random() < 0.5:
            body["table"] = [take_rank(pool, 7) for _ in range(rng.randint(1, 2))] + body.get("table", [])
        left = [pool.pop()] if rng.random() < 0.7 else []
        hand += left
    else:
        melds = group_melds(rng, hand, 5)
        used = Counter(card for meld in melds for card in meld)
        left = list((Counter(hand) - used).elements())
    if left and rng.random() < 0.9:
        body["discard"] = left[0]
    body["melds"] = melds
    if rng.random() < 0.3:
        body["took_pile"] = rng.random() < 0.5
    if rng.random() < 0.2:
        body["stock_empty"] = True


def _discard(rng: random.Random, body: dict[str, Any], hand: list[str], pool: list[str]) -> None:
    card = rng.choice(hand) if rng.random() < 0.95 else pool.pop()
    body["discard"] = spell(rng, card)
    if rng.random() < 0.5:
        size = rng.choice((0, 0, 1, 7))
        body["pile"] = {"size": size} if size == 0 else {"top": spell(rng, pool.pop()), "size": size}
    if rng.random() < 0.2:
        body["stock_empty"] = True


QUESTIONS = {"meld": _meld, "initial": _initial, "pickup": _pickup, "go_out": _go_out, "discard": _discard}


# --- sending and recording ----------------------------------------------------------------


class Recorder:
    """Sends requests to one app and writes each answer as a canonical JSON line."""

    def __init__(self, out: Any, client: Any) -> None:
        self.out = out
        self.client = client
        self.count = 0
        self.kinds: Counter[str] = Counter()
        self.statuses: Counter[str] = Counter()

    def send(self, kind: str, method: str, path: str, language: str, headers: Any = None, **kwargs: Any) -> Any:
        headers = {**({"Accept-Language": language} if language else {}), **(headers or {})}
        response = self.client.open(path, method=method, headers=headers, **kwargs)
        return response

    def write(self, kind: str, language: str, request: Any, status: int, body: Any) -> None:
        line = {"n": self.count, "kind": kind, "lang": language, "request": request, "status": status, "body": body}
        self.out.write(canonical(line) + "\n")
        self.count += 1
        self.kinds[kind] += 1
        self.statuses[f"{kind} {status}"] += 1

    def post_json(self, kind: str, path: str, body: Any, language: str) -> tuple[int, Any]:
        response = self.send(kind, "POST", path, language, json=body)
        answer = response.get_json(silent=True)
        self.write(kind, language, body, response.status_code, answer if answer is not None else response.text)
        if kind == "score":
            self.statuses[f"hands sent {response.status_code}"] += len(body["hands"])
        return response.status_code, answer


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def refused_hands(answer: Any) -> set[int] | None:
    """The hands a refusal names, or None when a problem is not about one hand."""
    named = set()
    for error in (answer or {}).get("errors", []):
        found = HAND_FIELD.match(error.get("field") or "")
        if found is None:
            return None
        named.add(int(found.group(1)))
    return named or None


def score_matches(
    rng: random.Random, recorder: Recorder, total: int, keep: list[dict[str, Any]], keep_hands: int
) -> int:
    """Score ``total`` generated hands as matches; matches that end up scored go to ``keep``."""
    sent = 0
    batch = 0
    while sent < total:
        preset = rng.choice(sorted(PRESETS))
        size = min(total - sent, rng.choice((1, 2, 5, 10, 30, 60, 60, 60)))
        options = choose_options(rng, preset, long=size > 5)
        kinds = kinds_for(preset, options)
        decks = options.get("decks") if options.get("decks") in (2, 3, 4) else PRESETS[preset]["decks"]
        hands = [make_hand(rng, preset, kinds, PRESETS[preset]["sides"], decks) for _ in range(size)]
        body: dict[str, Any] = {"variant": preset, "hands": hands}
        if options:
            body["options"] = options
        if rng.random() < 0.1:
            body["starting_totals"] = [rng.choice((0, -150, 1200, 2500)) for _ in range(PRESETS[preset]["sides"])]
        language = LANGUAGES[batch % len(LANGUAGES)]
        scored = send_until_scored(recorder, body, language)
        if scored is not None and sum(len(m["hands"]) for m in keep) < keep_hands and scored["hands"]:
            keep.append(scored)
        sent += size
        batch += 1
    return batch


def send_until_scored(recorder: Recorder, body: dict[str, Any], language: str) -> dict[str, Any] | None:
    """Send a match; while it is refused for some of its hands, send it again without them."""
    for _attempt in range(6):
        status, answer = recorder.post_json("score", "/api/v1/score", body, language)
        if status == 200:
            return body
        named = refused_hands(answer) if status == 422 else None
        if not named:
            return None
        body = dict(body, hands=[hand for index, hand in enumerate(body["hands"]) if index not in named])
        if not body["hands"]:
            return None
    return None


def ask_checks(rng: random.Random, recorder: Recorder, total: int) -> None:
    for index in range(total):
        body = check_question(rng, index)
        recorder.post_json("check", "/api/v1/check", body, LANGUAGES[index % len(LANGUAGES)])


# --- stored matches -----------------------------------------------------------------------


def stored_matches(rng: random.Random, recorder: Recorder, matches: list[dict[str, Any]]) -> None:
    """Every other match imported whole, the others typed in hand by hand on the forms; each read back."""
    for number, match in enumerate(matches):
        language = LANGUAGES[number % len(LANGUAGES)]
        if number % 2 == 0:
            match_id = import_match(rng, recorder, match, language)
        else:
            match_id = type_match(recorder, match, language)
        if match_id is None:
            continue
        response = recorder.send("match", "GET", f"/api/v1/matches/{match_id}", language)
        recorder.write("match", language, number, response.status_code, stable_document(response.get_json(silent=True)))
        csv = recorder.send("match", "GET", f"/matches/{match_id}/export.csv", language)
        recorder.write("match-csv", language, number, csv.status_code, csv.text.replace(match_id, "<id>"))


def stable_document(document: Any) -> Any:
    """A match document without what differs between runs (its id, when it was made)."""
    if not isinstance(document, dict):
        return document
    document = dict(document)
    document.pop("id", None)
    document.pop("created", None)
    document["finished"] = document.get("finished") is not None
    return document


def import_match(rng: random.Random, recorder: Recorder, match: dict[str, Any], language: str) -> str | None:
    match_id = f"{rng.getrandbits(128):032x}"
    document = {
        "format": "scorepad-match",
        "format_version": 1,
        "id": match_id,
        "title": f"Differential {match_id[:6]}",
        "created": "2026-01-02T20:00:00+00:00",
        "variant": match["variant"],
        "options": match.get("options", {}),
        "sides": [
            {"name": f"Side {side + 1}", "players": [f"P{side}"]} for side in range(len(match["hands"][0]["entries"]))
        ],
        "starting_totals": match.get("starting_totals"),
        "hands": match["hands"],
    }
    data = {"file": (_bytes(document), "match.json")}
    response = recorder.send("import", "POST", "/import", language, data=data, content_type="multipart/form-data")
    recorder.write("import", language, match_id, response.status_code, response.headers.get("Location"))
    return match_id if response.status_code in (302, 303) else None


def _bytes(document: dict[str, Any]) -> Any:
    import io

    return io.BytesIO(json.dumps(document).encode())


FORM_CLASSES = {"joker": "joker", "2": "two", "A": "ace", "black3": "black3", "7-4": "low"}
FORM_CLASSES.update({rank: "high" for rank in ("K", "Q", "J", "10", "9", "8", "K-8")})
FORM_CLASSES.update({rank: "low" for rank in ("7", "6", "5", "4")})
FORM_FIELDS = {"melded_points", "hand_points", "red_threes", "penalty_points", "canastas", "went_out", "concealed"}


def type_match(recorder: Recorder, match: dict[str, Any], language: str) -> str | None:
    """A match started on the new-match form and its hands typed in on the hand form.

    Hands the plain form cannot hold (a partnership, special hands, threes beyond red ones) are left out.
    """
    form = {"title": "Typed", "option_target": "100000", "option_canastas_to_go_out": "1"}
    form.update({"option_restore_pile_penalty": "0"})
    for key, value in match.get("options", {}).items():
        if key != "target" and value is not None and value is not False:
            form[f"option_{key}"] = "y" if value is True else str(value)
    response = recorder.send("form", "POST", f"/matches/new/{match['variant']}", language, data=form)
    location = response.headers.get("Location", "")
    recorder.write("form-new", language, form, response.status_code, bool(location))
    if not location:
        return None
    match_id = location.rstrip("/").rsplit("/", 1)[-1]
    version = 1
    for number, hand in enumerate(match["hands"]):
        if "partnership" in hand or any(
            set(entry) - FORM_FIELDS - {"melded_cards", "hand_cards"} for entry in hand["entries"]
        ):
            continue
        fields = {"version": str(version), "submission": f"s{number}"}
        for side, entry in enumerate(hand["entries"]):
            fields.update(form_fields(side, entry))
        preview(recorder, match_id, number, fields, language)
        response = recorder.send("form", "POST", f"/matches/{match_id}/hands", language, data=fields)
        recorder.write("form-hand", language, fields, response.status_code, response.status_code == 303)
        version += response.status_code == 303
    return match_id


# Boxes typed wrong, one in turn per previewed hand: not a number, far too large, out of range,
# a decimal, a negative count (each box says what it takes).
MISTYPED = (
    {"sides-0-melded_points": "abc"},
    {"sides-1-hand_points": "9" * 40},
    {"sides-1-red_threes": "13"},
    {"sides-0-melded_joker": "2.5"},
    {"sides-1-penalty_points": "-5"},
)


def preview(recorder: Recorder, match_id: str, number: int, fields: dict[str, str], language: str) -> None:
    """The live preview of a typed hand (its whole fragment), and every fifth one mistyped as well."""
    url = f"/matches/{match_id}/hands/preview"
    asked = [fields]
    if number % 5 == 0:
        asked.append({**fields, **MISTYPED[(number // 5) % len(MISTYPED)]})
    if number == 1:
        asked.append({**fields, "version": "1"})
        url_of = {id(asked[-1]): f"{url}?number=1"}
    else:
        url_of = {}
    for data in asked:
        path = url_of.get(id(data), url)
        response = recorder.send("preview", "POST", path, language, data=data, headers={"HX-Request": "true"})
        recorder.write("preview", language, [path.rsplit("/", 1)[-1], data], response.status_code, response.text)


def form_fields(side: int, entry: dict[str, Any]) -> dict[str, str]:
    """One side of a hand as the hand form's fields (card counts in its counters)."""
    fields: dict[str, str] = {}
    for name in ("melded_points", "hand_points", "red_threes", "penalty_points"):
        if entry.get(name):
            fields[f"sides-{side}-{name}"] = str(entry[name])
    for pile in ("melded", "hand"):
        counts: Counter[str] = Counter()
        for card, count in (entry.get(f"{pile}_cards") or {}).items():
            counts[FORM_CLASSES[card]] += count
        fields.update({f"sides-{side}-{pile}_{name}": str(count) for name, count in counts.items()})
    for kind, count in (entry.get("canastas") or {}).items():
        fields[f"sides-{side}-canasta_{kind}"] = str(count)
    for flag in ("went_out", "concealed"):
        if entry.get(flag):
            fields[f"sides-{side}-{flag}"] = "y"
    return fields


# --- the commands -------------------------------------------------------------------------


def record(path: Path, seed: int, hands: int, checks: int, stored: int) -> Counter[str]:
    from scorepad import create_app

    with tempfile.TemporaryDirectory() as folder:
        config = {"TESTING": True, "DATABASE": str(Path(folder) / "diff.db"), "SECRET_KEY": "differential"}
        app = create_app(dict(config, WTF_CSRF_ENABLED=False))
        with gzip.open(path, "wt", encoding="utf-8", compresslevel=5) as out:
            recorder = Recorder(out, app.test_client())
            rng = random.Random(seed)
            variants = recorder.send("variants", "GET", "/api/v1/variants", "en")
            recorder.write("variants", "en", None, variants.status_code, variants.get_json())
            keep: list[dict[str, Any]] = []
            score_matches(rng, recorder, hands, keep, stored)
            ask_checks(random.Random(seed + 1), recorder, checks)
            stored_matches(random.Random(seed + 2), recorder, _cut(keep, stored))
    return recorder.statuses


def _cut(matches: list[dict[str, Any]], most: int) -> list[dict[str, Any]]:
    """The kept matches, the last cut so they hold ``most`` hands in all."""
    kept, room = [], most
    for match in matches:
        if room <= 0:
            break
        kept.append(dict(match, hands=match["hands"][:room]))
        room -= len(kept[-1]["hands"])
    return kept


def read_lines(path: Path) -> Iterator[str]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        yield from (line.rstrip("\n") for line in lines)


def first_difference(a: Any, b: Any, where: str = "") -> str:
    """The path of the first place two JSON values differ, with both values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key, "<missing>") != b.get(key, "<missing>"):
                return first_difference(a.get(key, "<missing>"), b.get(key, "<missing>"), f"{where}.{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{where}[{index}]")
    return f"{where or '.'}: {json.dumps(a, ensure_ascii=False)[:300]} != {json.dumps(b, ensure_ascii=False)[:300]}"


def compare(a: Path, b: Path, show: int = 10, out: Any = None) -> int:
    """Print how many answers each file holds and where they differ; the number of differences."""
    out = out or sys.stdout
    counts: Counter[str] = Counter()
    differ: Counter[str] = Counter()
    shown = 0
    for left, right in itertools.zip_longest(read_lines(a), read_lines(b)):
        if left == right:
            counts[json.loads(left)["kind"]] += 1
            continue
        one, two = json.loads(left) if left else {}, json.loads(right) if right else {}
        kind = one.get("kind") or two.get("kind")
        counts[kind] += 1
        differ[kind] += 1
        if shown < show:
            shown += 1
            request = canonical(one.get("request", two.get("request")))
            print(f"#{one.get('n', two.get('n'))} {kind} [{one.get('lang', two.get('lang'))}]", file=out)
            print(f"  request: {request[:400]}", file=out)
            print(f"  {first_difference(one, two)}", file=out)
    for kind in sorted(counts):
        print(f"{kind}: {counts[kind]} answers, {differ[kind]} differ", file=out)
    total = sum(differ.values())
    print("no differences" if not total else f"{total} answers differ", file=out)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record", help="send the generated questions, write the answers")
    rec.add_argument("out", type=Path)
    rec.add_argument("--seed", type=int, default=19)
    rec.add_argument("--hands", type=int, default=100_000)
    rec.add_argument("--checks", type=int, default=20_000)
    rec.add_argument("--stored", type=int, default=2_000, help="hands stored in matches and read back")
    cmp = commands.add_parser("compare", help="compare two recordings")
    cmp.add_argument("a", type=Path)
    cmp.add_argument("b", type=Path)
    cmp.add_argument("--show", type=int, default=10)
    args = parser.parse_args(argv)
    if args.command == "compare":
        return 1 if compare(args.a, args.b, args.show) else 0
    started = time.perf_counter()
    statuses = record(args.out, args.seed, args.hands, args.checks, args.stored)
    for key, count in sorted(statuses.items()):
        print(f"{key}: {count}")
    answers = sum(count for key, count in statuses.items() if not key.startswith("hands"))
    print(f"{answers} answers in {time.perf_counter() - started:.0f} s to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
