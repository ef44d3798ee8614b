"""One notation: every letter a view shows as a variable means what the site's glossary says (labs.kit.symbols)
or what its lab declares (SYMBOLS, said in its prose), and the page says it: a sentence of the prose, a control's
label or the view holds the letter beside one of its meaning's words. So «E» cannot be the embedding table on one
page and the errors on another without the second page saying so, and «L = 3,50» cannot stand without «loss».

Also, in one view: a table numbers its rows and its columns from the same start (9C once numbered E's rows from 0
and its columns from 1), and no figure divides by a zero written as such («÷ 0,00»: the text would call it an
error; the figure writes what it divides by, ε included).

Views drawn in CPython at each lab's default and with each control, one at a time, at its ends (as
test_same_digits.py does), no browser."""

import re

import pytest
from test_same_digits import settings

import labs
from labs.kit.experiments import raw_settings
from labs.kit.html import unwrapped_scripts
from labs.kit.symbols import GLOSSARY, Symbol, declaration_problem, notation_problems, symbols_in, unwrapped

ALL = labs.all_labs()

INLINE = "span|strong|em|b|i|sub|sup|tspan|a|abbr|code|small|kbd"
# a token drawn as text (its characters, 9A's byte number beside them), and the heads of a matrix's rows and
# columns (tokens, or numbers): data, not letters of maths
TOKEN_TEXT = re.compile(
    r'<span class="(?:[^"]*\s)?lab-(?:\w+-)?tok(?:en-text)?(?:\s[^"]*)?"[^>]*>(?:(?!</span>).)*</span>'
)
HEADS = re.compile(r'<th\b[^>]*class="lab-mx-(?:row|col)\b[^"]*"[^>]*>(?:(?!</th>).)*</th>', flags=re.S)


def view_text(html):
    """What a view shows, a line per block (a cell, a label, a paragraph), scripts kept to their letter (W₁),
    without tokens drawn as text (9A's characters are not letters of maths)."""
    html = unwrapped_scripts(html)
    html = re.sub(r"<(style|script|title|desc)\b.*?</\1>", " ", html, flags=re.S)
    html = HEADS.sub("\n", TOKEN_TEXT.sub(" ", html))
    html = re.sub(rf"</?(?:{INLINE})\b[^>]*>", " ", html)
    text = re.sub(r"<[^>]+>", "\n", html)
    from html import unescape

    return unescape(text)


def every_setting(lab):
    """(name, params): the default, each control alone at its ends (test_same_digits.settings), each «Prova»
    (of a lab that is not stepped: a stepped lab's «Prova» trains up to 1.000 steps, test_experiments.py's job)."""
    for params in settings(lab):
        yield str(params or "predefiniti"), lab.defaults() | params
    for e in () if lab.stepped else lab.experiments:
        yield f"«Prova» {e.data_set}", lab.parse(raw_settings(e))


def drawn(lab):
    """(name, the view's HTML) at every_setting."""
    for name, params in every_setting(lab):
        yield name, str(lab.view(lab.compute(params)))


def undefined_letters(lab):
    views = [view_text(html) for _, html in drawn(lab)]
    labels = [f"{c.label}." for c in lab.params_list if getattr(c, "label", "")]
    shown = [s for text in views for s in symbols_in(text)]
    declared = getattr(lab.module, "SYMBOLS", {})
    problems = notation_problems(shown, [unwrapped(lab.page_prose), *labels, *views], declared)
    unused = sorted(set(declared) - {letter for letter, _ in shown})
    problems += [f"SYMBOLS dichiara «{letter}», che nessuna vista mostra" for letter in unused]
    return problems, views


def index_starts(html):
    """For each kit matrix of html with numbered rows and columns: (first row number, first column number)."""
    for table in re.findall(r"<table\b.*?</table>", unwrapped_scripts(html), flags=re.S):
        rows = re.findall(r'class="lab-mx-row[^"]*"[^>]*>\s*(?:<[^>]+>\s*)*(\d+)\b', table)
        cols = re.findall(r'class="lab-mx-col[^"]*"[^>]*>\s*(?:<[^>]+>\s*)*(\d+)\b', table)
        if len(rows) > 1 and len(cols) > 1:
            yield int(rows[0]), int(cols[0])


