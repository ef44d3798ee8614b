"""One notation: the site's glossary of symbols, one meaning each, and the words that say it.

A letter a view shows as a variable (E, L, d, η, xᵢ, W_q, ŷ) means on every page what GLOSSARY says. A lab that
uses a letter for something else declares it, with one line beside its controls,

    SYMBOLS = {"E": Symbol("gli errori, una riga per token", "errori")}

and its prose says so (the contract refuses a declared letter the prose never writes). Either way the page
defines what it shows: somewhere in the prose, a control's label or the view, one sentence holds the letter and
one of its meaning's words («la loss L», «E, gli errori», «θ: gradi per posizione»). A letter is read with its
subscripts and superscripts (x₄, Kᵀ, W_q are x, K, W): they say which one, not what it is.

A letter in a word, a token drawn as text (9A's characters), the Italian words «e», «a», «i», «o» and a capital
vowel opening a sentence («E senza…», «I pesi…») are no symbols; nor is a unit after a number (7 B, 5 s).
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Symbol:
    """What a letter means (Italian, for the reader) and the words (stems, lower case) that say it in a page:
    one sentence that holds the letter and one of these defines it there."""

    meaning: str
    words: tuple

    def __init__(self, meaning, *words):
        object.__setattr__(self, "meaning", meaning)
        object.__setattr__(self, "words", tuple(w.lower() for w in words))


GLOSSARY = {
    "A": Symbol("una matrice (nell'attention, la tabella dei pesi dopo la softmax)", "matric", "tabella", "pesi"),
    "B": Symbol("una seconda matrice (B·A)", "matric"),
    "D": Symbol("i token di training", "token"),
    "E": Symbol("la tabella di embedding: una riga per ogni token del vocabolario", "embedding"),
    "K": Symbol("le key, una riga per token", "key"),
    "L": Symbol("la loss", "loss"),
    "M": Symbol("una matrice", "matric"),
    "N": Symbol("i parametri del modello", "parametri"),
    "O": Symbol("l'uscita dell'attention, O = A·V", "uscit", "output"),
    "P": Symbol("la tabella delle posizioni: una riga per posizione", "posizion"),
    "Q": Symbol("le query, una riga per token", "query"),
    "T": Symbol("la temperatura della softmax", "temperatur"),
    "V": Symbol("i value, una riga per token", "value", "valor"),
    "W": Symbol("una matrice di pesi", "pesi", "peso", "matric", "strato"),
    "X": Symbol("i vettori dei token di una frase, una riga per token", "vettor", "token", "frase", "ingress"),
    "i": Symbol("l'indice di una riga (o di un elemento)", "riga", "righe", "indic"),
    "j": Symbol("l'indice di una colonna", "colonn", "indic"),
    "a": Symbol("un vettore", "vettor", "frecc"),
    "b": Symbol("un secondo vettore", "vettor", "frecc"),
    "d": Symbol("la dimensione: quanti numeri ha il vettore di un token", "dimension", "colonne", "numeri"),
    "e": Symbol("il numero di Nepero, e ≈ 2,718 (e^x è l'esponenziale)", "esponenzial", "nepero", "2,718"),
    "f": Symbol("una funzione", "funzion", "curva"),
    "h": Symbol("l'uscita di uno strato nascosto, dopo la non linearità", "nascost", "strato", "tanh", "relu"),
    "k": Symbol("la key di un token", "key"),
    "n": Symbol("il numero di token (la lunghezza della sequenza)", "token", "lunghezz", "sequenz", "righe"),
    "p": Symbol("una probabilità", "probabilit"),
    "q": Symbol("la query di un token", "query"),
    "r": Symbol("il rango (quante colonne ha la matrice sottile di LoRA)", "rango", "lora"),
    "t": Symbol("un passo, del training o della generazione", "passo", "passi"),
    "u": Symbol("un vettore (con v, i due bordi di una matrice di rango 1)", "vettor", "colonna", "riga"),
    "v": Symbol("un vettore (con u, i due bordi di una matrice di rango 1)", "vettor", "colonna", "riga"),
    "w": Symbol("un peso", "peso", "pesi"),
    "x": Symbol("l'ingresso (un numero o un vettore)", "ingress", "vettor", "entra"),
    "y": Symbol("il valore giusto, il bersaglio", "giust", "bersagli", "obiettiv", "target", "one-hot"),
    "ŷ": Symbol("la previsione del modello", "prevision", "previst", "uscit"),
    "z": Symbol("un punteggio prima della non linearità o della softmax (un logit)", "logit", "punteggi", "somma"),
    "β": Symbol("nel DPO, quanto conta il margine (la forza del legame al riferimento)", "margine", "dpo"),
    "ε": Symbol("un numero piccolissimo, per non dividere per zero", "zero", "piccol"),
    "η": Symbol("il learning rate, la lunghezza del passo", "learning rate", "passo"),
    "θ": Symbol("un angolo", "angol", "gradi", "ruot"),
    "μ": Symbol("la media", "media"),
    "π": Symbol("pi greco, 3,14…", "pi greco", "cos", "sin"),
    "σ": Symbol("la deviazione standard", "deviazione standard"),
    "φ": Symbol("un angolo", "angol"),
}

SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉₊₋ₐₑₒₓᵢⱼₖₗₘₙₚₛₜ"
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁱⁿᵀ"
LETTERS = "A-Za-zα-ωΑ-ΡΤ-Ωŷ"  # Σ is the sum, an operator like ∂ and Δ
SCRIPTS = rf"(?:[{SUBSCRIPTS}{SUPERSCRIPTS}]+|_[0-9A-Za-z]+)*"
# a letter alone (no letter, digit or apostrophe touching it), with its scripts; a subscript letter is no symbol
SYMBOL = re.compile(rf"(?<![\w'’{SUBSCRIPTS}{SUPERSCRIPTS}∂Δ])([{LETTERS}])({SCRIPTS})(?![\w'’])")
SYMBOL_KEY = re.compile(rf"[{LETTERS}]")
WORDS = frozenset("aeio")  # Italian words when alone: «e», «a», «i», «o»
OPERATOR = re.compile(r"[=·×+−/()\[\]|²^←→<>]")
# beside one of these an Italian word letter is a variable: «a · b», «e^2», «a = [2 ; 1]» (not «da 1 a −1», «(e altre)»)
AFTER_WORD = re.compile(r"[=≈·×/^(]|\+(?!\d)")
BEFORE_WORD = re.compile(r"[=·×+/]")
UNITS = frozenset("BMKGsh")  # after a number: 7 B, 16 M, 5 s


def symbols_in(text):
    """(letter, as written) for each letter text shows as a variable, in order."""
    for m in SYMBOL.finditer(text):
        letter, scripts = m[1], m[2]
        before, after = text[: m.start()].rstrip(" \t"), text[m.end() :].lstrip()
        if not scripts and letter in WORDS and not (AFTER_WORD.match(after[:2]) or BEFORE_WORD.match(before[-1:])):
            continue
        if before.count("«") > before.count("»"):
            continue  # inside a quote: a token or a name («l», «3 · a», «Aggiungi c»)
        opens = not before or before[-1] in ".!?:;\n"
        if not scripts and letter in "AEIO" and opens and re.match(r" +[^\W_]", text[m.end() :]):
            continue
        if not scripts and letter in UNITS and re.search(r"\d$", before) and not OPERATOR.match(after[:1]):
            continue
        yield letter, letter + scripts


def unwrapped(prose):
    """Markdown prose with its lines joined inside each paragraph: a sentence wrapped in the source is one."""
    return re.sub(r"(?<!\n)\n(?!\n)", " ", prose)


def sentences(text):
    """text cut where a sentence or a line ends: the places a letter is defined in."""
    return [s for s in re.split(r"(?<=[.;:!?])\s+|\n+", text) if s.strip()]


def defined(letter, symbol, texts):
    """True if a sentence of texts holds letter (as a variable) and one of symbol's words, or holds the letter
    right under a line that holds the word (a heading «Le query e le key» over a table «Q»)."""
    for text in texts:
        above = ""
        for s in sentences(text):
            if any(found == letter for found, _ in symbols_in(s)) and any(
                w in (above + s).lower() for w in symbol.words
            ):
                return True
            above = s + " "
    return False


def meaning_of(letter, declared):
    """The Symbol letter stands for on a lab's page: the lab's own, else the glossary's (None: neither)."""
    return declared.get(letter) or GLOSSARY.get(letter)


