"""Run labs without a browser.

    python -m labs list [--json]
    python -m labs run <id> [--steps N] [--html] [name=value ...]
    python -m labs run --file laboratorio_modificato.py [name=value ...]
    python -m labs new <capitolo> <id> "Titolo"
    python -m labs new --dopo <id di un laboratorio> <id> "Titolo"
    python -m labs new … --passi          (un laboratorio a passi: start, advance, present)
    python -m labs new … --esercizio      (con lo scheletro di un «Esercizio» sulla funzione di core/ che usa)
    python -m labs core [parola]          (le funzioni pubbliche di core/, chi le usa)

`run` prints the lab's state as JSON; `new` writes a lab module that already
builds and passes the contract tests. Flags and name=value go in any order.
Every mistake (an unknown lab, a bad value, a lab module that breaks the
contract, a lab that crashes) is one Italian line on stderr, exit status 2.
"""

import json
import os
import sys
from pathlib import Path

from .cli import Parser
from .cli import assignments
from .cli import crash_line
from .drawing import NotFinite
from .drawing import draw
from .kit.errors import ContractError
from .kit.errors import LabError
from .kit.errors import ParamError
from .kit.errors import place
from .kit.italian import plural
from .registry import all_labs
from .registry import from_file
from .registry import get
from .registry import problems
from .scaffold import new_lab
from .scaffold import new_test

COMMANDS = ("list", "run", "new", "core")


def parsers():
    top = Parser(prog="python -m labs", description="Laboratori LLM da riga di comando.")
    top.add_argument("command", choices=COMMANDS, metavar="comando", help="list, run, new oppure core")
    top.add_argument("rest", nargs="...", help="gli argomenti del comando (python -m labs <comando> -h)")
    listing = Parser(prog="python -m labs list", description="Elenca i laboratori.")
    listing.add_argument("--json", action="store_true", help="un oggetto JSON per laboratorio")
    run = Parser(prog="python -m labs run", description="Calcola lo stato di un laboratorio e lo stampa come JSON.")
    run.add_argument("lab", metavar="laboratorio", nargs="?")
    run.add_argument("params", nargs="*", metavar="nome=valore")
    run.add_argument(
        "--file", metavar="FILE.py", help="un laboratorio scaricato da «Il codice Python» (con le modifiche)"
    )
    run.add_argument("--steps", type=int, default=None, help="nei laboratori a passi: avanza di N passi")
    run.add_argument("--html", action="store_true", help="stampa anche l'HTML della vista")
    new = Parser(prog="python -m labs new", description="Scrive un nuovo laboratorio, pronto da riscrivere.")
    new.add_argument("chapter", metavar="capitolo", nargs="?", help="1, 2, … oppure A (con --dopo non serve)")
    new.add_argument("lab", metavar="id", help="con i trattini: prodotto-scalare")
    new.add_argument("title", metavar="titolo", help="il titolo della pagina, tra virgolette")
    new.add_argument(
        "--dopo",
        metavar="ID",
        help="mettilo subito dopo questo laboratorio, senza cambiare il REF di nessun altro: 2.4 → 2.4.1 se 2.5 c'è già",
    )
    new.add_argument(
        "--passi", action="store_true", help="un laboratorio a passi (start, advance, present, Avanti e Indietro)"
    )
    new.add_argument(
        "--esercizio",
        action="store_true",
        help="con uno scheletro di «Esercizio»: il lettore scrive la funzione di core/ che il laboratorio usa",
    )
    core = Parser(
        prog="python -m labs core",
        description="Le funzioni pubbliche di core/: firma, prima riga della docstring e i laboratori che le usano.",
    )
    core.add_argument(
        "word", metavar="parola", nargs="?", help="solo le funzioni con questa parola nel nome o nella riga"
    )
    return top, {"list": listing, "run": run, "new": new, "core": core}


def main(argv=None):
    top, commands = parsers()
    first = top.parse_args(sys.argv[1:] if argv is None else argv)
    args = commands[first.command].parse(first.rest)
    try:
        return {"list": list_labs, "run": run_lab, "new": write_lab, "core": list_core}[first.command](args)
    except (LookupError, ParamError, LabError, ContractError) as error:
        print(f"errore: {error}", file=sys.stderr)
        return 2


