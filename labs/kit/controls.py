"""Declared controls: a lab lists them, the kit draws and parses them.

Every control turns a raw value (from the URL, the page or the command line,
usually a string) into a clean parameter. Leniently for the page, where a
value out of range is clamped and a bad one falls back to the default;
strictly for the command line, where it is an error with an Italian message.
"""

import math
import re
from dataclasses import dataclass
from dataclasses import field

from .errors import ContractError
from .errors import ParamError
from .errors import declared_at
from .folds import FOLDS_PARAM

# what the page writes in the URL beside the controls (templates/runtime/page/url.js): no control may be called so
PAGE_NAMES = {FOLDS_PARAM: "le sezioni aperte", "numeri": "«Mostra i numeri» delle matrici"}

# A declaration is checked when it is made, so a mistake points at the line
# of the lab that wrote it, not at the first reader who moves the control.
KIND_NAMES = {
    "slider": "il cursore",
    "choice": "la scelta",
    "text": "il testo",
    "toggle": "l'interruttore",
    "steps": "i passi",
    "group": "il gruppo",
}
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # it travels in URLs and in data-set="a=1;b=2"


def _declared(control, problems):
    """Remember where control was declared; raise ContractError with the first problem."""
    where = declared_at()
    object.__setattr__(control, "_where", where)
    for broken, message in problems:
        if broken:
            who = KIND_NAMES[control.kind] + (f" «{control.name}»" if hasattr(control, "name") else "")
            raise ContractError(f"{where}: {who}: {message}")


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _named(control):
    """The problems every named control can have."""
    return [
        (
            not isinstance(control.name, str) or not NAME.fullmatch(control.name),
            f"il nome {control.name!r} deve essere un identificatore (lettere, cifre, _), finisce nell'URL",
        ),
        (
            isinstance(control.name, str) and control.name in PAGE_NAMES,
            f"il nome «{control.name}» è della pagina, che lo scrive nell'URL per {PAGE_NAMES.get(control.name)}: "
            "scegline un altro",
        ),
        (not isinstance(control.label, str) or not control.label.strip(), "manca l'etichetta (label)"),
        (not isinstance(control.help, str), "help dev'essere un testo"),
        (not isinstance(getattr(control, "primary", False), bool), "primary dev'essere True o False"),
    ]


def _number(text):
    value = float(str(text).strip().replace(",", "."))
    if not math.isfinite(value):
        raise ValueError
    return value


@dataclass(frozen=True)
class Slider:
    """A number between min and max, in steps of step."""

    name: str
    label: str
    min: float
    max: float
    step: float
    default: float
    help: str = ""
    primary: bool = False  # also in the lab's bar: sticky under the view on a phone, on top of the column
    kind = "slider"

    def __post_init__(self):
        problems = _named(self)
        if not all(_is_number(v) for v in (self.min, self.max, self.step, self.default)):
            _declared(
                self,
                problems
                + [
                    (
                        True,
                        "min, max, step e default devono essere numeri finiti "
                        f"(sono {self.min!r}, {self.max!r}, {self.step!r}, {self.default!r})",
                    )
                ],
            )
        _declared(
            self,
            problems
            + [
                (not self.min < self.max, f"min ({self.min:g}) dev'essere minore di max ({self.max:g})"),
                (not self.step > 0, f"step dev'essere maggiore di zero (è {self.step:g})"),
                (
                    not self.min <= self.default <= self.max,
                    f"il valore iniziale {self.default:g} è fuori dall'intervallo da {self.min:g} a {self.max:g}",
                ),
                (
                    self.step > 0 and not _on_grid(self.default, self.min, self.step),
                    f"il valore iniziale {self.default:g} non si raggiunge a passi di {self.step:g} da {self.min:g}",
                ),
            ],
        )

    def parse(self, raw, strict=False):
        try:
            value = _number(raw)
        except (TypeError, ValueError):
            if strict:
                raise ParamError(f"«{self.name}» vuole un numero tra {self.min} e {self.max}, non «{raw}»") from None
            return self.default
        if strict and not self.min <= value <= self.max:
            raise ParamError(f"«{self.name}» deve stare tra {self.min} e {self.max} (ricevuto {raw})")
        value = min(self.max, max(self.min, value))
        value = self.min + round((value - self.min) / self.step) * self.step
        value = min(self.max, value)
        if self.integer:
            return int(round(value))
        return round(value, 10)

    @property
    def integer(self):
        return all(float(v).is_integer() for v in (self.min, self.step, self.default))


