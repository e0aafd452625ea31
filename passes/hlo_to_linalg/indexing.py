"""gather, scatter, sort, select_and_scatter, rng_bit_generator: not lowered
yet. Planned: gather as a generic over the result reading with
`tensor.extract` at computed, clamped indices; scatter, sort and
select_and_scatter as scf.for loops on tensors with extract/insert (serial
semantics, in place after bufferize). Until then they reach the driver's
"no lowering" diagnostic naming the op and the pass."""
