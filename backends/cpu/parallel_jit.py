"""Compile a big LLVM module on two cores: its functions in two groups balanced by instruction count,
one group in a forked child process, the other in this one, then both objects into one MCJIT engine.

llvmlite serializes every LLVM call behind one lock, so threads cannot run LLVM side by side; a
forked child has its own copy of everything. The child parses, optimizes and emits its group's
object code and sends the bytes back through a pipe; the parent does the same for the other group
meanwhile; the engine (`compile_cache.engine_for_objects`) links the calls between the two objects.
A whole training step is one function holding ~90% of the module: translate.py cuts it in two first
(outline.py), which is why the JIT asks for `split_above=MIN_INSTRUCTIONS` when this is enabled.

Not used (the module compiles in-process as before): below `MIN_INSTRUCTIONS` (the fork and the
second object would cost more than they save), with `MINIXLA_PARALLEL_JIT=0`, with fewer than two
usable cores, without `os.fork`, under MPI (forking an MPI process is unsafe), or while the load
average says no core is idle (`core_idle`; `MINIXLA_PARALLEL_JIT=1` skips that check). The fork happens
while this thread holds llvmlite's lock, so no other thread is inside LLVM at that moment; the child
runs only LLVM and `os._exit`s. If the child fails, dies or has not answered within
`child_timeout(...)`, a `ParallelJitWarning` says so and the child's group is compiled here.
"""

from __future__ import annotations

import os
import re
import struct
import sys
import time
from collections.abc import Callable

import llvmlite.binding as llvm

#: runs LLVM's pipeline on a module in place (jit.optimize at the JIT's level and unroll setting)
Optimizer = Callable[[llvm.ModuleRef], None]

#: modules with fewer instructions (indented IR lines) compile in one process. Was 1000; the MLP step
#: fell to ~790 once fusion absorbed its leftover producers (session 10), and cut in two its slower
#: half takes ~46 ms of LLVM CPU against ~80 ms for the whole module in one process
MIN_INSTRUCTIONS = 600
_MPI_ENV = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS")


class ParallelJitWarning(RuntimeWarning):
    """The child process compiling half of a module failed; this process compiled that half itself."""


def split_threshold() -> int | None:
    """What the translator's `split_above` should be now: MIN_INSTRUCTIONS when enabled, else None."""
    return MIN_INSTRUCTIONS if enabled() else None


def _mode() -> str:
    value = os.environ.get("MINIXLA_PARALLEL_JIT", "auto").strip().lower()
    return "off" if value in ("0", "off", "false", "no") else "on" if value in ("1", "on", "true", "yes") else "auto"