def notation_problems(shown, texts, declared):
    """Italian lines for each letter shown (symbols_in of the views' text) that the page does not define:
    not in the glossary nor declared, or never said with its meaning's words in texts (prose, labels, views)."""
    problems, seen = [], set()
    for letter, written in shown:
        if letter in seen:
            continue
        seen.add(letter)
        symbol = meaning_of(letter, declared)
        if symbol is None:
            problems.append(f"«{written}» non è nel glossario e il laboratorio non lo dichiara (SYMBOLS)")
        elif not defined(letter, symbol, texts):
            whose = "dichiarato" if letter in declared else "nel glossario"
            problems.append(
                f"«{written}» ({whose}: {symbol.meaning}) non è mai detto: nessuna frase lo scrive accanto a "
                f"«{'» o «'.join(symbol.words)}»"
            )
    return problems


def declaration_problem(symbols, prose):
    """None if SYMBOLS is a valid declaration for a lab of this prose, else the Italian reason."""
    if not isinstance(symbols, dict):
        return f"SYMBOLS dev'essere un dizionario lettera → Symbol(significato, parole) (è {type(symbols).__name__})"
    for letter, symbol in symbols.items():
        if not isinstance(letter, str) or not SYMBOL_KEY.fullmatch(letter):
            return f"in SYMBOLS «{letter}» non è una lettera sola (E, d, η): gli indici non contano"
        if not isinstance(symbol, Symbol) or not symbol.meaning.strip() or not symbol.words:
            return f"in SYMBOLS «{letter}» vuole Symbol(«che cosa è», «una parola che lo dice», …)"
        if symbol == GLOSSARY.get(letter):
            return f"in SYMBOLS «{letter}» ha il significato del glossario: non serve dichiararlo"
        if not defined(letter, symbol, [unwrapped(prose)]):
            return (
                f"SYMBOLS dà a «{letter}» un significato suo ({symbol.meaning}), ma nessuna frase della prosa "
                f"scrive «{letter}» accanto a «{'» o «'.join(symbol.words)}»: di' al lettore che qui cambia"
            )
    return None


__all__ = ["GLOSSARY", "Symbol", "declaration_problem", "defined", "notation_problems", "symbols_in", "unwrapped"]
