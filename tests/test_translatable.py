"""Every message the converted core modules show players is a translatable whole (issue 12).

An AST check reads the modules: what a ``Violation``, a checker ``Finding``, a ``CardError`` or
a verdict's reasons say must be made by ``t`` / ``tn`` / ``tp`` (directly, through a constant or
a helper), never an f-string, a bare literal, a concatenation or a ``join`` / ``format`` /
``replace`` of English words; and every ``t`` / ``tn`` / ``tp`` call names its message as a
literal, so pybabel can extract it. A run of the checker then confirms what the AST says: every
reason and problem it gives back is a ``Text`` that renders to its own English.
"""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

import pytest

from scorepad import canasta
from scorepad.canasta import InvalidError
from scorepad.canasta.plays import check_request
from scorepad.canasta.text import Text

CORE = Path(__file__).parents[1] / "scorepad" / "canasta"
CONVERTED = sorted(CORE.rglob("*.py"))  # every module of the rules core
MAKERS = {"t": 1, "tn": 2, "tp": 2}  # how many leading arguments are message literals
# Where messages go: the callee, and the positional index and keyword name of each message it takes.
MESSAGE_ARGUMENTS = {
    "Violation": ((1, "message"),),
    "Finding": ((1, "text"),),
    "CardError": ((0, "message"),),
    "OptionValueError": ((0, "message"),),
    "Part": ((1, "label"),),  # a line of a side's score
    "CanastaKind": ((1, "label"),),
    "Option": ((1, "label"), (2, "help")),
    "Variant": ((1, "name"), (2, "summary"), (5, "side_names")),
}
# dataclasses.replace(finding, text=...), replace(verdict, reasons=...), replace(CLASSIC, name=...)
REPLACED = ("text", "reasons", "name", "summary", "side_names", "label", "help")
STRING_METHODS = {"join", "format", "format_map", "replace", "lower", "upper", "capitalize", "title", "strip"}
ENGLISH_CALLS = {"str", "repr", "format"}