def list_labs(args):
    for lab in all_labs():
        print(json.dumps(lab.summary(), ensure_ascii=False) if args.json else f"{lab.ref:6} {lab.id:24} {lab.title}")
    for line in problems().values():  # the labs above work; these modules do not
        print(f"errore: {line}", file=sys.stderr)
    return 2 if problems() else 0


def run_lab(args):
    if args.file:
        lab = from_file(Path(args.file))
        if args.lab:  # with --file every positional is a name=value
            args.params.insert(0, args.lab)
    elif args.lab:
        lab = get(args.lab)
    else:
        raise ParamError("manca: laboratorio (un id da «python -m labs list», oppure --file FILE.py)")
    raw = assignments(args.params)
    if args.steps is not None:
        steps = [c for c in lab.params_list if c.kind == "steps"]
        if not steps:
            raise ParamError(f"«{lab.id}» non è un laboratorio a passi: --steps non si applica")
        raw[steps[0].name] = str(args.steps)
    drawing = draw(lab, raw, strict=True, finite=True)  # the state the page would show, follow() included
    failure = drawing.failure
    if isinstance(failure, LabError):
        raise failure
    if isinstance(failure, NotFinite):
        raise ContractError(f"{place(lab.module.__file__)}: compute ha restituito un {failure}") from None
    if failure is not None:  # a bug in the lab: where it is, not a traceback
        raise ContractError(crash_line(lab, failure)) from None
    if not drawing.ok:  # view() broke the contract
        raise ContractError(drawing.error)
    output = {"lab": lab.id, "params": drawing.params, "state": drawing.state}
    if args.html:
        output["html"] = str(drawing.html)
    print(json.dumps(output, ensure_ascii=False, indent=2))
    return 0


def write_lab(args):
    root = Path(__file__).parent.parent
    if args.chapter is None and args.dopo is None:  # two words: the chapter and the id, with no title after
        raise ContractError(f'manca: titolo (python -m labs new {args.lab} {args.title} "Il titolo")')
    target, ref = new_lab(
        root / "labs",
        args.chapter,
        args.lab,
        args.title,
        all_labs(),
        problems(),
        after=args.dopo,
        stepped=args.passi,
        exercise=args.esercizio,
    )
    lab_id = args.lab
    test = (
        new_test(root / "tests" / "labs", lab_id, ref, args.title, args.passi)
        if (root / "tests" / "labs").is_dir()
        else None
    )
    print(
        f"Scritto {target.relative_to(root)} (REF {ref})"
        + (f" e il suo test {test.relative_to(root)}" if test else "")
        + ". Provalo con "
        f"«python -m labs run {lab_id}», guardalo con «python scripts/preview.py {lab_id}», "
        f"controllalo tutto con «make check LAB={lab_id}»."
    )
    return 0


def list_core(args):
    """core/'s public functions, file by file: signature, caption, and who reads each (labs, then core/)."""
    from sitebuild.core_rules import core_index  # here: only this command reads core/'s syntax trees

    word = (args.word or "").lower()
    rows = [row for row in core_index() if word in row[1].lower() or word in row[2].lower()]
    if not rows:
        raise LookupError(f"nessuna funzione di core/ con «{args.word}» nel nome o nella descrizione")
    shown = None
    for file, signature, caption, lab_ids, callers in rows:
        if file != shown:
            print(("\n" if shown else "") + file)
            shown = file
        print(f"  {signature}\n      {caption or '(manca la docstring)'}")
        users = [f"da {', '.join(lab_ids)}"] if lab_ids else []
        users += [f"in core/ da {', '.join(callers)}"] if callers else []
        print(
            f"      usata {'; '.join(users)}"
            if users
            else "      non la usa nessun laboratorio né altro codice di core/"
        )
    print(
        f"\n{plural(len(rows), 'funzione', 'funzioni')}. Un nome nuovo in core/ dev'essere diverso da tutti questi "
        "(una funzione per nome, anche in file diversi)."
    )
    return 0


def quiet_pipe(run):
    """run() with a reader that stops early (| head) ending it quietly, as cat does: no traceback."""
    try:
        status = run()
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the exit's own flush must not fail too
        return 1


if __name__ == "__main__":
    sys.exit(quiet_pipe(main))
