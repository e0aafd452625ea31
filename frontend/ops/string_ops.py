"""TF's string ops (`tf.strings`), host only: XLA has no string kernels, so they run eagerly
and inside `tf.function` without jit (like host_ops.py's AsString), and under jit_compile=True
TF's "Detected unsupported operations" names them. Strings are numpy object arrays of bytes.

Regular expressions use Python's `re` on bytes, which agrees with RE2 on their common subset
(RE2's `\\0` in a rewrite is Python's `\\g<0>`).
"""

from __future__ import annotations

import re

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.api.farmhash import fingerprint64
from minixla.frontend.builder import Spec
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.ops.registry import register

STRING = np.dtype(object)
_INT32, _INT64, _BOOL = np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.bool_)


def _each(fn, otype, *arrays):
    """fn over the (broadcast) elements of object arrays, as an array of `otype`."""
    return np.vectorize(fn, otypes=[otype])(*arrays) if np.broadcast(*arrays).size else \
        np.zeros(np.broadcast(*arrays).shape, otype)


def _bytes(v) -> bytes:
    return v.encode() if isinstance(v, str) else bytes(v)


def _same(x, **kw):
    return Spec(x.shape, STRING)


# -- length, case, strip -------------------------------------------------------------------------

def _utf8_len(s: bytes) -> int:
    """Code points of UTF-8 text: the bytes that do not continue a character (as TF counts)."""
    return sum((c & 0xC0) != 0x80 for c in s)


def _string_length(input, unit="BYTE"):
    count = len if unit == "BYTE" else _utf8_len
    return _each(lambda s: count(_bytes(s)), _INT32, input)


register("StringLength", ("input",), None, host=_string_length, attrs={"unit": "BYTE"},
         infer=lambda x, **kw: Spec(x.shape, _INT32))
for _name, _fn in (("StringUpper", bytes.upper), ("StringLower", bytes.lower)):
    register(_name, ("input",), None, host=lambda input, encoding="", _fn=_fn: _each(
        lambda s: _fn(_bytes(s)), object, input), attrs={"encoding": ""}, infer=_same)
register("StringStrip", ("input",), None, host=lambda input: _each(lambda s: _bytes(s).strip(), object, input),
         infer=_same)


# -- to_number -------------------------------------------------------------------------------------

_FLOAT = re.compile(rb"[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf(inity)?|nan)", re.IGNORECASE)
_INT = re.compile(rb"[+-]?\d+")


def _to_number(s: bytes, dt: np.dtype):
    """TF's safe_strto*: surrounding whitespace allowed, nothing else; integers in range."""
    text = _bytes(s).strip()
    bad = InvalidArgumentError(None, None, f"StringToNumberOp could not correctly convert string: "
                                           f"{_bytes(s).decode(errors='replace')}")
    if dt.kind == "f":
        if not _FLOAT.fullmatch(text):
            raise bad
        return dt.type(float(text))
    if not _INT.fullmatch(text):
        raise bad
    v = int(text)
    info = np.iinfo(dt)
    if not info.min <= v <= info.max:
        raise bad
    return v


def _string_to_number(string_tensor, out_type=np.float32):
    dt = dtypes.np_dtype(out_type)
    return _each(lambda s: _to_number(s, dt), dt, string_tensor)


register("StringToNumber", ("string_tensor",), None, host=_string_to_number, attrs={"out_type": np.float32},
         infer=lambda x, out_type=np.float32: Spec(x.shape, dtypes.np_dtype(out_type)))


# -- format (TF's Tensor::SummarizeValue with print_v2, what StringFormat and tf.print show) ----------

def _element(v) -> str:
    if isinstance(v, (bytes, str)):
        return '"' + _bytes(v).decode("latin-1").encode("unicode_escape").decode("latin-1").replace('"', '\\"') + '"'
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (float, np.floating)):
        digits = (6, 9) if np.asarray(v).dtype.itemsize <= 4 else (15, 17)
        text = f"{float(v):.{digits[0]}g}"
        return text if type(v)(float(text)) == v or v != v else f"{float(v):.{digits[1]}g}"
    return str(v)


