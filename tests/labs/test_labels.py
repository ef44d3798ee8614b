"""Labels tell neighbours apart: in one figure, two different values never
read the same. The kit marks every number it writes for a value with the
value itself (data-labelled: bar values, axis ticks, a histogram's classes),
and chooses its decimals from the spacing of the values (html.digits_apart, digits_each).
Tried on every lab at its defaults and at each control's extremes (a stepped
lab at its first two, a middle and its last step, see test_italian).
`-k <lab id>` runs one lab."""

import re
from html import unescape
from html.parser import HTMLParser

import pytest
from test_italian import renders

import labs
from labs.kit.html import same_value

LABS = labs.all_labs()
KIT_FIGURE = re.compile(r'class="lab-svg lab-(?:bars|chart)"')
CLASS_RANGE = re.compile(r"da (.+) a (.+): ")  # a histogram's class: «da 0,004 a 0,008: 63»


class Labels(HTMLParser):
    """Every figure's (value, label) pairs: figures are the outermost <svg> elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.figures, self.depth, self.open = [], 0, []  # open: [tag, values, text, depth] of marked elements

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg":
            if self.depth == 0:
                self.figures.append([])
            self.depth += 1
        for element in self.open:
            element[3] += element[0] == tag
        if "data-labelled" in attrs and self.depth:
            self.open.append([tag, [float(v) for v in attrs["data-labelled"].split()], [], 0])

    def handle_endtag(self, tag):
        for element in list(self.open):
            if element[0] == tag:
                if element[3]:
                    element[3] -= 1
                    continue
                self.open.remove(element)
                self.close(element[1], unescape("".join(element[2])).strip())
        if tag == "svg":
            self.depth -= 1

    def handle_data(self, data):
        for element in self.open:
            element[2].append(data)

    def close(self, values, text):
        if len(values) == 1:
            self.figures[-1].append((values[0], text))
            return
        found = CLASS_RANGE.match(text)
        assert found and len(values) == 2, f"etichetta non riconosciuta: «{text}» per {values}"
        self.figures[-1] += [(values[0], found.group(1)), (values[1], found.group(2))]


def figures(html):
    parser = Labels()
    parser.feed(html)
    return parser.figures


def same_label(pairs):
    """The first two different values of one figure that read the same, or None."""
    by_label = {}
    for value, label in pairs:
        other = by_label.setdefault(label, value)
        if not same_value(other, value):
            return other, value, label
    return None


@pytest.mark.parametrize("lab", LABS, ids=[lab.id for lab in LABS])
def test_different_values_never_read_the_same(lab):
    for raw, result in renders(lab, count=0):
        assert result["ok"], result.get("error")
        found = figures(result["html"])
        for pairs in found:
            clash = same_label(pairs)
            assert not clash, f"{lab.id} {raw}: {clash[0]!r} e {clash[1]!r} si leggono tutti e due «{clash[2]}»"
        if KIT_FIGURE.search(result["html"]):  # the kit's bars and charts mark what they label
            assert any(found), f"{lab.id} {raw}: nessun numero marcato con data-labelled"


def test_alte_dimensioni_at_4096_dimensions_tells_its_classes_apart():
    html = labs.render("alte-dimensioni", {"d": "4096", "zoom": "1"})["html"]
    classes = re.findall(r"<title>(da [^<]*)</title>", html)
    assert len(classes) > 10 and len(set(c.split(":")[0] for c in classes)) == len(classes)
    assert "da 0,00 a 0,00" not in html and all(same_label(pairs) is None for pairs in figures(html))


def test_the_parser_finds_a_clash():
    html = (
        '<svg><text data-labelled="0.001">0,00</text><svg><text data-labelled="0.002">0,00</text></svg></svg>'
        '<svg><rect data-labelled="0 0.5"><title>da 0 a 0,5: 3</title></rect></svg>'
    )
    found = figures(html)
    assert found == [[(0.001, "0,00"), (0.002, "0,00")], [(0.0, "0"), (0.5, "0,5")]]
    assert same_label(found[0]) == (0.001, 0.002, "0,00") and same_label(found[1]) is None
