"""The `cpu` backend against the reference `interpreter`, op by op (issue 3's
acceptance): for every op of `dialects.hlo.OPS`, hypothesis draws small
programs (shapes with rank 0 and 0-size dimensions, attributes, every element
type the op accepts) and inputs with edge values mixed in (INT_MIN, -1, 0,
INT_MAX, NaN, ±inf, ±0.0, denormals, the largest finite values), runs them on
both backends and compares:

* integers and booleans bit for bit;
* floats bit for bit (NaN == NaN, whatever the payload) wherever both backends
  compute the same operations in the same order;
* `ULPS` lists the exceptions, with the reason: transcendental functions (the
  interpreter evaluates them in double precision and rounds once; the CPU calls
  libm/LLVM in the element type, f16/bf16 promoted to f32), where the result
  may differ by a few units in the last place;
* reductions and contractions over floats draw integer-valued floats (exact
  sums in any order), so they too compare exactly.

Speed: every example builds one module holding one function per (element
type, drawn case) and compiles it with ONE LLVM compile
(`compile_lowered` returns all public functions); each compiled module runs
on several input draws. `@settings(derandomize=True)` keeps CI reproducible;
`pytest -m slow` runs the heavier variant (more examples per op).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser

from minixla.dialects import hlo, load_all
from minixla.dialects.hlo_ops.base import ELEMENT_CLASSES
from minixla.dialects.hlo_ops.elementwise import BINARY_OPS, UNARY_OPS

# -- element types -------------------------------------------------------------------

SINTS = ["i8", "i16", "i32", "i64"]
UINTS = ["ui8", "ui16", "ui32", "ui64"]
FLOATS = ["f16", "bf16", "f32", "f64"]
INTS = SINTS + UINTS
ALL = ["i1", *INTS, *FLOATS]
NP = {"i1": np.dtype(bool), **{t: np.dtype(f"int{t[1:]}") for t in SINTS},
      **{t: np.dtype(f"uint{t[2:]}") for t in UINTS}, "f16": np.dtype(np.float16),
      "bf16": np.dtype(ml_dtypes.bfloat16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
      "complex<f32>": np.dtype(np.complex64), "complex<f64>": np.dtype(np.complex128)}
WIDTH = {"i1": 1, "f16": 16, "bf16": 16, "f32": 32, "f64": 64, **{t: int(t.lstrip("ui")) for t in INTS}}


@functools.cache
def accepts(cls_name: str) -> list[str]:
    """The element types of ALL in the op table's element class `cls_name`."""
    ctx = load_all()
    return [t for t in ALL if ELEMENT_CLASSES[cls_name](Parser(ctx, t).parse_type())]


def tensor(shape, ty: str) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{ty}>"


# -- input data with edge values -------------------------------------------------------

def edge_values(ty: str) -> np.ndarray:
    dt = NP[ty]
    if ty == "i1":
        return np.array([False, True])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [info.min, info.min + 1, -1, 0, 1, 2, info.max - 1, info.max]
        return np.array([v for v in vals if info.min <= v <= info.max], dtype=object).astype(dt)
    fi = ml_dtypes.finfo(dt) if ty == "bf16" else np.finfo(dt)
    tiny, big = float(fi.tiny), float(fi.max)
    sub = float(fi.smallest_subnormal)
    vals = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, tiny, -tiny, sub, -sub, sub * 3, big, -big]
    with np.errstate(all="ignore"):
        return np.array(vals, np.float64).astype(dt)


def random_data(rng: np.random.Generator, shape, ty: str, *, edge_rate: float = 0.25,
                small_ints: bool = False) -> np.ndarray:
    """Random values of `ty` with edge values mixed in; `small_ints` makes floats
    integer-valued in [-4, 4] (exact sums in any order) without edge values."""
    dt = NP[ty]
    n = int(np.prod(shape, dtype=np.int64))
    if ty == "i1":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if small_ints:
        return rng.integers(-4, 5, n).astype(dt).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        mode = rng.integers(0, 2, n)
        wide = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        small = rng.integers(max(info.min, -9), 10, n).astype(dt)
        out = np.where(mode == 0, small, wide).astype(dt)
    else:
        scale = rng.choice([1e-3, 1.0, 30.0], n)
        with np.errstate(all="ignore"):
            out = (rng.standard_normal(n) * scale).astype(dt)
    edges = edge_values(ty)
    mask = rng.random(n) < edge_rate
    out[mask] = edges[rng.integers(0, len(edges), int(mask.sum()))]
    return out.reshape(shape)


# -- cases and backends ----------------------------------------------------------------

@dataclass
class Arg:
    shape: tuple[int, ...]
    ty: str
    gen: Callable[[np.random.Generator], np.ndarray] | None = None  # default: random_data
    small_ints: bool = False

    def make(self, rng: np.random.Generator) -> np.ndarray:
        if self.gen is not None:
            return np.asarray(self.gen(rng)).astype(NP[self.ty]).reshape(self.shape)
        return random_data(rng, self.shape, self.ty, small_ints=self.small_ints)


@dataclass
class Case:
    """One function: `body` (ending in its hlo results) and its arguments."""

    args: list[Arg]
    body: str  # uses %a0, %a1, ...; defines the values named in `results`
    results: list[tuple[str, str]]  # (value, type)
    ulps: int = 0  # allowed float difference in units in the last place
    name: str = ""
    nondeterministic: bool = False
    helper: str = ""  # module-level text after the function; `@FN` in body and helper is the function's name
    #: > 0: compare |cpu - interpreter| <= norm_tol * max|interpreter| instead of ulps (different
    #: algorithms in the same precision, e.g. the FFT kernel vs pocketfft)
    norm_tol: float = 0.0

    def text(self, fname: str) -> str:
        params = ", ".join(f"%a{i}: {tensor(a.shape, a.ty)}" for i, a in enumerate(self.args))
        rtypes = ", ".join(t for _, t in self.results)
        rets = ", ".join(v for v, _ in self.results)
        return (f"func.func @{fname}({params}) -> ({rtypes}) {{\n{self.body}\n"
                f"  func.return {rets} : {rtypes}\n}}" + self.helper).replace("@FN", f"@{fname}")


_COMPILED: dict[str, tuple[dict, dict]] = {}


def compile_both(cases: list[Case]) -> tuple[list, list]:
    text = "\n".join(c.text(f"f{i}") for i, c in enumerate(cases))
    if text not in _COMPILED:
        from minixla.backends.cpu.backend import _with_unsigned_views
        from minixla.backends.cpu.compiler import (
            SYMBOL_PREFIX,
            compile_lowered,
            lower,
            prefix_symbols,
            public_functions,
        )
        from minixla.backends.interpreter import InterpreterBackend
        from minixla.passes.pipelines import hlo_to_cpu

        ctx = load_all()
        module = Parser(ctx, text).parse_module()
        module.verify()
        interp = InterpreterBackend()
        ref = {f"f{i}": interp.compile(module, f"f{i}", verify=False) for i in range(len(cases))}
        cpu_mod = module.clone()
        types = {f.sym_name.data: f.function_type for f in public_functions(cpu_mod)}
        prefix_symbols(cpu_mod)
        signatures: dict = {}
        lower(cpu_mod, hlo_to_cpu(), {SYMBOL_PREFIX + n: len(t.outputs.data) for n, t in types.items()},
              signatures)
        compiled = compile_lowered(cpu_mod, signatures)
        cpu = {n: _with_unsigned_views(compiled[n], t) for n, t in types.items()}
        _COMPILED[text] = (cpu, ref)
    cpu, ref = _COMPILED[text]
    return [cpu[f"f{i}"] for i in range(len(cases))], [ref[f"f{i}"] for i in range(len(cases))]


def _ordered(bits: np.ndarray, w: int) -> np.ndarray:
    """Float bit patterns -> integers in the order of the floats (±0 equal)."""
    b = bits.astype(np.int64) if w < 64 else bits.view(np.int64)
    sign = (b >> (w - 1)) & 1 if w < 64 else (b < 0)
    mag = b & ((1 << (w - 1)) - 1) if w < 64 else b & np.int64(0x7FFFFFFFFFFFFFFF)
    return np.where(sign.astype(bool), -mag, mag)


