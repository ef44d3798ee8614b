"""The kit as the browser runs it: the same code without its docstrings and comments.

The base wheel (the kit and the lab engine) is loaded by every page, and no page shows its text
(«Il codice Python» shows a lab's own functions and core's). Its docstrings and comments are
for the authors who read the repository, so the wheel carries them as blank lines: every
statement stays on its line (an error in the kit names the same line as in the repository) and
the code the browser compiles is the repository's, statement for statement.
"""

import ast
import io
import tokenize


def docstring_lines(tree):
    """Line numbers of every docstring that can go: the first statement of a module, class or
    function when it is a string on lines of its own and, in a class or function, not the whole body."""
    lines = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) or not node.body:
            continue
        first, rest = node.body[0], node.body[1:]
        is_string = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        if not is_string or not isinstance(first.value.value, str):
            continue
        if not isinstance(node, ast.Module) and (not rest or first.lineno == node.lineno):
            continue
        if rest and rest[0].lineno == first.end_lineno:
            continue
        lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def slim(source):
    """The source with its docstrings and comments blanked, every other line where it was."""
    tree = ast.parse(source)
    blank = docstring_lines(tree)
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.start[1]
    lines = source.splitlines()
    out = []
    for number, line in enumerate(lines, 1):
        if number in blank:
            out.append("")
        elif number in comments:
            out.append(line[: comments[number]].rstrip())
        else:
            out.append(line)
    return "\n".join(out) + "\n"
