"""Arithmetic on screen that adds up: a calculation is judged on the numbers as the reader sees them.

A view writes «1 × 0,03 − 2 × 0,48 = −0,92» with every number rounded on
its own; the reader who redoes the sum finds −0,93. Here a line of text is
read as the reader reads it: Italian numbers (0,58, 4.096, −2, 67 %,
3,5 × 10⁻⁶), the operations + − × · / ÷, brackets, powers written as
superscripts (4.096², 10²²) and vectors [0,5 ; 1] (element by element, a
number times a vector). A relation «a = b» holds when the left side,
computed from its numbers as written, rounds to the right side as written:
within half a unit of the right side's last digit (a side made of numbers
written without decimals is exact). A side that is not arithmetic (a word,
a name, a function such as √ or e^, a shape [3 × 2]) is not judged.

settle(text) writes «≈» in place of each «=» that does not hold, and every
line that formula() draws goes through it; problems(text) lists the «=»
that do not hold, for the test that reads every line of every view. Text
inside an element marked data-arith="wrong" shows a mistake on purpose
(a student's wrong step) and is not judged.
"""

import re
from functools import lru_cache

from .html import Html

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_TOKENS = re.compile(
    r"(?P<space>[\s\u00a0\u2009\u202f]+)"
    r"|(?P<number>\d{1,3}(?:\.\d{3})+(?:,\d+)?(?![\d.,]\d)|\d+(?:,\d+)?)"
    r"|(?P<power>⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"
    r"|(?P<op>[+−×·/÷])"
    r"|(?P<percent>%)"
    r"|(?P<relation>[=≈])"
    r"|(?P<open>[(\[])|(?P<close>[)\]])|(?P<semicolon>;)"
    r"|(?P<other>[^\s\u00a0\u2009\u202f\d⁰¹²³⁴⁵⁶⁷⁸⁹⁻+−×·/÷%=≈()\[\];]+)",
    re.DOTALL,
)
BOUNDARY = set(":;,([«—–\"'")  # glued to a calculation's start, these still leave it a calculation of its own
TAIL = set(".,;:)]»!?\"'…")  # glued to a calculation's end, these still end it
UNARY_AFTER = set(":;,([«=≈")  # a minus right after one of these (or the line's start) is a sign


def tokens(text):
    """The text as (kind, text) pairs: space, number, power, op, percent, relation, open, close, semicolon, other."""
    return [(m.lastgroup, m.group()) for m in _TOKENS.finditer(text)]


def _number(text):
    return float(text.replace(".", "").replace(",", "."))


def _half_unit(text):
    """Half a unit of the last written digit: 0,58 → 0.005, 76.800 → 0.5."""
    decimals = len(text.split(",")[1]) if "," in text else 0
    return 0.5 * 10.0**-decimals


class _Parser:
    """Recursive descent over tokens (spaces dropped). A value is (number, uncertainty) or a list of those
    (a vector); the uncertainty is how far the exact value may be from what the written digits say."""

    def __init__(self, items):
        self.items, self.at = list(items) + [(None, None)], 0  # the last item says the end

    def peek(self):
        return self.items[self.at]

    def take(self):
        item = self.items[self.at]
        self.at += 1
        return item

    def expression(self):
        value = self.term()
        while self.peek()[1] in ("+", "−"):
            op = self.take()[1]
            value = _combine(op, value, self.term())
        return value

    def term(self):
        value = self.unary()
        while self.peek()[1] in ("×", "·", "/", "÷"):
            op = self.take()[1]
            value = _combine(op, value, self.unary())
        return value

    def unary(self):
        if self.peek()[1] == "−":
            self.take()
            return _combine("×", (-1.0, 0.0), self.unary())
        if self.peek()[1] == "+":
            self.take()
        return self.power()

    def power(self):
        value = self.atom()
        if self.peek()[0] == "power":
            exponent = int(self.take()[1].translate(_SUPERSCRIPTS))
            if isinstance(value, list):
                raise ValueError("potenza di un vettore")
            number, unsure = value
            result = number**exponent
            value = (result, 0.0 if unsure == 0 else abs(exponent * number ** (exponent - 1)) * unsure)
        if self.peek()[0] == "percent":
            self.take()
            value = _combine("×", value, (0.01, 0.0))
        return value

    def atom(self):
        kind, text = self.peek()
        if kind == "number":
            self.take()
            return (_number(text), _half_unit(text) if "," in text else 0.0)
        if text == "(":
            self.take()
            value = self.expression()
            if self.peek()[1] != ")":
                raise ValueError("parentesi aperta")
            self.take()
            return value
        if text == "[":
            self.take()
            elements = [self.expression()]
            while self.peek()[0] == "semicolon":
                self.take()
                elements.append(self.expression())
            if self.peek()[1] != "]" or len(elements) < 2 or any(isinstance(e, list) for e in elements):
                raise ValueError("non è un vettore")
            self.take()
            return elements
        raise ValueError("manca un numero")


