"""A stored side name read back as its preset's own name for that side, in any shipped language."""

from scorepad.presetnames import preset_side_name, shipped_languages


def test_a_presets_name_in_any_shipped_language_is_its_message():
    # Side 0 of a classic match, as the new-match form offered it in English, Spanish, Portuguese, German.
    for typed in ("We", "Nosotros", "Nós", "Wir"):
        message = preset_side_name("classic", 0, typed)
        assert message == "We" and message.message == "We", typed


def test_only_that_very_side_of_that_preset_counts():
    assert preset_side_name("classic", 1, "Nosotros") is None  # side 1 of classic is They
    assert preset_side_name("classic", 0, "Du") is None  # a family's own name
    assert preset_side_name(None, None, "We") is None  # a name with no preset behind it


def test_every_shipped_catalogue_is_read():
    assert shipped_languages() == ["de", "es", "pt_BR"]
