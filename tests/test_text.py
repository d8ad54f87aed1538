"""scorepad.canasta.text: messages that stay English as strings and render whole in another language.

The catalogues here are a few Spanish and Brazilian Portuguese messages written by hand for the
tests, in the words players use at the table (comodín, canasta limpia/sucia, tres rojo; curinga,
canastra limpa/suja); the shipped catalogues live with the web layer.
"""

from __future__ import annotations

import copy
import gettext
import json
import pickle
import re

import pytest

from scorepad.canasta import Card, InvalidError
from scorepad.canasta.plays import check_request, describe
from scorepad.canasta.text import Text, and_list, clause_list, t, tn, tp


class Catalogue(gettext.NullTranslations):
    """A hand-written catalogue: plain messages, plural forms under the language's rule, contexts."""

    def __init__(self, messages, plurals, contexts, plural_rule):
        super().__init__()
        self.messages, self.plurals, self.contexts, self.plural_rule = messages, plurals, contexts, plural_rule
        self.asked = []

    def gettext(self, message):
        self.asked.append(("gettext", message))
        return self.messages.get(message, message)

    def ngettext(self, singular, plural, n):
        self.asked.append(("ngettext", singular, n))
        forms = self.plurals.get(singular)
        if forms is None:
            return singular if n == 1 else plural
        return forms[self.plural_rule(n)]

    def pgettext(self, context, message):
        self.asked.append(("pgettext", context, message))
        return self.contexts.get((context, message), message)


def spanish() -> Catalogue:
    return Catalogue(
        messages={
            "a joker": "un comodín",
            "a two": "un dos",
            "a queen": "una reina",
            "a natural canasta": "una canasta limpia",
            "a mixed canasta": "una canasta sucia",
            "%(first)s and %(second)s": "%(first)s y %(second)s",
            "%(first)s, %(second)s": "%(first)s, %(second)s",
            "You may discard %(card)s.": "Puedes descartar %(card)s.",
            "Your initial meld counts %(count)s: your side needs %(minimum)s.": (
                "Tu equipo necesita %(minimum)s para bajarse: tu bajada suma %(count)s."
            ),
            "To go out your side needs %(wanted)s; it has %(listed)s.": (
                "Para cerrar tu equipo necesita %(wanted)s; tiene %(listed)s."
            ),
            "The next player may take the pile only by melding the %(card)s.": (
                "El siguiente jugador solo puede llevarse el pozo bajando la carta %(card)s."
            ),
            "%(reason)s Only your hand cards and the top card count: the rest of the pile never does.": "%(reason)s",
            "%(side)s needs %(minimum)s to open.": "A %(side)s le faltan %(minimum)s para bajarse.",
        },
        plurals={
            "one king": ["un rey", "%(count)s reyes"],
            "one joker": ["un comodín", "%(count)s comodines"],
            "one canasta": ["una canasta", "%(count)s canastas"],
            "king": ["rey", "reyes"],
            "red three": ["tres rojo", "tres rojos"],
            "You keep %(count)s card: discard one to end your turn.": [
                "Te queda una carta: descarta una para terminar el turno.",
                "Te quedan %(count)s cartas: descarta una para terminar el turno.",
            ],
        },
        contexts={("count", "one"): "uno", ("count", "two"): "dos", ("count", "three"): "tres"},
        plural_rule=lambda n: 0 if n == 1 else 1,
    )


def portuguese() -> Catalogue:
    return Catalogue(
        messages={
            "a joker": "um curinga",
            "a natural canasta": "uma canastra limpa",
            "a mixed canasta": "uma canastra suja",
            "%(first)s and %(second)s": "%(first)s e %(second)s",
            "To go out your side needs %(wanted)s; it has %(listed)s.": (
                "Para bater sua dupla precisa de %(wanted)s; tem %(listed)s."
            ),
        },
        plurals={
            # %(n)s: digits where the number word would not agree with a feminine noun.
            "one queen": ["uma dama", "%(n)s damas"],
            "one king": ["um rei", "%(count)s reis"],
            "one canasta": ["uma canastra", "%(n)s canastras"],
            "Melding these leaves you %(count)s card, which is going out, and to go out your side needs %(wanted)s; "
            "counting this turn it has %(listed)s. Keep at least one card after your discard until then.": [
                "Baixando essas cartas você fica com %(n)s carta e bate.",
                "Baixando essas cartas você fica com %(n)s cartas e bate.",
            ],
        },
        contexts={("count", "two"): "dois", ("count", "three"): "três"},
        plural_rule=lambda n: 0 if n <= 1 else 1,  # pt_BR: zero takes the singular
    )


