"""Where XLA's RngBitGeneratorExpander puts each 32-bit Threefry word (the spec leaves the
layout implementation-defined; the interpreter and the CPU lowering both follow XLA's, checked
against outputs recorded from XLA in tests/golden/rng_bit_generator.json)."""

from __future__ import annotations


def threefry_halves(shape: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """XLA's SplitShapeIntoHalves: (split dimension, half shape) for 32-bit Threefry: the first
    even dimension, else the first largest one, halved (rounded up); a scalar is (0, (1,))."""
    if not shape:
        return 0, (1,)
    d = next((i for i, s in enumerate(shape) if s % 2 == 0), None)
    if d is None:
        d = max(range(len(shape)), key=lambda i: shape[i])  # the first of the largest
    return d, shape[:d] + (-(-shape[d] // 2),) + shape[d + 1:]
