import json
import subprocess
import sys

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
    assert unknown_lab.returncode != 0 and "laboratorio sconosciuto" in unknown_lab.stderr and "ombrello" in unknown_lab.stderr
    unknown_param = cli("run", "ombrello", "grandine=1")
    assert unknown_param.returncode != 0 and "Parametri validi" in unknown_param.stderr and "vento" in unknown_param.stderr
    bad_value = cli("run", "ombrello", "vento=tanto")
    assert bad_value.returncode != 0 and "vento" in bad_value.stderr
    not_stepped = cli("run", "ombrello", "--steps", "2")
    assert not_stepped.returncode != 0 and "passi" in not_stepped.stderr