def _combine(op, a, b):
    """a op b, element by element for vectors (a number times a vector too)."""
    if isinstance(a, list) or isinstance(b, list):
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b) or op not in "+−":
                raise ValueError("vettori diversi")
            return [_combine(op, x, y) for x, y in zip(a, b)]
        if op in "+−" or (isinstance(b, list) and op in "/÷"):
            raise ValueError("numero e vettore")
        return [_combine(op, a, y) for y in b] if isinstance(b, list) else [_combine(op, x, b) for x in a]
    (x, dx), (y, dy) = a, b
    if op == "+":
        return x + y, dx + dy
    if op == "−":
        return x - y, dx + dy
    if op in "×·":
        return x * y, abs(x) * dy + abs(y) * dx
    if y == 0:
        raise ValueError("divisione per zero")
    return x / y, (dx + abs(x / y) * dy) / abs(y)


def _solid(items):
    return tuple(item for item in items if item[0] != "space")


def _has_operation(items):
    return any(kind == "op" or kind == "power" for kind, _ in items)


def value(text):
    """The value of a whole side written as text, or ValueError if it is not arithmetic:
    value("1 × 0,03 − 2 × 0,48") == (-0.93, 0.0) (value, how far the written digits may be from it)."""
    return _whole(_solid(tokens(text)))


@lru_cache(maxsize=1024)
def _whole(items):
    """The value of a side given as a tuple of tokens without spaces (see value)."""
    if not items:
        raise ValueError("vuoto")
    parser = _Parser(items)
    result = parser.expression()
    if parser.at != len(items):
        raise ValueError("non è tutto un conto")
    number = [item for item in items if item[0] == "number"]
    if not isinstance(result, list) and [kind for kind, _ in items] in (
        ["number"],
        ["number", "percent"],
        ["op", "number"],
        ["op", "number", "percent"],
    ):
        # a number alone (67, −2, 67 %) is a rounded value, even an integer
        result = (result[0], _half_unit(number[0][1]) * (0.01 if items[-1][0] == "percent" else 1.0))
    return result


def _left(items):
    """The calculation at the end of a side (its value and its tokens), or None: the longest tail that is
    one calculation and starts where a calculation can start."""
    end = len(items)
    while end and items[end - 1][0] == "space":
        end -= 1
    last = None  # the last character before start that is not a space
    for start in range(end):
        kind, text = items[start]
        if start:
            before = items[start - 1]
            if before[0] != "space":
                last = before[1][-1]
        if kind not in ("number", "open") and text != "−":
            continue
        if start and items[start - 1][0] != "space" and last not in BOUNDARY:
            continue  # glued to a word (tutto3), a root (√25) or a power (e^2)
        if text == "−" and last is not None and last not in UNARY_AFTER:
            continue  # «w − 3»: the minus takes away from something that is not written as a number
        if last in ("^", "√") or (text != "−" and last in ("+", "−", "×", "·", "/", "÷")):
            continue  # a root, a power, or a calculation that begins further left with what is not a number
        try:
            solid = _solid(items[start:end])
            return _whole(solid), solid
        except (ValueError, ZeroDivisionError, OverflowError):
            continue
    return None


