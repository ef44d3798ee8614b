"""axe-core over every lab page of a built site, light and dark: counts by impact and rule.

    python scripts/axe_report.py [--site site] [--only TESTO] [--lab ID ...]

Each page is opened by instant navigation and measured once Python has drawn
it (the controls are enabled then). axe-core comes from node_modules (npm) and
is served on the site's own origin, so the page's CSP lets it run. The browser
tests assert 0 critical and 0 serious; this prints everything, moderate and
minor included, for the notes. Exit status 1 if any page has a critical or
serious violation (as the browser tests).
"""

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from playwright.sync_api import sync_playwright  # noqa: E402
from serve import make_server, serve_in_background  # noqa: E402

import labs  # noqa: E402

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = "/usr/bin/chromium"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "site"))
    parser.add_argument("--only", help="solo i laboratori il cui id contiene questo testo")
    parser.add_argument("--lab", action="append", help="solo questo laboratorio (anche più volte)")
    args = parser.parse_args()
    server = make_server(args.site)
    base = serve_in_background(server)
    chosen = [
        lab
        for lab in labs.all_labs()
        if (not args.only or args.only in lab.id) and (not args.lab or lab.id in args.lab)
    ]
    if not chosen:
        sys.exit(f"errore: nessun laboratorio scelto ({', '.join(args.lab or [args.only])})")
    grave = 0
    with sync_playwright() as p:
        launch = {"executable_path": CHROMIUM, "args": ["--no-sandbox"]} if Path(CHROMIUM).exists() else {}
        browser = p.chromium.launch(**launch)
        for scheme in ("light", "dark"):
            context = browser.new_context(color_scheme=scheme)
            context.route("**/__axe.js", lambda route: route.fulfill(path=str(AXE), content_type="text/javascript"))
            page = context.new_page()
            page.goto(base + chosen[0].path)
            page.add_script_tag(url=base + "__axe.js")
            impacts, rules = collections.Counter(), collections.Counter()
            for lab in chosen:
                page.evaluate(
                    "u => { const a = document.createElement('a'); a.href = u; document.body.append(a);"
                    " a.click(); a.remove(); }",
                    base + lab.path,
                )
                page.wait_for_selector(f"[data-lab='{lab.id}'][data-ready=true]", timeout=90_000)
                for v in page.evaluate(
                    "async () => (await axe.run(document)).violations"
                    ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length}))"
                ):
                    impacts[v["impact"]] += v["nodes"]
                    rules[f"{v['impact']} {v['id']}"] += v["nodes"]
            total = {impact: impacts[impact] for impact in ("critical", "serious", "moderate", "minor")}
            grave += total["critical"] + total["serious"]
            print(f"{scheme}, {len(chosen)} pagine: {total}")
            for rule, count in sorted(rules.items()):
                print(f"  {rule}: {count}")
            context.close()
    server.shutdown()
    return 1 if grave else 0


if __name__ == "__main__":
    sys.exit(main())
