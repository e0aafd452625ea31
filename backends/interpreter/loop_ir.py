"""A tiny numpy-backed evaluator for loop-level IR (scf/cf/memref/arith/math/
func on static memrefs, structured linalg on memrefs or tensors, tensor ops
with value semantics, gemm calls): the oracle for the stages between
`convert-hlo-to-linalg` and the llvm dialect, used by `minixla-opt --bisect`
(tools/bisect.py) and by the tests of `hlo-to-linalg` + `bufferize` +
`lower-linalg-to-loops`. Per-element Python: keep shapes tiny. An op it does not know raises NotImplementedError."""

from __future__ import annotations

import math as pymath

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FunctionType,
    IndexType,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, Operation

_FLOATS = {Float16Type: np.float16, BFloat16Type: ml_dtypes.bfloat16, Float32Type: np.float32, Float64Type: np.float64}


def np_dtype(t) -> np.dtype:
    if isinstance(t, IntegerType):
        w = t.width.data
        if w == 1:
            return np.dtype(bool)
        unsigned = t.signedness.data.name == "UNSIGNED"
        return np.dtype(f"{'u' if unsigned else ''}int{w}")
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    return np.dtype(_FLOATS[type(t)])


def _wrap(v: int, w: int) -> int:
    v = int(v) & ((1 << w) - 1)  # (a numpy integer, e.g. a simulated thread's index, would overflow the mask)
    return v - (1 << w) if w > 1 and v >= 1 << (w - 1) else (v if w > 1 else -v)