def _cores() -> int:
    """Cores this process may run on (the affinity mask where the OS has one)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def enabled() -> bool:
    """Whether big modules may be compiled in two processes (env read on every call)."""
    if _mode() == "off" or not hasattr(os, "fork") or _cores() < 2:
        return False
    return "mpi4py.MPI" not in sys.modules and not any(k in os.environ for k in _MPI_ENV)


def core_idle() -> bool:
    """Whether a second core is likely free now: with `MINIXLA_PARALLEL_JIT=auto` (the default) the
    1-minute load average (this process's compile counts about 1) must be below the number of usable
    cores. On a saturated machine the child only competes with this process: on 2 cores the MLP
    step's LLVM time went from ~145 to ~170 ms (median) at a load of 3-4, while its whole first
    call was still 10% faster (631 vs 699 ms) at a load of 1.7."""
    if _mode() == "on":
        return True
    try:
        return os.getloadavg()[0] < _cores()
    except OSError:
        return False


def child_timeout(parent_seconds: float) -> float:
    """How long to wait for the child after this process finished its own group (about as much work)."""
    return 10.0 + 20.0 * parent_seconds


_DEFINE = re.compile(r'^define (internal |private )?.*?@"?([^"(]+)"?\(')
_SYMBOL = re.compile(r'@"([^"]+)"|@([-\w.$]+)')


def _functions(lines: list[str]) -> tuple[list[str], dict[str, tuple[int, int, bool]]]:
    """(lines outside function bodies, {name: (first line, last line, internal)})."""
    outside, defined = [], {}
    i = 0
    while i < len(lines):
        m = _DEFINE.match(lines[i])
        if m is None:
            outside.append(lines[i])
            i += 1
            continue
        end = lines.index("}", i)
        defined[m.group(2)] = (i, end, m.group(1) is not None)
        i = end + 1
    return outside, defined


def split_module(llvm_ir: str) -> tuple[str, str] | None:
    """Two modules (the lighter first) whose objects together define what `llvm_ir` does: the functions in
    two groups of about equal instruction counts; a group declares the other's functions it calls and gets
    its own copy of the internal ones it uses. None when that cannot be balanced or a mutable global would
    be duplicated."""
    lines = llvm_ir.split("\n")
    outside, defined = _functions(lines)
    if len(defined) < 2:
        return None
    body = {name: "\n".join(lines[a:b + 1]) for name, (a, b, _) in defined.items()}
    size = {name: text.count("\n  ") for name, text in body.items()}
    uses = {name: {q or p for q, p in _SYMBOL.findall(text)} & defined.keys() - {name} for name, text in body.items()}
    internal = {name for name, (_, _, local) in defined.items() if local}

    def closure(names: set[str]) -> set[str]:
        todo, seen = list(names), set(names)
        while todo:
            for callee in uses[todo.pop()]:
                if callee in internal and callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
        return seen

    groups: list[set[str]] = [set(), set()]
    for name in sorted(set(defined) - internal, key=lambda n: -sum(size[m] for m in closure({n}))):
        weights = [sum(size[m] for m in closure(g)) for g in groups]
        groups[weights.index(min(weights))].add(name)
    if not groups[1] or not groups[0]:
        return None
    members = [closure(g) for g in groups]
    total = sum(size.values())
    if max(sum(size[m] for m in g) for g in members) > 0.75 * total:
        return None  # one function outweighs the rest: nothing to gain
    for line in outside:  # each group gets a copy of the globals: only declarations and local constants may be
        if line.startswith("@") and not (re.search(r"= (private|internal) ", line) and " constant " in line
                                         or "= external " in line):
            return None  # a mutable or exported global must exist once (none in minixla's JIT modules today)
    texts = []
    for group in members:
        out = list(outside)
        for name, (a, b, _) in defined.items():
            if name in group:
                out += lines[a:b + 1]
            elif name not in internal:
                out.append(_declaration(lines[a]))
        texts.append("\n".join(out))
    light, heavy = sorted(texts, key=lambda t: t.count("\n  "))
    return light, heavy


def _declaration(header: str) -> str:
    """`define [linkage] <signature> [attrs]` -> `declare <signature>`; a body's opening brace dropped."""
    head = header[len("define "):]
    for linkage in ("internal ", "private "):
        head = head.removeprefix(linkage)
    return "declare " + head.rstrip().removesuffix("{").rstrip()


def emit_object(text: str, opt_level: int, optimize: Optimizer) -> bytes:
    """Parse, `optimize` (jit.py's pipeline; jit imports this module) and emit host object code for one group."""
    from minixla.backends.cpu.target import create_machine, host_target

    host = host_target()
    module = llvm.parse_assembly(text)
    module.verify()
    if opt_level > 0:
        optimize(module)
    return create_machine(host.triple, host.cpu, host.features).emit_object(module)


class _Child:
    """A forked process compiling one group; `result()` collects its object (or None when it failed)."""

    def __init__(self, text: str, opt_level: int, optimize: Optimizer):
        read_fd, write_fd = os.pipe()
        with llvm.ffi.lib._lock:  # no other thread is inside LLVM (or forking another child) meanwhile
            try:
                self.pid = os.fork()
            except OSError:
                os.close(read_fd)
                os.close(write_fd)
                raise
            if self.pid == 0:  # pragma: no cover -- runs in the child, which never returns
                os.close(read_fd)
                _run_child(write_fd, text, opt_level, optimize)
            os.close(write_fd)  # before another thread's child could inherit it (its EOF would wait for that one)
        self.fd = read_fd
        self.error = ""

    def result(self, timeout: float) -> bytes | None:
        import select

        data = bytearray()
        deadline = time.monotonic() + timeout
        poller = select.poll()  # not select.select: it fails on descriptors above 1023
        poller.register(self.fd, select.POLLIN)
        status = -1
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not poller.poll(left * 1000):
                    import signal  # (~1.5 ms to import: its enums)

                    self.error = f"no answer within {timeout:.0f} s"
                    os.kill(self.pid, signal.SIGKILL)
                    return None
                chunk = os.read(self.fd, 1 << 20)
                if not chunk:
                    break
                data += chunk
        finally:
            os.close(self.fd)
            try:
                _, status = os.waitpid(self.pid, 0)
            except ChildProcessError:  # reaped by someone else's SIGCHLD handler
                pass
        if data[:2] == b"OK" and len(data) >= 10 and struct.unpack("<Q", data[2:10])[0] == len(data) - 10:
            return bytes(data[10:])
        if data[:2] == b"ER":
            self.error = data[2:].decode(errors="replace")
        else:
            self.error = f"the child exited with status {status:#x} after {len(data)} bytes"
        return None


def _run_child(fd: int, text: str, opt_level: int, optimize: Optimizer) -> None:  # pragma: no cover -- child only
    import gc

    gc.disable()  # no finalizer of the parent's objects runs here
    code = 1
    try:
        obj = emit_object(text, opt_level, optimize)
        message = b"OK" + struct.pack("<Q", len(obj)) + obj
        code = 0
    except BaseException as err:  # noqa: BLE001 -- reported to the parent, which compiles the group itself
        message = b"ER" + f"{type(err).__name__}: {err}".encode()
    try:
        view = memoryview(message)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os._exit(code)


def compile_objects(llvm_ir: str, opt_level: int, optimize: Optimizer) -> list[bytes] | None:
    """Object code for `llvm_ir` as two objects compiled side by side (the heavier group in the child), or
    None when it does not split (the caller then compiles it in-process)."""
    halves = split_module(llvm_ir)
    if halves is None:
        return None
    try:
        child = _Child(halves[1], opt_level, optimize)
    except OSError:  # no process or pipe to be had (memory, descriptor limits): compile in-process
        return None
    start = time.perf_counter()
    try:
        mine = emit_object(halves[0], opt_level, optimize)
    except BaseException:
        child.result(0.0)  # stop it
        raise
    theirs = child.result(child_timeout(time.perf_counter() - start))
    if theirs is None:
        import warnings

        warnings.warn(f"parallel JIT: the child compiling half of the module failed ({child.error}); "
                      "compiling it in this process (MINIXLA_PARALLEL_JIT=0 turns the child off)",
                      ParallelJitWarning, stacklevel=3)
        theirs = emit_object(halves[1], opt_level, optimize)
    return [mine, theirs]


def compile_in_background(text: str) -> _Child:
    """A forked child emitting the object code of a whole runtime kernel (`text`, compiled as MCJIT would:
    no IR pipeline, the host machine's code generation) while this process goes on; `result(timeout)`
    collects it. Raises OSError when no process can be had."""
    return _Child(text, 0, _no_pipeline)


def _no_pipeline(module: llvm.ModuleRef) -> None:  # pragma: no cover -- opt_level 0 never calls it
    pass
