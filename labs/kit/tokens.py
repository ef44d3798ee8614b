"""Tokens on the page, and the text a reader writes for a model.

read_words turns a sentence into token IDs of a fixed vocabulary, and
corpus_problem says why a text cannot be trained on: both answer in
Italian, with the words that are wrong, so a lab shows the message as it
is. token_chips draws a sentence as a row of tokens the reader can click;
stage_buttons and recap draw a lab told in stages (the stage to look at as
buttons, what the stage before gave kept small at the top).
"""

from .html import tag

UNITS = {
    "parole": ("parola", "parole", "diverse", "la sola parola"),
    "caratteri": ("carattere", "caratteri", "diversi", "il solo carattere"),
}


def quoted(token):
    """A token in running text, between «»."""
    return f"«{token}»"


def named(tokens, most=3):
    """The first `most` tokens, quoted and joined («a», «b» e altre)."""
    return ", ".join(quoted(t[:20]) for t in tokens[:most]) + (" e altre" if len(tokens) > most else "")


def read_words(text, vocab, limit, example, why=""):
    """(ids, None): the words of text (lower case, the full stop a token of its own) as indices in vocab;
    or (None, message) in Italian: no word (example is a sentence to try), more than `limit` tokens (why
    says why, in brackets), or words that are not in vocab (the first three named)."""
    words = text.lower().replace(".", " . ").split()
    if not words:
        return None, f"Scrivi almeno una parola, per esempio {quoted(example)}."
    if len(words) > limit:
        return None, f"La frase ha {len(words)} token: il modello ne legge al massimo {limit}{why and f' ({why})'}."
    unknown = list(dict.fromkeys(w for w in words if w not in vocab))
    if unknown:
        return None, (
            f"{named(unknown)} {'non è' if len(unknown) == 1 else 'non sono'} nel vocabolario del "
            f"modello, che conosce solo {len(vocab)} token: {', '.join(t for t in vocab if t != '.')} "
            "e il punto «.»."
        )
    return [vocab.index(w) for w in words], None


def corpus_problem(
    tokens, vocab, max_vocab, kind="parole", max_tokens=None, min_tokens=0, short="", wide="", shown=str
):
    """Why a model cannot be trained on these tokens, in Italian, or None: none at all, fewer than
    min_tokens (short says why), one alone repeated, more than max_vocab different ones (wide says why,
    after a comma),
    more than max_tokens. kind is «parole» or «caratteri»; shown writes a token in the message."""
    one, many, different, alone = UNITS[kind]
    if not tokens:
        return "Il testo è vuoto: scrivi qualche frase su cui allenare il modello."
    if len(tokens) < min_tokens:
        return f"Il testo è troppo corto: {len(tokens)} token, ne servono almeno {min_tokens}. {short}".strip()
    if len(vocab) < 2:
        return (
            f"Servono almeno due {many} {different}: con {alone} {quoted(shown(vocab[0]))} non c'è niente da prevedere."
        )
    if len(vocab) > max_vocab:
        return (
            f"Il testo ha {len(vocab)} {many} {different}: qui ne stanno al massimo {max_vocab}{wide}. "
            f"Riusa le stesse {many} o accorcia il testo."
        )
    if max_tokens is not None and len(tokens) > max_tokens:
        return f"Il testo ha {len(tokens)} token: per seguirlo passo per passo ne bastano al massimo {max_tokens}."
    return None


def token_chips(chips, current=None, after=None, small=False, part="frase"):
    """A sentence as a row of tokens. chips are dicts: text, note (the small line under it), set (the
    control a click sets, «posizione=3»: the chip is then a button), title, marks (more classes:
    «is-new»). The chip at index `current` is lit and those after it fade (the model has not read them
    yet); after, a text, follows the current chip (its prediction). small: the tighter row of a vocabulary."""
    items = []
    for k, chip in enumerate(chips):
        marks = [
            *chip.get("marks", ()),
            *["is-current"] * (k == current),
            *["is-later"] * (current is not None and k > current),
        ]
        button = {"data_set": chip["set"], "tabindex": "0", "role": "button"} if chip.get("set") else {}
        items.append(
            tag(
                "span",
                tag("span", chip["text"], class_="lab-token-text"),
                tag("small", chip.get("note", "")),
                class_=" ".join(["lab-token", *marks]),
                title=chip.get("title"),
                **button,
            )
        )
        if k == current and after:
            items.append(tag("span", after, class_="lab-token-next"))
    return tag("div", *items, class_="lab-tokens" + (" is-small" if small else ""), data_part=part)


def stage_buttons(stages, current, name="fase"):
    """The stages of a lab as buttons (stages: (key, label) pairs); a click sets the control `name`."""
    buttons = (
        tag(
            "button",
            label,
            type="button",
            class_="lab-chip is-current" if key == current else "lab-chip",
            data_set=f"{name}={key}",
            aria_current="step" if key == current else None,
        )
        for key, label in stages
    )
    return tag("div", *buttons, class_="lab-chips lab-stages", role="group", aria_label="Fasi")


def recap(title, *pieces):
    """What the stage before gave, kept small at the top of a stage: a title, then the pieces."""
    return tag("div", tag("span", title, class_="lab-recap-title"), *pieces, class_="lab-recap")
