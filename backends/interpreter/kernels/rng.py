"""`rng_bit_generator`: Philox-4x32-10 and Threefry-2x32-20 laid out as XLA's
RngBitGeneratorExpander does (state = [key, counter...]; DEFAULT = PHILOX).

The block ciphers are the Random123 ones (checked against its published
known-answer vectors in the tests). The layout is XLA's, bit for bit against
outputs recorded from XLA (tests/golden/rng_bit_generator.json): a 2-word
Philox state uses the key as the counter's high word; 32-bit Threefry puts the
two words of a block side by side along the first even dimension
(dialects/rng_layout.py); 8/16-bit outputs keep the low bits of 32-bit ones.
"""

from __future__ import annotations

import numpy as np

from minixla.dialects.numpy_types import bit_width
from minixla.dialects.rng_layout import threefry_halves

_M32 = np.uint64(0xFFFFFFFF)


def _u32(x) -> np.ndarray:
    return np.asarray(x, dtype=np.uint64) & _M32


def philox4x32(ctr: list[np.ndarray], key: tuple[int, int], rounds: int = 10) -> list[np.ndarray]:
    """Philox-4x32 on uint32-valued uint64 arrays (c0..c3) with key (k0, k1)."""
    c = [_u32(x) for x in ctr]
    k0, k1 = np.uint64(key[0] & 0xFFFFFFFF), np.uint64(key[1] & 0xFFFFFFFF)
    ma, mb = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    w0, w1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
    for _ in range(rounds):
        p0, p1 = c[0] * ma, c[2] * mb  # < 2**64: exact
        hi0, lo0 = p0 >> np.uint64(32), p0 & _M32
        hi1, lo1 = p1 >> np.uint64(32), p1 & _M32
        c = [hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0]
        k0, k1 = (k0 + w0) & _M32, (k1 + w1) & _M32
    return c


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return ((x << np.uint64(r)) | (x >> np.uint64(32 - r))) & _M32


def threefry2x32(ctr: list[np.ndarray], key: tuple[int, int]) -> list[np.ndarray]:
    """Threefry-2x32 with 20 rounds (Random123 / XLA)."""
    rot = (13, 15, 26, 6, 17, 29, 16, 24)
    ks = [np.uint64(key[0] & 0xFFFFFFFF), np.uint64(key[1] & 0xFFFFFFFF)]
    ks.append(np.uint64(0x1BD11BDA) ^ ks[0] ^ ks[1])
    x0, x1 = (_u32(ctr[0]) + ks[0]) & _M32, (_u32(ctr[1]) + ks[1]) & _M32
    for block in range(5):
        for r in rot[(block % 2) * 4:(block % 2) * 4 + 4]:
            x0 = (x0 + x1) & _M32
            x1 = _rotl(x1, r) ^ x0
        x0 = (x0 + ks[(block + 1) % 3]) & _M32
        x1 = (x1 + ks[(block + 2) % 3] + np.uint64(block + 1)) & _M32
    return [x0, x1]


def _split64(v: int) -> tuple[int, int]:
    return v & 0xFFFFFFFF, (v >> 32) & 0xFFFFFFFF


def _philox_words(key: int, counter: tuple[int, int], n_blocks: int) -> list[np.ndarray]:
    lo, hi = counter
    idx = np.arange(n_blocks, dtype=object)
    c128 = [(lo | (hi << 64)) + int(i) for i in idx]
    words = [np.array([(c >> (32 * j)) & 0xFFFFFFFF for c in c128], dtype=np.uint64) for j in range(4)]
    return philox4x32(words, _split64(key))


def rng_bit_generator(algorithm: str, state: np.ndarray, shape: tuple[int, ...], dtype: np.dtype):
    """(new_state, output) for uint64 `state`; output bits bitcast to `dtype`."""
    dtype = np.dtype(dtype)
    state = [int(s) for s in np.asarray(state, dtype=np.uint64)]
    size = int(np.prod(shape, dtype=np.int64))
    width = bit_width(dtype)
    key = state[0]
    if algorithm == "THREE_FRY":
        ctr = state[1] if len(state) > 1 else 0
        if width == 64:  # element i is block ctr + i (row-major)
            lin = (np.uint64(ctr) + np.arange(size, dtype=np.uint64))
            out = threefry2x32([lin & _M32, lin >> np.uint64(32)], _split64(key))
            bits = (out[1] << np.uint64(32)) | out[0]
            new_ctr = (ctr + size) & (2**64 - 1)
        else:  # block ctr + (row-major index in the half shape); its two words side by side along d
            d, half = threefry_halves(tuple(shape))
            n_half = int(np.prod(half, dtype=np.int64))
            lin = np.uint64(ctr) + np.arange(n_half, dtype=np.uint64)
            out = threefry2x32([lin & _M32, lin >> np.uint64(32)], _split64(key))
            pair = np.stack([o.reshape(half) for o in out], axis=d + 1)
            pair = pair.reshape(half[:d] + (2 * half[d],) + half[d + 1:])
            bits = pair[(slice(None),) * d + (slice(0, shape[d] if shape else 1),)].reshape(-1)[:max(size, 0)]
            new_ctr = (ctr + n_half) & (2**64 - 1)
        new_state = [key, new_ctr] + state[2:]
    else:  # PHILOX and DEFAULT: a 128-bit counter; a 2-word state is [key, lo] with the key as hi (XLA reverses it)
        lo = state[1] if len(state) > 1 else 0
        hi = state[2] if len(state) > 2 else key
        per_block = 2 if width == 64 else 4
        n_blocks = -(-size // per_block)
        w = _philox_words(key, (lo, hi), n_blocks)
        if width == 64:
            pairs = [(w[1] << np.uint64(32)) | w[0], (w[3] << np.uint64(32)) | w[2]]
        else:
            pairs = w
        bits = np.stack(pairs, axis=1).reshape(-1)[:size]
        c = (lo | (hi << 64)) + n_blocks
        new_state = [key, c & (2**64 - 1), (c >> 64) & (2**64 - 1)][:max(len(state), 2)]
    unsigned = np.dtype(f"u{max(width, 8) // 8}")
    out_bits = bits.astype(unsigned).reshape(shape)  # narrow types keep the low bits
    return np.array(new_state, dtype=np.uint64), out_bits.view(dtype)
