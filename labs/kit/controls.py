"""Declared controls: a lab lists them, the kit draws and parses them.

Every control turns a raw value (from the URL, the page or the command line,
usually a string) into a clean parameter. Leniently for the page, where a
value out of range is clamped and a bad one falls back to the default;
strictly for the command line, where it is an error with an Italian message.
"""

import math
from dataclasses import dataclass, field


class ParamError(ValueError):
    """A raw value that a control cannot accept (the message is Italian)."""


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
    kind = "slider"

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


@dataclass(frozen=True)
class Choice:
    """One of a fixed list of options, each (value, Italian label)."""

    name: str
    label: str
    options: tuple
    default: str
    help: str = ""
    kind = "choice"

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
    kind = "toggle"

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
class Steps:
    """The step of a stepped lab, moved by «Avanti», «Indietro», «Ricomincia», «Play»."""

    max: int
    name: str = "passo"
    label: str = "Passo"
    default: int = 0
    help: str = ""
    kind = "steps"

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
    """Controls shown together under a caption (e.g. «Ingressi», «Pesi»)."""

    label: str
    controls: tuple = field(default_factory=tuple)
    help: str = ""
    kind = "group"


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