ENGLISH_WORDS = re.compile(r"\b(one|two|three|a|an|and|the|kings?|jokers?|queens?|canastas?|natural|mixed)\b")


# --- English stays exactly as it was ---------------------------------------------------------
def test_a_message_is_its_english_text_everywhere_a_str_goes():
    message = t("%(side)s needs %(minimum)s to open.", side="They", minimum=90)
    assert message == "They needs 90 to open." and isinstance(message, str)
    assert hash(message) == hash("They needs 90 to open.")
    assert json.dumps({"message": message}) == '{"message": "They needs 90 to open."}'
    assert f"{message}!" == "They needs 90 to open.!" and repr(message) == "'They needs 90 to open.'"
    assert message.render(gettext.NullTranslations()) == "They needs 90 to open."


def test_literal_braces_are_written_twice_as_in_every_format_pattern():
    message = t('The pile is an object like {"top": "K"}.')
    assert message == 'The pile is an object like {"top": "K"}.'
    assert message.render(gettext.NullTranslations()) == message


def test_english_plurals_follow_the_count():
    assert tn("%(n)s red three", "%(n)s red threes", 1) == "1 red three"
    assert tn("%(n)s red three", "%(n)s red threes", 0) == "0 red threes"
    assert tn("one king", "%(count)s kings", 2, count=tp("count", "two")) == "two kings"


def test_a_message_survives_pickling_and_copying_as_a_message():
    message = tn("one king", "%(count)s kings", 2, count=tp("count", "two"))
    for copied in (pickle.loads(pickle.dumps(message)), copy.deepcopy(message), copy.copy(message)):
        assert copied == "two kings" and isinstance(copied, Text)
        assert copied.render(spanish()) == "dos reyes"


# --- translated whole --------------------------------------------------------------------------
def test_a_whole_sentence_is_translated_with_its_parameters_reordered():
    message = t("Your initial meld counts %(count)s: your side needs %(minimum)s.", count=70, minimum=90)
    assert message == "Your initial meld counts 70: your side needs 90."
    assert message.render(spanish()) == "Tu equipo necesita 90 para bajarse: tu bajada suma 70."


@pytest.mark.parametrize(
    ("left", "english", "spanish_text"),
    [
        (1, "You keep one card: discard one to end your turn.", "Te queda una carta"),
        (3, "You keep three cards: discard one to end your turn.", "Te quedan tres cartas"),
    ],
)
def test_plurals_pick_the_catalogues_form_through_ngettext(left, english, spanish_text):
    count = {1: tp("count", "one"), 3: tp("count", "three")}[left]
    message = tn(
        "You keep %(count)s card: discard one to end your turn.",
        "You keep %(count)s cards: discard one to end your turn.",
        left,
        count=count,
    )
    catalogue = spanish()
    assert message == english
    assert message.render(catalogue).startswith(spanish_text)
    assert ("ngettext", "You keep %(count)s card: discard one to end your turn.", left) in catalogue.asked


def test_the_languages_plural_rule_decides_not_englishs():
    # Portuguese says "0 cartas" with the singular form (pt_BR: plural only above one); English
    # says "no cards" with its plural. The checker's own message, from a real position.
    verdict = check_request({"action": "meld", "hand": ["K", "K", "K"], "melds": [["K", "K", "K"]]})
    reason = next(r for r in verdict.reasons if r.startswith("Melding these leaves you"))
    assert reason.startswith("Melding these leaves you no cards, which is going out")
    assert reason.render(portuguese()) == "Baixando essas cartas você fica com 0 carta e bate."


def test_a_card_name_inside_a_sentence_is_translated():
    verdict = check_request({"action": "discard", "hand": ["K", "2"], "discard": "2"})
    assert verdict.reasons[0] == "You may discard a two."
    assert verdict.reasons[0].render(spanish()) == "Puedes descartar un dos."
    # A bare name too, where the sentence cannot carry its article.
    verdict = check_request({"action": "discard", "hand": ["K", "Q"], "discard": "K"})
    assert verdict.reasons[-1] == "The next player may take the pile only by melding the king."
    assert verdict.reasons[-1].render(spanish()) == (
        "El siguiente jugador solo puede llevarse el pozo bajando la carta rey."
    )


