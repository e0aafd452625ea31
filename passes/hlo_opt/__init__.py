"""hlo-level optimizations (docs/fusion.md): `hlo-algebraic-simplifier`,
`hlo-constant-fold`, `hlo-fusion`. Registered by name in `passes/__init__.py`
and imported lazily, so importing this package stays cheap."""
