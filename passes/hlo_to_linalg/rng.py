"""rng_bit_generator -> a `linalg.generic` over the output computing each
element's counter block in i32/i64 arith (Philox-4x32-10 or Threefry-2x32-20,
fully unrolled), plus the new state with `tensor.from_elements`.

The layout is XLA's and the interpreter's (backends/interpreter/kernels/rng.py), bit
for bit: PHILOX/DEFAULT give 4 words (2 for 64-bit outputs) per 128-bit counter
block, counter = state[1] | state[2] << 64 (the key as high word for a 2-word
state) (+ block); THREE_FRY with 64-bit outputs uses block i for element i, else
element (.., 2h + j, ..) along the split dimension of dialects/rng_layout.py is
word j of the block at h's row-major index in the half shape. Narrow outputs keep
the low bits. Each element recomputes its block (<= 4x redundant, branch free).
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IntegerType, TensorType, i32, i64
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Operation, SSAValue

from minixla.dialects import hlo
from minixla.dialects.rng_layout import threefry_halves
from minixla.passes.hlo_to_linalg.common import PARALLEL, Emitter, elem, empty, generic, identity, kind, shape_of, signless, unsupported, width
from minixla.passes.hlo_to_linalg.translate import Lowerer, lowering

def _lo32(b: Emitter, x: SSAValue) -> SSAValue:
    return b(arith.TruncIOp(x, i32))


def _hi32(b: Emitter, x: SSAValue) -> SSAValue:
    return b(arith.TruncIOp(b(arith.ShRUIOp(x, b.const(32, i64))), i32))


def _join(b: Emitter, lo: SSAValue, hi: SSAValue) -> SSAValue:
    """(hi << 32) | lo as i64."""
    h = b(arith.ShLIOp(b(arith.ExtUIOp(hi, i64)), b.const(32, i64)))
    return b(arith.OrIOp(h, b(arith.ExtUIOp(lo, i64))))


def philox4x32(b: Emitter, c: list[SSAValue], k0: SSAValue, k1: SSAValue) -> list[SSAValue]:
    """Philox-4x32 with 10 rounds on i32 words (products in i64)."""
    ma, mb = b.const(0xD2511F53, i64), b.const(0xCD9E8D57, i64)
    w0, w1 = b.const(0x9E3779B9, i32), b.const(0xBB67AE85, i32)
    for r in range(10):
        p0 = b(arith.MuliOp(b(arith.ExtUIOp(c[0], i64)), ma))
        p1 = b(arith.MuliOp(b(arith.ExtUIOp(c[2], i64)), mb))
        hi0, lo0, hi1, lo1 = _hi32(b, p0), _lo32(b, p0), _hi32(b, p1), _lo32(b, p1)
        c = [b(arith.XOrIOp(b(arith.XOrIOp(hi1, c[1])), k0)), lo1,
             b(arith.XOrIOp(b(arith.XOrIOp(hi0, c[3])), k1)), lo0]
        if r < 9:
            k0, k1 = b(arith.AddiOp(k0, w0)), b(arith.AddiOp(k1, w1))
    return c


def _rotl(b: Emitter, x: SSAValue, r: int) -> SSAValue:
    return b(arith.OrIOp(b(arith.ShLIOp(x, b.const(r, i32))), b(arith.ShRUIOp(x, b.const(32 - r, i32)))))


def threefry2x32(b: Emitter, x0: SSAValue, x1: SSAValue, k0: SSAValue, k1: SSAValue) -> list[SSAValue]:
    """Threefry-2x32 with 20 rounds (Random123)."""
    rot = (13, 15, 26, 6, 17, 29, 16, 24)
    ks = [k0, k1, b(arith.XOrIOp(b(arith.XOrIOp(b.const(0x1BD11BDA, i32), k0)), k1))]
    x0, x1 = b(arith.AddiOp(x0, ks[0])), b(arith.AddiOp(x1, ks[1]))
    for blk in range(5):
        for r in rot[(blk % 2) * 4:(blk % 2) * 4 + 4]:
            x0 = b(arith.AddiOp(x0, x1))
            x1 = b(arith.XOrIOp(_rotl(b, x1, r), x0))
        x0 = b(arith.AddiOp(x0, ks[(blk + 1) % 3]))
        x1 = b(arith.AddiOp(b(arith.AddiOp(x1, ks[(blk + 2) % 3])), b.const(blk + 1, i32)))
    return [x0, x1]


def _pick(b: Emitter, j: SSAValue, words: list[SSAValue]) -> SSAValue:
    """words[j] for a runtime index j (a select chain)."""
    out = words[0]
    for k in range(1, len(words)):
        out = b(arith.SelectOp(b(arith.CmpiOp(j, b.const(k, j.type), "eq")), words[k], out))
    return out


def _bits_to(b: Emitter, bits: SSAValue, t) -> SSAValue:
    """Low `width(t)` bits of an i32/i64 as the (signless) output element type."""
    it = IntegerType(width(t))
    if bits.type != it:
        bits = b(arith.TruncIOp(bits, it))
    return b(arith.BitcastOp(bits, signless(t))) if kind(t) == "float" else bits


@lowering(hlo.RngBitGeneratorOp)
def lower_rng_bit_generator(lw: Lowerer, op: Operation):
    algo = op.rng_algorithm.data.value
    state = lw.v(op.initial_state)
    n_state = shape_of(state)[0]
    t = elem(op.output.type)
    if kind(t) not in ("float", "sint", "uint") or width(t) not in (8, 16, 32, 64):
        raise unsupported(op, f"output element type {t} is not supported")
    if n_state != 2 and not (algo != "THREE_FRY" and n_state == 3):
        raise unsupported(op, f"{algo} with a state of {n_state} words is not supported")
    shape = shape_of(op.output.type)
    size = 1
    for s in shape:
        size *= s
    e = lw.e
    words = [e(tensor.ExtractOp(state, [e.index(k)], i64)) for k in range(n_state)]
    key, ctr = words[0], words[1]
    k0, k1 = _lo32(e, key), _hi32(e, key)
    wide = width(t) == 64
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]

    def flat_index(b: Emitter) -> SSAValue:
        i = b.const(0, i64)
        for d, s in enumerate(strides):
            i = b(arith.AddiOp(i, b(arith.MuliOp(b(arith.IndexCastOp(b(IndexOp(d)), i64)), b.const(s, i64)))))
        return i

    if algo == "THREE_FRY":
        split, half = threefry_halves(tuple(shape))
        n_half = 1
        for s in half:
            n_half *= s
        half_strides = [1] * len(half)
        for d in range(len(half) - 2, -1, -1):
            half_strides[d] = half_strides[d + 1] * half[d + 1]

        def body(b: Emitter, a):
            if wide:
                lin = b(arith.AddiOp(ctr, flat_index(b)))
                x = threefry2x32(b, _lo32(b, lin), _hi32(b, lin), k0, k1)
                return [_bits_to(b, _join(b, x[0], x[1]), t)]
            # element (.., 2h + j, ..) along `split` is word j of block ctr + (row-major index of (.., h, ..))
            blk, second = ctr, None
            for d in range(len(shape)):
                i = b(arith.IndexCastOp(b(IndexOp(d)), i64))
                if d == split:
                    second = b(arith.TruncIOp(b(arith.AndIOp(i, b.const(1, i64))), IntegerType(1)))
                    i = b(arith.ShRUIOp(i, b.const(1, i64)))
                blk = b(arith.AddiOp(blk, b(arith.MuliOp(i, b.const(half_strides[d], i64)))))
            x = threefry2x32(b, _lo32(b, blk), _hi32(b, blk), k0, k1)
            return [_bits_to(b, x[0] if second is None else b(arith.SelectOp(second, x[1], x[0])), t)]

        new_state = [key, e(arith.AddiOp(ctr, e.const(size if wide else n_half, i64)))]
    else:  # PHILOX and DEFAULT
        per = 2 if wide else 4
        n_blocks = -(-size // per)
        hi = words[2] if n_state == 3 else key  # XLA reverses a 2-word state: the key is the counter's hi

        def body(b: Emitter, a):
            i = flat_index(b)
            blk = b(arith.DivUIOp(i, b.const(per, i64)))
            j = b(arith.RemUIOp(i, b.const(per, i64)))
            lo2 = b(arith.AddiOp(ctr, blk))
            carry = b(arith.ExtUIOp(b(arith.CmpiOp(lo2, ctr, "ult")), i64))
            hi2 = b(arith.AddiOp(hi, carry))
            w = philox4x32(b, [_lo32(b, lo2), _hi32(b, lo2), _lo32(b, hi2), _hi32(b, hi2)], k0, k1)
            if wide:
                return [_bits_to(b, _pick(b, j, [_join(b, w[0], w[1]), _join(b, w[2], w[3])]), t)]
            return [_bits_to(b, _pick(b, j, w), t)]

        lo2 = e(arith.AddiOp(ctr, e.const(n_blocks, i64)))
        new_state = [key, lo2]
        if n_state == 3:
            carry = e(arith.ExtUIOp(e(arith.CmpiOp(lo2, ctr, "ult")), i64))
            new_state.append(e(arith.AddiOp(hi, carry)))
    n = len(shape)
    out = empty(e, shape, signless(t))
    result = generic(e, [], [out], [identity(n)], [PARALLEL] * n, body)[0] if size else out
    st = e(tensor.FromElementsOp(*new_state, result_type=TensorType(i64, [n_state])))
    return [st, result]
