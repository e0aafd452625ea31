"""A module's structure fed into a hash in one walk, without printing it: the disk cache's keys.

Printing a module to text to hash it cost ~8 ms per key for the MLP training step (xDSL's printer
walks every op and formats every attribute each time it meets one); the frontend keys three times
on a first call. `IRDigest` feeds the same information: ops in order with their names, operands as
value numbers, result and block-argument types, attributes and properties by key (each distinct
attribute rendered once: dense constants by their bytes' hash, floats by their bits), regions,
blocks and successors. Two modules get the same digest only if they print alike up to SSA and block
names (and the function renaming asked for); anything it cannot order (a use before its definition)
makes `feed` return False, and the caller keys by printing instead.
"""

from __future__ import annotations

import hashlib
import struct

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation


class IRDigest:
    """Feeds operations into hash `h`. `renamed` maps symbol names to stand-ins (functions whose names
    carry a process-wide counter): a `StringAttr` or flat `SymbolRefAttr` naming one hashes as its
    stand-in, which no literal string can hash as (literals hash by their `repr`)."""

    def __init__(self, h, renamed: dict[str, str] | None = None):
        self.h = h
        self.renamed = renamed or {}
        self.values: dict = {}
        self.blocks: dict[Block, int] = {}
        self.text: dict[Attribute, str] = {}

    def feed(self, op: Operation) -> bool:
        """Hash `op` (and everything nested); False when a value is used before its definition."""
        values = self.values
        try:
            operands = ",".join([str(values[v]) for v in op.operands])
            successors = ",".join([str(self.blocks[b]) for b in op.successors])
        except KeyError:
            return False
        parts = [op.name, operands, successors]
        for r in op.results:
            values[r] = len(values)
            parts.append(self.attr(r.type))
        for kind, attrs in (("a", op.attributes), ("p", op.properties)):
            for k in sorted(attrs):
                parts.append(f"{kind}:{k}={self.attr(attrs[k])}")
        self.h.update(("\0".join(parts) + "\n").encode())
        for region in op.regions:
            self.h.update(b"{")
            for block in region.blocks:  # numbered first: a branch may go to a later block
                self.blocks[block] = len(self.blocks)
            for block in region.blocks:
                if not self.block(block):
                    return False
            self.h.update(b"}")
        return True

    def block(self, block: Block) -> bool:
        values = self.values
        parts = ["^"]
        for a in block.args:
            values[a] = len(values)
            parts.append(self.attr(a.type))
        self.h.update(("\0".join(parts) + "\n").encode())
        feed = self.feed
        for op in block.ops:
            if not feed(op):
                return False
        return True

    def attr(self, a: Attribute) -> str:
        text = self.text.get(a)
        if text is None:
            text = self.text[a] = self.attr_text(a)
        return text

    def attr_text(self, a: Attribute) -> str:
        """`a` as text that tells it from any other attribute (the class is named where printing may not)."""
        if isinstance(a, TensorType):
            return f"tensor{tuple(a.get_shape())}{self.attr(a.element_type)}{self.attr(a.encoding)}"
        if isinstance(a, StringAttr):
            stand_in = self.renamed.get(a.data)
            return "s" + (stand_in if stand_in is not None else repr(a.data))
        if isinstance(a, SymbolRefAttr) and not a.nested_references.data:
            stand_in = self.renamed.get(a.root_reference.data)
            return "@" + (stand_in if stand_in is not None else repr(a.root_reference.data))
        if isinstance(a, IntegerAttr):
            return f"i{a.value.data}:{self.attr(a.type)}"
        if isinstance(a, FloatAttr):  # by its bits: NaN payloads and -0.0 differ
            return f"f{struct.pack('<d', a.value.data).hex()}:{self.attr(a.type)}"
        if isinstance(a, FunctionType):
            return ("(" + ",".join([self.attr(t) for t in a.inputs.data]) + ")->("
                    + ",".join([self.attr(t) for t in a.outputs.data]) + ")")
        if isinstance(a, ArrayAttr):
            return "[" + ",".join([self.attr(x) for x in a.data]) + "]"
        if isinstance(a, DenseIntOrFPElementsAttr):
            return f"dense:{self.attr(a.type)}:{hashlib.sha256(a.data.data).hexdigest()}"
        if isinstance(a, DenseArrayBase):
            return f"array:{self.attr(a.elt_type)}:{a.data.data.hex()}"
        return f"{type(a).__name__}:{a}"  # the rest (types, enums, dialect attributes): printed


def module_digest(module, h, renamed: dict[str, str] | None = None) -> bool:
    """Feed `module`'s attributes and ops into `h`; False when it cannot be keyed structurally (print it
    instead). The module's own attributes count: `minixla.flush_denormals` changes the code."""
    digest = IRDigest(h, renamed)
    attrs = module.attributes
    h.update(("module:" + "\0".join(f"{k}={digest.attr(attrs[k])}" for k in sorted(attrs)) + "\n").encode())
    return all(digest.feed(op) for op in module.ops)
