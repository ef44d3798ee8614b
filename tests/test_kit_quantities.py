from hypothesis import given
from hypothesis import strategies as st

from labs.kit import big, data_size, duration, sci, significant


def test_counts_in_words():
    assert big(6_738_415_616) == "6,74 miliardi"
    assert big(131_072_000) == "131 milioni"
    assert big(2e12) == "2.000 miliardi"
    assert big(1e9) == "1 miliardo" and big(1e6) == "1 milione"
    assert big(4_194_304) == "4,19 milioni"
    assert big(20_000) == "20.000" and big(0.5) == "0,5"
    assert big(8.4e22) == "8,4 × 10²²"


def test_powers_of_ten():
    assert sci(8.4e22) == "8,4 × 10²²"
    assert sci(8.09e22, 0) == "8 × 10²²"
    assert sci(9.97e5) == "1,0 × 10⁶"
    assert sci(3e-4, 0) == "3 × 10⁻⁴"
    assert sci(-2.5e3) == "−2,5 × 10³"


def test_bytes_and_durations():
    assert data_size(6_738_415_616 * 2) == "13,5\u00a0GB"  # number and unit joined: never on two lines
    assert data_size(112e9) == "112\u00a0GB" and data_size(67_108_864) == "67,1\u00a0MB"
    assert data_size(512) == "512\u00a0byte"
    assert duration(186_966) == "21 anni"
    assert significant(186_966) == "187.000" and significant(6.7384) == "6,74" and significant(0.012345) == "0,0123"
    assert duration(182.6) == "7,6 giorni" and duration(24) == "1 giorno" and duration(0.5) == "30 minuti"


@given(st.floats(-1e30, 1e30, allow_nan=False))
def test_never_a_python_float_spelling(x):
    for text in (big(x), sci(x), data_size(abs(x)), duration(abs(x))):
        assert "e+" not in text and "nan" not in text.lower() and "inf" not in text.lower()
