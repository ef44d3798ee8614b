"""What the benchmarks share and that needs no browser (bench_compute.py also
runs inside Pyodide): the settings a reader would try, and the 95th percentile."""


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def changes(lab, rng, count=30):
    """≥ count settings spread over every control: its ends, then random values."""
    sliders = [c for c in lab.params_list if c.kind in ("slider", "choice", "toggle")]
    plan = []
    for c in sliders:
        if c.kind == "slider":
            plan += [{c.name: str(c.max)}, {c.name: str(c.min)}]
        elif c.kind == "choice":
            plan += [{c.name: v} for v, _ in c.options]
        else:
            plan += [{c.name: "1"}, {c.name: "0"}]
    while sliders and len(plan) < count:
        c = rng.choice(sliders)
        if c.kind == "slider":
            plan.append({c.name: str(c.parse(rng.uniform(c.min, c.max)))})
        elif c.kind == "choice":
            plan.append({c.name: rng.choice(c.options)[0]})
        else:
            plan.append({c.name: rng.choice("01")})
    return plan