def summarize(value: np.ndarray, summarize: int) -> str:
    """A tensor as TF prints it: `[[1 2]\n [3 4]]`, at most `summarize` items at each end of a dimension."""
    value = np.asarray(value)
    ends = value.size if summarize < 0 else min(summarize, value.size)

    def dim(x: np.ndarray, depth: int) -> str:
        if x.ndim == 0:
            return _element(x[()])
        if x.ndim == 1:
            x = [x[i:i + 1].reshape(()) for i in range(x.shape[0])]  # elements stay 0-d arrays
        spacing = " " if isinstance(x, list) else "\n" * (x.ndim - 1) + " " * (depth + 1)
        n = len(x)
        items = [dim(x[i], depth + 1) for i in range(min(ends, n))]
        if n > 2 * ends:
            items.append("...")
        items += [dim(x[i], depth + 1) for i in range(max(ends, n - ends), n)]
        return "[" + spacing.join(items) + "]"

    return dim(value, 0)


# -- split, join -----------------------------------------------------------------------------------

def _split_whitespace(s: bytes, maxsplit: int) -> list[bytes]:
    """TF's whitespace SplitV2: after `maxsplit` pieces the rest (leading whitespace dropped) is one more
    piece, even when empty ("one" with maxsplit=1 is ["one", ""], unlike Python's str.split)."""
    if maxsplit == 0:
        return [s]
    out: list[bytes] = []
    rest = s.lstrip()
    while rest:
        token = rest.split(None, 1)[0]
        out.append(token)
        rest = rest[len(token):].lstrip()
        if maxsplit > 0 and len(out) == maxsplit:
            return out + [rest]
    return out


def _string_split_v2(input, sep, maxsplit=-1):
    """(indices [n, 2], values [n], dense_shape [2]) of the pieces of each string of a vector."""
    if input.ndim != 1:
        raise InvalidArgumentError(None, None, f"input must be a vector, got shape: {list(input.shape)}")
    sep = _bytes(np.asarray(sep).reshape(())[()])
    limit = -1 if maxsplit is None or maxsplit < 0 else maxsplit
    pieces = [(_split_whitespace(_bytes(s), limit) if not sep else _bytes(s).split(sep, limit)) for s in input]
    indices = np.array([(i, j) for i, p in enumerate(pieces) for j in range(len(p))], np.int64).reshape(-1, 2)
    values = np.array([v for p in pieces for v in p] or [], dtype=object)
    width = max((len(p) for p in pieces), default=0)
    return indices, values, np.array([len(pieces), width], np.int64)


register("StringSplitV2", ("input", "sep"), None, host=_string_split_v2, attrs={"maxsplit": -1}, typed=(),
         infer=lambda x, s, **kw: (Spec(None, _INT64), Spec(None, STRING), Spec((2,), _INT64)))


def _string_split(input, delimiter, skip_empty=True):
    """TF's StringSplit (v1): splits on any byte of `delimiter`; an empty delimiter gives the bytes."""
    if input.ndim != 1:
        raise InvalidArgumentError(None, None, f"input must be a vector, got shape: {list(input.shape)}")
    delim = _bytes(np.asarray(delimiter).reshape(())[()])
    rx = re.compile(b"[" + re.escape(delim) + b"]") if delim else None

    def pieces(s):
        s = _bytes(s)
        out = [bytes([c]) for c in s] if rx is None else rx.split(s)
        return [p for p in out if p or not skip_empty]

    parts = [pieces(s) for s in input]
    indices = np.array([(i, j) for i, p in enumerate(parts) for j in range(len(p))], np.int64).reshape(-1, 2)
    return indices, np.array([v for p in parts for v in p], dtype=object), np.array(
        [len(parts), max((len(p) for p in parts), default=0)], np.int64)


register("StringSplit", ("input", "delimiter"), None, host=_string_split, attrs={"skip_empty": True}, typed=(),
         infer=lambda x, d, **kw: (Spec(None, _INT64), Spec(None, STRING), Spec((2,), _INT64)))


def _row_splits(indices, dense_shape):
    """int64 row_splits of a sparse result's rows (minixla's: tf.strings.split's RaggedTensor)."""
    counts = np.bincount(indices[:, 0], minlength=int(dense_shape[0])) if len(indices) else \
        np.zeros(int(dense_shape[0]), np.int64)
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


