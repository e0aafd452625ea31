"""Records tests/golden/rng_bit_generator.json: XLA's rng_bit_generator outputs, taken from JAX
(jax.lax.rng_bit_generator under jax.jit on XLA:CPU). The spec leaves the bit layout to the
implementation; these pin XLA's. Run in a JAX environment outside the project (see README.md):

    /tmp/tfvenv/bin/python tests/golden/record_rng_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)

ALGORITHMS = {"THREE_FRY": lax.RandomAlgorithm.RNG_THREE_FRY, "PHILOX": lax.RandomAlgorithm.RNG_PHILOX}
STATES = ([1, 2], [0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFE])  # the second carries into Philox's high word
SHAPES = [(6,), (4, 3), (3, 5), (5,), (), (2, 3, 4), (3, 1, 5), (1, 7)]  # even/odd/no split dimension
DTYPES = ["uint32", "uint64", "uint8", "uint16"]  # JAX takes unsigned outputs only


def main() -> None:
    cases = []
    for alg, algorithm in ALGORITHMS.items():
        for state in STATES:
            for shape in SHAPES:
                for dt in DTYPES:
                    fn = jax.jit(lambda s, shape=shape, dt=dt, a=algorithm:
                                 lax.rng_bit_generator(s, shape, dtype=jnp.dtype(dt), algorithm=a))
                    new_state, out = fn(jnp.array(state, dtype=jnp.uint64))
                    out = np.asarray(out)
                    cases.append({"algorithm": alg, "state": [str(v) for v in state], "shape": list(shape),
                                  "dtype": dt, "new_state": [str(int(v)) for v in np.asarray(new_state)],
                                  "bits": [str(b) for b in out.reshape(-1).tolist()]})
    out = {"recorded_with": f"jax {jax.__version__}, jax.lax.rng_bit_generator under jax.jit on XLA:CPU "
                            "(jax_enable_x64); bits are the output's unsigned bit patterns, row-major",
           "cases": cases}
    Path(__file__).with_name("rng_bit_generator.json").write_text(json.dumps(out, separators=(",", ":")))
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
