"""Digest of the LLVM IR the CPU backend emits for a fixed set of programs: one sha256 per translated
module, in compile order. A compile-time change that must not change the code is checked by running
this in both checkouts and comparing the files (docs/compile-time.md):

    PYTHONHASHSEED=0 PYTHONPATH=. python benchmarks/llvm_ir_digest.py /tmp/after.txt
    cd <baseline> && PYTHONHASHSEED=0 PYTHONPATH=. python <this checkout>/benchmarks/llvm_ir_digest.py /tmp/before.txt
    diff /tmp/before.txt /tmp/after.txt

(the checkout measured is the working directory's, so the script also runs against one without it).

`--assembly` hashes each module's optimized assembly instead of its IR text: that compares the
direct LLVM IR emitter (the default) with the llvm-dialect path (`MINIXLA_DIRECT_LLVM=0`, or a
checkout from before session 9), whose texts differ in names and spelling only.

The programs: the MLP training step, the running example, a conv2d with its kernel gradient, a while
loop with a sort, the 100-op chain, and (unless --no-conformance) every in-scope StableHLO
conformance case on the cpu backend (470 modules, ~20-40 s). PYTHONHASHSEED=0 fixes xDSL's
fast-math flag order in the printed IR.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import runpy
import sys
from pathlib import Path

ROOT = Path.cwd()  # the checkout whose compiler is digested
sys.path.insert(0, str(ROOT))


def _small_programs(tf) -> None:
    import numpy as np

    from benchmarks.bench_training import data, make_step
    from benchmarks.run import chain

    step = make_step(True)
    float(step(*data()))
    rng = np.random.default_rng(0)
    ns = runpy.run_path(str(ROOT / "examples" / "running_example.py"), run_name="digest")
    a, b = (tf.constant(rng.random((64, 64), dtype=np.float32)) for _ in range(2))
    tf.function(ns["running_example"], jit_compile=True)(a, b).numpy()
    x = tf.constant(rng.random((2, 8, 8, 4), dtype=np.float32))
    k = tf.Variable(rng.random((3, 3, 4, 5), dtype=np.float32))

    def conv(x):
        with tf.GradientTape() as tape:
            out = tf.reduce_sum(tf.nn.conv2d(x, k, strides=1, padding="SAME") ** 2)
        return out, tape.gradient(out, k)

    tf.function(conv, jit_compile=True)(x)

    def while_sort(v):
        return tf.while_loop(lambda i, v: i < 5, lambda i, v: (i + 1, tf.sort(v * 1.5 - 1.0)), (tf.constant(0), v))[1]

    tf.function(while_sort, jit_compile=True)(tf.constant(rng.random(17, dtype=np.float32)))
    tf.function(chain, jit_compile=True)(tf.constant(rng.random(16, dtype=np.float32)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="file to write (one sha256 per module)")
    parser.add_argument("--no-conformance", action="store_true", help="only the five programs")
    parser.add_argument("--assembly", action="store_true", help="hash the optimized assembly, not the IR text")
    args = parser.parse_args(argv)
    os.environ["MINIXLA_CACHE_DIR"] = "off"  # every module compiled here, none read from disk
    import minixla.backends.cpu.compiler as compiler
    from minixla.frontend import tf

    texts: list[str] = []
    jit_compile = compiler.jit_compile

    def recording(llvm_ir: str, opt_level: int = 3):
        compiled = jit_compile(llvm_ir, opt_level)
        texts.append(compiled.assembly() if args.assembly else llvm_ir)
        return compiled

    compiler.jit_compile = recording  # what either path hands the JIT
    _small_programs(tf)
    if not args.no_conformance:
        from minixla.tools.conformance import run_conformance

        run = run_conformance("cpu")
        print(f"conformance: {run.passed} of {len(run.results)} passed", file=sys.stderr)
    args.out.write_text("".join(hashlib.sha256(t.encode()).hexdigest() + "\n" for t in texts))
    print(f"{len(texts)} modules -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