register("MinixlaRowSplitsFromIndices", ("indices", "dense_shape"), None, host=_row_splits, typed=(),
         infer=lambda i, d: Spec(None, _INT64))


def _string_join(inputs, separator=""):
    sep = _bytes(separator)
    return _each(lambda *xs: sep.join(_bytes(x) for x in xs), object, *inputs) if inputs else \
        np.array(b"", dtype=object)


def _join_infer(xs, separator=""):
    shapes = [x.shape for x in xs]
    if any(s is None for s in shapes):
        return Spec(None, STRING)
    return Spec(tuple(np.broadcast_shapes(*shapes)), STRING)


register("StringJoin", ("*inputs",), None, host=_string_join, attrs={"separator": ""}, typed=(), infer=_join_infer)


def _reduce_axes(rank: int, reduction_indices) -> list[int]:
    axes = np.asarray(reduction_indices).reshape(-1).tolist()
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(None, None, f"Invalid reduction dimension {a} for input with {rank} "
                                                   f"dimension(s)")
    return [a % rank for a in axes]


def _reduce_join(inputs, reduction_indices, keep_dims=False, separator=""):
    """Joins along each axis in turn, in the order given (TF's ReduceJoin: [0, 1] of [[a, b], [c, d]] is acbd)."""
    sep = _bytes(separator)
    axes = _reduce_axes(inputs.ndim, reduction_indices)
    out = inputs
    for a in axes:
        moved = np.moveaxis(out, a, -1)
        joined = np.empty(moved.shape[:-1], dtype=object)
        for idx in np.ndindex(*joined.shape):
            joined[idx] = sep.join(_bytes(x) for x in moved[idx])
        out = np.expand_dims(joined, a)
    if not keep_dims:
        out = out.reshape([d for i, d in enumerate(out.shape) if i not in axes])
    return np.asarray(out, dtype=object)


def _reduce_join_infer(x, axes, keep_dims=False, separator=""):
    if x.shape is None:
        return Spec(None, STRING)
    red = _reduce_axes(len(x.shape), axes)
    return Spec(tuple(1 if i in red else d for i, d in enumerate(x.shape) if keep_dims or i not in red), STRING)


register("ReduceJoin", ("inputs", "reduction_indices"), None, host=_reduce_join,
         attrs={"keep_dims": False, "separator": ""}, const_inputs=("reduction_indices",), typed=("inputs",),
         infer=_reduce_join_infer)


def _unsorted_segment_join(inputs, segment_ids, num_segments, separator=""):
    """Joins the rows of `inputs` by segment, in their order; segments without rows are empty."""
    n, sep = int(num_segments), _bytes(separator)
    ids = np.asarray(segment_ids)
    if inputs.shape[:ids.ndim] != ids.shape:
        raise InvalidArgumentError(None, None, f"segment_ids.shape = {list(ids.shape)} does not prefix "
                                               f"inputs.shape = {list(inputs.shape)}")
    rows = inputs.reshape((-1,) + inputs.shape[ids.ndim:])
    parts: list[list] = [[] for _ in range(n)]
    for row, sid in zip(rows, ids.reshape(-1)):
        if not 0 <= sid < n:
            raise InvalidArgumentError(None, None, "segment_ids are not allowed to exceed num_segments or to have "
                                                   "negative values.")
        parts[sid].append(row)
    out = np.empty((n,) + inputs.shape[ids.ndim:], dtype=object)
    for k, group in enumerate(parts):
        for idx in np.ndindex(*out.shape[1:]):
            out[(k,) + idx] = sep.join(_bytes(np.asarray(r, dtype=object)[idx]) for r in group)
    return out


register("UnsortedSegmentJoin", ("inputs", "segment_ids", "num_segments"), None, host=_unsorted_segment_join,
         attrs={"separator": ""}, const_inputs=("num_segments",), typed=("inputs",),
         infer=lambda x, ids, n, **kw: Spec(None if x.shape is None or ids.shape is None else
                                            (int(n),) + tuple(x.shape[len(ids.shape):]), STRING))


