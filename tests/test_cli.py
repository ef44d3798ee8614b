import json
import subprocess
import sys
from pathlib import Path

import labs


def cli(*args):
    return subprocess.run([sys.executable, "-m", "labs", *args], capture_output=True, text=True, timeout=60)


def test_list_json_has_one_object_per_lab():
    out = cli("list", "--json")
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["id"] for r in rows] == [lab.id for lab in labs.all_labs()]
    for row in rows:
        assert {"id", "ref", "chapter", "title", "path"} <= set(row)


def test_run_prints_state_as_json():
    out = cli("run", "ombrello", "vento=1")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["params"]["vento"] == 1.0
    assert data["state"]["network"]["umbrella"] is False


def test_run_steps_advances_a_stepped_lab():
    data = json.loads(cli("run", "backprop-due-pesi", "--steps", "4").stdout)
    assert data["state"]["phase"] == 4 and data["state"]["loss"] > 0


def test_errors_are_clear_and_nonzero():
    unknown_lab = cli("run", "nessuno")
    assert (
        unknown_lab.returncode != 0
        and "laboratorio sconosciuto" in unknown_lab.stderr
        and "ombrello" in unknown_lab.stderr
    )
    unknown_param = cli("run", "ombrello", "grandine=1")
    assert (
        unknown_param.returncode != 0 and "Parametri validi" in unknown_param.stderr and "vento" in unknown_param.stderr
    )
    bad_value = cli("run", "ombrello", "vento=tanto")
    assert bad_value.returncode != 0 and "vento" in bad_value.stderr
    not_stepped = cli("run", "ombrello", "--steps", "2")
    assert not_stepped.returncode != 0 and "passi" in not_stepped.stderr


def test_flags_and_values_go_in_any_order():
    html_last = cli("run", "ombrello", "vento=1", "--html")
    html_first = cli("run", "ombrello", "--html", "vento=1")
    assert html_first.returncode == 0, html_first.stderr
    assert json.loads(html_first.stdout) == json.loads(html_last.stdout)
    assert json.loads(html_first.stdout)["params"]["vento"] == 1.0 and "<" in json.loads(html_first.stdout)["html"]
    steps_first = cli("run", "backprop-due-pesi", "--steps", "3", "x=1")
    steps_last = cli("run", "backprop-due-pesi", "x=1", "--steps", "3")
    assert steps_first.returncode == 0, steps_first.stderr
    assert json.loads(steps_first.stdout) == json.loads(steps_last.stdout)
    assert json.loads(steps_first.stdout)["state"]["phase"] == 3


MISTAKES = [
    (("run", "ombrello", "vento"), "non è nella forma nome=valore"),
    (("run", "ombrello", "vento=1", "vento=0"), "compare due volte"),
    (("run",), "manca: laboratorio"),
    (("run", "ombrello", "--steps"), "--steps vuole un valore"),
    (("run", "ombrello", "--steps", "tre"), "--steps vuole un numero intero, non «tre»"),
    (("run", "ombrello", "--colore"), "argomenti non riconosciuti: --colore"),
    (("corri", "ombrello"), "«corri» non è tra le scelte possibili"),
    ((), "manca: comando"),
    (("new", "7", "nuovo-lab", "Titolo"), "il capitolo «7» non esiste: i capitoli sono 1, 2"),
    (("new", "1", "ombrello", "Titolo"), "l'id «ombrello» esiste già: labs/ch1/ombrello.py"),
    (("new", "1", "Nuovo_Lab", "Titolo"), "solo lettere minuscole"),
    (("new", "1", "nuovo-lab"), "manca: titolo"),
]


def test_every_mistake_is_one_italian_line_with_exit_2():
    for args, says in MISTAKES:
        out = cli(*args)
        assert out.returncode == 2, (args, out.stderr)
        assert out.stdout == "" and len(out.stderr.splitlines()) == 1, (args, out.stderr)
        assert out.stderr.startswith("errore: ") and says in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr and "usage" not in out.stderr, args


