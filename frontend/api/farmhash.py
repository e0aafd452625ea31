"""FarmHash's Fingerprint64 (farmhashna::Hash64) and TF's FingerprintCat64, in Python: what
`tf.sparse.cross_hashed` / `tf.ragged.cross_hashed` hash features with. Host-side integer code
(strings have no XLA kernel in TF either)."""

from __future__ import annotations

M = (1 << 64) - 1
K0, K1, K2 = 0xC3A5C85C97CB3127, 0xB492B66FBE98F273, 0x9AE16A3B2F90404F
DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _f64(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 8], "little")


def _f32(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 4], "little")


def _rot(v: int, r: int) -> int:
    return v if r == 0 else ((v >> r) | (v << (64 - r))) & M


def _mix(v: int) -> int:
    return v ^ (v >> 47)


def _len16(u: int, v: int, mul: int) -> int:
    a = _mix(((u ^ v) * mul) & M)
    b = _mix(((v ^ a) * mul) & M)
    return (b * mul) & M


def _weak32(s: bytes, i: int, a: int, b: int) -> tuple[int, int]:
    w, x, y, z = _f64(s, i), _f64(s, i + 8), _f64(s, i + 16), _f64(s, i + 24)
    a = (a + w) & M
    b = _rot((b + a + z) & M, 21)
    c = a
    a = (a + x + y) & M
    b = (b + _rot(a, 44)) & M
    return (a + z) & M, (b + c) & M


def _len0to16(s: bytes, n: int) -> int:
    if n >= 8:
        mul = K2 + n * 2
        a = (_f64(s, 0) + K2) & M
        b = _f64(s, n - 8)
        c = (_rot(b, 37) * mul + a) & M
        d = ((_rot(a, 25) + b) * mul) & M
        return _len16(c, d, mul)
    if n >= 4:
        return _len16(n + (_f32(s, 0) << 3), _f32(s, n - 4), K2 + n * 2)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_mix(((y * K2) ^ (z * K0)) & M) * K2) & M
    return K2


def _len17to32(s: bytes, n: int) -> int:
    mul = K2 + n * 2
    a, b = (_f64(s, 0) * K1) & M, _f64(s, 8)
    c, d = (_f64(s, n - 8) * mul) & M, (_f64(s, n - 16) * K2) & M
    return _len16((_rot((a + b) & M, 43) + _rot(c, 30) + d) & M, (a + _rot((b + K2) & M, 18) + c) & M, mul)


def _len33to64(s: bytes, n: int) -> int:
    mul = K2 + n * 2
    a, b = (_f64(s, 0) * K2) & M, _f64(s, 8)
    c, d = (_f64(s, n - 8) * mul) & M, (_f64(s, n - 16) * K2) & M
    y = (_rot((a + b) & M, 43) + _rot(c, 30) + d) & M
    z = _len16(y, (a + _rot((b + K2) & M, 18) + c) & M, mul)
    e, f = (_f64(s, 16) * mul) & M, _f64(s, 24)
    g, h = ((y + _f64(s, n - 32)) * mul) & M, ((z + _f64(s, n - 24)) * mul) & M
    return _len16((_rot((e + f) & M, 43) + _rot(g, 30) + h) & M, (e + _rot((f + a) & M, 18) + g) & M, mul)


def fingerprint64(s: bytes) -> int:
    """farmhashna::Hash64(s): TF's Fingerprint64."""
    n = len(s)
    if n <= 16:
        return _len0to16(s, n)
    if n <= 32:
        return _len17to32(s, n)
    if n <= 64:
        return _len33to64(s, n)
    seed = 81
    x, y = seed, (seed * K1 + 113) & M
    z = (_mix((y * K2 + 113) & M) * K2) & M
    v, w = (0, 0), (0, 0)
    x = (x * K2 + _f64(s, 0)) & M
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_rot((x + y + v[0] + _f64(s, i + 8)) & M, 37) * K1) & M
        y = (_rot((y + v[1] + _f64(s, i + 48)) & M, 42) * K1) & M
        x ^= w[1]
        y = (y + v[0] + _f64(s, i + 40)) & M
        z = (_rot((z + w[0]) & M, 33) * K1) & M
        v = _weak32(s, i, (v[1] * K1) & M, (x + w[0]) & M)
        w = _weak32(s, i + 32, (z + w[1]) & M, (y + _f64(s, i + 16)) & M)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = K1 + ((z & 0xFF) << 1)
    i = last64
    w = ((w[0] + ((n - 1) & 63)) & M, w[1])
    v = ((v[0] + w[0]) & M, v[1])
    w = ((w[0] + v[0]) & M, w[1])
    x = (_rot((x + y + v[0] + _f64(s, i + 8)) & M, 37) * mul) & M
    y = (_rot((y + v[1] + _f64(s, i + 48)) & M, 42) * mul) & M
    x ^= (w[1] * 9) & M
    y = (y + v[0] * 9 + _f64(s, i + 40)) & M
    z = (_rot((z + w[0]) & M, 33) * mul) & M
    v = _weak32(s, i, (v[1] * mul) & M, (x + w[0]) & M)
    w = _weak32(s, i + 32, (z + w[1]) & M, (y + _f64(s, i + 16)) & M)
    z, x = x, z
    return _len16((_len16(v[0], w[0], mul) + _mix(y) * K0 + z) & M, (_len16(v[1], w[1], mul) + x) & M, mul)


def fingerprint_cat64(fp1: int, fp2: int) -> int:
    k = 0xC6A4A7935BD1E995
    result = fp1 ^ k
    result ^= (_mix((fp2 * k) & M) * k) & M
    result = (result * k) & M
    result = (_mix(result) * k) & M
    return _mix(result)
