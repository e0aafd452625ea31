"""Limits on what an IR file may ask for, checked while parsing.

Without these, bad literals surface as Python exceptions from deep inside
xDSL or numpy (RecursionError, MemoryError, OverflowError). Each check here
returns our own message so the parser can locate it on the literal or type.
"""

from __future__ import annotations

import math
import os

#: MLIR shapes are int64; a larger dimension cannot be represented.
INT64_MAX = 2**63 - 1
#: Deeper dense literals blow Python's recursion limit inside xDSL.
MAX_DENSE_NESTING = 64


def available_memory_bytes() -> int:
    """Physical memory of this machine (a bound no single tensor may exceed)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 40


def dense_nesting_error(text: str, pos: int) -> tuple[int, str] | None:
    """Scan a dense literal from `pos` (just after `dense`) to its closing `>`;
    return (position, message) where it first nests deeper than allowed."""
    depth = 0
    for i in range(pos, len(text)):
        ch = text[i]
        if ch == "[":
            depth += 1
            if depth > MAX_DENSE_NESTING:
                return i, f"dense literal nested deeper than {MAX_DENSE_NESTING} levels"
        elif ch == "]":
            depth -= 1
        elif ch == ">" and depth <= 0:
            return None
    return None


def dimension_error(dim: int) -> str | None:
    """Why `dim` cannot be a static tensor dimension, or None."""
    if dim > INT64_MAX:
        return f"dimension {dim} is larger than the int64 maximum {INT64_MAX}"
    return None


def element_bytes(element_type) -> int:
    """Storage size of one element (bitwidth rounded up to bytes; complex doubles)."""
    width = getattr(element_type, "bitwidth", None)
    if width is None:
        inner = getattr(element_type, "element_type", None)
        return 2 * element_bytes(inner) if inner is not None else 8
    return max(1, (width + 7) // 8)


def tensor_size_error(shape, element_type) -> str | None:
    """Why a tensor of this static shape cannot be materialized here, or None."""
    dims = [d for d in shape if d >= 0]
    if len(dims) != len(list(shape)):
        return None
    size = math.prod(dims) * element_bytes(element_type)
    limit = available_memory_bytes()
    if size > limit:
        return (f"tensor of shape {'x'.join(map(str, dims))} needs {size} bytes, "
                f"more than the {limit} bytes of memory available")
    return None


def integer_range_message(value: int, type_name: str, low: int, high_exclusive: int) -> str:
    """MLIR-like wording with a closed range, e.g. [-128, 255] for signless i8."""
    return (f"integer value {value} is out of range for element type {type_name} "
            f"(valid range [{low}, {high_exclusive - 1}])")


def float_range_message(type_name: str) -> str:
    """A float literal beyond the largest finite value of its element type."""
    return f"float literal is out of range for element type {type_name}"
