"""TF's Unicode string ops (tf.strings.unicode_*), host only like string_ops.py.

Python's codecs decode as ICU does in TF: an invalid sequence becomes one replacement character
per maximal subpart (Unicode's recommended practice), so errors="replace" agrees with TF.
"""

from __future__ import annotations

import codecs

import numpy as np

from minixla.frontend.builder import Spec
from minixla.frontend.errors import InvalidArgumentError
from minixla.frontend.ops.registry import register

_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}
_INT32, _INT64, STRING = np.dtype(np.int32), np.dtype(np.int64), np.dtype(object)


def _codec(encoding: str) -> str:
    if encoding not in _CODECS:
        raise InvalidArgumentError(None, None, f"Could not create converter for input encoding: {encoding}")
    return _CODECS[encoding]


def _decode_one(s: bytes, codec: str, errors: str, replacement_char: int, replace_control: bool):
    """(code points, byte offset of each) of one string."""
    decoder = codecs.getincrementaldecoder(codec)("replace" if errors != "strict" else "strict")
    codes, offsets, start = [], [], 0  # start: where the bytes the decoder holds began
    literal = "\ufffd".encode(codec)
    for i in range(len(s) + 1):
        try:
            out = decoder.decode(s[i:i + 1], final=i == len(s))
        except UnicodeDecodeError:
            raise InvalidArgumentError(None, None, "Invalid formatting on input string") from None
        for k, ch in enumerate(out):  # the first finishes (or replaces) the held bytes, the next is byte i
            offset, cp = (start if k == 0 else i), ord(ch)
            if ch == "\ufffd" and not s[offset:].startswith(literal):
                if errors == "ignore":
                    continue
                cp = replacement_char
            elif replace_control and cp < 0x20:
                cp = replacement_char
            codes.append(cp)
            offsets.append(offset)
        if out or not decoder.getstate()[0]:
            start = i if decoder.getstate()[0] else i + 1
    return codes, offsets


def _decode(input, input_encoding, errors="replace", replacement_char=65533, replace_control_characters=False,
            Tsplits=np.int64):
    codec = _codec(input_encoding)
    rows = [_decode_one(bytes(s), codec, errors, replacement_char, replace_control_characters)
            for s in np.asarray(input, dtype=object).reshape(-1)]
    splits = np.concatenate([[0], np.cumsum([len(c) for c, _ in rows])]).astype(np.dtype(Tsplits))
    codes = np.array([c for r, _ in rows for c in r], np.int32)
    offsets = np.array([o for _, r in rows for o in r], np.int64)
    return splits, codes, offsets


_DECODE_ATTRS = {"input_encoding": "UTF-8", "errors": "replace", "replacement_char": 65533,
                 "replace_control_characters": False, "Tsplits": np.int64}
register("UnicodeDecode", ("input",), None, host=lambda *a, **kw: _decode(*a, **kw)[:2], attrs=_DECODE_ATTRS,
         infer=lambda x, Tsplits=np.int64, **kw: (Spec(None, np.dtype(Tsplits)), Spec(None, _INT32)))
register("UnicodeDecodeWithOffsets", ("input",), None, host=_decode, attrs=_DECODE_ATTRS,
         infer=lambda x, Tsplits=np.int64, **kw: (Spec(None, np.dtype(Tsplits)), Spec(None, _INT32),
                                                  Spec(None, _INT64)))


def _encode(input_values, input_splits, errors="replace", output_encoding="UTF-8", replacement_char=65533):
    codec = _codec(output_encoding)

    def char(cp: int) -> str:
        if 0 <= cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF:
            return chr(cp)
        if errors == "strict":
            raise InvalidArgumentError(None, None, "Code point is out of range for Unicode, or is a surrogate.")
        return "" if errors == "ignore" else chr(replacement_char)

    splits = np.asarray(input_splits).astype(np.int64)
    out = np.empty(max(len(splits) - 1, 0), dtype=object)
    for i in range(len(out)):
        out[i] = "".join(char(int(c)) for c in input_values[splits[i]:splits[i + 1]]).encode(codec)
    return out


register("UnicodeEncode", ("input_values", "input_splits"), None, host=_encode, typed=(),
         attrs={"errors": "replace", "output_encoding": "UTF-8", "replacement_char": 65533},
         infer=lambda v, s, **kw: Spec(None if s.shape is None or s.shape[0] is None else (s.shape[0] - 1,), STRING))


def _char_splits(values):
    """Row splits putting each value in a row of its own (tf.strings.unicode_split encodes each character)."""
    return np.arange(len(values) + 1, dtype=np.int64)


register("MinixlaUnitRowSplits", ("values",), None, host=_char_splits, typed=(), infer=lambda v: Spec(None, _INT64))


def _transcode(input, input_encoding="UTF-8", output_encoding="UTF-8", errors="replace", replacement_char=65533,
               replace_control_characters=False):
    codec_in, codec_out = _codec(input_encoding), _codec(output_encoding)

    def one(s):
        codes, _ = _decode_one(bytes(s), codec_in, errors, replacement_char, replace_control_characters)
        return "".join(chr(c) if 0 <= c <= 0x10FFFF else chr(65533) for c in codes).encode(codec_out)

    flat = np.asarray(input, dtype=object).reshape(-1)
    out = np.empty(flat.shape, dtype=object)
    for i, s in enumerate(flat):
        out[i] = one(s)
    return out.reshape(np.shape(input))


register("UnicodeTranscode", ("input",), None, host=_transcode,
         attrs={"input_encoding": "UTF-8", "output_encoding": "UTF-8", "errors": "replace", "replacement_char": 65533,
                "replace_control_characters": False}, infer=lambda x, **kw: Spec(x.shape, STRING))
