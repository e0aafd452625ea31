"""The fast all-reduce's round trip as one native call: staging copy, header, MPI_Allreduce, check.

In Python each of those steps is a numpy call or an mpi4py call of 0.1-0.5 us, and a 1 KiB
MPI_Allreduce between two processes of one machine takes only ~1.5 us, so they kept the small rows
of benchmarks/results_distributed.md near half of mpi4py's bandwidth. Here one small function,
compiled once with LLVM (backends/cpu/jit.py; cached on disk like any program), does them all and
calls the MPI library's `MPI_Allreduce` through its address. Python calls it with three arrays
(operand, staging buffer, descriptor) whose data pointers it reads from the arrays themselves (the
result stays in the staging buffer, which fastpath.py hands out and reuses once free); it is a
METH_FASTCALL builtin (a call costs what calling `len` does; a ctypes call cost ~0.5 us) and lets
other threads run while MPI waits. It reads numpy's array struct (data pointer, C-contiguity flag)
at fixed offsets: `available()` checks those offsets on real arrays first, and finds `MPI_Allreduce`
in the MPI library that mpi4py loaded; if either fails (or MINIXLA_MPI_NATIVE=0), fastpath.py keeps
its numpy/mpi4py steps, which do the same thing.

The function counts its MPI calls in COUNTER (odd while inside one, the communicator handle beside),
so the watchdog (fastpath.WATCHDOG) can still end a run whose peer never arrives.
"""

from __future__ import annotations

import ctypes
import os

import numpy as np

#: descriptor slots (an int64 array per fast-path entry; slot 0 is unused: the staging buffer is an argument)
NBYTES, COUNT, DTYPE, OP, COMM, HEADER, EXPECT, MASK, FN, IN_PLACE, COUNTER_AT = range(1, 12)
SLOTS = 16

#: return codes of the native call
OK, DIFFERS, MPI_FAILED, NOT_CONTIGUOUS = 0, 1, 2, 3

#: numpy's PyArrayObject_fields on 64-bit CPython: `data` after PyObject_HEAD, `flags` after descr
_DATA_AT, _FLAGS_AT, _C_CONTIGUOUS = 16, 64, 0x1

#: [MPI calls entered + left (odd while inside one), communicator handle of the last one]
COUNTER = np.zeros(2, np.int64)