def test_a_lab_that_crashes_is_one_line_naming_where(monkeypatch, capsys):
    import core.losses
    from labs.__main__ import main

    lab = labs.get("ombrello")
    monkeypatch.setattr(lab.module, "compute", lambda params: core.losses.cross_entropy(-1.0))
    assert main(["run", "ombrello"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("errore: core/losses.py, riga ")
    assert "«ombrello» si è interrotto: ValueError" in err
    monkeypatch.setattr(lab.module, "view", lambda state: "<p>non sicuro</p>")
    monkeypatch.setattr(lab.module, "compute", lambda params: {})
    assert main(["run", "ombrello", "--html"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("errore: labs/ch1/ombrello.py, riga ") and "ha restituito una str" in err


def test_a_broken_module_is_listed_and_named_only_when_asked_for(monkeypatch, capsys):
    from labs.__main__ import main

    line = "labs/ch2/rotto.py, riga 3: REF «9B.2» è del capitolo 9, ma il file è in labs/ch2/"
    good = labs.all_labs()
    monkeypatch.setattr(labs.registry, "_discovered", lambda: (good, {"rotto": line}))
    assert main(["list"]) == 2
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == len(good) and out.err == f"errore: {line}\n"
    assert main(["run", "rotto"]) == 2 and capsys.readouterr().err == f"errore: {line}\n"
    assert main(["run", "ombrello", "vento=1"]) == 0  # the other labs keep working


def preview(*args):
    script = Path(__file__).resolve().parent.parent / "scripts" / "preview.py"
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=60)


def test_preview_mistakes_are_one_italian_line_with_exit_2():
    for args, says in [
        (("ombrello", "vento"), "«vento» non è nella forma nome=valore"),
        (("nessuno",), "laboratorio sconosciuto: «nessuno»"),
        (("ombrello", "vento=9"), "«vento» deve stare tra 0.0 e 1.0"),
        (("ombrello", "--width", "largo"), "--width vuole un numero intero"),
        ((), "manca: laboratorio"),
    ]:
        out = preview(*args)
        assert out.returncode == 2 and len(out.stderr.splitlines()) == 1, (args, out.stderr)
        assert out.stderr.startswith("errore: ") and says in out.stderr, (args, out.stderr)


def test_a_reader_that_stops_early_gets_no_traceback():
    """python -m labs run … | head: the pipe is closed before the state is printed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "labs", "run", "ombrello"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdout.close()  # gone before the lab is even imported: every write meets a closed pipe
    error = process.stderr.read().decode()
    process.wait(timeout=60)
    assert "Traceback" not in error and "BrokenPipeError" not in error, error


def test_preview_of_a_lab_that_crashes_exits_2_naming_file_and_line(tmp_path):
    """preview.py draws nothing for a crash: one line with the place of the exception, exit 2."""
    runner = tmp_path / "crash.py"
    script = Path(__file__).resolve().parent.parent / "scripts" / "preview.py"
    runner.write_text(
        "import runpy, sys\n"
        f"sys.argv = [{str(script)!r}, 'ombrello']\n"
        f"sys.path.insert(0, {str(script.parent.parent)!r})\n"
        "import core.losses, labs\n"
        "labs.get('ombrello').module.compute = lambda params: core.losses.cross_entropy(0.0)\n"
        f"runpy.run_path({str(script)!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    out = subprocess.run([sys.executable, str(runner)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1, out.stderr
    assert out.stderr.startswith("errore: core/losses.py, riga ") and "ValueError" in out.stderr, out.stderr
    assert not out.stdout


def test_serve_on_a_busy_port_says_so_in_one_italian_line(site_dir):
    import socket

    script = Path(__file__).resolve().parent.parent / "scripts" / "serve.py"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(
            [sys.executable, str(script), "--port", str(port), "--dir", str(site_dir)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.strip() == out.stderr.strip().splitlines()[0] and f"PORT={port + 1}" in out.stderr, out.stderr


def test_core_lists_every_public_function_with_its_caption_and_who_uses_it():
    """python -m labs core: what core/ has, so a new function's name is not one already taken."""
    from sitebuild.core_rules import core_modules, public_functions

    out = cli("core")
    assert out.returncode == 0, out.stderr
    names = [f.name for tree in core_modules().values() for f in public_functions(tree)]
    listed = [
        line.strip().split("(")[0]
        for line in out.stdout.splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    ]
    assert listed == names
    assert out.stdout.strip().endswith("diverso da tutti questi (una funzione per nome, anche in file diversi).")
    found = cli("core", "naive_exp").stdout.splitlines()
    assert found[:4] == [
        "core/softmax.py",
        "  naive_exp(x)",
        "      e^x, o None dove va in overflow: ciò che troverebbe la softmax senza togliere il massimo.",
        "      usata da softmax-temperatura",
    ]
    softmax = cli("core", "softmax(logits").stdout
    assert "usata da bigrammi, gradiente-logit" in softmax and "; in core/ da attention_weights" in softmax
    assert "usata in core/ da Value" in cli("core", "as_value").stdout  # a class's methods are its callers
    missing = cli("core", "nessuna-parola")
    assert missing.returncode == 2 and "nessuna funzione di core/ con «nessuna-parola»" in missing.stderr