def _on_grid(value, start, step):
    k = (value - start) / step
    return abs(k - round(k)) <= 1e-9 * max(1.0, abs(k))


@dataclass(frozen=True)
class Choice:
    """One of a fixed list of options, each (value, Italian label)."""

    name: str
    label: str
    options: tuple
    default: str
    help: str = ""
    primary: bool = False  # also in the lab's bar, like Slider.primary
    kind = "choice"

    def __post_init__(self):
        pairs = isinstance(self.options, (tuple, list)) and all(
            isinstance(o, (tuple, list)) and len(o) == 2 and all(isinstance(x, str) for x in o) for o in self.options
        )
        values = [v for v, _ in self.options] if pairs else []
        _declared(
            self,
            _named(self)
            + [
                (not pairs, "options dev'essere una tupla di coppie (valore, etichetta), entrambi testi"),
                (pairs and not values, "options è vuota: serve almeno un'opzione"),
                (
                    len(set(values)) != len(values),
                    f"due opzioni con lo stesso valore: {', '.join(sorted({v for v in values if values.count(v) > 1}))}",
                ),
                (
                    pairs and values and self.default not in values,
                    f"il valore iniziale {self.default!r} non è tra le opzioni ({', '.join(values)})",
                ),
            ],
        )

    def parse(self, raw, strict=False):
        values = [v for v, _ in self.options]
        if str(raw) in values:
            return str(raw)
        if strict:
            raise ParamError(f"«{self.name}» può valere: {', '.join(values)} (ricevuto «{raw}»)")
        return self.default


@dataclass(frozen=True)
class Text:
    """Free text typed by the reader, at most max_length characters."""

    name: str
    label: str
    default: str = ""
    max_length: int = 2000
    multiline: bool = False
    help: str = ""
    kind = "text"

    def __post_init__(self):
        size = isinstance(self.max_length, int) and not isinstance(self.max_length, bool) and self.max_length > 0
        _declared(
            self,
            _named(self)
            + [
                (not size, f"max_length dev'essere un intero positivo (è {self.max_length!r})"),
                (not isinstance(self.default, str), f"il valore iniziale dev'essere un testo (è {self.default!r})"),
                (
                    size and isinstance(self.default, str) and len(self.default) > self.max_length,
                    f"il valore iniziale è lungo {len(str(self.default))} caratteri, più di max_length ({self.max_length})",
                ),
            ],
        )

    def parse(self, raw, strict=False):
        text = "" if raw is None else str(raw)
        if len(text) > self.max_length:
            if strict:
                raise ParamError(f"«{self.name}» accetta al massimo {self.max_length} caratteri")
            text = text[: self.max_length]
        return text


@dataclass(frozen=True)
class Toggle:
    """On or off."""

    name: str
    label: str
    default: bool = False
    help: str = ""
    primary: bool = False  # also in the lab's bar, like Slider.primary
    kind = "toggle"

    def __post_init__(self):
        _declared(
            self,
            _named(self)
            + [
                (
                    not isinstance(self.default, bool),
                    f"il valore iniziale dev'essere True o False (è {self.default!r})",
                ),
            ],
        )

    TRUE = ("1", "true", "on", "si", "sì", "yes")
    FALSE = ("0", "false", "off", "no", "")

    def parse(self, raw, strict=False):
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in self.TRUE:
            return True
        if text in self.FALSE:
            return False
        if strict:
            raise ParamError(f"«{self.name}» vuole 1 oppure 0 (ricevuto «{raw}»)")
        return self.default


@dataclass(frozen=True)
class Jump:
    """A named jump of the timeline. `to` is a number of steps forward (10),
    "fine" (the last step), "giro" (the end of the current round of phases),
    or a function state → step (or None when the jump does not apply now)."""

    label: str
    to: object


@dataclass(frozen=True)
class Curve:
    """The small curve beside the timeline: state[key] is the list of values
    so far (never the future); `points` is how many it has at the last step,
    so the axes do not move while it grows."""

    key: str
    label: str = "loss"
    points: int = 0