def _right(items):
    """The calculation at the start of a side (its value and its tokens), or None: the longest head that is
    one calculation and ends where a calculation can end."""
    start = 0
    while start < len(items) and items[start][0] == "space":
        start += 1
    ends = []
    for end in range(start + 1, len(items) + 1):
        kind, text = items[end - 1]
        if kind == "space" or (kind != "number" and kind not in ("close", "percent", "power")):
            continue
        after = items[end] if end < len(items) else None
        if after is not None and after[0] == "other" and after[1][0] not in TAIL:
            continue  # glued to a word (2d) or a symbol
        if after is not None and after[0] in ("number", "power", "percent"):
            continue
        ends.append(end)
    for end in reversed(ends):
        try:
            solid = _solid(items[start:end])
            return _whole(solid), solid
        except (ValueError, ZeroDivisionError, OverflowError):
            continue
    return None


def _agree(left, right):
    """Whether the left side's exact value rounds to the right side as written."""
    if isinstance(left, list) or isinstance(right, list):
        if not (isinstance(left, list) and isinstance(right, list)) or len(left) != len(right):
            return False
        return all(_agree(x, y) for x, y in zip(left, right))
    (x, _), (y, unsure) = left, right
    return abs(x - y) <= unsure + 1e-9 * max(1.0, abs(y))


def relations(text):
    """Each «=» or «≈» of the text with a calculation on its left and numbers on its right:
    (index of the sign in the text, sign, left as written, right as written, whether it holds)."""
    items = tokens(text)
    signs = [k for k, (kind, _) in enumerate(items) if kind == "relation"]
    offsets, at = [], 0
    for _, piece in items:
        offsets.append(at)
        at += len(piece)
    found = []
    for n, k in enumerate(signs):
        before = items[signs[n - 1] + 1 if n else 0 : k]
        after = items[k + 1 : signs[n + 1] if n + 1 < len(signs) else len(items)]
        if not _has_operation(before):
            continue  # judged: a calculation on the left, what it gives on the right
        left = _left(before)
        right = _right(after) if left is not None and _has_operation(left[1]) else None
        if right is None:
            continue
        written = lambda solid: " ".join(t for _, t in solid)  # noqa: E731
        found.append((offsets[k], items[k][1], written(left[1]), written(right[1]), _agree(left[0], right[0])))
    return found


def problems(text):
    """The «=» of the text that do not hold on the numbers as written: «1 × 0,00 − 2 × 0,03 = −0,07»."""
    return [f"{left} = {right}" for _, sign, left, right, holds in relations(text) if sign == "=" and not holds]


_SETTLED = {}  # lines already settled: a view writes the same formula at every change of another control


def settle(text):
    """The text with «≈» in place of every «=» that does not hold on its numbers as written.
    Markup (Html) is returned as it is: its text is judged where it was written."""
    if isinstance(text, Html) or "=" not in text:
        return text
    done = _SETTLED.get(text)
    if done is None:
        chars = list(text)
        for at, sign, _, _, holds in relations(text):
            if sign == "=" and not holds:
                chars[at] = "≈"
        done = "".join(chars)
        if len(_SETTLED) >= 1024:
            _SETTLED.clear()
        _SETTLED[text] = done
    return done


def columns_add_up(rows, total, shown):
    """Whether every column of rows, each number as shown(value) writes it, adds up to the total row as
    written: the sign («=» or «≈») of a table that draws «a / + b / = a + b» one row under the other."""
    for j, result in enumerate(total):
        written = " + ".join(f"({shown(row[j])})" for row in rows)
        try:
            if not _agree(value(written), value(shown(result))):
                return "≈"
        except ValueError:
            continue
    return "="


__all__ = ["settle", "problems", "relations", "value", "columns_add_up"]
