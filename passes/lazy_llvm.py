"""xDSL's llvm dialect, imported on first attribute access: `from minixla.passes import lazy_llvm as llvm`.

Importing `xdsl.dialects.llvm` builds ~200 op classes (~30 ms). The JIT emits LLVM IR straight from
the loop level (backends/cpu/emit_llvm*.py), so on its path the llvm dialect is only needed by the
llvm-dialect lowering (its fallback, AOT output, `minixla-opt`); modules the direct path imports for
their other contents name the dialect through this.
"""

from __future__ import annotations


def __getattr__(name: str):
    from xdsl.dialects import llvm

    return getattr(llvm, name)
