"""Pure numpy kernels (no IR): elementwise, conversions, structural, contraction, reduction, rng."""
