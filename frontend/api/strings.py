"""`tf.strings`: TF's string functions on the host-only string ops of frontend/ops/string_ops.py.

Each function builds TF's raw op(s) (`tf.strings.split` is StringSplitV2, as in TF), so they run
eagerly and traced into `tf.function` (on the host, like TF's CPU kernels); under
jit_compile=True compilation fails with TF's "Detected unsupported operations" naming the op.
Ragged results (split, bytes_split) are `tf.RaggedTensor`s of the op's flat values.
"""

from __future__ import annotations

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.api import core
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.execute import execute
from minixla.frontend.ragged_tensor import RaggedTensor

_STRING = dtypes.string


def _str(x):
    return core.convert_to_tensor(x, _STRING) if not hasattr(x, "dtype") or x.dtype != _STRING else x


def _check_unit(unit: str) -> str:
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(None, None, f'Value for attr \'unit\' of "{unit}" is not in the list of allowed '
                                               'values: "BYTE", "UTF8_CHAR"')
    return unit


def length(input, unit="BYTE", name=None):
    return execute("StringLength", [_str(input)], {"unit": _check_unit(unit)})


def to_number(string_tensor, out_type=dtypes.float32, name=None):
    dt = dtypes.as_dtype(out_type)
    if dt.name not in ("float32", "float64", "int32", "int64"):
        raise TypeError(f"Value passed to parameter 'out_type' has DataType {dt.name} not in list of allowed "
                        "values: float32, float64, int32, int64")
    return execute("StringToNumber", [_str(string_tensor)], {"out_type": dtypes.np_dtype(dt)})


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001 -- TF's name
    """TF's StringFormat: one placeholder per input tensor, in order."""
    items = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    if template.count(placeholder) != len(items):
        raise ValueError(f"The template expects {template.count(placeholder)} tensors, but the inputs only has "
                         f"{len(items)}. Please ensure the number of placeholders in template matches inputs length.")
    return execute("StringFormat", [[core.convert_to_tensor(x) for x in items]],
                   {"template": template, "placeholder": placeholder, "summarize": summarize})


def _static_dims(x):
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is None or None in dims:
        raise ValueError(f"minixla's tf.strings needs a known shape here (it compiles static shapes); got {x.shape}")
    return dims


def _nest(x, splits, values):
    """Rows of the flattened `x` as a RaggedTensor of rank x.rank + 1 (TF's: uniform outer rows); a scalar's
    pieces as a vector."""
    dims = _static_dims(x)
    if not dims:
        return values
    out = RaggedTensor.from_row_splits(values, splits, validate=False)
    for i in range(len(dims) - 1, 0, -1):  # uniform rows of dims[i], as constant splits (known in a trace)
        rows = int(np.prod(dims[:i]))
        out = RaggedTensor.from_row_splits(out, np.arange(rows + 1, dtype=np.int64) * dims[i], validate=False)
    return out


def _ragged(input, split):
    """Each string's pieces, from SparseTensor-style results of a vector."""
    x = _str(input)
    _static_dims(x)
    indices, values, shape = split(core.reshape(x, [-1]))
    return _nest(x, execute("MinixlaRowSplitsFromIndices", [indices, shape]), values)


def split(input, sep=None, maxsplit=-1, name=None):
    """Pieces between `sep` (runs of whitespace when None) per string, at most `maxsplit` splits."""
    return _ragged(input, lambda x: execute("StringSplitV2", [x, core.constant(sep or "", _STRING)],
                                            {"maxsplit": -1 if maxsplit is None else int(maxsplit)}))


def bytes_split(input, name=None):
    return _ragged(input, lambda x: execute("StringSplit", [x, core.constant("", _STRING)], {"skip_empty": True}))


def join(inputs, separator="", name=None):
    return execute("StringJoin", [[_str(x) for x in inputs]], {"separator": separator})


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    x = _str(inputs)
    axes = list(range(x.shape.rank - 1, -1, -1)) if axis is None else axis  # TF: all, innermost first
    return execute("ReduceJoin", [x, core.constant(np.asarray(axes, np.int32))],
                   {"keep_dims": bool(keepdims), "separator": separator})


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    return execute("UnsortedSegmentJoin", [_str(inputs), core.convert_to_tensor(segment_ids),
                                           core.convert_to_tensor(num_segments)], {"separator": separator})


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None, preserve_short_sequences=False,
           name=None):
    """TF's StringNGrams over the rows of a RaggedTensor or over the last axis of a vector or matrix."""
    widths = [int(ngram_width)] if np.ndim(ngram_width) == 0 else [int(w) for w in ngram_width]
    if pad_values is None:
        left, right, width = "", "", 0
    else:
        left, right = (pad_values, pad_values) if isinstance(pad_values, (str, bytes)) else tuple(pad_values)
        width = -1 if padding_width is None else int(padding_width)
    attrs = {"separator": separator, "ngram_widths": tuple(widths), "left_pad": left, "right_pad": right,
             "pad_width": width, "preserve_short_sequences": bool(preserve_short_sequences)}
    if isinstance(data, RaggedTensor):
        values, splits = execute("StringNGrams", [data.flat_values, data.row_splits], attrs)
        return RaggedTensor.from_row_splits(values, splits, validate=False)
    x = _str(data)
    dims = _static_dims(x)
    if len(dims) not in (1, 2):
        raise ValueError(f"minixla's tf.strings.ngrams takes a vector, a matrix or a RaggedTensor; got {x.shape}")
    rows, n = (1, dims[0]) if len(dims) == 1 else tuple(dims)
    values, _ = execute("StringNGrams", [core.reshape(x, [-1]), core.constant(np.arange(rows + 1) * n)], attrs)
    return values if len(dims) == 1 else core.reshape(values, [rows, -1])


