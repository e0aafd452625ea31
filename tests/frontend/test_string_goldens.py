"""tf.strings (frontend/api/strings.py, frontend/ops/string_ops.py) against real TensorFlow 2.21
(tests/golden/strings/, recorded by `record_tf_goldens.py --cases tests/frontend/string_cases.py
--out tests/golden/strings --no-jit`): every case eagerly and in tf.function, exactly. String ops have
no XLA kernel: under jit_compile=True compilation fails naming the op and the line that created it
(TF 2.21 itself aborts the process jit-compiling some of these graphs, hence --no-jit). TF's error
messages for bad input are checked against texts taken from TF 2.21.
"""

from __future__ import annotations

import numpy as np
import pytest

from minixla.frontend import tf
from tests.frontend import golden_replay as replay
from tests.frontend.string_cases import CASES
from tests.frontend.test_goldens import _flat, _inputs, _seq
from tests.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "strings"
TABLE = "tests/frontend/string_cases.py"
NAMES = sorted(CASES)


@pytest.mark.parametrize("mode", ("eager", "function"))
@pytest.mark.parametrize("name", NAMES)
def test_strings_against_tensorflow(name, mode):
    data = replay.load(GOLDEN, name, TABLE)
    fn = CASES[name][0]
    tensors = [tf.constant(a) for a in _inputs(data)]
    got = _flat(fn(tf, *tensors) if mode == "eager" else tf.function(lambda *a: fn(tf, *a))(*tensors))
    want, _ = _seq(data, "output")
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.dtype.name == ("string" if w.dtype.kind == "S" else w.dtype.name), (name, k, g.dtype)
        g = np.asarray(g.numpy(), dtype=object if w.dtype.kind == "S" else None)  # a scalar string is bytes
        np.testing.assert_array_equal(g.astype(w.dtype) if w.dtype.kind == "S" else g, w, err_msg=f"{name} {k}")
        assert g.shape == w.shape and g.dtype == (object if w.dtype.kind == "S" else w.dtype), (g.shape, w.shape)


def test_jit_compile_names_the_unsupported_op_and_its_line():
    def f(x):
        return tf.strings.length(x) + 1  # the StringLength line

    line = f.__code__.co_firstlineno + 1
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.function(f, jit_compile=True)(tf.constant(["ab", "c"]))
    text = str(info.value)
    assert "Detected unsupported operations" in text and "No registered 'StringLength' OpKernel" in text, text
    assert f"line {line}" in text and __file__ in text, text


def test_ragged_split_in_tf_function_is_a_ragged_tensor():
    out = tf.function(lambda x: tf.strings.split(x, sep=","))(tf.constant(["a,b", "", "c"]))
    assert isinstance(out, tf.RaggedTensor)
    assert out.to_list() == [[b"a", b"b"], [b""], [b"c"]]


@pytest.mark.parametrize("text, out_type", [("abc", tf.float32), ("1.5", tf.int32), ("2147483648", tf.int32),
                                            ("1 2", tf.float64), ("", tf.int64), ("0x10", tf.int32)])
def test_to_number_rejects_what_tensorflow_rejects(text, out_type):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=f"StringToNumberOp could not correctly convert string: {text}$"):
        tf.strings.to_number(tf.constant([text]), out_type=out_type)


def test_substr_position_out_of_range_is_tensorflow_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"pos 7 out of range for string b'hello' at index 1"):
        tf.strings.substr(tf.constant(["abcdefghij", "hello"]), 7, 2)


def test_format_with_wrong_number_of_inputs_is_value_error():
    with pytest.raises(ValueError, match="The template expects 2 tensors"):
        tf.strings.format("{} {}", [tf.constant(1)])


def test_invalid_regex_is_tensorflow_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid pattern"):
        tf.strings.regex_full_match(tf.constant(["a"]), "(unclosed")


def test_jit_compile_of_a_ragged_split_names_the_split_op():
    def f(x):
        return tf.strings.split(x).flat_values

    with pytest.raises(tf.errors.InvalidArgumentError, match="No registered 'StringSplitV2' OpKernel"):
        tf.function(f, jit_compile=True)(tf.constant(["a b"]))


@pytest.mark.parametrize("call, message", [
    (lambda: tf.strings.unicode_decode(tf.constant([b"a\xff"]), "UTF-8", errors="strict"),
     "Invalid formatting on input string"),
    (lambda: tf.strings.unicode_encode(tf.constant([0x110000]), "UTF-8", errors="strict"),
     r"Code point is out of range for Unicode, or is a surrogate\."),
    (lambda: tf.strings.unsorted_segment_join(tf.constant(["a", "b"]), [0, 5], 2),
     "segment_ids are not allowed to exceed num_segments or to have negative values"),
    (lambda: tf.strings.length(tf.constant(["a"]), unit="X"),
     "Value for attr 'unit' of \"X\" is not in the list of allowed values"),
    (lambda: tf.strings.to_hash_bucket_fast(tf.constant(["a"]), 0),
     "Value for attr 'num_buckets' of 0 must be at least minimum 1"),
], ids=["decode_strict", "encode_strict", "segment_range", "unit", "num_buckets"])
def test_bad_input_is_tensorflow_error(call, message):
    """Messages as TF 2.21 gives them (checked against real TF when these were written)."""
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()


def test_numpy_bytes_and_str_arrays_are_string_tensors():
    assert tf.constant(np.array([b"a", b"bc"])).dtype == tf.string
    assert tf.constant(np.array(["é"])).numpy().tolist() == ["é".encode()]


def test_string_ops_feed_compiled_ops_in_tf_function():
    """Host string ops and compiled arithmetic in one tf.function (a data-dependent length, retraced never)."""
    f = tf.function(lambda x, y: (tf.strings.to_number(tf.strings.split(x, sep=",").flat_values) * y,
                                  tf.strings.length(x) + 1))
    for texts in (["1,2", "3.5"], ["1,2,4", "-3.5e1"]):
        got, lengths = f(tf.constant(texts), tf.constant(2.0))
        want = np.array([float(v) for t in texts for v in t.split(",")], np.float32) * 2
        np.testing.assert_array_equal(got.numpy(), want)
        np.testing.assert_array_equal(lengths.numpy(), [len(t) + 1 for t in texts])
