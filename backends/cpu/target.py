"""The host as an LLVM target: triple, data layout, CPU name and features,
and a TargetMachine at -O3 (built once; shared by translation and the JIT)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import llvmlite.binding as llvm


@dataclass(frozen=True)
class HostTarget:
    triple: str
    data_layout: str
    cpu: str
    features: str
    machine: llvm.TargetMachine


@cache
def host_target() -> HostTarget:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.initialize_native_asmparser()
    triple = llvm.get_process_triple()
    cpu = llvm.get_host_cpu_name()
    features = llvm.get_host_cpu_features().flatten()
    machine = create_machine(triple, cpu, features)
    return HostTarget(triple, str(machine.target_data), cpu, features, machine)


def create_machine(triple: str, cpu: str, features: str, opt: int = 3) -> llvm.TargetMachine:
    """A fresh TargetMachine (an MCJIT engine takes ownership of the one it gets)."""
    return llvm.Target.from_triple(triple).create_target_machine(
        cpu=cpu, features=features, opt=opt, reloc="default", codemodel="jitdefault", jit=True)