def upper(input, encoding="", name=None):
    return execute("StringUpper", [_str(input)], {"encoding": encoding})


def lower(input, encoding="", name=None):
    return execute("StringLower", [_str(input)], {"encoding": encoding})


def strip(input, name=None):
    return execute("StringStrip", [_str(input)])


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 -- TF's keyword
    p = core.convert_to_tensor(pos)
    return execute("Substr", [_str(input), p, core.convert_to_tensor(len, p.dtype)], {"unit": _check_unit(unit)})


def regex_full_match(input, pattern, name=None):
    if isinstance(pattern, (str, bytes)):
        return execute("StaticRegexFullMatch", [_str(input)], {"pattern": pattern})
    return execute("RegexFullMatch", [_str(input), _str(pattern)])


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
        return execute("StaticRegexReplace", [_str(input)],
                       {"pattern": pattern, "rewrite": rewrite, "replace_global": replace_global})
    return execute("RegexReplace", [_str(input), _str(pattern), _str(rewrite)], {"replace_global": replace_global})


def to_hash_bucket_fast(input, num_buckets, name=None):
    return execute("StringToHashBucketFast", [_str(input)], {"num_buckets": int(num_buckets)})


def to_hash_bucket(string_tensor, num_buckets, name=None):
    return execute("StringToHashBucket", [_str(string_tensor)], {"num_buckets": int(num_buckets)})


def to_hash_bucket_strong(input, num_buckets, key, name=None):
    return execute("StringToHashBucketStrong", [_str(input)],
                   {"num_buckets": int(num_buckets), "key": tuple(int(k) for k in key)})


PUBLIC = (length, to_number, format, split, bytes_split, join, reduce_join, upper, lower, strip, substr,
          regex_full_match, regex_replace, to_hash_bucket_fast, to_hash_bucket, to_hash_bucket_strong)


# -- Unicode (frontend/ops/unicode_ops.py) ------------------------------------------------------------

_rows = _nest


def _decode(input, input_encoding, errors, replacement_char, replace_control_characters, offsets):
    x = _str(input)
    _static_dims(x)
    out = execute("UnicodeDecodeWithOffsets" if offsets else "UnicodeDecode", [core.reshape(x, [-1])],
                  {"input_encoding": input_encoding, "errors": errors, "replacement_char": replacement_char,
                   "replace_control_characters": replace_control_characters})
    return x, out


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,
                   replace_control_characters=False, name=None):
    x, (splits, codes) = _decode(input, input_encoding, errors, replacement_char, replace_control_characters, False)
    return _rows(x, splits, codes)


def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,
                                replace_control_characters=False, name=None):
    x, (splits, codes, starts) = _decode(input, input_encoding, errors, replacement_char,
                                         replace_control_characters, True)
    return _rows(x, splits, codes), _rows(x, splits, starts)


def _chars(codes, input_encoding):
    """Each code point as its own string (what TF's unicode_split returns: replacements re-encoded)."""
    return execute("UnicodeEncode", [codes, execute("MinixlaUnitRowSplits", [codes])],
                   {"output_encoding": input_encoding})


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):
    x, (splits, codes) = _decode(input, input_encoding, errors, replacement_char, False, False)
    return _rows(x, splits, _chars(codes, input_encoding))


def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533, name=None):
    x, (splits, codes, starts) = _decode(input, input_encoding, errors, replacement_char, False, True)
    return _rows(x, splits, _chars(codes, input_encoding)), _rows(x, splits, starts)


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):
    """Code points (a vector, a matrix or a RaggedTensor of rows) as strings of `output_encoding`."""
    attrs = {"output_encoding": output_encoding, "errors": errors, "replacement_char": replacement_char}
    if isinstance(input, RaggedTensor):
        return execute("UnicodeEncode", [input.flat_values, input.row_splits], attrs)
    x = core.convert_to_tensor(input)
    if x.shape.rank not in (1, 2):
        raise ValueError(f"minixla's tf.strings.unicode_encode takes code points of rank 1 or 2; got {x.shape}")
    rows, width = (1, x.shape[0]) if x.shape.rank == 1 else tuple(x.shape.as_list())
    splits = core.constant(np.arange(rows + 1, dtype=np.int64) * width)
    out = execute("UnicodeEncode", [core.reshape(x, [-1]), splits], attrs)
    return core.reshape(out, []) if x.shape.rank == 1 else out


def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,
                      replace_control_characters=False, name=None):
    return execute("UnicodeTranscode", [_str(input)], {
        "input_encoding": input_encoding, "output_encoding": output_encoding, "errors": errors,
        "replacement_char": replacement_char, "replace_control_characters": replace_control_characters})


PUBLIC += (ngrams, unicode_transcode, unsorted_segment_join, unicode_decode, unicode_decode_with_offsets, unicode_split, unicode_split_with_offsets, unicode_encode)


def install(tf_module) -> None:
    """Adds these to `tf.strings` (which already has as_string)."""
    for fn in PUBLIC:
        setattr(tf_module.strings, fn.__name__, fn)
