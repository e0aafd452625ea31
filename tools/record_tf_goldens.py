"""Record real TensorFlow's outputs for every op case into tests/golden/.

    python tools/record_tf_goldens.py [--out tests/golden] [--only NAME ...]

Needs `tensorflow` (run it where TF is installed; nothing else in the project
needs it). Each case of `frontend.op_cases.CASES` is a function of a `tf`
module: it is called with the *real* `tensorflow` module on the case's inputs
and `NAME.npz` stores `input_0..input_k` and `output`. The test suite
(tests/test_frontend_ops.py) replays every file eagerly, under tf.function and
under jit_compile=True, without TensorFlow.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "tests", "golden"))
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    try:
        import tensorflow as tf
    except ImportError:
        print("record_tf_goldens: tensorflow is not installed; nothing recorded", file=sys.stderr)
        return 2
    from frontend.op_cases import CASES

    os.makedirs(args.out, exist_ok=True)
    failed = 0
    for name, (fn, inputs, _) in sorted(CASES.items()):
        if args.only and name not in args.only:
            continue
        try:
            out = fn(tf, *[tf.constant(a) for a in inputs])
            arrays = {f"input_{i}": np.asarray(a) for i, a in enumerate(inputs)}
            arrays["output"] = np.asarray(out.numpy())
            np.savez(os.path.join(args.out, f"{name}.npz"), **arrays)
            print(f"recorded {name}: {arrays['output'].dtype}{list(arrays['output'].shape)}")
        except Exception as err:  # noqa: BLE001 -- report and continue with the other cases
            failed += 1
            print(f"FAILED {name}: {type(err).__name__}: {err}", file=sys.stderr)
    print(f"tensorflow {tf.__version__}: {failed} case(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
