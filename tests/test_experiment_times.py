"""scripts/experiment_times.py's table: a line per «Prova», flagged past 2 s, and the pages past 300 kB."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import experiment_times as et  # noqa: E402

import labs  # noqa: E402

LAB = labs.get("transformer-allenato")


def test_a_row_per_experiment_with_the_median_of_its_clicks():
    times = {0: [120.0, 90.0, 3000.0], 1: [None, 2500.0, 2600.0]}
    rows = et.lab_rows(LAB, LAB.experiments[:3], times, {0: True}, 310_000, 1_200_000)
    assert [(r["n"], r["median_ms"], r["max_ms"], r["timeouts"], r["ready"]) for r in rows] == [
        (1, 120, 3000, 0, True),
        (2, 2550, 2600, 1, False),
        (3, None, None, 0, False),
    ]
    assert [et.slow(r) for r in rows] == [False, True, True]
    assert "OLTRE 2 s" not in et.line(rows[0]) and "OLTRE 2 s" in et.line(rows[1])
    assert "pronto" in et.line(rows[0]) and "pagina 310 kB gzip, risposte 1200 kB" in et.line(rows[0])
    assert et.verdict(rows, 3) == (
        "3 esperimenti, mediana di 3 clic ciascuno; oltre 2000 ms: 2; pagine oltre 300 kB gzip: 1 "
        "(3.2 transformer-allenato)"
    )
