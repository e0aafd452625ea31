"""`convert-hlo-to-linalg` imports each op family's module when it first meets one of its ops
(passes/hlo_to_linalg/translate.py, `FAMILIES`): the table must name the module that registers each
lowering, or an op would be looked up in the wrong family (and the fallback would miss it)."""

from __future__ import annotations

from minixla.dialects.hlo_ops.base import RAW_OPS
from minixla.passes.hlo_to_linalg import translate

_MNEMONIC = {cls: mnemonic for mnemonic, cls in RAW_OPS.items()}


def _mnemonic(cls) -> str:
    """The mnemonic `hlo.X` and `stablehlo.X` ops of (raw) class `cls` have."""
    return _MNEMONIC.get(cls) or cls.name.partition(".")[2]


def test_every_registered_lowering_is_found_through_the_family_table():
    translate.load_all_families()
    assert len(translate.LOWERINGS) > 50
    wrong = {}
    for cls, fn in translate.LOWERINGS.items():
        mnemonic = _mnemonic(cls)
        family = fn.__module__.rpartition(".")[2]
        listed = translate._FAMILY_OF.get(mnemonic, translate.DEFAULT_FAMILY)
        if listed != family:
            wrong[mnemonic] = (listed, family)
    assert wrong == {}


def test_the_table_names_only_mnemonics_that_its_families_lower():
    translate.load_all_families()
    lowered = {_mnemonic(cls) for cls in translate.LOWERINGS}
    assert {m for names in translate.FAMILIES.values() for m in names} - lowered == set()
