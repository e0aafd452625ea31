"""dialects/abc_checks.py: `isinstance` against xDSL's op and attribute classes answered from the MRO
gives ABCMeta's answer, because no class of either hierarchy has virtual subclasses."""

from __future__ import annotations

import abc

from xdsl.ir import Attribute, Block, Operation

from minixla.dialects import abc_checks, load_all
from minixla.dialects.hlo import HLO


def _subclasses(root: type) -> set[type]:
    seen, todo = set(), [root]
    while todo:
        for sub in type.__subclasses__(todo.pop()):
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return seen


def _every_dialect_loaded() -> None:
    ctx = load_all()
    for name in list(ctx.registered_dialect_names):
        ctx.get_optional_dialect(name)


def test_the_hook_is_installed_and_no_class_has_virtual_subclasses():
    _every_dialect_loaded()
    for root in abc_checks.ROOTS:
        assert vars(root)["__subclasshook__"].__func__ is abc_checks._from_mro
        classes = {root} | _subclasses(root)
        assert len(classes) > 100
        assert [c for c in classes if abc._get_dump(c)[0] and c.__module__ != __name__] == []  # noqa: SLF001


def test_answers_match_the_mro():
    _every_dialect_loaded()
    probes = [tuple, list, dict, Block, type(None), int, *list(HLO.operations)[:5], *list(HLO.attributes)[:5]]
    for root in abc_checks.ROOTS:
        for cls in [root, *sorted(_subclasses(root), key=lambda c: c.__qualname__)[:200]]:
            for probe in probes:
                assert issubclass(probe, cls) == (cls in probe.__mro__), (probe, cls)
    add = next(op for op in HLO.operations if op.name == "hlo.add")
    assert issubclass(add, Operation) and not issubclass(add, Attribute) and not isinstance((), Operation)


def test_a_registered_virtual_subclass_is_still_seen():
    class Root(Operation):  # a user's abstract op class with a virtual subclass
        pass

    class Virtual:
        pass

    Root.register(Virtual)
    assert issubclass(Virtual, Root) and isinstance(Virtual(), Root)
    assert not issubclass(Virtual, Attribute)