def test_a_list_of_cards_is_said_as_the_language_says_lists():
    cards = describe([Card("K"), Card("JK"), Card("K")])
    assert cards == "two kings and a joker"
    rendered = cards.render(spanish())
    assert rendered == "dos reyes y un comodín"
    assert not ENGLISH_WORDS.search(rendered)
    assert describe([Card("Q"), Card("Q"), Card("JK")]).render(portuguese()) == "2 damas e um curinga"


def test_canasta_names_players_use_come_from_the_catalogue():
    # Classic needs one canasta to go out; the side has a natural and a mixed one.
    verdict = check_request(
        {
            "action": "go_out",
            "hand": ["5"],
            "table": [["K"] * 7, ["Q"] * 6 + ["2"]],
            "discard": "5",
        }
    )
    reason = next(r for r in verdict.reasons if r.startswith("To go out"))
    assert reason == "To go out your side needs one canasta; it has a natural canasta and a mixed canasta."
    assert reason.render(spanish()) == (
        "Para cerrar tu equipo necesita una canasta; tiene una canasta limpia y una canasta sucia."
    )
    assert reason.render(portuguese()) == (
        "Para bater sua dupla precisa de uma canastra; tem uma canastra limpa e uma canastra suja."
    )


def test_parameters_are_rendered_through_every_level():
    inner = and_list([t("a joker"), tn("one king", "%(count)s kings", 2, count=tp("count", "two"))])
    outer = t("%(side)s needs %(minimum)s to open.", side=inner, minimum=50)
    assert outer == "a joker and two kings needs 50 to open."
    assert outer.render(spanish()) == "A un comodín y dos reyes le faltan 50 para bajarse."


def test_a_count_and_a_card_of_the_same_english_word_are_different_messages():
    german = Catalogue(
        messages={},
        plurals={"two": ["Zwei", "Zweien"]},
        contexts={("count", "two"): "zwei"},
        plural_rule=lambda n: 0 if n == 1 else 1,
    )
    assert tp("count", "two").render(german) == "zwei"
    assert tn("two", "twos", 1).render(german) == "Zwei"


def test_lists_keep_their_english_shape():
    assert and_list(["kings"]) == "kings"
    assert and_list(["kings", "queens"]) == "kings and queens"
    assert and_list(["kings", "queens", "jacks", "tens"]) == "kings, queens, jacks and tens"
    assert and_list(["a five", "a six", "a seven"], commas=False) == "a five and a six and a seven"
    assert clause_list(["frozen", "not opened", "always"]) == "frozen; not opened; always"
    with pytest.raises(ValueError):
        and_list([])


def test_a_translation_with_the_wrong_placeholders_falls_back_to_english_words():
    broken = Catalogue({"%(side)s needs %(minimum)s to open.": "%(lado)s necesita %(minimum)s."}, {}, {}, lambda n: 0)
    message = t("%(side)s needs %(minimum)s to open.", side=t("a joker"), minimum=50)
    assert message.render(broken) == "a joker needs 50 to open."


def test_translations_without_contexts_still_render():
    class Plain:
        def gettext(self, message):
            return {"two": "dos"}.get(message, message)

        def ngettext(self, singular, plural, n):
            return singular if n == 1 else plural

    assert tp("count", "two").render(Plain()) == "dos"


def test_a_messages_id_and_parameters_are_kept_for_the_web_layer():
    message = tn("one king", "%(count)s kings", 3, count=tp("count", "three"))
    assert (message.message, message.plural, message.n, message.context) == ("one king", "%(count)s kings", 3, None)
    assert message.params["count"].context == "count"


def test_card_errors_and_hand_violations_carry_messages():
    with pytest.raises(InvalidError) as error:
        check_request({"action": "discard", "hand": ["K", "3"], "discard": "K"})
    (problem,) = error.value.violations
    assert problem.message == "'3' needs its suit: 3H or 3D is a red three, 3S or 3C a black three."
    assert isinstance(problem.message, Text)
