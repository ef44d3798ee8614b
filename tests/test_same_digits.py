"""One value, one number of decimals, in one view: a quantity written twice on one screen (η in a caption and in a
table, a probability in a bar and in a sentence) reads the same both times.

While a view is drawn the kit notes every number num() writes (html.noting_numbers: value, decimals, text, and
the quantity it is a number of when the lab or a kit component says so). Of those the view shows as text:

- one value written with two numbers of decimals is a failure where the shorter lost digits: «0,69» beside
  «0,693» is log 2 rounded two ways, while «0,5» beside «0,50» (a tick of an axis and a cell) is one number;
- one quantity written with two numbers of decimals (4.2's η once read «2,750 × 10⁻⁴» beside «3,00 × 10⁻⁴») is a
  failure, unless the number with more decimals needs them: with the fewest it would read 0 (or 100, a share that
  is not all) or the same as another value of that quantity (the kit's bars and shares give those, and only
  those, more). A number's quantity is the name a lab gives num(), sci() or significant(), the header of a
  kit table's column (or row, in a table of named values), the label of a stat, the label (or quantity) of a
  kit bar chart; a cell or stat names only a number it shows alone. Numbers whose decimals follow from
  significant digits or lost their last zeros (13,5 GB beside 1,35 GB, a cell's 1,5 beside 1,25), and an
  axis's ticks (a scale, not values), are held to no quantity.

Integers, and numbers written with no decimals («49 %»; a «0» any other 0 on screen would match), are left out,
and so is a value noted but not shown (a tick the chart did not keep). Checked at each lab's default and with
each control, one at a time, at its ends (a stepped lab at its first steps), each view drawn from nothing (the
kit's remembered drawings forgotten, so every number is written, and noted, again).

What this cannot see: a quantity no one names (a number in a lab's sentence, a chart's caption) or named two ways
(«η» in a column, «η al passo 500» on a stat)."""

import math
import re

import pytest
from test_contract import text_of

import labs
from labs.kit.controls import Choice, Slider, Steps, Toggle
from labs.kit.html import noting_numbers, same_value
from labs.kit.memory import forget_all

ALL = labs.all_labs()
FIRST_STEPS = (1, 2, 5, 12)


def settings(lab):
    """The default, then each control moved alone to its ends (a choice to each option, a toggle flipped)."""
    yield {}
    for c in lab.params_list:
        if isinstance(c, Slider):
            values = [c.min, c.max]
        elif isinstance(c, Choice):
            values = [v for v, _ in c.options if v != c.default]
        elif isinstance(c, Toggle):
            values = [not c.default]
        elif isinstance(c, Steps):
            values = [s for s in FIRST_STEPS if s <= c.max]
        else:
            values = []
        for value in values:
            yield {c.name: value}


def decimals(text):
    """How many digits follow the decimal comma in a number num() wrote."""
    return len(text.split(",", 1)[1]) if "," in text else 0


def shown_numbers(draw):
    """What num() wrote while draw() made its HTML, of the numbers with decimals the HTML shows as text."""
    with noting_numbers() as noted:
        html = str(draw())
    shown = text_of(html)
    return [
        n
        for n in noted
        if not isinstance(n.value, int)
        and math.isfinite(n.value)
        and "," in n.text
        and re.search(rf"(?<![\d,.]){re.escape(n.text)}(?!\d|,\d)", shown)
    ]


def mixed_digits(noted):
    """«value: text, text» for each value shown with two numbers of decimals."""
    written = {}
    for n in noted:
        written.setdefault(float(n.value), {})[decimals(n.text)] = n.text
    return [
        f"{value!r}: «{'» e «'.join(texts[d] for d in sorted(texts))}»"
        for value, texts in written.items()
        if len(texts) > 1 and not same_value(round(value, min(texts)), value)
    ]


def reading(value, digits):
    """The number value reads as, written with digits decimals."""
    return float(f"{value:.{digits}f}")


def mixed_quantities(noted):
    """«quantity: text e text» for each named quantity shown with more decimals than it needs somewhere: a
    number with more decimals than the fewest its quantity is written with, that with the fewest would read
    neither 0 (nor 100) nor the same as another value of the quantity."""
    by_quantity = {}
    for n in noted:
        if n.quantity and not n.shortened:
            by_quantity.setdefault(n.quantity, []).append(n)
    problems = []
    for quantity, numbers in by_quantity.items():
        fewest = min(decimals(n.text) for n in numbers)
        short = next(n for n in numbers if decimals(n.text) == fewest)
        for n in numbers:
            read = reading(n.value, fewest)
            needed = abs(read) in (0, 100) or any(
                not same_value(m.value, n.value) and reading(m.value, fewest) == read for m in numbers
            )
            if decimals(n.text) > fewest and not needed:
                problems.append(f"{quantity}: «{short.text}» e «{n.text}»")
                break
    return problems


@pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])
def test_a_value_and_a_quantity_read_with_one_number_of_decimals_in_a_view(lab):
    values, quantities = [], []
    for params in settings(lab):
        state = lab.compute(lab.defaults() | params)
        forget_all()
        noted = shown_numbers(lambda: lab.view(state))
        values += [f"{params or 'predefiniti'} {p}" for p in mixed_digits(noted)]
        quantities += [f"{params or 'predefiniti'} {p}" for p in mixed_quantities(noted)]
    assert not values, f"{lab.id}: lo stesso valore con decimali diversi: " + "; ".join(values[:6])
    assert not quantities, f"{lab.id}: la stessa grandezza con decimali diversi: " + "; ".join(quantities[:6])


def test_a_value_written_with_two_numbers_of_decimals_is_found():
    """The check itself: 2/3 written «0,67» beside a formula that writes it «0,667»; x written «1,5» and
    «1,50» (the same number), an integer, a value written once, a value noted but not shown are no failure."""
    from labs.kit.html import num, tag

    def draw(digits):
        num(0.25, 1)  # tried, not shown
        third = f"{num(2 / 3)} = 2 × {num(1 / 3, digits)}; {num(2 / 3, digits)}"
        return tag("p", f"x = {num(1.5, 1)}; {num(1.5)}; n = {num(4)} e {num(4, 3)}; {num(0.25)}; {third}")

    assert mixed_digits(shown_numbers(lambda: draw(3))) == ["0.6666666666666666: «0,67» e «0,667»"]
    assert mixed_digits(shown_numbers(lambda: draw(2))) == []


def test_a_quantity_written_with_two_numbers_of_decimals_is_found():
    """The check itself, on 4.2's old η: «2,750 × 10⁻⁴» in one stat beside «3,00 × 10⁻⁴» in another is a failure
    when both are named η; shares whose only extra decimals tell two small ones apart, a table column and a stat
    named alike with one number of decimals, and significant digits are no failure."""
    from labs.kit.figures import stat, table
    from labs.kit.html import join
    from labs.kit.italian import shares
    from labs.kit.quantities import sci, significant

    def draw(warmup_digits):
        return join(
            stat("η al passo 500", sci(2.75e-4, 3, quantity="η")),
            stat("Fine del warm-up", sci(3e-4, warmup_digits, quantity="η")),
            table(["Passo", "η"], [["0", sci(1e-5, 3)], ["2.000", sci(3e-4, 3)]]),
            table(["p"], [[p] for p in shares([0.0000052, 0.000016, 0.5], 1)]),
            table(["Memoria (GB)"], [[significant(13.5)], [significant(1.35)]]),
        )

    assert mixed_quantities(shown_numbers(lambda: draw(2))) == ["η: «3,00» e «2,750»"]
    assert mixed_quantities(shown_numbers(lambda: draw(3))) == []
