"""The MLP training step of bench_training.py written in JAX (jit), for the
side-by-side row. It imports neither minixla nor TensorFlow, so it also runs
under another interpreter that has JAX (the `bench` extra, or
`MINIXLA_BENCH_JAX_PYTHON`): prints {"first": s, "step": s} as JSON.

    python benchmarks/jax_training_step.py [--steps 30]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

BATCH, IN, HIDDEN, OUT = 128, 784, 128, 10


def data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.random((BATCH, IN), dtype=np.float32), rng.integers(0, OUT, BATCH).astype(np.int32)


def jax_step_time(x, y, steps: int):
    """(first call seconds, median later call seconds) of the jitted step; needs JAX."""
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    params = [jnp.asarray(rng.uniform(-0.07, 0.07, (IN, HIDDEN)), jnp.float32), jnp.zeros(HIDDEN, jnp.float32),
              jnp.asarray(rng.uniform(-0.2, 0.2, (HIDDEN, OUT)), jnp.float32), jnp.zeros(OUT, jnp.float32)]
    state = ([jnp.zeros_like(p) for p in params], [jnp.zeros_like(p) for p in params], jnp.float32(0))

    def loss_fn(ps, xb, yb):
        h = jax.nn.relu(xb @ ps[0] + ps[1])
        logits = h @ ps[2] + ps[3]
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), yb[:, None], 1))

    @jax.jit
    def step(ps, st, xb, yb):
        loss, gs = jax.value_and_grad(loss_fn)(ps, xb, yb)
        m, v, t = st
        t = t + 1
        m = [mi + (g - mi) * 0.1 for mi, g in zip(m, gs)]
        v = [vi + (g * g - vi) * 0.001 for vi, g in zip(v, gs)]
        alpha = 1e-3 * jnp.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        ps = [p - alpha * mi / (jnp.sqrt(vi) + 1e-7) for p, mi, vi in zip(ps, m, v)]
        return ps, (m, v, t), loss

    t0 = time.perf_counter()
    params, state, loss = step(params, state, x, y)
    loss.block_until_ready()
    first = time.perf_counter() - t0
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        params, state, loss = step(params, state, x, y)
        loss.block_until_ready()
        times.append(time.perf_counter() - t0)
    return first, float(np.median(times))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=30)
    first, step = jax_step_time(*data(), ap.parse_args().steps)
    print(json.dumps({"first": first, "step": step}))