def assert_same(got: np.ndarray, want: np.ndarray, ulps: int, where: str) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{where}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
    if want.dtype.kind in "biu":
        if not np.array_equal(got, want):
            bad = np.argwhere(got != want)[:5]
            raise AssertionError(f"{where}: differs at {bad.tolist()}: cpu {got[tuple(bad.T)]} "
                                 f"vs interpreter {want[tuple(bad.T)]}")
        return
    w = want.dtype.itemsize * 8
    ut = np.dtype(f"u{want.dtype.itemsize}")
    g, r = np.ascontiguousarray(got).view(ut), np.ascontiguousarray(want).view(ut)
    gf, rf = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(gf) & np.isnan(rf)
    if ulps == 0:
        ok = (g == r) | both_nan
    else:
        dist = np.abs(_ordered(g, w) - _ordered(r, w))
        ok = both_nan | (g == r) | ((dist <= ulps) & ~np.isnan(gf) & ~np.isnan(rf)
                                    & (np.isinf(gf) == np.isinf(rf)))
    if not ok.all():
        bad = np.argwhere(~ok)[:5]
        raise AssertionError(f"{where}: differs (> {ulps} ulp) at {bad.tolist()}: cpu {gf[tuple(bad.T)]} "
                             f"vs interpreter {rf[tuple(bad.T)]}")


def assert_close(got: np.ndarray, want: np.ndarray, tol: float, where: str) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, f"{where}: {got.dtype}{got.shape} != {want.dtype}{want.shape}"
    if want.size:
        err = np.abs(got.astype(np.complex128) - want).max() / max(np.abs(want).max(), 1e-300)
        assert err <= tol, f"{where}: error {err:.2e} relative to the largest magnitude > {tol:.0e}"


def run_cases(cases: list[Case], seed: int, draws: int = 2) -> None:
    cpu, ref = compile_both(cases)
    rng = np.random.default_rng(seed)
    for _ in range(draws):
        for i, (case, c, r) in enumerate(zip(cases, cpu, ref)):
            args = [a.make(rng) for a in case.args]
            want = r(*[a.copy() for a in args])
            got = c(*[a.copy() for a in args])
            assert len(got) == len(want)
            for k, (gv, wv) in enumerate(zip(got, want)):
                where = f"{case.name or 'case'} f{i} result #{k} ({case.results[k][1]}) on {[a.shape for a in args]}"
                try:
                    if case.norm_tol:
                        assert_close(gv, wv, case.norm_tol, where)
                    else:
                        assert_same(gv, wv, case.ulps, where)
                except AssertionError as err:
                    inputs = "\n".join(f"  arg{j} = {a!r}" for j, a in enumerate(args))
                    raise AssertionError(f"{err}\n{case.text('f')}\ninputs:\n{inputs}") from None


# -- strategies ------------------------------------------------------------------------

DIM = st.sampled_from([0, 1, 1, 2, 3, 3, 4, 5])


def shapes(min_rank=0, max_rank=3, dim=DIM):
    return st.lists(dim, min_size=min_rank, max_size=max_rank).map(tuple)


Draw = Callable
CaseFn = Callable[[Draw], list[Case]]

#: ulp tolerances of ops computed differently on the two backends (see module docstring)
ULPS = {"exponential": 2, "exponential_minus_one": 2, "log": 2, "log_plus_one": 2, "sqrt": 0, "rsqrt": 2,
        "tanh": 2, "logistic": 2, "sine": 2, "cosine": 2, "power": 2, "atan2": 2, "tan": 2, "cbrt": 2}


def _unary(op: str, cls: str) -> CaseFn:
    def cases(draw) -> list[Case]:
        out = []
        for ty in accepts(cls):
            shape = draw(shapes())
            t = tensor(shape, ty)
            out.append(Case([Arg(shape, ty)], f"  %r = hlo.{op} %a0 : {t}", [("%r", t)], ULPS.get(op, 0),
                            f"{op} {ty}"))
        return out

    return cases


def _binary(op: str, cls: str) -> CaseFn:
    def cases(draw) -> list[Case]:
        out = []
        for ty in accepts(cls):
            shape = draw(shapes())
            t = tensor(shape, ty)
            args = [Arg(shape, ty), Arg(shape, ty)]
            if op.startswith("shift"):  # shift amounts around the width
                w = WIDTH[ty]
                args[1] = Arg(shape, ty, lambda rng, n=int(np.prod(shape)), w=w, ty=ty: np.concatenate(
                    [rng.integers(0, w + 2, n)]).astype(NP[ty]) if rng.random() < 0.7 else
                    random_data(rng, (n,), ty))
            if op == "power" and ty in INTS:  # small exponents (the loop covers all bits anyway)
                args[1] = Arg(shape, ty, lambda rng, n=int(np.prod(shape)), ty=ty: np.where(
                    rng.random(n) < 0.6, rng.integers(-3, 12, n), random_data(rng, (n,), ty).astype(np.int64)
                    if NP[ty].itemsize < 8 or NP[ty].kind == "i" else rng.integers(0, 99, n)).astype(NP[ty]))
            out.append(Case(args, f"  %r = hlo.{op} %a0, %a1 : {t}", [("%r", t)], ULPS.get(op, 0), f"{op} {ty}"))
        return out

    return cases


def _compare(draw) -> list[Case]:
    out = []
    for ty in ALL:
        shape = draw(shapes())
        t, b = tensor(shape, ty), tensor(shape, "i1")
        kinds = [""]
        if ty in FLOATS:
            kinds.append(", TOTALORDER")
        lines, res = [], []
        for k, ct in enumerate(kinds):
            for d in ("EQ", "NE", "LT", "LE", "GT", "GE"):
                v = f"%c{k}{d}"
                lines.append(f"  {v} = hlo.compare {d}, %a0, %a1{ct} : ({t}, {t}) -> {b}")
                res.append((v, b))
        same = draw(st.booleans())  # equal operands exercise EQ/LE/GE and NaN == NaN
        args = [Arg(shape, ty), Arg(shape, ty)]
        out.append(Case(args, "\n".join(lines), res, 0, f"compare {ty}"))
        if same:
            out.append(Case([Arg(shape, ty)], "\n".join(l.replace("%a1", "%a0") for l in lines), res, 0,
                            f"compare {ty} x x"))
    return out


def _select(draw) -> list[Case]:
    out = []
    for ty in ALL:
        shape = draw(shapes())
        scalar_pred = draw(st.booleans())
        p = () if scalar_pred else shape
        t = tensor(shape, ty)
        out.append(Case([Arg(p, "i1"), Arg(shape, ty), Arg(shape, ty)],
                        f"  %r = hlo.select %a0, %a1, %a2 : ({tensor(p, 'i1')}, {t}, {t}) -> {t}", [("%r", t)],
                        0, f"select {ty}"))
    return out


def _clamp(draw) -> list[Case]:
    out = []
    for ty in ALL:
        shape = draw(shapes())
        lo = () if draw(st.booleans()) else shape
        hi = () if draw(st.booleans()) else shape
        t = tensor(shape, ty)
        out.append(Case([Arg(lo, ty), Arg(shape, ty), Arg(hi, ty)],
                        f"  %r = hlo.clamp %a0, %a1, %a2 : ({tensor(lo, ty)}, {t}, {tensor(hi, ty)}) -> {t}",
                        [("%r", t)], 0, f"clamp {ty}"))
    return out


def _convert(draw) -> list[Case]:
    sources = draw(st.lists(st.sampled_from(ALL), min_size=3, max_size=5, unique=True))
    out = []
    for src in sources:
        shape = draw(shapes(max_rank=2))
        lines, res = [], []
        for dst in ALL:
            t = tensor(shape, dst)
            lines.append(f"  %r{dst} = hlo.convert %a0 : ({tensor(shape, src)}) -> {t}")
            res.append((f"%r{dst}", t))
        out.append(Case([Arg(shape, src)], "\n".join(lines), res, 0, f"convert {src}"))
    return out


BY_WIDTH = {8: ["i8", "ui8"], 16: ["i16", "ui16", "f16", "bf16"], 32: ["i32", "ui32", "f32"],
            64: ["i64", "ui64", "f64"]}


