"""What the command-line tools share (python -m labs, scripts/preview.py):
an argument parser that takes flags and name=value in any order and reports
every mistake as one Italian line with exit status 2, never a traceback."""

import argparse
import re
import sys

from .kit.errors import ParamError
from .kit.errors import crash_place
from .kit.errors import describe

# argparse's own messages, in Italian
MESSAGES = (
    (r"the following arguments are required: (.*)", r"manca: \1"),
    (r"unrecognized arguments: (.*)", r"argomenti non riconosciuti: \1"),
    (r"argument (\S+): invalid int value: '(.*)'", r"\1 vuole un numero intero, non «\2»"),
    (r"argument (\S+): invalid float value: '(.*)'", r"\1 vuole un numero, non «\2»"),
    (r"argument (\S+): expected one argument", r"\1 vuole un valore"),
    (r"argument (\S+): invalid choice: '(.*?)' \(choose from (.*)\)", r"«\2» non è tra le scelte possibili: \3"),
    (r"argument (\S+): ignored explicit argument '(.*)'", r"\1 non vuole un valore (ricevuto «\2»)"),
)


def italian(message):
    for pattern, replacement in MESSAGES:
        if re.fullmatch(pattern, message):
            return re.sub(pattern, replacement, message).replace("'", "")
    return message


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose mistakes are one Italian line and exit status 2."""

    def error(self, message):
        required = re.fullmatch(r"the following arguments are required: (.*)", message)
        if required:  # argparse also names the positionals that may be left out
            optional = {a.metavar or a.dest for a in self._actions if a.nargs in ("*", "?", "...")}
            message = "manca: " + ", ".join(n for n in required.group(1).split(", ") if n not in optional)
        self.exit(2, f"errore: {italian(message)} (aiuto: {self.prog} -h)\n")

    def parse(self, argv):
        """Options and positionals in any order: `run x --html a=2` as `run x a=2 --html`."""
        return self.parse_intermixed_args(argv)


def assignments(items):
    """["x=1", "nome=Anna"] → {"x": "1", "nome": "Anna"}; ParamError for an item without «=»."""
    raw = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise ParamError(f"«{item}» non è nella forma nome=valore")
        if name in raw:
            raise ParamError(f"«{name}» compare due volte")
        raw[name] = value
    return raw


def crash_line(lab, error):
    """One Italian line for a lab that raised while computing or drawing: the
    place of the exception (the last frame inside labs/ or core/) and what it was."""
    return f"{crash_place(error)}: il laboratorio «{lab.id}» si è interrotto: {describe(error)}"


def fail(message, status=2):
    """Print «errore: message» on stderr and leave with status."""
    print(f"errore: {message}", file=sys.stderr)
    sys.exit(status)


__all__ = ["Parser", "assignments", "crash_line", "fail", "italian"]
