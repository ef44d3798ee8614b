"""Italian grammar around numbers: the noun that agrees with a count
(«1 fusione», «2 fusioni»), the article that goes before a number as it is
read aloud («il 2 %», «l'8 %», «lo 0,5 %», «gli 11 token», «sugli 11
token»), and a percentage that never reads 0 % or 100 % when it is not.

Numbers are written by num() (decimal comma, points between thousands), so
the text a reader sees and the text these helpers look at are the same.
"""

import math

from .html import NBSP
from .html import digits_each
from .html import num
from .html import percent
from .quantities import sci


def plural(n, one, many, digits=0):
    """The count n written with num() and the noun that agrees with it:
    plural(1, "fusione", "fusioni") → «1 fusione», plural(1000, …) → «1.000
    fusioni». The noun is singular only when the number reads «1»: 1,5 and
    1,0 are plural, as Italian reads them."""
    text = num(n) if isinstance(n, int) else num(n, digits)
    return f"{text} {one if text.lstrip('−') == '1' else many}"


# How the merged forms are built: de+l = del, su+gli = sugli, a+ll' = all'.
STEMS = {"": "", "di": "de", "a": "a", "da": "da", "in": "ne", "su": "su"}
MERGED = {"il": "l", "lo": "llo", "l'": "ll'", "i": "i", "gli": "gli", "la": "lla", "le": "lle"}


def sounds_like_vowel(text):
    """Whether a number, as an Italian reads it, starts with a vowel: uno (1,
    1,5), otto (8, 80, 800, 8.000), undici (11, 11.000). «1.000» is «mille»
    and «110» is «centodieci»: consonants."""
    digits = text.lstrip("−+").replace(NBSP, " ")  # «1 %» as percent() writes it is «1 %»
    first_group = digits.split(",")[0].split(".")[0].split(" ")[0]
    groups = len(digits.split(",")[0].split(" ")[0].split("."))
    if digits.startswith("8"):
        return True
    if first_group == "11":
        return True
    # «1» is «uno», «1.000.000» «un milione», but «1.000» is «mille»
    return first_group == "1" and groups != 2


def the(text, feminine=False, plural=False, prep=""):
    """The definite article (merged with the preposition prep, if given:
    di, a, da, in, su) before text, which starts with a number as num()
    writes it: the("2 %") → «il 2 %», the("8 %") → «l'8 %», the("0,5 %") →
    «lo 0,5 %», the("11 token", plural=True) → «gli 11 token»,
    the("3 token", plural=True, prep="su") → «sui 3 token»."""
    vowel = sounds_like_vowel(text)
    zero = text.lstrip("−+").startswith("0")  # «zero»: z wants lo / gli
    if feminine:
        article = "le" if plural else "l'" if vowel else "la"
    elif plural:
        article = "gli" if vowel or zero else "i"
    else:
        article = "l'" if vowel else "lo" if zero else "il"
    if prep:
        article = STEMS[prep] + MERGED[article]
    return f"{article}{'' if article.endswith(chr(39)) else ' '}{text}"


def share(p, digits=0):
    """p in 0–1 as a percentage with digits decimals, or as many more as it
    takes not to read «0 %» or «100 %» when p is neither: 0.0024 → «0,2 %»,
    0.99985 → «99,99 %». Beyond six decimals a tiny share is written as a
    power of ten (4 × 10⁻²⁹ %) and a share a hair from 1 as «100 %» minus it."""
    if p <= 0 or p >= 1 or not math.isfinite(p):
        return percent(min(1.0, max(0.0, p)) if math.isfinite(p) else p, digits)
    for d in range(digits, 7):
        if 0 < float(f"{100 * p:.{d}f}") < 100:  # tried, not written: the view notes only the text it shows
            return percent(p, d)
    if p < 0.5:
        return f"{sci(100 * p)}{NBSP}%"
    return f"100{NBSP}% − {sci(100 * (1 - p))}{NBSP}%"


def shares(values, digits=0):
    """share() of each value in 0–1, with digits decimals, or as many more as tell it apart from another value
    that would read the same (the probabilities 0.0000052 and 0.000016: «0,001 %» and «0,002 %», not «0,0 %»
    twice; 0.5 beside them stays «50,0 %»)."""
    return [share(p, d) for p, d in zip(values, digits_each([100 * p for p in values], digits, 6))]


def control_value(text):
    """A slider's value as its output shows it: the decimals JavaScript's
    String() gives, written by num() (500000 → «500.000», 0.05 → «0,05»,
    -3 → «−3»), as the browser runtime writes it with toLocaleString("it-IT")."""
    text = str(text)
    try:
        value = float(text)
    except ValueError:
        return text
    return num(value, len(text.split(".")[1]) if "." in text else 0)


__all__ = ["plural", "the", "share", "shares", "sounds_like_vowel", "control_value"]