def _bitcast(draw) -> list[Case]:
    out = []
    for w, group in BY_WIDTH.items():
        src = draw(st.sampled_from(group))
        shape = draw(shapes(max_rank=2))
        lines, res = [], []
        for dst in group:
            t = tensor(shape, dst)
            lines.append(f"  %s{dst} = hlo.bitcast_convert %a0 : ({tensor(shape, src)}) -> {t}")
            res.append((f"%s{dst}", t))
        for w2, g2 in BY_WIDTH.items():  # across widths: an extra minor dim on the narrow side
            if w2 < w:
                dst = draw(st.sampled_from(g2))
                t = tensor((*shape, w // w2), dst)
                lines.append(f"  %n{dst} = hlo.bitcast_convert %a0 : ({tensor(shape, src)}) -> {t}")
                res.append((f"%n{dst}", t))
        out.append(Case([Arg(shape, src)], "\n".join(lines), res, 0, f"bitcast_convert {src}"))
        narrow = draw(st.sampled_from([v for k, v in BY_WIDTH.items() if k < w] or [[]]))
        if narrow:
            nty = draw(st.sampled_from(narrow))
            ratio = w // WIDTH[nty]
            t = tensor(shape, src)
            out.append(Case([Arg((*shape, ratio), nty)],
                            f"  %r = hlo.bitcast_convert %a0 : ({tensor((*shape, ratio), nty)}) -> {t}",
                            [("%r", t)], 0, f"bitcast_convert {nty}->{src}"))
    return out


def _is_finite(draw) -> list[Case]:
    out = []
    for ty in FLOATS:
        shape = draw(shapes())
        out.append(Case([Arg(shape, ty)], f"  %r = hlo.is_finite %a0 : ({tensor(shape, ty)}) -> {tensor(shape, 'i1')}",
                        [("%r", tensor(shape, "i1"))], 0, f"is_finite {ty}"))
    return out


def _reduce_precision(draw) -> list[Case]:
    """Formats narrower and wider than each type, and zero mantissa bits (NaN -> inf)."""
    out = []
    for ty in FLOATS:
        shape = draw(shapes())
        e = draw(st.sampled_from([1, 2, 4, 5, 8, 11]), label="exponent_bits")
        m = draw(st.sampled_from([0, 1, 3, 7, 10, 23, 52]), label="mantissa_bits")
        t = tensor(shape, ty)
        out.append(Case([Arg(shape, ty)], f"  %r = hlo.reduce_precision %a0, format = e{e}m{m} : {t}",
                        [("%r", t)], 0, f"reduce_precision {ty} e{e}m{m}"))
    return out


def _complex_parts(draw) -> list[Case]:
    """hlo.complex then hlo.real/imag (float in, float out; complex math: tests/backends/cpu/test_complex.py),
    and real/imag of a float operand."""
    out = []
    for ty in ("f32", "f64"):
        shape = draw(shapes())
        t, c = tensor(shape, ty), tensor(shape, f"complex<{ty}>")
        body = (f"  %z = hlo.complex %a0, %a1 : {c}\n  %re = hlo.real %z : ({c}) -> {t}\n"
                f"  %im = hlo.imag %z : ({c}) -> {t}\n  %fr = hlo.real %a0 : {t}\n  %fi = hlo.imag %a1 : {t}")
        out.append(Case([Arg(shape, ty), Arg(shape, ty)], body, [(v, t) for v in ("%re", "%im", "%fr", "%fi")],
                        0, f"complex/real/imag {ty}"))
    return out


# -- constants -----------------------------------------------------------------------

def _literal(v, ty: str) -> str:
    if ty == "i1":
        return "true" if v else "false"
    if ty in FLOATS:
        bits = np.array(v, NP[ty]).view(f"u{NP[ty].itemsize}")
        return f"0x{int(bits):0{NP[ty].itemsize * 2}X}"
    return str(int(v))


def _constant(draw) -> list[Case]:
    out = []
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    for ty in ALL:
        shape = draw(shapes())
        vals = random_data(rng, shape, ty)
        splat = draw(st.booleans()) and vals.size > 0
        t = tensor(shape, ty)
        if vals.size == 0:
            lit = ""
        elif splat:
            lit = _literal(vals.flat[0], ty)
        else:
            def nest(a):
                return "[" + ", ".join(nest(x) for x in a) + "]" if isinstance(a, list) else _literal(a, ty)
            lit = nest(vals.tolist()) if shape else _literal(vals.item(), ty)
        out.append(Case([], f"  %r = hlo.constant dense<{lit}> : {t}", [("%r", t)], 0, f"constant {ty}"))
    return out


def _iota(draw) -> list[Case]:
    out = []
    for ty in INTS + FLOATS:
        shape = draw(shapes(min_rank=1, dim=st.integers(0, 6)))
        dim = draw(st.integers(0, len(shape) - 1))
        t = tensor(shape, ty)
        out.append(Case([], f'  %r = "hlo.iota"() <{{iota_dimension = {dim} : i64}}> : () -> {t}', [("%r", t)], 0,
                        f"iota {ty}"))
    return out


# -- shape ops -----------------------------------------------------------------------

def _arr(xs) -> str:
    return f"array<i64{': ' if xs else ''}{', '.join(map(str, xs))}>"


def _types(draw, n=3) -> list[str]:
    return draw(st.lists(st.sampled_from(ALL), min_size=n, max_size=n))


def _broadcast(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 4):
        rshape = draw(shapes())
        r = len(rshape)
        k = draw(st.integers(0, r))
        dims = sorted(draw(st.permutations(range(r)))[:k])
        if draw(st.booleans()):
            dims = draw(st.permutations(dims))
        oshape = tuple(rshape[d] if draw(st.booleans()) else 1 for d in dims)
        t = tensor(rshape, ty)
        out.append(Case([Arg(oshape, ty)],
                        f'  %r = "hlo.broadcast_in_dim"(%a0) <{{broadcast_dimensions = {_arr(dims)}}}> : '
                        f"({tensor(oshape, ty)}) -> {t}", [("%r", t)], 0, f"broadcast_in_dim {ty}"))
    return out


def _transpose(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 4):
        shape = draw(shapes())
        perm = draw(st.permutations(range(len(shape))))
        t = tensor([shape[p] for p in perm], ty)
        out.append(Case([Arg(shape, ty)], f'  %r = "hlo.transpose"(%a0) <{{permutation = {_arr(perm)}}}> : '
                                          f"({tensor(shape, ty)}) -> {t}", [("%r", t)], 0, f"transpose {ty}"))
    return out


def _reshape(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 4):
        shape = draw(shapes())
        n = int(np.prod(shape))
        if n == 0:
            new = draw(shapes(min_rank=1)).__add__((0,))
        else:
            divs = [d for d in range(1, n + 1) if n % d == 0]
            new, rest = [], n
            for _ in range(draw(st.integers(0, 3))):
                d = draw(st.sampled_from([x for x in divs if rest % x == 0]))
                new.append(d)
                rest //= d
            if rest != 1 or not new:
                new.append(rest)
            if n == 1 and draw(st.booleans()):
                new = []
            new = tuple(new)
        t = tensor(new, ty)
        out.append(Case([Arg(shape, ty)], f"  %r = hlo.reshape %a0 : ({tensor(shape, ty)}) -> {t}", [("%r", t)], 0,
                        f"reshape {ty}"))
    return out


def _reverse(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 4):
        shape = draw(shapes())
        dims = sorted(draw(st.sets(st.integers(0, max(len(shape) - 1, 0)), max_size=len(shape))))
        t = tensor(shape, ty)
        out.append(Case([Arg(shape, ty)], f'  %r = "hlo.reverse"(%a0) <{{dimensions = {_arr(dims)}}}> : ({t}) -> {t}',
                        [("%r", t)], 0, f"reverse {ty}"))
    return out


def _slice(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 4):
        shape = draw(shapes(dim=st.integers(0, 6)))
        starts, limits, strides, res = [], [], [], []
        for d in shape:
            s = draw(st.integers(0, d))
            e = draw(st.integers(s, d))
            k = draw(st.integers(1, 3))
            starts.append(s), limits.append(e), strides.append(k), res.append(-(-(e - s) // k))
        t = tensor(res, ty)
        out.append(Case([Arg(shape, ty)],
                        f'  %r = "hlo.slice"(%a0) <{{start_indices = {_arr(starts)}, limit_indices = {_arr(limits)}, '
                        f"strides = {_arr(strides)}}}> : ({tensor(shape, ty)}) -> {t}", [("%r", t)], 0, f"slice {ty}"))
    return out


def _pad(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 4):
        shape = draw(shapes())
        lo, hi, inner, res = [], [], [], []
        for d in shape:
            i = draw(st.integers(0, 2))
            full = d + max(d - 1, 0) * i
            lo_, hi_ = draw(st.integers(-min(full, 2), 2)), draw(st.integers(-2, 2))
            hi_ = max(hi_, -(full + lo_))
            lo.append(lo_), hi.append(hi_), inner.append(i), res.append(full + lo_ + hi_)
        t = tensor(res, ty)
        out.append(Case([Arg(shape, ty), Arg((), ty)],
                        f'  %r = "hlo.pad"(%a0, %a1) <{{edge_padding_low = {_arr(lo)}, edge_padding_high = {_arr(hi)}, '
                        f"interior_padding = {_arr(inner)}}}> : ({tensor(shape, ty)}, {tensor((), ty)}) -> {t}",
                        [("%r", t)], 0, f"pad {ty}"))
    return out


def _concatenate(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 4):
        shape = draw(shapes(min_rank=1))
        dim = draw(st.integers(0, len(shape) - 1))
        sizes = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
        ins = [tuple(s if k == dim else shape[k] for k in range(len(shape))) for s in sizes]
        res = tuple(sum(sizes) if k == dim else shape[k] for k in range(len(shape)))
        ops = ", ".join(f"%a{i}" for i in range(len(ins)))
        t = tensor(res, ty)
        out.append(Case([Arg(s, ty) for s in ins],
                        f'  %r = "hlo.concatenate"({ops}) <{{dimension = {dim} : i64}}> : '
                        f"({', '.join(tensor(s, ty) for s in ins)}) -> {t}", [("%r", t)], 0, f"concatenate {ty}"))
    return out


def _index_gen(lo: int, hi: int):
    return lambda rng: rng.integers(lo, hi + 1)


def _dynamic_slice(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 4):
        shape = draw(shapes(min_rank=0))
        ity = draw(st.sampled_from(["i32", "i64", "ui32", "i8"]))
        sizes = [draw(st.integers(0, d)) for d in shape]
        idx = [Arg((), ity, _index_gen(-2 if ity[0] == "i" else 0, d + 2)) for d in shape]
        t = tensor(sizes, ty)
        ops = "".join(f", %a{i + 1}" for i in range(len(shape)))
        out.append(Case([Arg(shape, ty), *idx],
                        f'  %r = "hlo.dynamic_slice"(%a0{ops}) <{{slice_sizes = {_arr(sizes)}}}> : '
                        f"({tensor(shape, ty)}{''.join(', ' + tensor((), ity) for _ in shape)}) -> {t}",
                        [("%r", t)], 0, f"dynamic_slice {ty}"))
    return out


def _dynamic_update_slice(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 4):
        shape = draw(shapes(min_rank=0))
        ity = draw(st.sampled_from(["i32", "i64", "ui16"]))
        sizes = tuple(draw(st.integers(0, d)) for d in shape)
        idx = [Arg((), ity, _index_gen(-2 if ity[0] == "i" else 0, d + 2)) for d in shape]
        t = tensor(shape, ty)
        ops = "".join(f", %a{i + 2}" for i in range(len(shape)))
        out.append(Case([Arg(shape, ty), Arg(sizes, ty), *idx],
                        f'  %r = "hlo.dynamic_update_slice"(%a0, %a1{ops}) : '
                        f"({t}, {tensor(sizes, ty)}{''.join(', ' + tensor((), ity) for _ in shape)}) -> {t}",
                        [("%r", t)], 0, f"dynamic_update_slice {ty}"))
    return out


# -- regions ---------------------------------------------------------------------------

def _body(op: str, ty: str, names=("%x", "%y")) -> str:
    s = tensor((), ty)
    return (f"  ^bb0({names[0]}: {s}, {names[1]}: {s}):\n"
            f"    %o = hlo.{op} {names[0]}, {names[1]} : {s}\n    hlo.return %o : {s}\n")


REDUCERS = {"add": ALL, "multiply": ALL, "maximum": ALL, "minimum": ALL, "and": ["i1", *INTS], "or": ["i1", *INTS]}


def _reducer(draw) -> tuple[str, str]:
    op = draw(st.sampled_from(sorted(REDUCERS)))
    return op, draw(st.sampled_from(REDUCERS[op]))


def _reduce(draw) -> list[Case]:
    out = []
    for _ in range(4):
        op, ty = _reducer(draw)
        shape = draw(shapes())
        dims = sorted(draw(st.sets(st.integers(0, max(len(shape) - 1, 0)), max_size=len(shape))))
        res = [d for k, d in enumerate(shape) if k not in dims]
        t = tensor(res, ty)
        small = ty in FLOATS and op in ("add", "multiply")  # exact in any order
        out.append(Case([Arg(shape, ty, small_ints=small), Arg((), ty, small_ints=small)],
                        f'  %r = "hlo.reduce"(%a0, %a1) <{{dimensions = {_arr(dims)}}}> ({{\n{_body(op, ty)}  }}) : '
                        f"({tensor(shape, ty)}, {tensor((), ty)}) -> {t}", [("%r", t)], 0, f"reduce {op} {ty}"))
    # a variadic reduce: argmax with a tie rule
    ty = draw(st.sampled_from(FLOATS + SINTS))
    shape = draw(shapes(min_rank=1))
    dim = draw(st.integers(0, len(shape) - 1))
    res = [d for k, d in enumerate(shape) if k != dim]
    s, si = tensor((), ty), tensor((), "i32")
    body = f"""  ^bb0(%x: {s}, %i: {si}, %y: {s}, %j: {si}):
    %gt = hlo.compare GT, %x, %y : ({s}, {s}) -> tensor<i1>
    %eq = hlo.compare EQ, %x, %y : ({s}, {s}) -> tensor<i1>
    %lt = hlo.compare LT, %i, %j : ({si}, {si}) -> tensor<i1>
    %tie = hlo.and %eq, %lt : tensor<i1>
    %take = hlo.or %gt, %tie : tensor<i1>
    %m = hlo.select %take, %x, %y : (tensor<i1>, {s}, {s}) -> {s}
    %k = hlo.select %take, %i, %j : (tensor<i1>, {si}, {si}) -> {si}
    hlo.return %m, %k : {s}, {si}
"""
    tr, tri = tensor(res, ty), tensor(res, "i32")
    iota = f'  %ix = "hlo.iota"() <{{iota_dimension = {dim} : i64}}> : () -> {tensor(shape, "i32")}\n'
    out.append(Case([Arg(shape, ty), Arg((), ty)], iota +
                    f'  %r:2 = "hlo.reduce"(%a0, %ix, %a1, %zi) <{{dimensions = array<i64: {dim}>}}> ({{\n{body}  }}) : '
                    f"({tensor(shape, ty)}, {tensor(shape, 'i32')}, {s}, {si}) -> ({tr}, {tri})",
                    [("%r#0", tr), ("%r#1", tri)], 0, f"reduce argmax {ty}"))
    out[-1].body = f"  %zi = hlo.constant dense<-1> : {si}\n" + out[-1].body
    return out


def _reduce_window(draw) -> list[Case]:
    out = []
    for _ in range(3):
        op, ty = _reducer(draw)
        shape = draw(shapes(min_rank=1, max_rank=3, dim=st.integers(0, 5)))
        r = len(shape)
        win = [draw(st.integers(1, 3)) for _ in shape]
        strides = [draw(st.integers(1, 2)) for _ in shape]
        bdil = [draw(st.sampled_from([1, 1, 2])) for _ in shape]
        wdil = [draw(st.sampled_from([1, 1, 2])) for _ in shape]
        pad = [(draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in shape]
        res = []
        for k in range(r):
            dilated = (shape[k] - 1) * bdil[k] + 1 if shape[k] else 0
            padded = dilated + pad[k][0] + pad[k][1]
            wd = (win[k] - 1) * wdil[k] + 1
            res.append(0 if padded < wd else (padded - wd) // strides[k] + 1)
        small = ty in FLOATS and op in ("add", "multiply")
        t = tensor(res, ty)
        pads = ", ".join(f"[{a}, {b}]" for a, b in pad)
        out.append(Case([Arg(shape, ty, small_ints=small), Arg((), ty, small_ints=small)],
                        f'  %r = "hlo.reduce_window"(%a0, %a1) <{{window_dimensions = {_arr(win)}, '
                        f"window_strides = {_arr(strides)}, base_dilations = {_arr(bdil)}, "
                        f"window_dilations = {_arr(wdil)}, padding = dense<[{pads}]> : tensor<{r}x2xi64>}}> "
                        f"({{\n{_body(op, ty)}  }}) : ({tensor(shape, ty)}, {tensor((), ty)}) -> {t}",
                        [("%r", t)], 0, f"reduce_window {op} {ty}"))
    return out


def _all_reduce(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 3):
        shape = draw(shapes())
        t = tensor(shape, ty)
        op = "or" if ty == "i1" else "add"
        out.append(Case([Arg(shape, ty)],
                        f'  %r = "hlo.all_reduce"(%a0) <{{replica_groups = dense<[[0]]> : tensor<1x1xi64>}}> '
                        f"({{\n{_body(op, ty)}  }}) : ({t}) -> {t}", [("%r", t)], 0, f"all_reduce {ty}"))
    return out


def _optimization_barrier(draw) -> list[Case]:
    tys = _types(draw, 2)
    shs = [draw(shapes()) for _ in tys]
    ts = [tensor(s, t) for s, t in zip(shs, tys)]
    return [Case([Arg(s, t) for s, t in zip(shs, tys)],
                 f'  %r:2 = "hlo.optimization_barrier"(%a0, %a1) : ({", ".join(ts)}) -> ({", ".join(ts)})\n'
                 f"  %n = hlo.not %r#0 : {ts[0]}" if tys[0] in ["i1", *INTS] else
                 f'  %r:2 = "hlo.optimization_barrier"(%a0, %a1) : ({", ".join(ts)}) -> ({", ".join(ts)})\n'
                 f"  %n = hlo.add %r#0, %r#0 : {ts[0]}",
                 [("%n", ts[0]), ("%r#1", ts[1])], 0, "optimization_barrier")]


# -- control flow ------------------------------------------------------------------------

def _while(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 2):
        shape = draw(shapes(max_rank=2))
        t = tensor(shape, ty)
        op = "xor" if ty == "i1" else "add" if ty in INTS else "multiply"
        si = tensor((), "i32")
        out.append(Case([Arg((), "i32", _index_gen(-1, 5)), Arg(shape, ty)], f"""  %z = hlo.constant dense<0> : {si}
  %r:2 = "hlo.while"(%z, %a1) ({{
  ^bb0(%i: {si}, %x: {t}):
    %c = hlo.compare LT, %i, %a0 : ({si}, {si}) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }}, {{
  ^bb0(%i: {si}, %x: {t}):
    %one = hlo.constant dense<1> : {si}
    %i2 = hlo.add %i, %one : {si}
    %x2 = hlo.{op} %x, %a1 : {t}
    hlo.return %i2, %x2 : {si}, {t}
  }}) : ({si}, {t}) -> ({si}, {t})""", [("%r#0", si), ("%r#1", t)], 0, f"while {ty}"))
    return out


def _if(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 2):
        shape = draw(shapes(max_rank=2))
        t = tensor(shape, ty)
        neg = "not" if ty in ["i1", *UINTS] else "negate"
        out.append(Case([Arg((), "i1"), Arg(shape, ty), Arg(shape, ty)], f"""  %r = "hlo.if"(%a0) ({{
    %n = hlo.{neg} %a1 : {t}
    hlo.return %n : {t}
  }}, {{
    %m = hlo.maximum %a1, %a2 : {t}
    hlo.return %m : {t}
  }}) : ({tensor((), 'i1')}) -> {t}""", [("%r", t)], 0, f"if {ty}"))
    return out


def _case(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 2):
        shape = draw(shapes(max_rank=2))
        t = tensor(shape, ty)
        ity = "i32"
        n = draw(st.integers(1, 3))
        branches = []
        for k in range(n):
            if k == 0:
                branches.append(f"    hlo.return %a1 : {t}")
            else:
                op = ["minimum", "maximum"][k - 1]
                branches.append(f"    %b{k} = hlo.{op} %a1, %a2 : {t}\n    hlo.return %b{k} : {t}")
        regions = ", ".join("{\n" + b + "\n  }" for b in branches)
        out.append(Case([Arg((), ity, _index_gen(-2, n + 1)), Arg(shape, ty), Arg(shape, ty)],
                        f'  %r = "hlo.case"(%a0) ({regions}) : ({tensor((), ity)}) -> {t}', [("%r", t)], 0,
                        f"case {ty}"))
    return out


# -- indexing ----------------------------------------------------------------------------

def _gather(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 3):
        # rows of a 2-D operand (a common embedding lookup) or windows of a 3-D one
        rows, cols = draw(st.integers(1, 5)), draw(st.integers(0, 4))
        n = draw(st.integers(0, 5))
        ity = draw(st.sampled_from(["i32", "i64", "ui8"]))
        if draw(st.booleans()):
            k = draw(st.integers(0, cols))
            t = tensor((n, k), ty)
            lo = -2 if ity[0] == "i" else 0
            out.append(Case([Arg((rows, cols), ty), Arg((n, 1), ity, lambda rng, n=n, rows=rows, lo=lo:
                                                           rng.integers(lo, rows + 2, (n, 1)))],
                            f'  %r = "hlo.gather"(%a0, %a1) <{{dimension_numbers = #hlo.gather<offset_dims = [1], '
                            f"collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, "
                            f"slice_sizes = array<i64: 1, {k}>}}> : ({tensor((rows, cols), ty)}, "
                            f"{tensor((n, 1), ity)}) -> {t}", [("%r", t)], 0, f"gather rows {ty}"))
        else:
            shape = (rows, cols + 1, 2)
            s0, s1 = draw(st.integers(0, rows)), draw(st.integers(0, cols + 1))
            t = tensor((n, s0, s1), ty)
            out.append(Case([Arg(shape, ty), Arg((n, 2), ity, lambda rng, n=n, m=max(shape):
                                                   rng.integers(0, m + 2, (n, 2)))],
                            f'  %r = "hlo.gather"(%a0, %a1) <{{dimension_numbers = #hlo.gather<offset_dims = [1, 2], '
                            f"collapsed_slice_dims = [2], start_index_map = [1, 0], index_vector_dim = 1>, "
                            f"slice_sizes = array<i64: {s0}, {s1}, 1>}}> : ({tensor(shape, ty)}, "
                            f"{tensor((n, 2), ity)}) -> {t}", [("%r", t)], 0, f"gather windows {ty}"))
    return out


def _scatter(draw) -> list[Case]:
    out = []
    for _ in range(3):
        op, ty = _reducer(draw)
        replace = draw(st.booleans())
        rows, cols, n = draw(st.integers(1, 5)), draw(st.integers(0, 3)), draw(st.integers(0, 6))
        small = ty in FLOATS and op in ("add", "multiply") and not replace
        body = (f"  ^bb0(%x: {tensor((), ty)}, %y: {tensor((), ty)}):\n    hlo.return %y : {tensor((), ty)}\n"
                if replace else _body(op, ty))
        t = tensor((rows, cols), ty)
        out.append(Case([Arg((rows, cols), ty, small_ints=small),
                         Arg((n, 1), "i32", lambda rng, n=n, rows=rows: rng.integers(-1, rows + 1, (n, 1))),
                         Arg((n, cols), ty, small_ints=small)],
                        f'  %r = "hlo.scatter"(%a0, %a1, %a2) <{{scatter_dimension_numbers = #hlo.scatter<'
                        f"update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
                        f"index_vector_dim = 1>}}> ({{\n{body}  }}) : ({t}, {tensor((n, 1), 'i32')}, "
                        f"{tensor((n, cols), ty)}) -> {t}", [("%r", t)], 0,
                        f"scatter {'replace' if replace else op} {ty}"))
    return out


def _sort(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 3):
        shape = draw(shapes(min_rank=1, dim=st.integers(0, 6)))
        dim = draw(st.integers(-len(shape), len(shape) - 1))
        d = draw(st.sampled_from(["LT", "GT"]))
        ct = draw(st.sampled_from(["", ", TOTALORDER"])) if ty in FLOATS else ""
        s, si = tensor((), ty), tensor((), "i32")
        t, ti = tensor(shape, ty), tensor(shape, "i32")
        stable = draw(st.booleans())
        out.append(Case([Arg(shape, ty), Arg(shape, "i32")],
                        f'  %r:2 = "hlo.sort"(%a0, %a1) <{{dimension = {dim} : i64, is_stable = {str(stable).lower()}}}> ({{\n'
                        f"  ^bb0(%x: {s}, %y: {s}, %i: {si}, %j: {si}):\n"
                        f"    %c = hlo.compare {d}, %x, %y{ct} : ({s}, {s}) -> tensor<i1>\n    hlo.return %c : tensor<i1>\n"
                        f"  }}) : ({t}, {ti}) -> ({t}, {ti})", [("%r#0", t), ("%r#1", ti)], 0,
                        f"sort {d}{ct} {ty}"))
        if not stable:  # an unstable sort may order equal keys either way: compare only the keys
            out[-1].results = [("%r#0", t)]
    return out


def _select_and_scatter(draw) -> list[Case]:
    out = []
    for _ in range(2):
        ty = draw(st.sampled_from(INTS + FLOATS))
        shape = (draw(st.integers(1, 5)), draw(st.integers(1, 5)))
        win = [draw(st.integers(1, 3)) for _ in shape]
        strides = [draw(st.integers(1, 2)) for _ in shape]
        pad = [(draw(st.integers(0, 1)), draw(st.integers(0, 1))) for _ in shape]
        src = [max(0, (shape[k] + sum(pad[k]) - win[k]) // strides[k] + 1) for k in range(2)]
        sel = draw(st.sampled_from(["GE", "LE"]))
        s = tensor((), ty)
        t = tensor(shape, ty)
        pads = ", ".join(f"[{a}, {b}]" for a, b in pad)
        small = ty in FLOATS
        out.append(Case([Arg(shape, ty), Arg(tuple(src), ty, small_ints=small), Arg((), ty, small_ints=small)],
                        f'  %r = "hlo.select_and_scatter"(%a0, %a1, %a2) <{{window_dimensions = {_arr(win)}, '
                        f"window_strides = {_arr(strides)}, padding = dense<[{pads}]> : tensor<2x2xi64>}}> ({{\n"
                        f"  ^bb0(%x: {s}, %y: {s}):\n    %c = hlo.compare {sel}, %x, %y : ({s}, {s}) -> tensor<i1>\n"
                        f"    hlo.return %c : tensor<i1>\n  }}, {{\n{_body('add', ty)}  }}) : "
                        f"({t}, {tensor(src, ty)}, {s}) -> {t}", [("%r", t)], 0, f"select_and_scatter {sel} {ty}"))
    return out


def _rng_bit_generator(draw) -> list[Case]:
    out = []
    for algo, n in (("DEFAULT", 2), ("THREE_FRY", 2), ("PHILOX", draw(st.sampled_from([2, 3])))):
        ty = draw(st.sampled_from(INTS + FLOATS))
        shape = draw(shapes(max_rank=2))
        st_t, t = tensor((n,), "ui64"), tensor(shape, ty)
        out.append(Case([Arg((n,), "ui64")],
                        f"  %s, %r = hlo.rng_bit_generator %a0, algorithm = {algo} : ({st_t}) -> ({st_t}, {t})",
                        [("%s", st_t), ("%r", t)], 0, f"rng_bit_generator {algo} {ty}"))
    return out


def _fft(draw) -> list[Case]:
    """Every kind over 1-3 trailing dims (powers of two and Bluestein lengths), finite normal inputs."""
    out = []
    for kind in ("FFT", "IFFT", "RFFT", "IRFFT"):
        fty = draw(st.sampled_from(["f32", "f64"]))
        length = draw(st.lists(st.sampled_from([1, 2, 3, 4, 5, 8]), min_size=1, max_size=3))
        batch = draw(st.lists(st.integers(0, 3), max_size=1))
        cplx, out_shape = f"complex<{fty}>", batch + length
        in_shape = batch + length[:-1] + [length[-1] // 2 + 1] if kind == "IRFFT" else out_shape
        if kind == "RFFT":
            out_shape = batch + length[:-1] + [length[-1] // 2 + 1]
        in_t = tensor(in_shape, fty if kind == "RFFT" else cplx)
        out_t = tensor(out_shape, fty if kind == "IRFFT" else cplx)

        def gen(rng, shape=tuple(in_shape), real=kind == "RFFT"):
            x = rng.standard_normal(shape)
            return x if real else x + 1j * rng.standard_normal(shape)

        out.append(Case([Arg(tuple(in_shape), fty if kind == "RFFT" else cplx, gen=gen)],
                        f"  %r = hlo.fft %a0, type = {kind}, length = {length} : ({in_t}) -> {out_t}",
                        [("%r", out_t)], name=f"fft {kind} {fty}", norm_tol=2e-6 if fty == "f32" else 1e-14))
    return out


# -- contractions ----------------------------------------------------------------------

def _dot_general(draw) -> list[Case]:
    out = []
    for _ in range(3):
        ty = draw(st.sampled_from(ALL))
        b, m, k, n = (draw(st.integers(0, 3)) for _ in range(4))
        batched = draw(st.booleans())
        small = ty in FLOATS
        if batched:
            la, lb, res = (b, m, k), (b, k, n), (b, m, n)
            dn = "batching_dims = [0] x [0], contracting_dims = [2] x [1]"
        else:
            trans = draw(st.booleans())  # contracting the lhs' leading dim
            la, lb, res = ((k, m) if trans else (m, k)), (k, n), (m, n)
            dn = f"contracting_dims = [{0 if trans else 1}] x [0]"
        t = tensor(res, ty)
        out.append(Case([Arg(la, ty, small_ints=small), Arg(lb, ty, small_ints=small)],
                        f"  %r = hlo.dot_general %a0, %a1, {dn} : ({tensor(la, ty)}, {tensor(lb, ty)}) -> {t}",
                        [("%r", t)], 0, f"dot_general {ty}"))
    return out


def _convolution(draw) -> list[Case]:
    out = []
    for _ in range(2):
        ty = draw(st.sampled_from(["i32", "i8", *FLOATS]))
        groups = draw(st.integers(1, 2))
        nb, w, ci, co, kw = (draw(st.integers(1, 2)), draw(st.integers(1, 6)), groups * draw(st.integers(1, 2)),
                             groups * draw(st.integers(1, 2)), draw(st.integers(1, 3)))
        stride, pad_lo, pad_hi = draw(st.integers(1, 2)), draw(st.integers(0, 2)), draw(st.integers(0, 2))
        ldil, rdil = draw(st.integers(1, 2)), draw(st.integers(1, 2))
        dilated_in = (w - 1) * ldil + 1 + pad_lo + pad_hi
        dilated_k = (kw - 1) * rdil + 1
        ow = 0 if dilated_in < dilated_k else (dilated_in - dilated_k) // stride + 1
        la, lb, res = (nb, w, ci), (kw, ci // groups, co), (nb, ow, co)
        t = tensor(res, ty)
        out.append(Case([Arg(la, ty, small_ints=True), Arg(lb, ty, small_ints=True)],
                        f"  %r = hlo.convolution(%a0, %a1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], "
                        f"window = {{stride = [{stride}], pad = [[{pad_lo}, {pad_hi}]], lhs_dilate = [{ldil}], "
                        f"rhs_dilate = [{rdil}]}} {{batch_group_count = 1 : i64, feature_group_count = {groups} : i64}}"
                        f" : ({tensor(la, ty)}, {tensor(lb, ty)}) -> {t}", [("%r", t)], 0, f"convolution {ty}"))
    return out


# -- structural, dynamic-shape and quantization ops (constant shape operands on CPU) ----

def _i64_const(name: str, values) -> str:
    return f"  {name} = hlo.constant dense<[{', '.join(map(str, values))}]> : tensor<{len(values)}xi64>\n"


def _tuple(draw) -> list[Case]:
    out = []
    for _ in range(2):
        ta, tb = _types(draw, 2)
        sa, sb = draw(shapes()), draw(shapes())
        a, b = tensor(sa, ta), tensor(sb, tb)
        inner, outer = f"tuple<{b}>", f"tuple<{a}, tuple<{b}>>"
        out.append(Case([Arg(sa, ta), Arg(sb, tb)],
                        f"  %i = hlo.tuple %a1 : {inner}\n  %t = hlo.tuple %a0, %i : {outer}\n"
                        f"  %r0 = hlo.get_tuple_element %t[0] : ({outer}) -> {a}\n"
                        f"  %t1 = hlo.get_tuple_element %t[1] : ({outer}) -> {inner}\n"
                        f"  %r1 = hlo.get_tuple_element %t1[0] : ({inner}) -> {b}", [("%r0", a), ("%r1", b)], 0,
                        f"tuple {ta} {tb}"))
    return out


def _map(draw) -> list[Case]:
    out = []
    for ty in _types(draw, 3):
        shape = draw(shapes())
        op1, op2 = draw(st.sampled_from(["add", "multiply", "maximum"])), draw(st.sampled_from(["minimum", "add"]))
        t, s = tensor(shape, ty), tensor((), ty)
        out.append(Case([Arg(shape, ty), Arg(shape, ty), Arg((), ty)],
                        f'  %r = "hlo.map"(%a0, %a1) <{{dimensions = {_arr(range(len(shape)))}}}> ({{\n'
                        f"  ^bb0(%x: {s}, %y: {s}):\n    %c = hlo.constant dense<1> : {s}\n"
                        f"    %0 = hlo.{op1} %x, %y : {s}\n    %1 = hlo.{op2} %0, %c : {s}\n"
                        f"    %2 = hlo.{op2} %1, %a2 : {s}\n    hlo.return %2 : {s}\n"
                        f"  }}) : ({t}, {t}) -> {t}", [("%r", t)], 0, f"map {op1} {op2} {ty}"))
    return out


def _composite(draw) -> list[Case]:
    ty = draw(st.sampled_from(ALL))
    shape = draw(shapes())
    t = tensor(shape, ty)
    return [Case([Arg(shape, ty), Arg(shape, ty)],
                 f'  %r = hlo.composite "my.max" %a0, %a1 {{decomposition = @FN_impl, composite_attributes = '
                 f"{{k = 1 : i64}}}} : ({t}, {t}) -> {t}", [("%r", t)], 0, f"composite {ty}",
                 helper=f"\nfunc.func private @FN_impl(%x: {t}, %y: {t}) -> {t} {{\n"
                        f"  %m = hlo.maximum %x, %y : {t}\n  func.return %m : {t}\n}}")]


def _get_dimension_size(draw) -> list[Case]:
    shape = draw(shapes(min_rank=1))
    dim = draw(st.integers(0, len(shape) - 1))
    s = tensor(shape, "f32")
    return [Case([Arg(shape, "f32")], f"  %r = hlo.get_dimension_size %a0, dim = {dim} : ({s}) -> tensor<i32>",
                 [("%r", "tensor<i32>")], 0, "get_dimension_size")]


def _dynamic_iota(draw) -> list[Case]:
    ty = draw(st.sampled_from(INTS + FLOATS))
    shape = draw(shapes(min_rank=1, dim=st.integers(0, 6)))
    t = tensor(shape, ty)
    return [Case([], _i64_const("%s", shape) + f"  %r = hlo.dynamic_iota %s, dim = {draw(st.integers(0, len(shape) - 1))}"
                 f" : (tensor<{len(shape)}xi64>) -> {t}", [("%r", t)], 0, f"dynamic_iota {ty}")]


def _dynamic_reshape(draw) -> list[Case]:
    ty = draw(st.sampled_from(ALL))
    a, b = draw(st.integers(0, 4)), draw(st.integers(1, 4))
    src, dst = (a, b), (b, a) if draw(st.booleans()) else (a * b,)
    return [Case([Arg(src, ty)], _i64_const("%s", dst) + f"  %r = hlo.dynamic_reshape %a0, %s : ({tensor(src, ty)}, "
                 f"tensor<{len(dst)}xi64>) -> {tensor(dst, ty)}", [("%r", tensor(dst, ty))], 0, f"dynamic_reshape {ty}")]


def _dynamic_broadcast_in_dim(draw) -> list[Case]:
    ty = draw(st.sampled_from(ALL))
    rshape = draw(shapes(min_rank=1))
    dims = sorted(draw(st.sets(st.integers(0, len(rshape) - 1))))
    oshape = tuple(rshape[d] if draw(st.booleans()) else 1 for d in dims)
    t = tensor(rshape, ty)
    return [Case([Arg(oshape, ty)], _i64_const("%s", rshape) + f"  %r = hlo.dynamic_broadcast_in_dim %a0, %s, "
                 f"dims = [{', '.join(map(str, dims))}] : ({tensor(oshape, ty)}, tensor<{len(rshape)}xi64>) -> {t}",
                 [("%r", t)], 0, f"dynamic_broadcast_in_dim {ty}")]


def _dynamic_pad(draw) -> list[Case]:
    ty = draw(st.sampled_from(ALL))
    shape = draw(shapes(min_rank=1))
    lo, hi, inner, res = [], [], [], []
    for d in shape:
        i = draw(st.integers(0, 2))
        full = d + max(d - 1, 0) * i
        lo_ = draw(st.integers(-min(full, 2), 2))
        hi_ = max(draw(st.integers(-2, 2)), -(full + lo_))
        lo.append(lo_), hi.append(hi_), inner.append(i), res.append(full + lo_ + hi_)
    n, t = len(shape), tensor(res, ty)
    v = f"tensor<{n}xi64>"
    return [Case([Arg(shape, ty), Arg((), ty)],
                 _i64_const("%lo", lo) + _i64_const("%hi", hi) + _i64_const("%in", inner)
                 + f"  %r = hlo.dynamic_pad %a0, %a1, %lo, %hi, %in : ({tensor(shape, ty)}, {tensor((), ty)}, {v}, {v}, "
                 f"{v}) -> {t}", [("%r", t)], 0, f"dynamic_pad {ty}")]


def _dynamic_gather(draw) -> list[Case]:
    ty = draw(st.sampled_from(ALL))
    rows, cols, n = draw(st.integers(1, 5)), draw(st.integers(0, 4)), draw(st.integers(0, 5))
    k = draw(st.integers(0, cols))
    t = tensor((n, k), ty)
    return [Case([Arg((rows, cols), ty), Arg((n, 1), "i32", lambda rng, n=n, rows=rows: rng.integers(-2, rows + 2, (n, 1)))],
                 _i64_const("%ss", (1, k)) + '  %r = "hlo.dynamic_gather"(%a0, %a1, %ss) <{dimension_numbers = '
                 "#hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
                 f"index_vector_dim = 1>}}> : ({tensor((rows, cols), ty)}, {tensor((n, 1), 'i32')}, tensor<2xi64>) "
                 f"-> {t}", [("%r", t)], 0, f"dynamic_gather {ty}")]


def _dynamic_conv(draw) -> list[Case]:
    ty = draw(st.sampled_from(["i32", "f32", "f64"]))
    w, kw, lo, hi, stride = (draw(st.integers(1, 6)), draw(st.integers(1, 3)), draw(st.integers(0, 2)),
                             draw(st.integers(0, 2)), draw(st.integers(1, 2)))
    ow = max(0, (w + lo + hi - kw) // stride + 1) if w + lo + hi >= kw else 0
    la, lb, res = (1, w, 2), (kw, 2, 3), (1, ow, 3)
    t = tensor(res, ty)
    return [Case([Arg(la, ty, small_ints=True), Arg(lb, ty, small_ints=True)],
                 f"  %p = hlo.constant dense<[[{lo}, {hi}]]> : tensor<1x2xi64>\n"
                 f'  %r = "hlo.dynamic_conv"(%a0, %a1, %p) <{{window_strides = array<i64: {stride}>, '
                 "dimension_numbers = #hlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, "
                 f"batch_group_count = 1 : i64}}> : ({tensor(la, ty)}, {tensor(lb, ty)}, tensor<1x2xi64>) -> {t}",
                 [("%r", t)], 0, f"dynamic_conv {ty}")]


def _quant_type(draw, shape) -> str:
    storage = draw(st.sampled_from(["i8", "ui8", "i16"]))
    lo, hi = (0, 255) if storage == "ui8" else (-128, 127) if storage == "i8" else (-1000, 1000)
    rng_text = f"<{lo}:{hi}>" if storage == "i16" else ""

    def pair() -> str:
        return f"{draw(st.sampled_from([0.1, 0.5, 0.25, 3.0, 0.037]))}:{draw(st.integers(lo // 4, hi // 4))}"

    if shape and draw(st.booleans()):
        axis = draw(st.integers(0, len(shape) - 1))
        return f"!quant.uniform<{storage}{rng_text}:f32:{axis}, {{{', '.join(pair() for _ in range(shape[axis]))}}}>"
    return f"!quant.uniform<{storage}{rng_text}:f32, {pair()}>"


def _uniform_quantize(draw) -> list[Case]:
    out = []
    for _ in range(2):
        shape = draw(shapes(dim=st.integers(1, 4)))
        q1, q2 = _quant_type(draw, shape), _quant_type(draw, shape)
        f, t1, t2 = tensor(shape, "f32"), f"tensor<{''.join(f'{d}x' for d in shape)}{q1}>", \
            f"tensor<{''.join(f'{d}x' for d in shape)}{q2}>"
        s1, s2 = tensor(shape, q1.split("<")[1].split(":")[0]), tensor(shape, q2.split("<")[1].split(":")[0])
        op = draw(st.sampled_from(["add", "multiply", "maximum", "subtract"]))
        out.append(Case([Arg(shape, "f32", lambda rng, shape=shape: rng.normal(0, 20, shape))],
                        f"  %q = hlo.uniform_quantize %a0 : ({f}) -> {t1}\n"
                        f"  %q2 = hlo.uniform_quantize %q : ({t1}) -> {t2}\n"
                        f"  %q3 = hlo.{op} %q, %q2 : ({t1}, {t2}) -> {t2}\n"
                        f"  %r1 = hlo.bitcast_convert %q : ({t1}) -> {s1}\n"
                        f"  %r2 = hlo.bitcast_convert %q3 : ({t2}) -> {s2}", [("%r1", s1), ("%r2", s2)], 0,
                        f"uniform_quantize {q1} {q2} {op}"))
    return out


def _uniform_dequantize(draw) -> list[Case]:
    shape = draw(shapes(dim=st.integers(1, 4)))
    q = _quant_type(draw, shape)
    storage = q.split("<")[1].split(":")[0]
    s, t, f = tensor(shape, storage), f"tensor<{''.join(f'{d}x' for d in shape)}{q}>", tensor(shape, "f32")
    return [Case([Arg(shape, storage)], f"  %q = hlo.bitcast_convert %a0 : ({s}) -> {t}\n"
                 f"  %r = hlo.uniform_dequantize %q : ({t}) -> {f}", [("%r", f)], 0, f"uniform_dequantize {q}")]


STRUCTURAL_CASES: dict[str, CaseFn] = {
    "tuple": _tuple, "get_tuple_element": _tuple, "map": _map, "composite": _composite,
    "get_dimension_size": _get_dimension_size, "dynamic_iota": _dynamic_iota, "dynamic_reshape": _dynamic_reshape,
    "dynamic_broadcast_in_dim": _dynamic_broadcast_in_dim, "dynamic_pad": _dynamic_pad,
    "dynamic_gather": _dynamic_gather, "dynamic_conv": _dynamic_conv, "uniform_quantize": _uniform_quantize,
    "uniform_dequantize": _uniform_dequantize,
}


# -- linear algebra: integer-valued triangular factors, so both backends are exact ---------

def _triangular(rng, shape, lower: bool, unit: bool) -> np.ndarray:
    """Triangular matrices with entries in [-2, 2] and diagonal +-1 or +-2 (1 with `unit`):
    substitution and Cholesky on them stay in small integers and halves, exact in every float type."""
    *batch, n, _ = shape
    m = rng.integers(-2, 3, shape).astype(np.float64)
    diag = np.ones((*batch, n)) if unit else rng.choice([-2.0, -1.0, 1.0, 2.0], (*batch, n))
    m = np.tril(m, -1) if lower else np.triu(m, 1)
    return m + diag[..., None] * np.eye(n)


def _transpose_last(v: str, shape, ty: str, name: str) -> tuple[str, str]:
    r = len(shape)
    perm = [*range(r - 2), r - 1, r - 2]
    t = tensor((*shape[:-2], shape[-1], shape[-2]), ty)
    return f"  {name} = hlo.transpose {v}, dims = {perm} : ({tensor(shape, ty)}) -> {t}\n", t


def _triangular_solve(draw) -> list[Case]:
    """b = op(a) x (or x op(a)) computed in the program, then solved for x again."""
    out = []
    for _ in range(3):
        ty = draw(st.sampled_from(FLOATS))
        batch = draw(shapes(max_rank=1, dim=st.integers(1, 2)))
        n, m = draw(st.integers(1, 5)), draw(st.integers(1, 3))
        left, lower, unit = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
        trans = draw(st.sampled_from(["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]))
        sa, sx = (*batch, n, n), ((*batch, n, m) if left else (*batch, m, n))
        ta, tx = tensor(sa, ty), tensor(sx, ty)
        body, op_a = "", "%a0"
        if trans != "NO_TRANSPOSE":
            body, _ = _transpose_last("%a0", sa, ty, "%t")
            op_a = "%t"
        k = len(batch)
        dims = f"batching_dims = [{', '.join(map(str, range(k)))}] x [{', '.join(map(str, range(k)))}], " if k else ""
        lhs, rhs = (op_a, "%a1") if left else ("%a1", op_a)
        tl, tr = (ta, tx) if left else (tx, ta)
        body += (f"  %b = hlo.dot_general {lhs}, {rhs}, {dims}contracting_dims = [{k + 1}] x [{k}] : ({tl}, {tr}) -> {tx}\n"
                 f'  %r = "hlo.triangular_solve"(%a0, %b) <{{left_side = {str(left).lower()}, lower = {str(lower).lower()}, '
                 f"unit_diagonal = {str(unit).lower()}, transpose_a = #hlo<transpose {trans}>}}> : ({ta}, {tx}) -> {tx}")
        out.append(Case([Arg(sa, ty, lambda rng, sa=sa, lower=lower, unit=unit: _triangular(rng, sa, lower, unit)),
                         Arg(sx, ty, small_ints=True)], body, [("%r", tx)], 0,
                        f"triangular_solve left={left} lower={lower} unit={unit} {trans} {ty}"))
    return out


def _cholesky(draw) -> list[Case]:
    """a = l l^T from an integer-valued l with positive diagonal, factored again."""
    out = []
    for _ in range(2):
        ty = draw(st.sampled_from(FLOATS))
        batch = draw(shapes(max_rank=1, dim=st.integers(1, 2)))
        n, lower = draw(st.integers(1, 5)), draw(st.booleans())
        sa = (*batch, n, n)
        t = tensor(sa, ty)

        def spd(rng, sa=sa):
            f = np.abs(_triangular(rng, sa, True, False)) * np.sign(_triangular(rng, sa, True, True))
            f = np.tril(f, -1) + np.abs(np.diagonal(f, 0, -2, -1))[..., None] * np.eye(sa[-1])
            return f @ np.swapaxes(f, -1, -2)

        out.append(Case([Arg(sa, ty, spd)], f'  %r = "hlo.cholesky"(%a0) <{{lower = {str(lower).lower()}}}> : ({t}) -> {t}',
                        [("%r", t)], 0, f"cholesky lower={lower} {ty}"))
    return out


# -- the table -------------------------------------------------------------------------

OP_CASES: dict[str, CaseFn] = {
    **{op: _unary(op, cls) for op, (_, cls) in UNARY_OPS.items()},
    **{op: _binary(op, cls) for op, (_, cls) in BINARY_OPS.items()},
    "compare": _compare, "select": _select, "clamp": _clamp, "convert": _convert, "bitcast_convert": _bitcast,
    "is_finite": _is_finite, "reduce_precision": _reduce_precision, "constant": _constant, "iota": _iota,
    "complex": _complex_parts, "real": _complex_parts, "imag": _complex_parts,
    "broadcast_in_dim": _broadcast, "transpose": _transpose, "reshape": _reshape, "reverse": _reverse,
    "slice": _slice, "pad": _pad, "concatenate": _concatenate, "dynamic_slice": _dynamic_slice,
    "dynamic_update_slice": _dynamic_update_slice,
    "reduce": _reduce, "reduce_window": _reduce_window, "all_reduce": _all_reduce,
    "optimization_barrier": _optimization_barrier,
    "while": _while, "if": _if, "case": _case, "return": _if,  # hlo.return ends every region
    "gather": _gather, "scatter": _scatter, "sort": _sort, "select_and_scatter": _select_and_scatter,
    "rng_bit_generator": _rng_bit_generator, "dot_general": _dot_general, "convolution": _convolution,
    **STRUCTURAL_CASES,
    "fft": _fft,
    "triangular_solve": _triangular_solve, "cholesky": _cholesky,
}

#: op -> reason, for ops whose cpu lowering is known to differ (strict xfails)
XFAIL: dict[str, str] = {}

#: examples per op (each example: one module, one compile, two input draws)
EXAMPLES = {"default": 2, "convert": 3, "compare": 1, **{op: 1 for op in STRUCTURAL_CASES}}
SLOW_FACTOR = 8


#: ops that act on the process grid: one compiled process cannot run them alone (all_reduce over a group
#: of one is the identity and has a case above); the interpreter runs them on a simulated grid
#: (tests/backends/interpreter/test_collectives.py)
PROCESS_GRID_OPS = {"all_gather", "reduce_scatter", "all_to_all", "collective_permute", "collective_broadcast",
                    "collective_reduce", "replica_id", "partition_id", "after_all", "send", "recv", "infeed",
                    "outfeed"}


def test_table_covers_every_hlo_op():
    ops = set(hlo.OPS) - PROCESS_GRID_OPS
    assert set(OP_CASES) == ops, (
        f"missing cases: {sorted(ops - set(OP_CASES))}; stale: {sorted(set(OP_CASES) - ops)}")


def _params(ops):
    return [pytest.param(op, marks=pytest.mark.xfail(strict=True, reason=XFAIL[op])) if op in XFAIL else op
            for op in ops]


def _check(op: str, data, slow: bool) -> None:
    cases = OP_CASES[op](data.draw)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    run_cases(cases, seed, draws=4 if slow else 2)


def _make_test(slow: bool):
    def test(op):
        n = EXAMPLES.get(op, EXAMPLES["default"]) * (SLOW_FACTOR if slow else 1)

        # no shrinking in the fast variant: every shrink step is a compile
        @settings(max_examples=n, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck),
                  phases=list(Phase) if slow else [Phase.explicit, Phase.generate])
        @given(data=st.data())
        def inner(data):
            _check(op, data, slow)

        inner()

    return test


test_cpu_matches_interpreter = pytest.mark.parametrize("op", _params(sorted(OP_CASES)))(_make_test(False))
test_cpu_matches_interpreter_slow = pytest.mark.slow(
    pytest.mark.parametrize("op", _params(sorted(OP_CASES)))(_make_test(True)))


def test_bf16_subnormal_results_are_not_flushed():
    t = tensor((4,), "bf16")
    case = Case([Arg((4,), "bf16"), Arg((4,), "bf16")], f"  %r = hlo.multiply %a0, %a1 : {t}", [("%r", t)])
    cpu, ref = compile_both([case])
    sub = float(ml_dtypes.finfo(ml_dtypes.bfloat16).smallest_subnormal)
    x = np.array([sub, -3 * sub, 1e-39, 2.0 ** -130], NP["bf16"])
    one = np.ones(4, NP["bf16"])
    got, want = cpu[0](x, one)[0], ref[0](x, one)[0]
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


def test_edge_values_cover_the_acceptance_list():
    """The edge values mixed into every input are the ones the issue names."""
    i32 = edge_values("i32")
    assert {np.iinfo(np.int32).min, -1, 0, np.iinfo(np.int32).max} <= set(i32.tolist())
    f = edge_values("f32")
    assert np.isnan(f).any() and np.isposinf(f).any() and np.isneginf(f).any()
    zeros = f[f == 0]
    assert {np.signbit(z) for z in zeros} == {True, False}
    assert ((f != 0) & (np.abs(f) < np.finfo(np.float32).tiny)).any()  # denormals