def _u(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def _width(t) -> int:
    return 64 if isinstance(t, IndexType) else t.width.data


#: the CBLAS calls of `convert-linalg-to-blas`, evaluated with numpy
_GEMMS = {"minixla_sgemm": np.float32, "minixla_dgemm": np.float64,
          "minixla_library_sgemm": np.float32, "minixla_library_dgemm": np.float64}
_ROW_MAJOR, _TRANS = 101, 112
_BRANCHES = ("cf.br", "cf.cond_br", "cf.switch")
_LINALG_IVS = "linalg-ivs"  # env key: the iteration point of the enclosing linalg op


class Return(Exception):
    """`func.return` unwinding to the caller with its operands."""


class LoopEvaluator:
    """Runs functions of a loop-level module; results are its trailing
    memref parameters (destination-passing style after `bufferize`)."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.funcs = {o.sym_name.data: o for o in module.ops if o.name == "func.func"}
        self.globals = {o.sym_name.data: o for o in module.ops if o.name == "memref.global"}
        self.buffers: dict[int, np.ndarray] = {}  # address -> buffer, of those whose pointer was taken

    def run(self, name: str, *inputs: np.ndarray) -> list[np.ndarray]:
        fn = self.funcs[name]
        ft: FunctionType = fn.function_type
        n_in = len(inputs)
        args = [np.array(x).astype(np_dtype(t.element_type), copy=True) if np.asarray(x).dtype != np_dtype(t.element_type)
                else np.array(x, copy=True) for x, t in zip(inputs, ft.inputs.data[:n_in])]
        outs = [np.zeros(t.get_shape(), dtype=np_dtype(t.element_type)) for t in ft.inputs.data[n_in:]]
        results = self.call(fn, args + outs)
        return outs if outs or not ft.outputs.data else [np.asarray(r) for r in results]

    def call(self, fn, args):
        env: dict = {}
        try:
            self.cfg(fn.body.blocks[0], env, args)
        except Return as r:
            return r.args[0]
        return []

    def cfg(self, block: Block, env: dict, args) -> None:
        """Run a function body that may have several blocks (cf.br/cf.cond_br/cf.switch)."""
        while block is not None:
            env.update(zip(block.args, args))
            block, args = self.block(block, env) or (None, [])

    def branch(self, op: Operation, env: dict):
        """(successor, its arguments) of a cf terminator."""
        if op.name == "cf.br":
            return op.successor, [env[v] for v in op.arguments]
        if op.name == "cf.cond_br":
            if env[op.cond]:
                return op.then_block, [env[v] for v in op.then_arguments]
            return op.else_block, [env[v] for v in op.else_arguments]
        flag = env[op.flag]  # cf.switch
        cases = [int(v) for v in op.case_values.get_values()] if op.case_values else []
        if flag not in cases:
            return op.default_block, [env[v] for v in op.default_operands]
        k = cases.index(flag)
        sizes = op.case_operand_segments.get_values()
        start = sum(sizes[:k])
        return op.case_blocks[k], [env[v] for v in op.case_operands[start:start + sizes[k]]]

    def block(self, block: Block, env: dict):
        for op in block.ops:
            if op.name in _BRANCHES:
                return self.branch(op, env)
            res = self.op(op, env)
            if res is not None:
                for r, v in zip(op.results, res):
                    env[r] = v

    def region_run(self, block: Block, env: dict, args, terminator: str = "") -> list:
        """Run a region body; returns the operands of its terminator."""
        env = dict(env)
        env.update(zip(block.args, args))
        for op in block.ops:
            if op is block.last_op and op.name in ("scf.yield", "scf.condition", "scf.reduce", terminator):
                return [env[v] for v in op.operands]
            res = self.op(op, env)
            if res is not None:
                for r, v in zip(op.results, res):
                    env[r] = v
        return []

    # --------------------------------------------------------------------
    def op(self, op: Operation, env: dict):
        name = op.name
        a = [env[v] for v in op.operands]
        t = op.results[0].type if op.results else None
        if name == "func.return":
            raise Return(a)
        if name == "func.call":
            callee = op.callee.string_value()
            if callee == "fmod":
                return [np.float64(pymath.fmod(float(a[0]), float(a[1]))) if a[1] != 0 else np.float64("nan")]
            if callee in _GEMMS:
                self.gemm(np.dtype(_GEMMS[callee]), *a)
                return []
            return self.call(self.funcs[callee], a)
        if name.startswith("arith."):
            return [self.arith(name[6:], op, a, t)]
        if name.startswith("math."):
            return [self.math(name[5:], a, t)]
        if name.startswith("memref."):
            return self.memref(name[7:], op, a, t, env)
        if name.startswith("scf."):
            return self.scf(name[4:], op, a, env)
        if name.startswith("tensor."):
            return [self.tensor(name[7:], op, a, t)]
        if name == "linalg.index":
            return [env[_LINALG_IVS][op.dim.value.data]]
        if name.startswith("linalg.") and hasattr(op, "get_indexing_maps"):
            return self.linalg_structured(op, a, env)
        raise NotImplementedError(name)

    def linalg_structured(self, op, a, env):
        """Any structured linalg op on memrefs, point by point in lexicographic
        order of its iteration space (so reductions accumulate in order)."""
        maps = [m.data for m in op.get_indexing_maps()]
        n_in, operands = len(op.inputs), list(op.inputs) + list(op.outputs)
        on_tensors = bool(op.results)
        if on_tensors:  # value semantics: the results are updated copies of the inits
            a = a[:n_in] + [np.array(x, copy=True) for x in a[n_in:]]
        bounds = [None] * len(op.get_iterator_types())
        for m, arr in zip(maps, a):
            for r, size in zip(m.results, arr.shape):
                if hasattr(r, "position") and bounds[r.position] is None:
                    bounds[r.position] = size
        block = op.regions[0].block
        for ivs in np.ndindex(*bounds):
            idx = [tuple(m.eval(list(ivs), [])) for m in maps]
            vals = [self._load(arr, i, v.type.element_type) for arr, i, v in zip(a, idx, operands)]
            outs = self.region_run(block, {**env, _LINALG_IVS: ivs}, vals, "linalg.yield")
            for k, v in enumerate(outs):
                self._store(a[n_in + k], idx[n_in + k], v, operands[n_in + k].type.element_type)
        return a[n_in:] if on_tensors else []

    def tensor(self, m, op, a, t):
        """tensor ops with value semantics (static shapes, static slices)."""
        if m == "empty":
            return np.zeros(t.get_shape(), np_dtype(t.element_type))
        if m == "extract":
            return self._load(a[0], tuple(a[1:]), op.operands[0].type.element_type)
        if m == "insert":
            dest = np.array(a[1], copy=True)
            self._store(dest, tuple(a[2:]), a[0], t.element_type)
            return dest
        if m in ("collapse_shape", "expand_shape"):
            return np.array(a[0], copy=True).reshape(t.get_shape())
        if m == "from_elements":
            out = np.zeros(t.get_shape(), np_dtype(t.element_type))
            for i, v in zip(np.ndindex(*out.shape), a):
                self._store(out, i, v, t.element_type)
            return out
        if m in ("extract_slice", "insert_slice"):
            if op.offsets or op.sizes or op.strides:
                raise NotImplementedError(f"tensor.{m} with dynamic offsets/sizes/strides")
            off, size, step = (op.static_offsets.get_values(), op.static_sizes.get_values(),
                               op.static_strides.get_values())
            sl = tuple(slice(o, o + (n - 1) * k + 1 if n else o, k) for o, n, k in zip(off, size, step))
            if m == "extract_slice":
                return np.array(a[0][sl], copy=True).reshape(t.get_shape())
            dest = np.array(a[1], copy=True)
            dest[sl] = np.asarray(a[0]).reshape(dest[sl].shape)
            return dest
        raise NotImplementedError(f"tensor.{m}")

    def matrix(self, address: int, rows: int, cols: int, ld: int, dtype: np.dtype) -> np.ndarray:
        """A row-major view of `rows x cols` at `address`, checked to lie in a known buffer."""
        extent = ((rows - 1) * ld + cols) * dtype.itemsize if rows and cols else 0
        for start, buf in self.buffers.items():
            if start <= address and address + extent <= start + buf.nbytes and buf.dtype == dtype:
                flat = buf.reshape(-1)
                first = (address - start) // dtype.itemsize
                return np.lib.stride_tricks.as_strided(flat[first:], (rows, cols), (ld * dtype.itemsize,
                                                                                    dtype.itemsize))
        raise NotImplementedError(f"gemm operand at {address:#x} ({rows}x{cols}, ld {ld}) outside every buffer")

    def gemm(self, dtype, order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) -> None:
        """CBLAS `?gemm` (row-major) in numpy: the calls `convert-linalg-to-blas` makes."""
        if order != _ROW_MAJOR:
            raise NotImplementedError(f"gemm order {order}")
        am = self.matrix(a, *((k, m) if ta == _TRANS else (m, k)), lda, dtype)
        bm = self.matrix(b, *((n, k) if tb == _TRANS else (k, n)), ldb, dtype)
        cm = self.matrix(c, m, n, ldc, dtype)
        product = (am.T if ta == _TRANS else am).astype(np.float64) @ (bm.T if tb == _TRANS else bm)
        cm[...] = (alpha * product + (beta * cm if beta else 0.0)).astype(dtype)

    @staticmethod
    def _load(arr, idx, et):
        v = arr[idx]
        if isinstance(et, IntegerType):
            return -1 if (et.width.data == 1 and v) else int(v)
        return v

    @staticmethod
    def _store(arr, idx, v, et):
        if isinstance(et, IntegerType):
            w = et.width.data
            v = bool(v) if w == 1 else np.array(_u(int(v), w), dtype=f"uint{w}").view(arr.dtype)
        arr[idx] = v

    def arith(self, m, op, a, t):
        if m == "constant":
            v = op.value
            if isinstance(t, TensorType):
                from minixla.dialects.numpy_types import dense_attr_to_numpy

                return dense_attr_to_numpy(v, t)
            if isinstance(t, (IntegerType, IndexType)):
                return _wrap(v.value.data, _width(t)) if isinstance(t, IntegerType) else v.value.data
            return np_dtype(t).type(v.value.data)
        it = op.operands[0].type if op.operands else t
        if isinstance(it, (IntegerType, IndexType)):
            w = _width(it)
            x = a[0]
            y = a[1] if len(a) > 1 else None
            if m in ("addi", "subi", "muli", "andi", "ori", "xori"):
                f = {"addi": lambda: x + y, "subi": lambda: x - y, "muli": lambda: x * y, "andi": lambda: x & y,
                     "ori": lambda: x | y, "xori": lambda: x ^ y}[m]
                return _wrap(f(), w)
            if m == "divsi":
                q = abs(x) // abs(y)
                return _wrap(q if (x >= 0) == (y >= 0) else -q, w)
            if m == "remsi":
                r = abs(x) % abs(y)
                return _wrap(r if x >= 0 else -r, w)
            if m == "floordivsi":
                return x // y
            if m == "ceildivsi":
                return -((-x) // y)
            if m == "divui":
                return _wrap(_u(x, w) // _u(y, w), w)
            if m == "remui":
                return _wrap(_u(x, w) % _u(y, w), w)
            if m in ("maxsi", "minsi"):
                return max(x, y) if m == "maxsi" else min(x, y)
            if m in ("maxui", "minui"):
                f = max if m == "maxui" else min
                return _wrap(f(_u(x, w), _u(y, w)), w)
            if m == "shli":
                return _wrap(x << _u(y, w), w) if _u(y, w) < w else 0
            if m == "shrui":
                return _wrap(_u(x, w) >> _u(y, w), w) if _u(y, w) < w else 0
            if m == "shrsi":
                return x >> min(_u(y, w), w - 1)
            if m == "cmpi":
                pred = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"][op.predicate.value.data]
                if pred.startswith("u"):
                    x, y = _u(x, w), _u(y, w)
                return -1 if {"eq": x == y, "ne": x != y}.get(pred, None) or \
                    (pred[1:] == "lt" and x < y) or (pred[1:] == "le" and x <= y) or \
                    (pred[1:] == "gt" and x > y) or (pred[1:] == "ge" and x >= y) else 0
            if m == "select":
                return a[1] if a[0] else a[2]
            if m in ("extsi",):
                return x
            if m == "extui":
                return _u(x, w)
            if m == "trunci":
                return _wrap(x, _width(t))
            if m == "index_cast":
                return x if isinstance(t, IndexType) else _wrap(x, _width(t))
            if m == "sitofp":
                return np_dtype(t).type(x)
            if m == "uitofp":
                return np_dtype(t).type(_u(x, w))
            if m == "bitcast":
                return np.array(x, dtype=f"int{w}").view(np_dtype(t))[()]
        else:
            x = a[0]
            y = a[1] if len(a) > 1 else None
            dt = np_dtype(t) if t is not None else None
            with np.errstate(all="ignore"):
                if m in ("addf", "subf", "mulf", "divf"):
                    f = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide}[m]
                    return dt.type(f(np.float64(x), np.float64(y))) if dt == ml_dtypes.bfloat16 else dt.type(f(x, y))
                if m == "negf":
                    return -x
                if m == "maximumf":
                    return x if np.isnan(x) else y if np.isnan(y) else (max(x, y) if x != y else (x if not np.signbit(x) else y))
                if m == "minimumf":
                    return x if np.isnan(x) else y if np.isnan(y) else (min(x, y) if x != y else (x if np.signbit(x) else y))
                if m in ("maxnumf", "minnumf"):  # the non-NaN operand
                    return dt.type((np.fmax if m == "maxnumf" else np.fmin)(x, y))
                if m == "cmpf":
                    pred = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
                            "ule", "une", "uno", "true"][op.predicate.value.data]
                    xf, yf = float(x), float(y)
                    unordered = np.isnan(xf) or np.isnan(yf)
                    base = {"eq": xf == yf, "gt": xf > yf, "ge": xf >= yf, "lt": xf < yf, "le": xf <= yf,
                            "ne": xf != yf, "rd": True, "no": False}
                    if pred in ("true", "false"):
                        r = pred == "true"
                    elif pred == "ord":
                        r = not unordered
                    elif pred == "uno":
                        r = unordered
                    elif pred[0] == "o":
                        r = (not unordered) and base[pred[1:]]
                    else:
                        r = unordered or base[pred[1:]]
                    return -1 if r else 0
                if m == "select":
                    return a[1] if a[0] else a[2]
                if m in ("extf", "truncf"):
                    return dt.type(np.float64(x)) if m == "extf" else dt.type(np.float32(x) if dt == ml_dtypes.bfloat16 and np.dtype(type(x)) == np.float32 else x)
                if m in ("fptosi", "fptoui"):
                    return _wrap(int(x), _width(t))
                if m == "bitcast":
                    return _wrap(int(np.array(x).view(f"uint{np.dtype(type(x)).itemsize * 8}")), _width(t))
        raise NotImplementedError(f"arith.{m} on {it}")

    def math(self, m, a, t):
        x = a[0]
        dt = np_dtype(t)
        with np.errstate(all="ignore"):
            if m in ("absi",):
                return _wrap(abs(x), _width(t))
            f = {"absf": np.abs, "exp": np.exp, "expm1": np.expm1, "log": np.log, "log1p": np.log1p,
                 "sqrt": np.sqrt, "rsqrt": lambda v: 1 / np.sqrt(v), "tanh": np.tanh, "sin": np.sin, "cos": np.cos,
                 "floor": np.floor, "ceil": np.ceil, "roundeven": np.rint, "trunc": np.trunc,
                 "round": lambda v: np.copysign(np.floor(np.abs(v) + 0.5), v)}.get(m)
            if f is not None:
                return dt.type(f(np.float64(x)) if dt != np.float32 else f(np.float32(x)))
            if m == "copysign":
                return dt.type(np.copysign(np.float64(x), np.float64(a[1])))
            if m == "atan2":
                return dt.type(np.arctan2(np.float64(x), np.float64(a[1])))
            if m == "powf":
                return dt.type(np.power(np.float64(x), np.float64(a[1])))
        raise NotImplementedError(f"math.{m}")

    def memref(self, m, op, a, t, env):
        if m == "alloc":
            return [np.zeros(t.get_shape(), dtype=np_dtype(t.element_type))]
        if m == "dealloc":
            return None
        if m == "get_global":
            g = self.globals[op.name_.root_reference.data]
            val = g.initial_value
            arr = np.array([v.value.data if hasattr(v, "value") else v for v in val.get_values()])
            arr = arr.astype(np_dtype(t.element_type))
            if arr.size == 1:  # a splat
                return [np.full(t.get_shape(), arr.reshape(()), arr.dtype)]
            return [arr.reshape(t.get_shape())]
        if m == "load":
            return [self._load(a[0], tuple(a[1:]), op.operands[0].type.element_type)]
        if m == "store":
            self._store(a[1], tuple(a[2:]), a[0], op.operands[1].type.element_type)
            return None
        if m == "extract_aligned_pointer_as_index":
            root = a[0]
            while isinstance(root.base, np.ndarray):
                root = root.base
            address = root.__array_interface__["data"][0]
            self.buffers[address] = root
            return [address]
        if m == "copy":
            a[1][...] = a[0]
            return None
        if m == "subview":
            off, size, step = (op.static_offsets.get_values(), op.static_sizes.get_values(),
                               op.static_strides.get_values())
            sl = tuple(slice(o, o + (s - 1) * k + 1 if s else o, k) for o, s, k in zip(off, size, step))
            return [a[0][sl]]
        if m in ("collapse_shape", "expand_shape"):
            v = a[0].reshape(t.get_shape())
            assert np.shares_memory(v, a[0]) or a[0].size == 0 or a[0].size == 1
            return [v]
        raise NotImplementedError(f"memref.{m}")

    def scf(self, m, op, a, env):
        if m == "for":
            lb, ub, st, *carried = a
            for i in range(lb, ub, st):
                carried = self.region_run(op.body.block, env, [i, *carried])
            return carried
        if m == "parallel":
            n = len(op.lowerBound)
            lbs, ubs, sts = a[:n], a[n:2 * n], a[2 * n:3 * n]
            for idx in np.ndindex(*[(u - lo + s - 1) // s for lo, u, s in zip(lbs, ubs, sts)]):
                self.region_run(op.body.block, env, [lo + i * s for lo, i, s in zip(lbs, idx, sts)])
            return []
        if m == "while":
            vals = a
            while True:
                cond, *fwd = self.region_run(op.before_region.block, env, vals)
                if not cond:
                    return fwd
                vals = self.region_run(op.after_region.block, env, fwd)
        if m == "if":
            region = op.true_region if a[0] else op.false_region
            return self.region_run(region.block, env, []) if region.blocks else []
        if m == "index_switch":
            cases = list(op.cases.get_values())
            region = op.case_regions[cases.index(a[0])] if a[0] in cases else op.default_region
            return self.region_run(region.block, env, [])
        raise NotImplementedError(f"scf.{m}")