def _callee(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _assignments(scope: ast.AST) -> dict[str, list[ast.expr]]:
    """Every value assigned to each plain name in ``scope`` (not inside nested functions)."""
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(node.value)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            if node.value is not None:
                found.setdefault(node.target.id, []).append(
                    node.value if isinstance(node, ast.AnnAssign) else ast.BinOp(node.target, node.op, node.value)
                )
    return found


def _untranslated(expr: ast.expr, names: dict[str, list[ast.expr]], seen: frozenset[str] = frozenset()) -> str | None:
    """Why ``expr`` is not a translatable message, or None when it is."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return f"a plain string {expr.value!r}"
    if isinstance(expr, ast.JoinedStr):
        return "an f-string"
    if isinstance(expr, ast.BinOp):
        return "text glued with an operator"
    if isinstance(expr, ast.Call):
        name = _callee(expr)
        if isinstance(expr.func, ast.Attribute) and name in STRING_METHODS:
            return f"a str.{name}() of English text"
        if isinstance(expr.func, ast.Name) and name in ENGLISH_CALLS:
            return f"{name}() of a value"
        return None
    if isinstance(expr, ast.IfExp):
        return _untranslated(expr.body, names, seen) or _untranslated(expr.orelse, names, seen)
    if isinstance(expr, ast.Tuple):
        for element in expr.elts:
            inner = element.value if isinstance(element, ast.Starred) else element
            if not isinstance(element, ast.Starred) and (why := _untranslated(inner, names, seen)):
                return why
        return None
    if isinstance(expr, ast.Name) and expr.id not in seen:
        for value in names.get(expr.id, []):
            if why := _untranslated(value, names, seen | {expr.id}):
                return f"{expr.id} = {why}"
    return None  # names from parameters, attributes (finding.text, error.message), constants' lookups


def message_problems(source: str, filename: str = "<source>") -> list[str]:
    """Every English-only message and every non-literal message id in ``source``."""
    tree = ast.parse(source)
    module_names = _assignments(tree)
    problems = []
    scopes = [tree] + [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.Lambda))]
    for scope in scopes:
        names = {**module_names, **_assignments(scope)} if scope is not tree else module_names
        body = scope.body if isinstance(scope, (ast.Module, ast.FunctionDef)) else [scope.body]
        for node in (n for statement in body for n in ast.walk(statement)):
            if not isinstance(node, ast.Call):
                continue
            where = f"{filename}:{node.lineno}"
            name = _callee(node)
            messages = []
            if name in MESSAGE_ARGUMENTS:
                for index, keyword in MESSAGE_ARGUMENTS[name]:
                    if len(node.args) > index:
                        messages.append(node.args[index])
                    messages += [k.value for k in node.keywords if k.arg == keyword]
            elif name == "replace":
                messages += [k.value for k in node.keywords if k.arg in REPLACED]
            elif name in MAKERS:
                literals = node.args[: MAKERS[name]]
                if len(literals) < MAKERS[name] or not all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in literals
                ):
                    problems.append(f"{where}: {name}() needs its message as a literal, for pybabel")
                for keyword in node.keywords:
                    if isinstance(keyword.value, ast.JoinedStr) or (
                        isinstance(keyword.value, ast.Constant)
                        and isinstance(keyword.value.value, str)
                        and any(c.isalpha() for c in keyword.value.value)
                    ):
                        problems.append(f"{where}: {name}() parameter {keyword.arg} is English text, not a message")
            for message in messages:
                if why := _untranslated(message, names):
                    problems.append(f"{where}: {name}() is given {why}")
    return sorted(set(problems))


@pytest.mark.parametrize("path", CONVERTED, ids=lambda path: str(path.relative_to(CORE)))
def test_every_message_in_the_module_is_translatable(path):
    assert message_problems(path.read_text(), path.name) == []


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ('Finding("meld", f"%(cards)s is a meld.", True)', "an f-string"),
        ('Violation("x", "Pick a card.", "field")', "a plain string 'Pick a card.'"),
        ('text = "Pick " + what\nViolation("x", text, "field")', "text = text glued with an operator"),
        ('CardError("{} is no card".format(text))', "a str.format() of English text"),
        ('replace(verdict, reasons=("No way.", *verdict.reasons))', "a plain string 'No way.'"),
        ('replace(f, text=f.text.replace("one ", "the "))', "a str.replace() of English text"),
        ('Violation("x", str(error), "card")', "str() of a value"),
        ('Finding("x", "a" if y else t("b"))', "a plain string 'a'"),
        ('Part("going_out", "Going out", 100)', "a plain string 'Going out'"),
        ('Part(f"canastas.%(kind)s", f"%(label)s × %(count)s", bonus * count)', "an f-string"),
        ('Option("decks", t("Decks"), "Packs in play.", int)', "a plain string 'Packs in play.'"),
        ('CanastaKind("natural", "Natural canasta", 500, 35)', "a plain string 'Natural canasta'"),
        ('replace(CLASSIC, name="Samba", summary=t("Four players."))', "a plain string 'Samba'"),
        ('WE = ("We", tp("side", "They"))\nVariant(key="x", side_names=WE)', "WE = a plain string 'We'"),
        ('raise OptionValueError(f"{option.label} is true or false.")', "an f-string"),
    ],
)
def test_the_check_finds_an_english_only_message(source, why):
    (problem,) = message_problems(source)
    assert problem.endswith(why)


@pytest.mark.parametrize(
    "source",
    [
        "t(f'{n} kings')",
        "t(message)",
        "tn('one king', plural, n)",
        "tp('count')",
        "t('%(cards)s and %(more)s', more='and a joker')",
    ],
)
def test_the_check_finds_a_message_pybabel_cannot_read(source):
    assert len(message_problems(source)) == 1


def test_translated_messages_pass_the_check():
    source = (
        'NO_WAY = t("No way.")\n'
        "def f(verdict, cards, n):\n"
        '    text = tn("one card", "%(count)s cards", n, count=number(n)) if n else NO_WAY\n'
        '    Finding("x", text, False)\n'
        '    Violation("x", t("On the table: %(reason)s", reason=verdict.text), "table[0]")\n'
        "    replace(verdict, reasons=(NO_WAY, *verdict.reasons))\n"
    )
    assert message_problems(source) == []


# --- the checker, run: what the AST promises ------------------------------------------------
REQUESTS = [
    {"action": "pickup", "hand": ["K", "K", "Q", "Q", "2C"], "pile": {"top": "K"}},
    {"action": "pickup", "hand": ["K", "Q", "J", "5", "JK"], "pile": {"top": "Q", "frozen": True}, "score": 1500},
    {"action": "pickup", "hand": ["5", "6"], "pile": {"top": "2C"}},
    {"action": "pickup", "hand": ["K", "2"], "pile": {"top": "K"}, "table": [["K"] * 5], "stock_empty": True},
    {"variant": "samba", "action": "pickup", "hand": ["K", "2"], "pile": {"top": "K"}, "table": [["K"] * 7]},
    {"action": "meld", "hand": ["K", "K", "K", "5", "6"], "melds": [["K", "K", "K"]]},
    {"action": "meld", "hand": ["K", "2", "JK", "2", "5"], "melds": [["K", "2", "JK", "2"]]},
    {"action": "meld", "hand": ["K", "Q", "J", "5"], "melds": [["K", "Q", "J"]]},
    {"variant": "samba", "action": "meld", "hand": ["5H", "7H", "2", "8S"], "melds": [["5H", "7H", "2", "8S"]]},
    {"variant": "american", "action": "meld", "hand": ["7", "7", "2", "A"], "melds": [["7", "7", "2"]]},
    {"action": "meld", "hand": ["3S", "3C", "3S", "K"], "melds": [["3S", "3C", "3S"]]},
    {"action": "go_out", "hand": ["K", "K", "K", "5"], "melds": [["K", "K", "K"]], "discard": "5"},
    {"action": "go_out", "hand": ["5"], "table": [["K"] * 7, ["Q"] * 6 + ["2"]], "discard": "5"},
    {"action": "go_out", "hand": ["Q", "Q", "Q", "Q", "Q", "Q", "Q", "3H"], "melds": [["Q"] * 7]},
    {"action": "discard", "hand": ["K", "2"], "discard": "2"},
    {"action": "discard", "hand": ["3S", "K"], "discard": "3S"},
    {"variant": "american", "action": "discard", "hand": ["A", "K"], "discard": "A", "table": [["Q"] * 3]},
    {"action": "discard", "hand": ["5"], "discard": "5", "table": [["K"] * 4]},
]
INVALID = [
    {"action": "fly", "hand": "K", "pile": [], "bogus": 1},
    {"action": "meld", "hand": ["K", "3"], "melds": [[]], "score": "x", "took_pile": 2},
    {"action": "meld", "hand": ["JK"] * 5, "melds": [["Q", "Q", "Q"]], "table": [["K", "K", "K"], ["K", "K", "K"]]},
    {"action": "discard", "hand": ["K"], "discard": "Q", "pile": {"size": 0, "top": "K"}},
    ["not an object"],
]


def _english(message: object) -> None:
    assert isinstance(message, Text), message
    assert message.render(gettext.NullTranslations()) == message


@pytest.mark.parametrize("request_body", REQUESTS)
def test_every_reason_the_checker_gives_is_a_message(request_body):
    verdict = check_request(request_body)
    assert verdict.reasons
    for reason in verdict.reasons:
        _english(reason)
    for problem in verdict.problems:
        _english(problem.message)


@pytest.mark.parametrize("request_body", INVALID)
def test_every_problem_with_a_check_request_is_a_message(request_body):
    with pytest.raises(InvalidError) as error:
        check_request(request_body)
    for problem in error.value.violations:
        _english(problem.message)


def test_match_problems_are_messages():
    # Classic: 4800 + natural canasta 500 + going out 100 + 120 melded reaches the target of 5000.
    hand = {"entries": [{"melded_points": 120, "canastas": {"natural": 1}, "went_out": True}, {"hand_points": 20}]}
    cases = [
        ([hand, hand, hand], [4800, 0], "The game ended after hand 1; hands 2 to 3 cannot be added."),
        ([hand, hand], [4800, 0], "The game ended after hand 1; hand 2 cannot be added."),
        ([hand], [0], "Starting totals are 2 whole numbers, one per side."),
        ([hand], [5, 6], "Starting totals are multiples of 5, like every score."),
        ([hand], [6000, 0], "A starting total has already reached the target of 5000: that game is over."),
        ([hand], "4800", "Starting totals are a list, one per side."),
        ("hands", None, "Hands are a list."),
    ]
    for hands, starting, english in cases:
        with pytest.raises(InvalidError) as error:
            canasta.score_match("classic", hands, starting_totals=starting)
        (problem,) = error.value.violations
        assert problem.message == english
        _english(problem.message)


# --- entries, scoring and variants, run -------------------------------------------------------
def _score_labels(key, hand, options=None):
    result = canasta.score_match(key, [hand], options)
    return [part.label for side in result.results[0].sides for part in side.parts]


@pytest.mark.parametrize(
    ("key", "hand", "options"),
    [
        ("classic", {"entries": [{"melded_points": 420, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 1,
                                  "went_out": True, "concealed": True}, {"melded_points": 0, "hand_points": 65,
                                  "red_threes": 1, "penalty_points": 100}]}, None),
        ("classic", {"entries": [{"melded_points": 600, "canastas": {"natural": 1, "mixed": 1}, "went_out": True},
                                 {"melded_points": 400, "canastas": {"wild_small": 1}, "red_threes": 2}]},
         {"wild_canasta": "palace", "tough_end": True, "canasta_required_for_positive": True,
          "restore_pile_penalty": 50}),
        ("american", {"entries": [{"special_hand": "straight"}, {"melded_points": 300, "hand_points": 250,
                                  "canastas": {"mixed": 1}, "red_threes": 1, "black_threes": 3,
                                  "incomplete": ["sevens"], "held_sets": {"aces": 1}}]}, None),
        ("bolivia", {"entries": [{"melded_points": 500, "canastas": {"sequence": 1, "natural": 1},
                                 "went_out": True}, {"hand_points": 30, "black_threes_in_hand": 1,
                                 "restored_piles": 1}]}, {"restore_pile_penalty": 50}),
    ],
)  # fmt: skip
def test_every_label_of_a_score_is_a_message(key, hand, options):
    labels = _score_labels(key, hand, options)
    assert len(labels) >= 5
    for label in labels:
        _english(label)


def test_every_variant_kind_and_option_speaks_in_messages():
    for variant in canasta.VARIANTS.values():
        for text in (variant.name, variant.summary, *variant.side_names):
            _english(text)
        for kind in variant.canasta_kinds.values():
            _english(kind.label)
        for option_id in variant.option_ids:
            option = variant.option_spec(option_id)
            _english(option.label)
            _english(option.help)


@pytest.mark.parametrize(
    "hand",
    [
        {"entries": [{"melded_points": 12, "red_threes": -1, "went_out": "yes", "canastas": {"natural": 1.5}},
                     {"bogus": 1, "melded_cards": {"zz": 1}, "melded_points": 50}], "extra": 1},
        {"entries": [{"melded_points": 50, "canastas": {"sevens": 1, "bogus": 1}, "incomplete": ["sevens", "x"],
                      "went_out": True, "hand_points": 5, "special_hand": "nope", "held_sets": {"kings": 3}},
                     {"red_threes": 4, "black_threes": 2, "concealed": True, "went_out": True}]},
        {"entries": [{}, {}], "partnership": [0, 1]},
        {"entries": [{}]},
    ],
)  # fmt: skip
def test_every_problem_with_a_hand_is_a_message(hand):
    try:
        read = canasta.Hand.from_dict(hand)
    except InvalidError as error:
        problems = error.violations
    else:
        variant = canasta.VARIANTS["american"]
        problems = canasta.check_hand(read, variant) + canasta.hand_warnings(read, variant)
    assert problems
    for problem in problems:
        _english(problem.message)


@pytest.mark.parametrize(
    "options",
    [{"bogus": 1}, {"tough_end": 1}, {"wild_canasta": "x"}, {"max_wilds": 4}, {"target": 7}, {"target": 102}, "x"],
)
def test_every_problem_with_house_rules_is_a_message(options):
    with pytest.raises(InvalidError) as error:
        canasta.rules_for("classic", options)
    for problem in error.value.violations:
        _english(problem.message)


# --- said in Spanish and Portuguese, by hand-written catalogues ----------------------------------
class Catalogue(gettext.NullTranslations):
    """Plain messages, and plural forms picked as Spanish and Portuguese do (one, other)."""

    def __init__(self, messages, contexts=None):
        super().__init__()
        self.messages, self.contexts = messages, contexts or {}

    def gettext(self, message):
        return self.messages.get(message, message)

    def ngettext(self, singular, plural, n):
        forms = self.messages.get(singular)
        return (forms[0] if n == 1 else forms[1]) if forms else (singular if n == 1 else plural)

    def pgettext(self, context, message):
        return self.contexts.get((context, message), message)


SPANISH = Catalogue(
    {
        "Natural canasta": "Canasta limpia",
        "%(label)s × %(count)s (at %(bonus)s)": "%(label)s × %(count)s (a %(bonus)s)",
        "Red threes (%(count)s, minus: not melded)": "Tres rojos (%(count)s, restan: sin bajada)",
        "Classic canasta for two": "Canasta clásica para dos",
        "Only one player goes out in a hand, but two sides say they went out: %(first)s and %(second)s.": (
            "Solo un jugador cierra por mano, pero dos equipos marcaron que cerraron: %(first)s y %(second)s."
        ),
    },
    {("side", "Me"): "Yo", ("side", "You"): "Tú"},
)
PORTUGUESE = Catalogue(
    {
        "Mixed canasta": "Canastra suja",
        "%(label)s × %(count)s (at %(bonus)s)": "%(label)s × %(count)s (a %(bonus)s cada)",
        "Going out needs %(n)s completed canasta in %(variant)s; this side has %(count)s.": (
            "Para bater são precisas %(n)s canastra completa em %(variant)s; esta dupla tem %(count)s.",
            "Para bater são precisas %(n)s canastras completas em %(variant)s; esta dupla tem %(count)s.",
        ),
        "Classic canasta": "Canastra clássica",
        "%(option)s is one of %(choices)s, not %(value)s.": "%(option)s é uma de %(choices)s, não %(value)s.",
        "Wild canastas": "Canastras de curingas",
    },
    {("side", "We"): "Nós", ("side", "They"): "Eles"},
)


def test_a_score_line_with_parameters_is_said_in_spanish_and_portuguese():
    # We: a natural canasta 500 and a mixed one 300; they laid a red three without melding: minus 100.
    hand = {"entries": [{"melded_points": 400, "canastas": {"natural": 1, "mixed": 2}, "went_out": True},
                        {"hand_points": 45, "red_threes": 1}]}  # fmt: skip
    labels = _score_labels("classic", hand)
    assert labels[:2] == ["Natural canasta × 1 (at 500)", "Mixed canasta × 2 (at 300)"]
    assert [label.render(SPANISH) for label in labels[:2]] == [
        "Canasta limpia × 1 (a 500)",
        "Mixed canasta × 2 (a 300)",
    ]
    assert labels[1].render(PORTUGUESE) == "Canastra suja × 2 (a 300 cada)"
    assert "Red threes (1, minus: not melded)" in labels
    assert "Tres rojos (1, restan: sin bajada)" in [label.render(SPANISH) for label in labels]


def test_a_variant_and_its_sides_are_named_in_spanish_and_portuguese():
    two = canasta.VARIANTS["classic-2p"]
    assert (two.name.render(SPANISH), [side.render(SPANISH) for side in two.side_names]) == (
        "Canasta clásica para dos",
        ["Yo", "Tú"],
    )
    classic = canasta.VARIANTS["classic"]
    assert [side.render(PORTUGUESE) for side in classic.side_names] == ["Nós", "Eles"]
    assert classic.name.render(PORTUGUESE) == "Canastra clássica"


def test_a_sides_name_inside_a_problem_is_translated_too():
    both_out = canasta.Hand.from_dict({"entries": [{"went_out": True, "melded_points": 50, "canastas": {"natural": 1},
                                                    "hand_points": 0}, {"went_out": True, "melded_points": 50,
                                                    "canastas": {"natural": 2}}]})  # fmt: skip
    problem = next(
        v for v in canasta.check_hand(both_out, canasta.VARIANTS["classic-2p"]) if v.code == "two-sides-went-out"
    )
    assert problem.message == "Only one player goes out in a hand, but two sides say they went out: Me and You."
    assert problem.message.render(SPANISH) == (
        "Solo un jugador cierra por mano, pero dos equipos marcaron que cerraron: Yo y Tú."
    )


def test_a_plural_rule_problem_and_an_option_error_are_said_in_portuguese():
    # Classic for two needs two canastas to go out; this side has one.
    hand = canasta.Hand.from_dict({"entries": [{"melded_points": 100, "canastas": {"natural": 1}, "went_out": True},
                                               {"hand_points": 20}]})  # fmt: skip
    (problem,) = canasta.check_hand(hand, canasta.VARIANTS["classic-2p"])
    assert problem.message == "Going out needs 2 completed canastas in Classic canasta for two; this side has 1."
    assert problem.message.render(PORTUGUESE) == (
        "Para bater são precisas 2 canastras completas em Classic canasta for two; esta dupla tem 1."
    )
    with pytest.raises(InvalidError) as error:
        canasta.rules_for("classic", {"wild_canasta": "x"})
    (problem,) = error.value.violations
    assert problem.message == "Wild canastas is one of none, 1000, 2000, palace, not 'x'."
    assert problem.message.render(PORTUGUESE) == "Canastras de curingas é uma de none, 1000, 2000, palace, não 'x'."
