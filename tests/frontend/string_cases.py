"""tf.strings cases (frontend/api/strings.py), recorded from real TensorFlow by
`record_tf_goldens.py --cases tests/frontend/string_cases.py --out tests/golden/strings` and replayed
by tests/frontend/test_string_goldens.py. Same format as raw_cases.py; numpy only. Ragged results
(split, bytes_split) are returned as (flat_values, row_splits) so both TFs give plain tensors.
"""

from __future__ import annotations

import numpy as np


def _s(*items):
    """A numpy bytes array (UTF-8) of nested lists of str."""
    return np.vectorize(lambda s: s.encode(), otypes=[object])(np.array(items)).astype(bytes)


def _parts(r):
    return r.flat_values, r.row_splits


WORDS = _s("hello world", "  leading and trailing  ", "", "tab\tand\nnewline", "one")
UTF8 = _s(["héllo", "wörld"], ["日本語", "a"])
NUMS_F = _s("1.5", "-2e3", " 7 ", "inf", "-INF", ".25", "+3.", "1e-3", "0")
NUMS_I = _s("12", "-7", " 42 ", "+3", "0", "2147483647", "-2147483648")
NUMS_I64 = _s("9223372036854775807", "-12", "5")
CSV = _s("a,b,,c", ",x,", "", "single")
GRID = _s(["a", "b", "c"], ["d", "e", "f"])
MIXED = _s("  Hello World ", "MiXeD 123", "\tx\n", "ÄÖ ascii")
HASHED = _s("", "a", "abcdefg", "abcdefgh", "abcdefghijklmnopq", "héllo wörld, a longer string")
BAD_UTF8 = np.array([b"a\xffb", b"\xe6\x97", b"ok", b"\xe6\x97\xa5x\x80\x80", b"\xef\xbf\xbd!"], "S")
CODES = np.array([[104, 0x65E5, 0x110000], [0xD800, 33, -1]], np.int32)
INTS = np.arange(10, dtype=np.int32)
MAT = np.arange(12, dtype=np.int32).reshape(3, 4)

