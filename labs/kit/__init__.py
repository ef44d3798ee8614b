"""The lab kit: declared controls, safe HTML, SVG and shared figures.

A lab imports what it needs from here; nothing in the kit knows any lab.
"""

from .bars import Bar, bars
from .chart import Handle, Marker, Series, histogram, line_chart, nice_ticks
from .controls import Choice, Curve, Follow, Group, Jump, ParamError, Slider, Steps, Text, Toggle
from .edits import Edit
from .figures import ChainNode, Node, callout, chain, formula, network, stat, stats, table
from .html import Html, esc, factor, join, num, percent, raw, tag
from .italian import plural, share, the
from .label_layout import label_sides
from .matrix import cell_text, equation, heat_class, matrix, shape_label, vector
from .plane import Arc, Arrow, Circle, Guide, Label, Point, Shape, plane, presets, term, vector_text
from .quantities import big, data_size, duration, sci, significant
from .stepping import step_machine
from .timeline import timeline


class LabError(Exception):
    """A problem the reader can fix (the message is Italian and is shown in the lab)."""


__all__ = [
    "Choice", "Curve", "Follow", "Group", "Jump", "ParamError", "Slider", "Steps", "Text", "Toggle", "LabError",
    "step_machine", "timeline", "Edit",
    "Html", "esc", "factor", "join", "num", "percent", "raw", "tag",
    "plural", "share", "the",
    "ChainNode", "Node", "callout", "chain", "formula", "network", "stat", "stats", "table",
    "Handle", "Marker", "Series", "histogram", "line_chart", "nice_ticks",
    "cell_text", "equation", "heat_class", "matrix", "shape_label", "vector",
    "Bar", "bars",
    "label_sides",
    "Arc", "Arrow", "Circle", "Guide", "Label", "Point", "Shape", "plane", "presets", "term", "vector_text",
    "big", "data_size", "duration", "sci", "significant",
]