ZERO_DIVISOR = re.compile(r"[÷/]\s*0(?:,0+)?(?![\d,])")


@pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])
def test_every_letter_a_view_shows_is_defined_with_one_meaning(lab):
    problems, _ = undefined_letters(lab)
    assert not problems, f"{lab.id}: " + "; ".join(problems)


@pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])
def test_a_table_numbers_rows_and_columns_alike_and_no_figure_divides_by_zero(lab):
    problems = []
    for name, html in drawn(lab):
        problems += [f"{name}: righe da {r}, colonne da {c}" for r, c in index_starts(html) if r != c]
        problems += [f"{name}: «{m[0]}»" for m in ZERO_DIVISOR.finditer(view_text(html))]
    assert not problems, f"{lab.id}: " + "; ".join(problems[:4])


def test_letters_are_found_and_words_are_not():
    """The reader's view of a line: variables with their scripts, not Italian words, units or capitals opening
    a sentence."""
    text = "E senza sottrarre; loss L = ½ Σ e² e x₄ a 7 B; I pesi W_q e Kᵀ; a · b = 5; la F grigia; ŷ − y"
    assert [w for _, w in symbols_in(text)] == ["L", "e²", "x₄", "W_q", "Kᵀ", "a", "b", "F", "ŷ", "y"]


def test_a_letter_with_another_meaning_fails_until_declared():
    """2.5's E was the errors beside 9C's embedding table; 2.5's «L = 3,50» said no «loss»."""
    view = "E, gli errori\nL = 3,50"
    prose = "Ogni riga ha il suo errore, una riga della matrice E degli errori."
    problems = notation_problems(symbols_in(view), [prose, view], {})
    assert [p.split(" ", 1)[0] for p in problems] == ["«E»", "«L»"]
    declared = {"E": Symbol("gli errori, una riga per token", "errori")}
    assert declaration_problem(declared, prose) is None
    problems = notation_problems(symbols_in(view), [prose, view + "; la loss L"], declared)
    assert problems == []
    assert "nessuna frase della prosa" in declaration_problem(declared, "Una frase senza la lettera.")
    assert "glossario" in declaration_problem({"L": GLOSSARY["L"]}, prose)


def test_tables_with_two_starts_and_zero_divisors_are_found():
    from labs.kit import matrix

    html = str(matrix([[1, 2], [3, 4]], row_labels=["0", "1"], col_labels=["1", "2"]))
    assert list(index_starts(html)) == [(0, 1)]
    html = str(matrix([[1, 2], [3, 4]], row_labels=["0 · a", "1 · b"], col_labels=["0", "1"]))
    assert list(index_starts(html)) == [(0, 0)]
    assert [m[0] for m in ZERO_DIVISOR.finditer("dividi per σ ÷ 0,00 → [0]; ÷ 0,003; / 0,5; / 10")] == ["÷ 0,00"]


def test_the_contract_refuses_a_bad_declaration_with_file_and_line():
    """SYMBOLS: a dict letter → Symbol, each letter one letter, a meaning of its own, said in the prose."""
    import sys

    from labs.kit.contract import check_module
    from labs.kit.errors import ContractError

    lab = next(lab for lab in ALL if lab.id == "lunghezze-diverse")
    broken = {
        "dizionario": ["E"],
        "una lettera sola": {"E₁": Symbol("gli errori", "errori")},
        "vuole Symbol": {"E": "gli errori"},
        "non serve dichiararlo": {"L": GLOSSARY["L"]},
        "nessuna frase della prosa": {"E": Symbol("gli scarti", "scarti")},
    }
    for expected, symbols in broken.items():
        module = type(sys)("labs.ch2.finto")
        module.__dict__.update(vars(lab.module))
        module.SYMBOLS = symbols
        with pytest.raises(ContractError, match=re.escape(expected)) as error:
            check_module(module, "2")
        assert re.match(r"\S+lunghezze_diverse\.py, riga \d+: ", str(error.value)), str(error.value)
    check_module(lab.module, "2")