_IR = """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare ptr @PyEval_SaveThread()
declare void @PyEval_RestoreThread(ptr)
declare ptr @PyLong_FromLong(i64)

; a METH_FASTCALL builtin: fast(operand, stage, descriptor) -> return code
define ptr @minixla_mpi_fast_allreduce_py(ptr %self, ptr %args, i64 %nargs) {
entry:
  %three = icmp eq i64 %nargs, 3
  br i1 %three, label %call, label %bad
bad:
  ret ptr null
call:
  %src = load ptr, ptr %args
  %a1 = getelementptr ptr, ptr %args, i64 1
  %dst = load ptr, ptr %a1
  %a2 = getelementptr ptr, ptr %args, i64 2
  %desc = load ptr, ptr %a2
  %rc = call i32 @minixla_mpi_fast_allreduce(ptr %src, ptr %dst, ptr %desc)
  %rc64 = sext i32 %rc to i64
  %obj = call ptr @PyLong_FromLong(i64 %rc64)
  ret ptr %obj
}

define internal i32 @minixla_mpi_fast_allreduce(ptr %src, ptr %dst, ptr %desc) {
  ; %dst: the staging array [data, header]: the result is left in its data part
entry:
  %dpp = getelementptr i8, ptr %desc, i64 16
  %d = load ptr, ptr %dpp
  %sfp = getelementptr i8, ptr %src, i64 64
  %sflags = load i32, ptr %sfp
  %sc = and i32 %sflags, 1
  %contiguous = icmp ne i32 %sc, 0
  br i1 %contiguous, label %go, label %not_contiguous
not_contiguous:
  ret i32 3
go:
  %sdp = getelementptr i8, ptr %src, i64 16
  %sdata = load ptr, ptr %sdp
  %tdp = getelementptr i8, ptr %dst, i64 16
  %stage = load ptr, ptr %tdp
  %p1 = getelementptr i64, ptr %d, i64 1
  %nbytes = load i64, ptr %p1
  call void @llvm.memcpy.p0.p0.i64(ptr %stage, ptr %sdata, i64 %nbytes, i1 false)
  %hp = getelementptr i8, ptr %stage, i64 %nbytes
  %p8 = getelementptr i64, ptr %d, i64 8
  %mask = load i64, ptr %p8
  %p6 = getelementptr i64, ptr %d, i64 6
  %header = load i64, ptr %p6
  %old = load i64, ptr %hp, align 1
  %notmask = xor i64 %mask, -1
  %keep = and i64 %old, %notmask
  %new = or i64 %keep, %header
  store i64 %new, ptr %hp, align 1
  %p11 = getelementptr i64, ptr %d, i64 11
  %ctr = load ptr, ptr %p11
  %p5 = getelementptr i64, ptr %d, i64 5
  %comm = load i64, ptr %p5
  %ctr1 = getelementptr i64, ptr %ctr, i64 1
  store volatile i64 %comm, ptr %ctr1
  %c0 = load volatile i64, ptr %ctr
  %c1 = add i64 %c0, 1
  store volatile i64 %c1, ptr %ctr
  %p9 = getelementptr i64, ptr %d, i64 9
  %fn = load ptr, ptr %p9
  %p10 = getelementptr i64, ptr %d, i64 10
  %inplace = load i64, ptr %p10
  %p2 = getelementptr i64, ptr %d, i64 2
  %count64 = load i64, ptr %p2
  %count = trunc i64 %count64 to i32
  %p3 = getelementptr i64, ptr %d, i64 3
  %dtype = load i64, ptr %p3
  %p4 = getelementptr i64, ptr %d, i64 4
  %op = load i64, ptr %p4
  %tstate = call ptr @PyEval_SaveThread()
  %rc = call i32 %fn(i64 %inplace, ptr %stage, i32 %count, i64 %dtype, i64 %op, i64 %comm)
  call void @PyEval_RestoreThread(ptr %tstate)
  %c2 = add i64 %c0, 2
  store volatile i64 %c2, ptr %ctr
  %ok = icmp eq i32 %rc, 0
  br i1 %ok, label %check, label %failed
failed:
  ret i32 2
check:
  %got = load i64, ptr %hp, align 1
  %gm = and i64 %got, %mask
  %p7 = getelementptr i64, ptr %d, i64 7
  %expect = load i64, ptr %p7
  %same = icmp eq i64 %gm, %expect
  br i1 %same, label %reduced, label %differs
differs:
  ret i32 1
reduced:
  ret i32 0
}
"""

_STATE: dict = {}


def available():
    """(the native call, MPI_Allreduce's address, MPI_IN_PLACE's value), or None where this process
    cannot use it; decided once."""
    if "found" not in _STATE:
        _STATE["found"] = _load()
    return _STATE["found"]


def _load():
    if os.environ.get("MINIXLA_MPI_NATIVE", "1") == "0" or not _numpy_layout_ok():
        return None
    address = _mpi_allreduce_address()
    if not address:
        return None
    from mpi4py import MPI

    return compile_call(), address, int(MPI.IN_PLACE)


def compile_call():
    """The native call as a Python builtin `fast(operand, stage, descriptor) -> return code`: `stage`
    (C-contiguous, room for an 8-byte load at the header) gets [operand, header], reduced in place (the
    descriptor names the MPI_Allreduce to call: tests pass a stand-in)."""
    if "call" not in _STATE:
        import llvmlite.binding as llvm

        from minixla.backends.cpu.jit import jit_compile

        for name in ("PyEval_SaveThread", "PyEval_RestoreThread", "PyLong_FromLong"):
            llvm.add_symbol(name, ctypes.cast(getattr(ctypes.pythonapi, name), ctypes.c_void_p).value)
        module = jit_compile(_IR)
        _STATE["module"] = module  # keeps the code alive
        _STATE["call"] = _builtin(module.address("minixla_mpi_fast_allreduce_py"))
    return _STATE["call"]


