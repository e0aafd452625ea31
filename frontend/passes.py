"""The frontend's passes, for the global pass registry:
`passes.register("tf-legalize-to-hlo", ...)` or `PASSES` as a table."""

from __future__ import annotations

from minixla.frontend.legalize import TfLegalizeToHlo

PASSES = {TfLegalizeToHlo.name: TfLegalizeToHlo}
