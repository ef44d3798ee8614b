"""labs.kit.italian: nouns that agree with a count, articles before numbers, shares that never round to 0 or 100 %."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labs.kit import plural, share, the
from labs.kit.italian import control_value


@pytest.mark.parametrize(
    "n, text",
    [
        (0, "0 fusioni"),
        (1, "1 fusione"),
        (2, "2 fusioni"),
        (11, "11 fusioni"),
        (1000, "1.000 fusioni"),
        (-1, "−1 fusione"),
    ],
)
def test_plural_agrees_with_the_count(n, text):
    assert plural(n, "fusione", "fusioni") == text


def test_plural_of_a_decimal_is_plural_unless_it_reads_one():
    assert plural(1.5, "ora", "ore", 1) == "1,5 ore"
    assert plural(1.0, "ora", "ore", 1) == "1,0 ore"
    assert plural(1.0, "volta", "volte") == "1 volta"


@pytest.mark.parametrize(
    "text, masc, masc_plural, on_plural",
    [
        ("2 %", "il 2 %", "i 2 %", "sui 2 %"),
        ("8 %", "l'8 %", "gli 8 %", "sugli 8 %"),
        ("80 %", "l'80 %", "gli 80 %", "sugli 80 %"),
        ("11 token", "l'11 token", "gli 11 token", "sugli 11 token"),
        ("11.000", "l'11.000", "gli 11.000", "sugli 11.000"),
        ("1 %", "l'1 %", "gli 1 %", "sugli 1 %"),
        ("1,5 %", "l'1,5 %", "gli 1,5 %", "sugli 1,5 %"),
        ("0,5 %", "lo 0,5 %", "gli 0,5 %", "sugli 0,5 %"),
        ("1.000", "il 1.000", "i 1.000", "sui 1.000"),  # mille
        ("1.000.000", "l'1.000.000", "gli 1.000.000", "sugli 1.000.000"),  # un milione
        ("110", "il 110", "i 110", "sui 110"),  # centodieci
        ("18 %", "il 18 %", "i 18 %", "sui 18 %"),  # diciotto
        ("100 %", "il 100 %", "i 100 %", "sui 100 %"),
    ],
)
def test_the_article_follows_how_the_number_is_read(text, masc, masc_plural, on_plural):
    assert the(text) == masc
    assert the(text, plural=True) == masc_plural
    assert the(text, plural=True, prep="su") == on_plural


def test_merged_prepositions_and_feminine():
    assert the("3 token", plural=True, prep="di") == "dei 3 token"
    assert the("11 token", plural=True, prep="di") == "degli 11 token"
    assert the("8 %", prep="a") == "all'8 %"
    assert the("2 %", prep="in") == "nel 2 %"
    assert the("0,5 %", prep="da") == "dallo 0,5 %"
    assert the("11 coppie", feminine=True, plural=True) == "le 11 coppie"
    assert the("8 volte", feminine=True) == "l'8 volte"
    assert the("2 volte", feminine=True, prep="su") == "sulla 2 volte"


@pytest.mark.parametrize(
    "p, text",
    [
        (0.0, "0 %"),
        (1.0, "100 %"),
        (0.28, "28 %"),
        (0.0024, "0,2 %"),
        (0.004, "0,4 %"),
        (0.99985, "99,98 %"),
        (0.9996, "99,96 %"),
    ],
)
def test_share_examples(p, text):
    assert share(p) == text.replace(" %", "\u00a0%")  # number and «%» never on two lines


def test_the_article_reads_the_number_before_a_non_breaking_space():
    assert the(share(0.01)) == "l'1\u00a0%" and the(share(0.02)) == "il 2\u00a0%"
    assert the(share(0.08), prep="a") == "all'8\u00a0%" and the(share(0.11)) == "l'11\u00a0%"


@given(st.floats(0, 1))
def test_share_reads_0_or_100_only_when_it_is(p):
    text = share(p)
    if text in ("0 %", "100 %"):
        assert p in (0.0, 1.0)
    if 0 < p < 1:
        assert not text.startswith(("0 %", "100 %", "0,0 %", "100,0")) or "×" in text


@pytest.mark.parametrize(
    "raw, shown",
    [
        ("500000", "500.000"),
        ("11008", "11.008"),
        ("4096", "4.096"),
        ("0.05", "0,05"),
        ("-3", "−3"),
        ("2.5", "2,5"),
        ("0", "0"),
        ("1000000", "1.000.000"),
        ("-0.5", "−0,5"),
    ],
)
def test_slider_outputs_are_grouped_like_the_page(raw, shown):
    assert control_value(raw) == shown


def test_digits_apart_tells_neighbours_apart_and_shares_too():
    from labs.kit.html import digits_apart, numbers
    from labs.kit.italian import shares

    edges = [k / 256 for k in range(-3, 4)]
    assert digits_apart(edges) == 3 and len(set(numbers(edges))) == len(edges)
    assert digits_apart([0.5, 1.25, 3.0]) == 2 and digits_apart([0.3, 0.1 + 0.2]) == 2  # one value, written once
    assert numbers([-1e-16, 0.0, 0.5]) == ["0,00", "0,00", "0,50"]  # rounding noise is no value of its own
    # only the shares that would read alike get more decimals: 50 % keeps the one the lab asked for
    assert shares([0.0000052, 0.000016, 0.5], 1) == ["0,001\u00a0%", "0,002\u00a0%", "50,0\u00a0%"]


def test_digits_each_gives_more_decimals_only_to_values_that_read_alike():
    from labs.kit.html import digits_each

    assert digits_each([0.978, 0.014, 0.008]) == [2, 3, 3]  # 0,01 twice at two decimals
    assert digits_each([0.4999, 0.5, 0.54], 1) == [4, 4, 2]  # 0,5 thrice, then 0,50 twice, …, 0,4999 and 0,5000
    assert digits_each([0.3, 0.1 + 0.2, None, float("nan")]) == [2, 2, 2, 2]  # one value; no number: untouched
    assert digits_each([1e-6, 2e-6], 2, 4) == [4, 4]  # never beyond most