CASES = {
    # tf.strings.length
    "str_length": (lambda tf, a: tf.strings.length(a), [WORDS], None),
    "str_length_utf8": (lambda tf, a: tf.strings.length(a, unit="UTF8_CHAR"), [UTF8], None),
    "str_length_bytes_2d": (lambda tf, a: tf.strings.length(a), [UTF8], None),
    # tf.strings.to_number
    "str_to_number_f32": (lambda tf, a: tf.strings.to_number(a), [NUMS_F], None),
    "str_to_number_f64": (lambda tf, a: tf.strings.to_number(a, out_type=tf.float64), [NUMS_F], None),
    "str_to_number_i32": (lambda tf, a: tf.strings.to_number(a, out_type=tf.int32), [NUMS_I], None),
    "str_to_number_i64": (lambda tf, a: tf.strings.to_number(a, out_type=tf.int64), [NUMS_I64], None),
    # tf.strings.format
    "str_format_ints": (lambda tf, a: tf.strings.format("v={}", a), [INTS], None),
    "str_format_two": (lambda tf, a, b: tf.strings.format("a: {}, b: {}!", [a, b]),
                       [np.array([1, 2, 3], np.int32), np.array(7, np.int64)], None),
    "str_format_summarize": (lambda tf, a: tf.strings.format("{}", a, summarize=2), [MAT], None),
    "str_format_summarize_all": (lambda tf, a: tf.strings.format("[{}]", a, summarize=-1), [INTS], None),
    "str_format_placeholder": (lambda tf, a, b: tf.strings.format("%s and %s", [a, b], placeholder="%s"),
                               [np.array([True, False]), np.array(-5, np.int32)], None),
    "str_format_strings": (lambda tf, a: tf.strings.format("s={}", a), [CSV], None),
    "str_format_scalar_string": (lambda tf, a: tf.strings.format("<{}>", a), [_s("hi")[0]], None),
    "str_format_floats": (lambda tf, a: tf.strings.format("{}", a),
                          [np.array([1.5, -0.25, 3.0, 1e-3], np.float32)], None),
    # tf.strings.split (ragged results as flat values + row splits)
    "str_split_whitespace": (lambda tf, a: _parts(tf.strings.split(a)), [WORDS], None),
    "str_split_sep": (lambda tf, a: _parts(tf.strings.split(a, sep=",")), [CSV], None),
    "str_split_maxsplit": (lambda tf, a: _parts(tf.strings.split(a, sep=",", maxsplit=1)), [CSV], None),
    "str_split_ws_maxsplit": (lambda tf, a: _parts(tf.strings.split(a, maxsplit=1)), [WORDS], None),
    "str_split_multichar_sep": (lambda tf, a: _parts(tf.strings.split(a, sep="<>")),
                                [_s("a<>b<><>c", "<>", "no sep")], None),
    "str_split_scalar": (lambda tf, a: tf.strings.split(a, sep=" "), [_s("x y  z")[0]], None),
    "str_split_2d": (lambda tf, a: (lambda r: (r.flat_values, r.values.row_splits, r.row_splits))(
        tf.strings.split(a, sep="b")), [_s(["abc", "b", "xbybz"], ["", "bb", "q"])], None),
    "str_bytes_split_2d": (lambda tf, a: (lambda r: (r.flat_values, r.values.row_splits, r.row_splits))(
        tf.strings.bytes_split(a)), [GRID], None),
    # join / reduce_join
    "str_join": (lambda tf, a, b: tf.strings.join([a, b], separator="-"), [GRID, _s(["1", "2", "3"],
                                                                                   ["4", "5", "6"])], None),
    "str_join_broadcast": (lambda tf, a: tf.strings.join(["<", a, ">"]), [CSV], None),
    "str_reduce_join_all": (lambda tf, a: tf.strings.reduce_join(a), [GRID], None),
    "str_reduce_join_axis0": (lambda tf, a: tf.strings.reduce_join(a, axis=0, separator="|"), [GRID], None),
    "str_reduce_join_axis_last_keep": (lambda tf, a: tf.strings.reduce_join(a, axis=-1, keepdims=True,
                                                                            separator=", "), [GRID], None),
    "str_reduce_join_axes_01": (lambda tf, a: tf.strings.reduce_join(a, axis=[0, 1]), [GRID], None),
    "str_reduce_join_axes_10": (lambda tf, a: tf.strings.reduce_join(a, axis=[1, 0]), [GRID], None),
    # case, strip, substr
    "str_upper_lower": (lambda tf, a: (tf.strings.upper(a), tf.strings.lower(a)), [MIXED], None),
    "str_strip": (lambda tf, a: tf.strings.strip(a), [MIXED], None),
    "str_substr": (lambda tf, a: tf.strings.substr(a, 1, 3), [_s("hello", "ab", "x", "")[:3]], None),
    "str_substr_negative_pos": (lambda tf, a: tf.strings.substr(a, -3, 2), [_s("hello", "abc")], None),
    "str_substr_vector_pos": (lambda tf, a, p, n: tf.strings.substr(a, p, n),
                              [_s("hello", "world", "abc"), np.array([0, 2, 3], np.int32),
                               np.array([2, 10, 1], np.int32)], None),
    "str_substr_utf8": (lambda tf, a: tf.strings.substr(a, 1, 2, unit="UTF8_CHAR"), [UTF8], None),
    # regular expressions
    "str_regex_full_match": (lambda tf, a: tf.strings.regex_full_match(a, r"[a-z]+\d*"),
                             [_s("abc", "abc12", "Abc", "abc x", "")], None),
    "str_regex_replace": (lambda tf, a: tf.strings.regex_replace(a, r"\s+", " "), [WORDS], None),
    "str_regex_replace_first": (lambda tf, a: tf.strings.regex_replace(a, "o", "0", replace_global=False),
                                [_s("foo boo", "xyz")], None),
    "str_regex_replace_groups": (lambda tf, a: tf.strings.regex_replace(a, r"(\w+)@(\w+)", r"\2 at \1"),
                                 [_s("me@home", "a@b c@d", "none")], None),
    "str_regex_replace_whole": (lambda tf, a: tf.strings.regex_replace(a, r"\d+", r"<\0>"),
                                [_s("a1b22", "333")], None),
    # bytes_split, hashing
    "str_bytes_split": (lambda tf, a: _parts(tf.strings.bytes_split(a)), [_s("abc", "", "hé")], None),
    "str_to_hash_bucket_fast": (lambda tf, a: tf.strings.to_hash_bucket_fast(a, 1000), [WORDS], None),
    "str_to_hash_bucket": (lambda tf, a: tf.strings.to_hash_bucket(a, 2**62), [HASHED], None),
    "str_to_hash_bucket_strong": (lambda tf, a: tf.strings.to_hash_bucket_strong(a, 2**62, [12345, -7]),
                                  [HASHED], None),
    # Unicode
    "str_unicode_decode": (lambda tf, a: _parts(tf.strings.unicode_decode(a, "UTF-8")), [UTF8[0]], None),
    "str_unicode_decode_invalid": (lambda tf, a: _parts(tf.strings.unicode_decode(a, "UTF-8")), [BAD_UTF8], None),
    "str_unicode_decode_ignore": (lambda tf, a: _parts(tf.strings.unicode_decode(a, "UTF-8", errors="ignore")),
                                  [BAD_UTF8], None),
    "str_unicode_decode_control": (lambda tf, a: _parts(tf.strings.unicode_decode(
        a, "UTF-8", replacement_char=63, replace_control_characters=True)), [_s("a\x01b\tc", "\x1f")], None),
    "str_unicode_decode_scalar": (lambda tf, a: tf.strings.unicode_decode(a, "UTF-8"), [UTF8[1, 0]], None),
    "str_unicode_decode_with_offsets": (lambda tf, a: _parts(tf.strings.unicode_decode_with_offsets(a, "UTF-8")[1]),
                                        [BAD_UTF8], None),
    "str_unicode_split": (lambda tf, a: _parts(tf.strings.unicode_split(a, "UTF-8")), [BAD_UTF8], None),
    "str_unicode_split_offsets": (lambda tf, a: _parts(tf.strings.unicode_split_with_offsets(a, "UTF-8")[1]),
                                  [UTF8[0]], None),
    "str_unicode_decode_2d": (lambda tf, a: (lambda r: (r.flat_values, r.values.row_splits, r.row_splits))(
        tf.strings.unicode_decode(a, "UTF-8")), [UTF8], None),
    "str_unicode_transcode_utf16": (lambda tf, a: tf.strings.unicode_transcode(a, "UTF-8", "UTF-16-BE"),
                                    [BAD_UTF8], None),
    "str_unicode_transcode_control": (lambda tf, a: tf.strings.unicode_transcode(
        a, "UTF-8", "UTF-8", replacement_char=42, replace_control_characters=True), [_s(["a\x01b", "\x1f"])], None),
    "str_unsorted_segment_join": (lambda tf, a, i: tf.strings.unsorted_segment_join(a, i, 4, separator=":"),
                                  [_s("a", "b", "c", "d", "e"), np.array([2, 0, 2, 3, 2], np.int32)], None),
    "str_unsorted_segment_join_2d": (lambda tf, a, i: tf.strings.unsorted_segment_join(a, i, 2),
                                     [GRID, np.array([1, 1], np.int32)], None),
    "str_ngrams_vector": (lambda tf, a: tf.strings.ngrams(a, 2), [_s("a", "b", "c", "d")], None),
    "str_ngrams_matrix": (lambda tf, a: tf.strings.ngrams(a, [1, 2], separator="_"), [GRID], None),
    "str_ngrams_ragged_pad": (lambda tf, v, s: _parts(tf.strings.ngrams(tf.RaggedTensor.from_row_splits(v, s), [1, 3],
                                                                        pad_values=("<", ">"))),
                              [_s("a", "b", "c", "d"), np.array([0, 3, 3, 4], np.int64)], None),
    "str_ngrams_pad_width": (lambda tf, v, s: _parts(tf.strings.ngrams(tf.RaggedTensor.from_row_splits(v, s), 3,
                                                                       pad_values="#", padding_width=1)),
                             [_s("a", "b", "c", "d"), np.array([0, 3, 4], np.int64)], None),
    "str_ngrams_preserve_short": (lambda tf, v, s: _parts(tf.strings.ngrams(
        tf.RaggedTensor.from_row_splits(v, s), 3, preserve_short_sequences=True)),
        [_s("a", "b", "c", "d", "e", "f"), np.array([0, 1, 3, 3, 6], np.int64)], None),
    "str_ngrams_preserve_short_pad": (lambda tf, v, s: _parts(tf.strings.ngrams(
        tf.RaggedTensor.from_row_splits(v, s), 4, pad_values="$", padding_width=1, preserve_short_sequences=True)),
        [_s("a", "b", "c", "d", "e", "f"), np.array([0, 1, 3, 3, 6], np.int64)], None),
    "str_unicode_encode": (lambda tf, a: tf.strings.unicode_encode(a, "UTF-8"), [CODES], None),
    "str_unicode_encode_vector_utf16": (lambda tf, a: tf.strings.unicode_encode(a, "UTF-16-BE"),
                                        [np.array([104, 0x65E5, 0x1F600], np.int32)], None),
    "str_unicode_encode_ignore": (lambda tf, a: tf.strings.unicode_encode(a, "UTF-8", errors="ignore"),
                                  [CODES], None),
    "str_unicode_encode_ragged": (lambda tf, v, s: tf.strings.unicode_encode(
        tf.RaggedTensor.from_row_splits(v, s), "UTF-8", replacement_char=63),
        [np.array([72, 105, 0x110000, 0x4E16, 33], np.int32), np.array([0, 2, 2, 5], np.int64)], None),
}
