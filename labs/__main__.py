"""Run labs without a browser.

    python -m labs list [--json]
    python -m labs run <id> [--steps N] [name=value ...]

`run` prints the lab's state as JSON; unknown labs, unknown parameters and
bad values are reported in Italian with a non-zero exit code.
"""

import argparse
import json
import sys

from . import LabError, ParamError, all_labs, check_finite, get


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m labs", description="Laboratori LLM da riga di comando.")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="elenca i laboratori")
    listing.add_argument("--json", action="store_true", help="un oggetto JSON per laboratorio")
    run = commands.add_parser("run", help="calcola lo stato di un laboratorio e lo stampa come JSON")
    run.add_argument("lab")
    run.add_argument("--steps", type=int, default=None, help="nei laboratori a passi: avanza di N passi")
    run.add_argument("--html", action="store_true", help="stampa anche l'HTML della vista")
    run.add_argument("params", nargs="*", metavar="nome=valore")
    args = parser.parse_args(argv)

    if args.command == "list":
        for lab in all_labs():
            print(json.dumps(lab.summary(), ensure_ascii=False) if args.json else f"{lab.ref:6} {lab.id:24} {lab.title}")
        return 0

    try:
        lab = get(args.lab)
        raw = {}
        for item in args.params:
            name, sep, value = item.partition("=")
            if not sep:
                raise ParamError(f"«{item}» non è nella forma nome=valore")
            raw[name] = value
        if args.steps is not None:
            steps = [c for c in lab.params_list if c.kind == "steps"]
            if not steps:
                raise ParamError(f"«{lab.id}» non è un laboratorio a passi: --steps non si applica")
            raw[steps[0].name] = str(args.steps)
        params = lab.parse(raw, strict=True)
        state = lab.compute(params)
        check_finite(state)
        output = {"lab": lab.id, "params": params, "state": state}
        if args.html:
            output["html"] = str(lab.view(state))
    except (LookupError, ParamError, LabError) as error:
        print(f"errore: {error}", file=sys.stderr)
        return 2
    print(json.dumps(output, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
