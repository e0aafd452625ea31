"""FFT on CPU: minixla's compiled kernel (backends/cpu/fft_codegen.py) vs numpy.fft (pocketfft),
side by side in one process. The issue's bar: 2^20 complex64 points within 3x of numpy.

Each round times every row's runners back to back (interleaved, so a busy shared
machine slows them alike); a figure is the best over rounds of the best of
`--calls` calls, the result array allocated in each call for both. Rows: the
kernel called directly on numpy buffers (`fft_nd`), and, for the 2^20 row,
the same transform as a compiled `hlo.fft` module through the CPU backend
(`CpuBackend`, argument and result copies included) when this checkout can
compile complex programs. Writes benchmarks/results_fft.md.

    PYTHONPATH=. python benchmarks/bench_fft.py [--rounds 5] [--calls 5]
"""

from __future__ import annotations

import argparse
import os
import platform
from pathlib import Path

import numpy as np

from benchmarks.timing import best_time as _best

ROOT = Path(__file__).resolve().parent.parent

#: (label, kind, shape, fft_length, dtype)
ROWS = [
    ("FFT 2^20 complex64", "FFT", (1 << 20,), (1 << 20,), np.complex64),
    ("FFT 2^20 complex128", "FFT", (1 << 20,), (1 << 20,), np.complex128),
    ("FFT 10^6 complex64 (Bluestein)", "FFT", (10**6,), (10**6,), np.complex64),
    ("FFT 1024 x 1024 complex64, rows", "FFT", (1024, 1024), (1024,), np.complex64),
    ("FFT2 1024 x 1024 complex64", "FFT", (1024, 1024), (1024, 1024), np.complex64),
    ("RFFT 2^20 float32", "RFFT", (1 << 20,), (1 << 20,), np.float32),
    ("IRFFT 2^20 float32", "IRFFT", ((1 << 19) + 1,), (1 << 20,), np.complex64),
]


def _numpy(kind: str, length: tuple[int, ...]):
    axes = tuple(range(-len(length), 0))
    return {"FFT": lambda x: np.fft.fftn(x, axes=axes), "IFFT": lambda x: np.fft.ifftn(x, axes=axes),
            "RFFT": lambda x: np.fft.rfftn(x, s=length, axes=axes),
            "IRFFT": lambda x: np.fft.irfftn(x, s=length, axes=axes)}[kind]


def _input(shape, dtype, rng) -> np.ndarray:
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _compiled(x: np.ndarray):
    """The 2^20 FFT as a compiled hlo module, or (None, why) when this checkout cannot compile it."""
    from minixla.backends.cpu.backend import CpuBackend
    from minixla.dialects import load_all
    from minixla.dialects.diagnostics import parse_and_verify

    t = f"tensor<{x.shape[0]}xcomplex<f32>>"
    text = (f"func.func @main(%x: {t}) -> {t} {{\n  %0 = hlo.fft %x, type = FFT, length = [{x.shape[0]}] : "
            f"({t}) -> {t}\n  func.return %0 : {t}\n}}\n")
    try:
        exe = CpuBackend().compile(parse_and_verify(text, "<bench>", load_all()))
        exe(x)
    except Exception as err:  # noqa: BLE001 -- reported in the table instead
        return None, f"{type(err).__name__}: {str(err).splitlines()[0][:120]}"
    return (lambda: exe(x)), None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results_fft.md"))
    args = ap.parse_args()
    from minixla.backends.cpu.fft import fft_nd, kernel_addresses
    from minixla.backends.cpu.target import host_target
    from minixla.backends.cpu.threadpool import get_num_threads

    kernel_addresses()  # compile once, outside the timings
    rng = np.random.default_rng(0)
    inputs = [_input(shape, dt, rng) for _, _, shape, _, dt in ROWS]
    errors = []
    for (_, kind, _, length, _), x in zip(ROWS, inputs):
        want = _numpy(kind, length)(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
        got = fft_nd(x, kind, length)
        errors.append(float(np.abs(got - want).max() / np.abs(want).max()))
    compiled, why_not = _compiled(inputs[0])
    best = {i: [float("inf")] * 3 for i in range(len(ROWS))}
    loads = []
    for _ in range(args.rounds):
        loads.append(os.getloadavg()[0])
        for i, ((_, kind, _, length, _), x) in enumerate(zip(ROWS, inputs)):
            ref = _numpy(kind, length)
            best[i][0] = min(best[i][0], _best(lambda x=x, kind=kind, length=length: fft_nd(x, kind, length),
                                               args.calls))
            best[i][1] = min(best[i][1], _best(lambda x=x, ref=ref: ref(x), args.calls))
            if i == 0 and compiled is not None:
                best[i][2] = min(best[i][2], _best(compiled, args.calls))
    host = host_target()
    lines = [
        "# FFT on CPU: minixla's compiled kernel vs numpy.fft, side by side", "",
        f"Machine: {platform.processor() or platform.machine()} (LLVM: {host.cpu}), {os.cpu_count()} cores; "
        f"Python {platform.python_version()}, numpy {np.__version__}. Written by `benchmarks/bench_fft.py`.", "",
        f"{args.rounds} rounds, runners interleaved in each; a figure is the best over rounds of the best of "
        f"{args.calls} calls (ms), result allocation included. Load averages (1 min) at the rounds: "
        f"{', '.join(f'{v:.2f}' for v in loads)}. numpy.fft runs on one thread; the kernel too for one line "
        f"(the 1-d rows), and splits many lines over minixla's threads ({get_num_threads()} here).", "",
        "| transform | minixla kernel (ms) | numpy.fft (ms) | minixla / numpy | max rel. error vs float64 |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for i, (label, *_rest) in enumerate(ROWS):
        ours, ref, _ = best[i]
        lines.append(f"| {label} | {ours * 1e3:.2f} | {ref * 1e3:.2f} | {ours / ref:.2f}x | {errors[i]:.1e} |")
    lines.append("")
    if compiled is not None:
        lines.append(f"The 2^20 complex64 FFT as a compiled `hlo.fft` module (CpuBackend, copies in and out "
                     f"included): {best[0][2] * 1e3:.2f} ms, {best[0][2] / best[0][1]:.2f}x numpy.")
    else:
        lines.append(f"The compiled `hlo.fft` module row is missing: this checkout cannot compile it ({why_not}).")
    lines.append("")
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
