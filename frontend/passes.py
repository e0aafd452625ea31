"""The frontend's part of the pass registry: importing it installs the TF op rules that
`tf-legalize-to-hlo` (passes/tf_legalize_to_hlo.py) runs; `PASSES` as a table."""

from __future__ import annotations

from minixla.frontend import legalize  # noqa: F401  (registers the legalizer)
from minixla.passes.tf_legalize_to_hlo import TfLegalizeToHlo

PASSES = {TfLegalizeToHlo.name: TfLegalizeToHlo}