def _string_ngrams(data, data_splits, separator=" ", ngram_widths=(), left_pad="", right_pad="", pad_width=0,
                   preserve_short_sequences=False, Tsplits=np.int64):
    """TF's StringNGrams kernel: per row and width, the windows over the row padded with `pad_width`
    (-1: width - 1, at most width - 1) pads each side; `preserve_short_sequences` keeps a row that gives
    no n-gram as one n-gram of the whole padded row."""
    sep, lpad, rpad = _bytes(separator), _bytes(left_pad), _bytes(right_pad)
    splits = np.asarray(data_splits).astype(np.int64)

    def pads(width):
        return min(width - 1 if pad_width < 0 else pad_width, width - 1)

    def grams(row, width):
        p = pads(width)
        seq = [lpad] * p + row + [rpad] * p
        return [sep.join(seq[i:i + width]) for i in range(max(0, len(seq) - width + 1))]

    out, out_splits = [], [0]
    for i in range(len(splits) - 1):
        row = [_bytes(x) for x in data[splits[i]:splits[i + 1]]]
        got = [g for w in ngram_widths for g in grams(row, int(w))]
        if not got and preserve_short_sequences and row:
            p = max(pad_width, 0)
            got = [sep.join([lpad] * p + row + [rpad] * p)]
        out += got
        out_splits.append(len(out))
    return np.array(out, dtype=object).reshape(len(out)), np.array(out_splits, np.dtype(Tsplits))


register("StringNGrams", ("data", "data_splits"), None, host=_string_ngrams, typed=(),
         attrs={"separator": " ", "ngram_widths": (), "left_pad": "", "right_pad": "", "pad_width": 0,
                "preserve_short_sequences": False, "Tsplits": np.int64},
         infer=lambda d, s, Tsplits=np.int64, **kw: (Spec(None, STRING), Spec(s.shape, np.dtype(Tsplits))))


# -- substr ---------------------------------------------------------------------------------------

def _chars(s: bytes) -> list[bytes]:
    """UTF-8 text split into its characters (a continuation byte stays with its lead byte)."""
    out: list[bytes] = []
    for c in s:
        if (c & 0xC0) == 0x80 and out:
            out[-1] += bytes([c])
        else:
            out.append(bytes([c]))
    return out


def _substr(input, pos, length, unit="BYTE"):
    def one(s, p, n, index):
        s = _bytes(s)
        units = list(s) if unit == "BYTE" else _chars(s)
        size = len(units)
        p = int(p) + size if p < 0 else int(p)
        if not 0 <= p <= size:
            raise InvalidArgumentError(None, None, f"pos {int(p if p >= 0 else p - size)} out of range for string "
                                                   f"b'{s.decode(errors='replace')}' at index {index}")
        piece = units[p:p + max(int(n), 0)]
        return bytes(piece) if unit == "BYTE" else b"".join(piece)

    shape = np.broadcast_shapes(input.shape, pos.shape, length.shape)
    s, p, n = (np.broadcast_to(a, shape) for a in (input, pos, length))
    out = np.empty(shape, dtype=object)
    for k, idx in enumerate(np.ndindex(*shape)):
        out[idx] = one(s[idx], p[idx], n[idx], k)
    return out


register("Substr", ("input", "pos", "len"), None, host=_substr, attrs={"unit": "BYTE"}, typed=("pos", "len"),
         infer=lambda x, p, n, **kw: _join_infer([x, p, n]))


# -- regular expressions --------------------------------------------------------------------------

def _compile(pattern) -> re.Pattern:
    text = _bytes(np.asarray(pattern, dtype=object).reshape(())[()] if isinstance(pattern, np.ndarray) else pattern)
    try:
        return re.compile(text)
    except re.error as err:
        raise InvalidArgumentError(None, None, f"Invalid pattern: {text.decode(errors='replace')}, error: "
                                               f"{err}") from None


def _rewrite(rewrite) -> bytes:
    text = _bytes(np.asarray(rewrite, dtype=object).reshape(())[()] if isinstance(rewrite, np.ndarray) else rewrite)
    return re.sub(rb"\\0", rb"\\g<0>", text)


def _full_match(input, pattern):
    rx = _compile(pattern)
    return _each(lambda s: rx.fullmatch(_bytes(s)) is not None, _BOOL, input)


def _replace(input, pattern, rewrite, replace_global=True):
    rx, rw = _compile(pattern), _rewrite(rewrite)
    return _each(lambda s: rx.sub(rw, _bytes(s), count=0 if replace_global else 1), object, input)


