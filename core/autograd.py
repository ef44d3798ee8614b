"""A scalar autograd: each Value remembers how it was made, so that
backward() can apply the chain rule from the output back to every input.

Each operation stores its local derivatives (∂out/∂input); backward() walks
the graph in reverse topological order and accumulates
grad(input) += local derivative × grad(out).
"""

import math


class Value:
    """Un numero in un grafo di calcolo, con il gradiente dell'uscita finale rispetto a lui."""

    def __init__(self, data, parents=(), local_grads=(), op="", label=""):
        self.data = float(data)
        self.grad = 0.0
        self.parents = parents
        self.local_grads = local_grads
        self.op = op
        self.label = label

    def __repr__(self):
        return f"Value({self.label or self.op or 'leaf'}: data={self.data:.6g}, grad={self.grad:.6g})"

    def __add__(self, other):
        other = as_value(other)
        return Value(self.data + other.data, (self, other), (1.0, 1.0), "+")

    def __mul__(self, other):
        other = as_value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data), "×")

    def __pow__(self, exponent):
        if not isinstance(exponent, (int, float)):
            raise TypeError("only a constant exponent is supported")
        return Value(self.data**exponent, (self,), (exponent * self.data ** (exponent - 1),), f"^{exponent}")

    def __neg__(self):
        return self * -1.0

    def __sub__(self, other):
        return self + (-as_value(other))

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __rsub__(self, other):
        return as_value(other) - self

    def __truediv__(self, other):
        return self * as_value(other) ** -1

    def relu(self):
        """max(0, x); its derivative is 1 where x > 0 and 0 elsewhere."""
        on = self.data > 0
        return Value(self.data if on else 0.0, (self,), (1.0 if on else 0.0,), "ReLU")

    def tanh(self):
        """tanh(x); its derivative is 1 − tanh(x)²."""
        t = math.tanh(self.data)
        return Value(t, (self,), (1.0 - t * t,), "tanh")

    def exp(self):
        e = math.exp(self.data)
        return Value(e, (self,), (e,), "exp")

    def log(self):
        return Value(math.log(self.data), (self,), (1.0 / self.data,), "log")

    def backward(self):
        """Fill .grad of every Value this one depends on with ∂self/∂value."""
        order, seen = [], set()

        def visit(v):
            if id(v) not in seen:
                seen.add(id(v))
                for p in v.parents:
                    visit(p)
                order.append(v)

        visit(self)
        for v in order:
            v.grad = 0.0
        self.grad = 1.0
        for v in reversed(order):
            for parent, local in zip(v.parents, v.local_grads):
                parent.grad += local * v.grad


def as_value(x):
    """Il numero come Value (un Value resta com'è), per fare conti misti con i float."""
    return x if isinstance(x, Value) else Value(x)
