"""Layout checks of every lab page, in Chromium, at a phone and a desktop size.

    python scripts/layout_check.py [--lab ID ...] [--size phone|desktop] [--verbose]

Prints, for each check, how many labs fail it (and which), over three states
per lab (its default, every control at its top, and every control at its
bottom or, for a stepped lab, its last step: states()), in the light and the
dark scheme. The site must be built (LABS_SITE_DIR, default
site/). tests/browser/test_layout.py runs the same checks.

The rules, as measured in the page:
- page: document.documentElement.scrollWidth ≤ the viewport's width.
- sideways: inside the lab, no element scrolls or is clipped sideways
  (scrollWidth > clientWidth + 1 with overflow-x not visible) and nothing
  sticks out of the lab's box. On a phone a frame marked data-scroll-frame
  (the kit draws it with a visible hint) may scroll; on a desktop nothing.
- text: every SVG <text>/<tspan> renders at a font size ≥ 11 CSS px, i.e.
  computed font-size × the scale of its screen CTM (sqrt |det|); every HTML
  text in the lab has a computed font-size ≥ 11 px.
- overlap: in one figure (an outermost <svg>), no two text boxes
  (getBoundingClientRect) share more than 2 px in both directions.
- outside: no SVG text box leaves its figure's box by more than 2 px (it
  would be cut or sit on what is beside the figure).
- unit: no number is split from its unit at a line's end («19,2» on one
  line, «%» on the next): the kit joins them with a non-breaking space
  (percent(), share(), data_size()); a lab that writes «12 %» by hand
  with a plain space is flagged where the line breaks there.
Hidden elements (closed <details>, display: none, boxes of 1 px or text of
font-size 0 that only screen readers read) are not measured.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from chromium import launch  # noqa: E402

import labs  # noqa: E402

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
CHECKS = ("page", "sideways", "text", "overlap", "outside", "unit", "error")
MIN_FONT = 11.0
SLACK = 2.0
READY_TIMEOUT = 600_000  # a state computed from scratch in Pyodide: the last step of a real training takes minutes

# One evaluate per state: the checks in the light scheme, then in the dark one.
CHECK_JS = r"""
({minFont, slack, wide}) => {
  const root = document.querySelector("[data-lab]");
  const shown = (el) => el.checkVisibility ? el.checkVisibility({checkVisibilityCSS: true}) : el.getClientRects().length > 0;
  const words = (s) => (s || "").replace(/\s+/g, " ").trim();
  const name = (el) => {
    const figure = el.closest("svg") ? (el.closest("svg").ownerSVGElement ? el.closest("svg").ownerSVGElement : el.closest("svg")) : null;
    const where = el.closest("[data-part]") ? `[${el.closest("[data-part]").dataset.part}] ` : "";
    const title = figure && figure.querySelector("title") ? `«${words(figure.querySelector("title").textContent).slice(0, 40)}» ` : "";
    const cls = typeof el.className === "string" ? el.className : (el.className && el.className.baseVal) || "";
    return `${where}${title}${el.tagName.toLowerCase()}${cls ? "." + cls.trim().split(/\s+/).join(".") : ""}`;
  };
  const run = () => {
    const out = {page: [], sideways: [], text: [], overlap: [], outside: [], unit: [], error: []};
    const width = document.documentElement.scrollWidth;
    if (width > innerWidth) out.page.push(`la pagina è larga ${width} px, lo schermo ${innerWidth}`);
    if (!root) { out.error.push("nessun laboratorio nella pagina"); return out; }
    const error = root.querySelector("[data-lab-error]");
    if (error && !error.hidden) out.error.push(words(error.textContent).slice(0, 160));
    const box = root.getBoundingClientRect();
    const sticking = new Set();
    for (const el of root.querySelectorAll("*")) {
      if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") continue;
      if (el.tagName.toLowerCase() === "svg" && el.ownerSVGElement) continue;
      if (el.matches("input, select, textarea, option, title, script, style")) continue;
      if (!shown(el) || el.clientWidth <= 1 || el.clientHeight <= 1) continue;  // hidden, or only for screen readers
      const style = getComputedStyle(el);
      const clipped = !["visible"].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1 && !el.matches("svg");
      if (clipped && !(el.matches("[data-scroll-frame]") && !wide)) {
        out.sideways.push(`${name(el)} scorre di lato di ${el.scrollWidth - el.clientWidth} px`);
      }
      const r = el.getBoundingClientRect();
      let framed = false;
      for (let up = el.parentElement; up && up !== root; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== "visible") { framed = true; break; }
      }
      if (!framed && r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1)) {
        sticking.add(el);
        if (sticking.has(el.parentElement)) continue;  // only the outermost element that sticks out
        out.sideways.push(`${name(el)} esce dal riquadro del laboratorio (${Math.round(r.left - box.left)}…${Math.round(r.right - box.left)} px, riquadro ${Math.round(box.width)})`);
      }
    }
    // HTML text: any element with its own words
    for (const el of root.querySelectorAll("*")) {
      if (el.closest("svg") || el.matches("option, title, script, style")) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own || !shown(el) || el.getBoundingClientRect().width <= 1) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size === 0) continue;  // not drawn at all (a matrix picture keeps its numbers so, for screen readers)
      if (size < minFont - 0.01) out.text.push(`${name(el)} «${words(el.textContent).slice(0, 30)}» a ${size.toFixed(1)} px`);
    }
    // a number and its unit on two lines: only a plain space lets the line break between them
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest("svg") || !shown(n.parentElement)) continue;
      for (const m of n.textContent.matchAll(/\d[\d.,]* (%|‰|[kMGTP]B|byte)(?![A-Za-z])/g)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.unit.push(`${name(n.parentElement)} «${m[0]}» va a capo tra il numero e l'unità`);
      }
    }
    // SVG text, figure by figure
    for (const svg of root.querySelectorAll("svg")) {
      if (svg.ownerSVGElement || !shown(svg)) continue;
      const frame = svg.getBoundingClientRect();
      if (frame.width === 0) continue;
      const boxes = [];
      for (const t of svg.querySelectorAll("text, tspan")) {
        if (!words(t.textContent) || !shown(t)) continue;
        const m = t.getScreenCTM();
        const scale = m ? Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) : 1;
        const size = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (size < minFont - 0.01) out.text.push(`${name(t)} «${words(t.textContent).slice(0, 30)}» a ${size.toFixed(1)} px`);
        if (t.tagName.toLowerCase() === "tspan") continue;
        const r = t.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        boxes.push([r, t]);
        const out_by = Math.max(frame.left - r.left, r.right - frame.right, frame.top - r.top, r.bottom - frame.bottom);
        if (out_by > slack) out.outside.push(`${name(t)} «${words(t.textContent).slice(0, 30)}» esce dalla figura di ${Math.round(out_by)} px`);
      }
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, ta] = boxes[i], [b, tb] = boxes[j];
          const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (dx > slack && dy > slack) {
            out.overlap.push(`${name(ta)} «${words(ta.textContent).slice(0, 24)}» copre «${words(tb.textContent).slice(0, 24)}» (${dx.toFixed(0)} × ${dy.toFixed(0)} px)`);
          }
        }
      }
    }
    return out;
  };
  const body = document.body;
  const scheme = body.getAttribute("data-md-color-scheme");
  const result = {};
  for (const s of ["default", "slate"]) {
    body.setAttribute("data-md-color-scheme", s);
    document.documentElement.getBoundingClientRect();  // lay out again before measuring
    result[s === "slate" ? "scuro" : "chiaro"] = run();
  }
  body.setAttribute("data-md-color-scheme", scheme);
  return result;
}
"""

# At a lab's default, on a phone (tests/browser/test_phone_text.py), one evaluate:
# - cells: no table cell (kit table(), matrices) wraps onto more than maxLines lines (its words' line boxes),
#   none holds text that spills out of its box, none is cut by the screen's edge outside a frame that scrolls;
# - glyphs: a superscript or subscript glyph of the view (10⁻⁴, w₁) reads at ≥ minFont px: its font size × the
#   SVG's scale × the height of its ink over the ink of the same characters written plain (NFKC), measured
#   with a canvas in the element's own font; the kit draws these runs in a bigger font (html.shown_text).
PHONE_TEXT_JS = r"""
({minFont, maxLines}) => {
  const root = document.querySelector("[data-lab]");
  const out = {cells: [], glyphs: []};
  if (!root) return out;
  const shown = (el) => el.checkVisibility ? el.checkVisibility({checkVisibilityCSS: true}) : el.getClientRects().length > 0;
  const words = (s) => (s || "").replace(/\s+/g, " ").trim();
  const texts = (el) => { const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT); const a = []; for (let n = w.nextNode(); n; n = w.nextNode()) if (n.textContent.trim()) a.push(n); return a; };
  const lines = (el) => {
    const tops = [];
    for (const n of texts(el)) {
      const r = document.createRange(); r.selectNodeContents(n);
      for (const b of r.getClientRects()) if (b.width > 0) tops.push([b.top, b.bottom]);
    }
    tops.sort((a, b) => a[0] - b[0]);
    let count = 0, bottom = -Infinity;
    for (const [t, b] of tops) { if (t >= bottom - 2) { count++; bottom = b; } else bottom = Math.max(bottom, b); }
    return count;
  };
  const scroller = (el) => { for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) { const o = getComputedStyle(up).overflowX; if (o === "auto" || o === "scroll") return up; } return null; };
  for (const cell of root.querySelectorAll("td, th")) {
    if (!shown(cell) || !words(cell.textContent) || cell.closest("svg")) continue;
    const n = lines(cell);
    const label = `${cell.closest("[data-part]") ? "[" + cell.closest("[data-part]").dataset.part + "] " : ""}${cell.tagName.toLowerCase()} «${words(cell.textContent).slice(0, 40)}»`;
    if (n > maxLines) out.cells.push(`${label} va a capo su ${n} righe`);
    const box = cell.getBoundingClientRect();
    let right = box.right;
    for (const t of texts(cell)) { const r = document.createRange(); r.selectNodeContents(t); for (const b of r.getClientRects()) right = Math.max(right, b.right); }
    if (cell.scrollWidth > cell.clientWidth + 1 || right > box.right + 1) out.cells.push(`${label} esce dalla sua cella`);
    else if (right > innerWidth + 1 && !scroller(cell)) out.cells.push(`${label} è tagliata dal bordo dello schermo`);
  }
  // a superscript or subscript glyph is drawn smaller than its font: its ink against the ink of the same
  // characters in plain form (NFKC) gives the size at which it reads
  const canvas = document.createElement("canvas").getContext("2d");
  const ink = (s, font) => { canvas.font = font; const m = canvas.measureText(s); return m.actualBoundingBoxAscent + m.actualBoundingBoxDescent; };
  const small = /[⁰¹²³⁴⁵⁶⁷⁸⁹ⁱⁿ₀₁₂₃₄₅₆₇₈₉ₐₑₒₓᵢⱼₖₗₘₙₚₛₜ]+/gu;
  for (const n of texts(root.querySelector("[data-lab-view]") || root)) {
    const el = n.parentElement;
    if (!shown(el) || el.closest("title, script, style, option")) continue;
    const style = getComputedStyle(el);
    let size = parseFloat(style.fontSize);
    if (size === 0) continue;
    if (el.closest("svg")) { const m = el.getScreenCTM ? el.getScreenCTM() : null; if (m) size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)); }
    const font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    for (const m of n.textContent.matchAll(small)) {
      const plain = m[0].normalize("NFKC");
      const read = size * ink(m[0], font) / ink(plain, font);
      if (read < minFont - 0.01) out.glyphs.push(`${el.closest("svg") ? "svg " : ""}«${words(n.textContent).slice(0, 30)}»: «${m[0]}» si legge a ${read.toFixed(1)} px`);
    }
  }
  return out;
}
"""
MAX_LINES = 2


def check_phone_text(page, base, lab_list):
    """PHONE_TEXT_JS over every lab's page as built (its default state, no need to wait for Python), at 390 × 844.

    Returns [(lab id, check, message)]."""
    page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
    failures = []
    for lab in lab_list:
        page.goto(f"{base}{lab.path}")
        page.wait_for_selector(f'[data-lab="{lab.id}"]', state="attached")
        found = page.evaluate(PHONE_TEXT_JS, {"minFont": MIN_FONT, "maxLines": MAX_LINES})
        failures += [(lab.id, check, message) for check, messages in found.items() for message in messages]
    return failures


SETTLED_JS = """id => {
  const root = document.querySelector(`[data-lab="${id}"]`);
  return root && root.dataset.ready === "true" && root.dataset.busy === undefined
    && !root.querySelector("[data-lab-view]").classList.contains("is-stale");
}"""


def states(lab):
    """[(name, {control: value})]: the default and two others.

    «massimi»: sliders at max, choices at their last option, toggles on (the
    step where it starts). Then, for a stepped lab, «ultimo passo»: its last
    step, the other controls as they start; for any other lab, «minimi»:
    sliders at min, choices at their first option (the second if the first
    is the default), toggles off. Texts keep their default."""
    top, bottom = {}, {}
    for c in lab.params_list:
        if c.kind == "slider":
            top[c.name], bottom[c.name] = c.max, c.min
        elif c.kind == "choice":
            values = [v for v, _ in c.options]
            top[c.name] = values[-1]
            bottom[c.name] = values[0] if values[0] != c.default or len(values) == 1 else values[1]
        elif c.kind == "toggle":
            top[c.name], bottom[c.name] = True, False
    if lab.steps:
        # every value given: the page keeps the previous state's values of the controls not named
        start = {c.name: c.default for c in lab.params_list if c.kind != "text"}
        return [("iniziale", {}), ("massimi", start | top), ("ultimo passo", start | {lab.steps.name: lab.steps.max})]
    return [("iniziale", {}), ("massimi", top), ("minimi", bottom)]


def raw_value(value):
    if value is True or value is False:
        return "1" if value else "0"
    return str(value)


def navigate(page, url):
    """Instant navigation (mkdocs-material): the page changes, the Python worker stays (once the theme's script
    runs: on a lab page it starts when the lab is «pronto»)."""
    page.wait_for_function("() => window.document$ !== undefined")
    page.evaluate(
        """u => { const a = document.createElement("a"); a.href = u; document.body.append(a); a.click(); a.remove(); }""",
        url,
    )


def check_labs(page, base, lab_list, size, report=None):
    """Run the checks over lab_list at size ("phone"/"desktop") in an open page.

    Returns [(lab id, state, scheme, check, message)]. report(lab, state) is
    called before each state, for progress."""
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    failures = []
    first = not page.url.startswith(base)  # a page already on the site keeps its warm worker
    for lab in lab_list:
        for state, values in states(lab):
            if report:
                report(lab, state)
            if state == "iniziale":
                url = f"{base}{lab.path}"
                if first:
                    page.goto(url)
                    first = False
                else:
                    navigate(page, url)
                # the prerendered page is the default state: no need to wait for Python
                page.wait_for_selector(f'[data-lab="{lab.id}"]', state="attached", timeout=READY_TIMEOUT)
            else:
                page.wait_for_function(SETTLED_JS, arg=lab.id, timeout=READY_TIMEOUT)
                page.evaluate(
                    """([id, pairs]) => document.querySelector(`[data-lab="${id}"]`).labController.setControls(pairs)""",
                    [lab.id, [[k, raw_value(v)] for k, v in values.items()]],
                )
                page.wait_for_function(SETTLED_JS, arg=lab.id, timeout=READY_TIMEOUT)
            found = page.evaluate(CHECK_JS, {"minFont": MIN_FONT, "slack": SLACK, "wide": size == "desktop"})
            for scheme, checks in found.items():
                for check, messages in checks.items():
                    for message in messages:
                        failures.append((lab.id, state, scheme, check, message))
    return failures


def summary(failures, lab_list):
    """Lines: for each check, how many labs fail it and which."""
    lines = []
    for check in CHECKS:
        ids = sorted({f[0] for f in failures if f[3] == check}, key=[lab.id for lab in lab_list].index)
        lines.append(f"{check:9} {len(ids):3} / {len(lab_list)}  {' '.join(ids)}")
    return lines


def details(failures, limit=3):
    """Lines: a few messages per lab, state and check."""
    lines, seen = [], {}
    for lab_id, state, scheme, check, message in failures:
        key = (lab_id, state, check)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= limit:
            lines.append(f"  {lab_id} [{state}, {scheme}] {check}: {message}")
    return lines


def main():
    parser = argparse.ArgumentParser(description="Controlli di impaginazione di ogni laboratorio.")
    parser.add_argument("--lab", action="append", help="solo questo laboratorio (anche più volte)")
    parser.add_argument("--size", choices=sorted(SIZES), action="append", help="solo questa misura")
    parser.add_argument("--verbose", "-v", action="store_true", help="scrive anche i dettagli")
    args = parser.parse_args()
    site = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")).resolve()
    if not (site / "index.html").exists():
        sys.exit(f"{site} non contiene un sito: costruiscilo prima (make build)")
    lab_list = [lab for lab in labs.all_labs() if not args.lab or lab.id in args.lab]
    from playwright.sync_api import sync_playwright
    from serve import make_server, serve_in_background

    server = make_server(site)
    base = serve_in_background(server)
    everything = []
    with sync_playwright() as p:
        browser = launch(p)
        for size in args.size or ("phone", "desktop"):
            page = browser.new_page()
            failures = check_labs(
                page,
                base,
                lab_list,
                size,
                report=lambda lab, state: print(
                    f"\r{size}: {lab.id} {state}".ljust(60), end="", file=sys.stderr, flush=True
                ),
            )
            print(file=sys.stderr)
            page.close()
            print(f"{size} {SIZES[size][0]}×{SIZES[size][1]}: laboratori che non passano ogni controllo")
            print("\n".join(summary(failures, lab_list)))
            if args.verbose:
                print("\n".join(details(failures)))
            everything += failures
        browser.close()
    server.shutdown()
    print("in totale (una misura o l'altra, chiaro o scuro)")
    print("\n".join(summary(everything, lab_list)))
    return 1 if everything else 0


if __name__ == "__main__":
    sys.exit(main())