register("RegexFullMatch", ("input", "pattern"), None, host=_full_match, typed=(),
         infer=lambda x, p: Spec(x.shape, _BOOL))
register("StaticRegexFullMatch", ("input",), None, host=lambda input, pattern: _full_match(input, pattern),
         attrs={"pattern": ""}, infer=lambda x, **kw: Spec(x.shape, _BOOL))
register("RegexReplace", ("input", "pattern", "rewrite"), None, host=_replace, attrs={"replace_global": True},
         typed=(), infer=lambda x, p, r, **kw: Spec(x.shape, STRING))
register("StaticRegexReplace", ("input",), None, host=lambda input, pattern, rewrite, replace_global=True: _replace(
    input, pattern, rewrite, replace_global), attrs={"pattern": "", "rewrite": "", "replace_global": True},
    infer=_same)


# -- hashing ---------------------------------------------------------------------------------------


_M64 = (1 << 64) - 1


def _tf_hash64(s: bytes, seed: int = 0xDECAFCAFFE) -> int:
    """TF's Hash64 (core/lib/hash/hash.cc, MurmurHash64A-style), what StringToHashBucket uses."""
    m, n = 0xC6A4A7935BD1E995, len(s)
    h = (seed ^ (n * m)) & _M64
    body = n - n % 8
    for i in range(0, body, 8):
        k = (int.from_bytes(s[i:i + 8], "little") * m) & _M64
        k = ((k ^ (k >> 47)) * m) & _M64
        h = ((h ^ k) * m) & _M64
    if n % 8:
        h = ((h ^ int.from_bytes(s[body:], "little")) * m) & _M64
    h = ((h ^ (h >> 47)) * m) & _M64
    return h ^ (h >> 47)


def _siphash24(k0: int, k1: int, s: bytes) -> int:
    """SipHash-2-4 keyed by (k0, k1): StringToHashBucketStrong's hash."""
    def rotl(x, b):
        return ((x << b) | (x >> (64 - b))) & _M64

    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]

    def rounds(count):
        for _ in range(count):
            v[0] = (v[0] + v[1]) & _M64
            v[1] = rotl(v[1], 13) ^ v[0]
            v[0] = rotl(v[0], 32)
            v[2] = (v[2] + v[3]) & _M64
            v[3] = rotl(v[3], 16) ^ v[2]
            v[0] = (v[0] + v[3]) & _M64
            v[3] = rotl(v[3], 21) ^ v[0]
            v[2] = (v[2] + v[1]) & _M64
            v[1] = rotl(v[1], 17) ^ v[2]
            v[2] = rotl(v[2], 32)

    n = len(s)
    tail = s[n - n % 8:] + bytes(7 - n % 8) + bytes([n & 0xFF])
    for i in list(range(0, n - n % 8, 8)) + [None]:
        word = int.from_bytes(s[i:i + 8] if i is not None else tail, "little")
        v[3] ^= word
        rounds(2)
        v[0] ^= word
    v[2] ^= 0xFF
    rounds(4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def _buckets(hash_fn):
    def host(input, num_buckets=1, **key):
        if num_buckets < 1:
            raise InvalidArgumentError(None, None, f"Value for attr 'num_buckets' of {num_buckets} must be at least "
                                                   "minimum 1")
        return _each(lambda s: hash_fn(_bytes(s), **key) % num_buckets, _INT64, input)
    return host


def _strong(s: bytes, key=()):
    if len(key) != 2:
        raise InvalidArgumentError(None, None, f"Key must have 2 elements, got {len(key)}")
    return _siphash24(int(key[0]) & _M64, int(key[1]) & _M64, s)


register("StringToHashBucketFast", ("input",), None, host=_buckets(fingerprint64), attrs={"num_buckets": 1},
         infer=lambda x, **kw: Spec(x.shape, _INT64))
register("StringToHashBucket", ("string_tensor",), None, host=_buckets(_tf_hash64), attrs={"num_buckets": 1},
         infer=lambda x, **kw: Spec(x.shape, _INT64))
register("StringToHashBucketStrong", ("input",), None, host=_buckets(_strong), attrs={"num_buckets": 1, "key": ()},
         infer=lambda x, **kw: Spec(x.shape, _INT64))