class _MethodDef(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("meth", ctypes.c_void_p), ("flags", ctypes.c_int),
                ("doc", ctypes.c_char_p)]


_METH_FASTCALL = 0x80


def _builtin(address: int):
    """A Python builtin function over the compiled METH_FASTCALL function: a call costs ~50 ns, where a
    ctypes call costs ~500 ns (as much as a third of the whole small all-reduce)."""
    method = _MethodDef(b"fast_allreduce", address, _METH_FASTCALL, None)
    _STATE["method"] = method  # the builtin refers to it for its whole life
    new = ctypes.pythonapi.PyCFunction_NewEx
    new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.py_object, ctypes.py_object]
    return new(ctypes.addressof(method), None, None)


def _numpy_layout_ok() -> bool:
    """numpy's array struct has the data pointer and flags where the native call reads them."""
    try:
        a = np.arange(8.0)
        b = a[::2]
        data = ctypes.c_void_p.from_address(id(a) + _DATA_AT).value
        flags_a = ctypes.c_int.from_address(id(a) + _FLAGS_AT).value
        flags_b = ctypes.c_int.from_address(id(b) + _FLAGS_AT).value
        return (data == a.ctypes.data and ctypes.c_void_p.from_address(id(b) + _DATA_AT).value == b.ctypes.data
                and flags_a & _C_CONTIGUOUS and not flags_b & _C_CONTIGUOUS and ctypes.sizeof(ctypes.c_void_p) == 8)
    except (ValueError, OSError):
        return False


def _mpi_allreduce_address() -> int:
    """Address of MPI_Allreduce in the MPI library this process loaded (through mpi4py)."""
    try:
        lib = ctypes.CDLL(None)
        return ctypes.cast(lib.MPI_Allreduce, ctypes.c_void_p).value or 0
    except (AttributeError, OSError):
        pass
    try:  # mpi4py loads the library privately (RTLD_LOCAL): open it again by its path
        with open("/proc/self/maps") as maps:
            paths = [line.split()[-1] for line in maps if "libmpi" in line and ".so" in line]
    except OSError:
        return 0
    for path in dict.fromkeys(paths):
        try:
            return ctypes.cast(ctypes.CDLL(path).MPI_Allreduce, ctypes.c_void_p).value or 0
        except (AttributeError, OSError):
            continue
    return 0


def descriptor(nbytes: int, count: int, handles: tuple[int, int, int], header, expect, allreduce: int,
               in_place: int) -> np.ndarray:
    """The descriptor of one fast-path entry: `handles` are the MPI datatype, op and communicator,
    `header`/`expect` numpy scalars of the operand's dtype, `allreduce` MPI_Allreduce's address."""
    desc = np.zeros(SLOTS, np.int64)
    size = header.dtype.itemsize
    desc[NBYTES], desc[COUNT] = nbytes, count
    desc[DTYPE], desc[OP], desc[COMM] = handles
    desc[HEADER] = _bits(header)
    desc[EXPECT] = _bits(expect)
    desc[MASK] = -1 if size == 8 else (1 << (8 * size)) - 1
    desc[FN], desc[IN_PLACE] = allreduce, in_place
    desc[COUNTER_AT] = COUNTER.ctypes.data
    return desc


def _bits(value) -> int:
    """The value's bytes as a zero-extended little-endian integer (what the native call compares)."""
    raw = np.asarray(value).tobytes()
    return int(np.frombuffer(raw + bytes(8 - len(raw)), np.int64)[0])
