"""Move words are joined as the reader's language writes lists (games.labels.joined)."""

from django.utils import translation

from games.labels import joined, move_in_words

PLACEMENT = {
    "type": "place",
    "tile": "w1",
    "square": "c3",
    "strength": {"total": 4},
    "deaths": [{"tribe": "wazu", "tile": "w2", "square": "c4"}, {"tribe": "balan", "tile": "b1", "square": "d3"}],
    "score_change": {"wazu": 2, "balan": -1},
}


def test_arabic_move_words_use_the_arabic_semicolon_and_comma():
    with translation.override("ar"):
        words = move_in_words("maatatahay", PLACEMENT)
        assert joined(["a", "b"]) == "a\u060c b" and joined(["a", "b"], "; ") == "a\u061b b"
    assert words.count("\u061b ") == 2 and "\u060c " in words
    assert ";" not in words and ", " not in words


def test_other_languages_keep_the_latin_punctuation():
    for language in ("en", "id"):
        with translation.override(language):
            words = move_in_words("maatatahay", PLACEMENT)
        assert words.count("; ") == 2 and ", " in words and "\u061b" not in words and "\u060c" not in words