@dataclass(frozen=True)
class Steps:
    """The step of a stepped lab: a timeline with a scrubber, «Avanti»,
    «Indietro», «Ricomincia», Play with speeds, named jumps and, where the
    lab has them, its phases as chips (the first `prelude` phases happen
    once, the others repeat round after round). `label` is the unit of the
    counter: «Passo 12 di 80», «Fusione 12 di 80»."""

    max: int
    name: str = "passo"
    label: str = "Passo"
    default: int = 0
    help: str = ""
    phases: tuple = ()
    prelude: int = 0
    jumps: tuple = ()
    curve: Curve | None = None
    kind = "steps"

    def __post_init__(self):
        whole = [isinstance(v, int) and not isinstance(v, bool) for v in (self.max, self.default)]
        _declared(
            self,
            _named(self)
            + [
                (not whole[0] or self.max < 1, f"max dev'essere un intero, almeno 1 (è {self.max!r})"),
                (not whole[1], f"il passo iniziale dev'essere un intero (è {self.default!r})"),
                (
                    all(whole) and not 0 <= self.default <= self.max,
                    f"il passo iniziale {self.default} è fuori dall'intervallo da 0 a {self.max}",
                ),
            ],
        )

    def parse(self, raw, strict=False):
        try:
            value = _number(raw)
        except (TypeError, ValueError):
            if strict:
                raise ParamError(f"«{self.name}» vuole un numero intero tra 0 e {self.max}") from None
            return self.default
        if strict and not (value.is_integer() and 0 <= value <= self.max):
            raise ParamError(f"«{self.name}» vuole un numero intero tra 0 e {self.max} (ricevuto {raw})")
        return int(min(self.max, max(0, round(value))))


@dataclass(frozen=True)
class Group:
    """Controls shown together under a caption (e.g. «Ingressi», «Pesi»)
    that the reader can fold; open=False starts folded (the groups that
    matter less, in a lab with many controls)."""

    label: str
    controls: tuple = field(default_factory=tuple)
    help: str = ""
    open: bool = True
    kind = "group"

    def __post_init__(self):
        inside = self.controls if isinstance(self.controls, (tuple, list)) else None
        _declared(
            self,
            [
                (not isinstance(self.label, str) or not self.label.strip(), "manca il titolo del gruppo (label)"),
                (not isinstance(self.open, bool), f"open dev'essere True o False (è {self.open!r})"),
                (inside is None, f"controls dev'essere una tupla di comandi (è {self.controls!r})"),
                (
                    inside is not None and any(getattr(c, "kind", None) not in KIND_NAMES for c in inside),
                    "controls contiene qualcosa che non è un comando del kit (Slider, Choice, Text, Toggle, Steps, Group)",
                ),
            ],
        )


@dataclass(frozen=True)
class Follow:
    """What a lab's follow(state) says of one control now: disabled (with
    the reason shown beside it), hidden, or with another range.

    keep_end: a value at the end of its range stays at the end when the range
    grows, as a reader moving something else expects (1.4's analysed token is
    the sentence's last while tokens are added with a slider). A range that
    shrinks below the value moves it to the new end anyway (drawing.narrow)."""

    disabled: str = ""
    hidden: bool = False
    min: float | None = None
    max: float | None = None
    keep_end: bool = False

    def as_json(self):
        return {
            "disabled": self.disabled,
            "hidden": self.hidden,
            "min": self.min,
            "max": self.max,
            "keep_end": self.keep_end,
        }


def flatten(controls):
    """The controls of a lab in order, groups opened."""
    for c in controls:
        if isinstance(c, Group):
            yield from flatten(c.controls)
        else:
            yield c


def parse_params(controls, raw, strict=False):
    """Raw values → clean parameters, one per control (defaults where missing).

    strict: unknown names and bad values raise ParamError instead of being
    dropped, clamped or replaced by the default.
    """
    controls = list(flatten(controls))
    names = [c.name for c in controls]
    unknown = sorted(set(raw) - set(names))
    if strict and unknown:
        valid = ", ".join(names) if names else "nessuno"
        raise ParamError(f"parametro sconosciuto: {', '.join(unknown)}. Parametri validi: {valid}")
    return {c.name: c.parse(raw[c.name], strict) if c.name in raw else c.default for c in controls}
