"""The lab kit: declared controls, safe HTML, SVG and shared figures.

A lab imports what it needs from here; nothing in the kit knows any lab.
"""

from .controls import Choice, Group, ParamError, Slider, Steps, Text, Toggle
from .figures import ChainNode, Node, callout, chain, formula, network, stat, stats, table
from .html import Html, esc, factor, join, num, percent, raw, tag


class LabError(Exception):
    """A problem the reader can fix (the message is Italian and is shown in the lab)."""


__all__ = [
    "Choice", "Group", "ParamError", "Slider", "Steps", "Text", "Toggle",
    "ChainNode", "Node", "callout", "chain", "formula", "network", "stat", "stats", "table",
    "Html", "esc", "factor", "join", "num", "percent", "raw", "tag", "LabError",
]
