"""`tf.register_tensor_conversion_function`: user types that `tf.convert_to_tensor` and every op's
inputs accept, converted by the registered function (lowest priority number first)."""

from __future__ import annotations

import numpy as np

#: (base type, function, priority): tried in priority order by tf.convert_to_tensor and op inputs
CONVERSIONS: list = []


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    if not callable(conversion_func):
        raise TypeError("conversion_func must be callable.")
    bases = base_type if isinstance(base_type, tuple) else (base_type,)
    if any(b in (str, bytes, int, float, bool, np.ndarray, np.generic) for b in bases):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy scalars and arrays.")
    CONVERSIONS.append((bases, conversion_func, priority))
    CONVERSIONS.sort(key=lambda c: c[2])


def convert_registered(value, dtype=None):
    """`value` converted by a registered function, or None when no registration matches."""
    for bases, func, _ in CONVERSIONS:
        if isinstance(value, bases):
            out = func(value, dtype=dtype, name=None, as_ref=False)
            if out is NotImplemented:
                continue
            return out
    return None
