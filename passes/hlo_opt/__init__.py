"""hlo-level optimizations (docs/fusion.md): `hlo-algebraic-simplifier`,
`hlo-constant-fold`, `hlo-fusion`. Registered by name in `passes/__init__.py`
and imported lazily, so importing this package stays cheap."""


#: evaluate(op, operand arrays) -> result arrays, or None if it cannot: the numpy semantics of the hlo ops
#: that `hlo-constant-fold` and `hlo-legalize-structural` fold with (the last registered wins); the
#: reference interpreter registers one (backends/interpreter), so these passes depend on no backend
EVALUATORS: list = []
#: functions that register an evaluator, run when one is first needed: `minixla.backends` adds one that
#: imports the interpreter (~60 ms), so a compile with nothing to fold does not import it
EVALUATOR_LOADERS: list = []


def constant_evaluator():
    """The evaluator to fold with (loading a pending one first), or None if there is none."""
    while not EVALUATORS and EVALUATOR_LOADERS:
        EVALUATOR_LOADERS.pop()()
    return EVALUATORS[-1] if EVALUATORS else None
