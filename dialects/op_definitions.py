"""Op definitions of xDSL's and our dialects built on first use; the definitions equal xDSL's.

`@irdl_op_definition` builds each op class's `OpDef` when the class is defined: it walks the class's
MRO for its field definitions, converts each field's constraint (`irdl_to_attr_constraint`,
`RangeOf(...).of_length(1)`, `AnyOf`...), and makes the accessors. Building the arith, linalg, memref,
math, scf and tensor dialects (~160 op classes) costs ~24 ms CPU of every first compile, ~11 ms of it
in `irdl_op_definition`, yet a compile meets a few dozen of those ops (docs/compile-time.md, "Session
10: building xDSL's dialects").

`install()` (run once when `minixla.dialects` is imported) replaces `irdl_op_definition`. For op
classes defined in `xdsl.dialects.*` or `minixla.dialects.*` it walks the MRO when the class is
defined (with xDSL's checks, in xDSL's order) and sets every class attribute xDSL sets (accessors,
`traits`, `verify_`, `get_irdl_definition`, the format's `parse`/`print`, see `lazy_formats`), all
from the field structure; the constraints and the `OpDef` itself are built, from the fields recorded
at definition time, by the first `get_irdl_definition()` (an op's construction, verification, parse
or print asks it). A malformed constraint therefore fails at first use there (the test builds every
definition). Op classes defined anywhere else keep xDSL's eager definition (with the faster MRO walk
below, which yields the same `OpDef`).

Anything out of the ordinary is left to xDSL's own `irdl_op_definition` / `OpDef.from_pyrdl`, so that
errors and rare forms stay exactly xDSL's: a generic op class (`Generic` specialisation), an
annotation or a name that xDSL rejects, a malformed field (any exception). The walk itself keeps the
classification of a base class's names (what does not depend on the subclass) while the class's
namespace is unchanged. tests/dialects/test_op_definitions.py compares every op definition of the
dialects minixla loads with xDSL's unpatched ones (built in a subprocess without this module).

`install()` also memoizes `AnyOf.get` (`_any_of_get`): the same constraint unions are built over and
over while those dialects' classes are defined.
"""

from __future__ import annotations

import threading
from types import FunctionType, MethodType
from typing import Generic

import xdsl.irdl
from xdsl.ir import Operation
from xdsl.irdl import operations as _ops
from xdsl.irdl.attributes import irdl_list_to_attr_constraint, irdl_to_attr_constraint
from xdsl.irdl.constraints import AnyOf, RangeConstraint, RangeOf
from xdsl.utils.classvar import is_const_classvar
from xdsl.utils.exceptions import PyRDLOpDefinitionError
from xdsl.utils.hints import PropertyType

ORIGINAL_FROM_PYRDL = _ops.OpDef.__dict__["from_pyrdl"].__func__
ORIGINAL_DEFINITION = _ops.irdl_op_definition
_SCOPE = ("xdsl.dialects.", "minixla.dialects.")
#: op classes that went to xDSL's own code (tests check that those of minixla's dialects do not)
FALLBACKS: list[type] = []
#: op classes whose OpDef is built on first use (for tests and `build_all`)
DEFERRED: list[type] = []

_OPERATION_MRO = frozenset(Operation.mro())
_SKIPPED = frozenset(("name", "assembly_format", "custom_directives")) | _ops._OPERATION_DICT_KEYS  # noqa: SLF001
_METHODS = (FunctionType, PropertyType, classmethod, staticmethod)
_Unusual = type("_Unusual", (Exception,), {})
_lock = threading.RLock()


def _own_fields(cls: type) -> list[tuple[str, object]]:
    """The names of `cls`'s namespace that xDSL's loop looks at whatever the subclass, in order (after
    its unconditional skips: Operation's names, dunders, methods, upper-case ClassVars). Raises where
    xDSL would raise or do something this module leaves to it."""
    clsdict = cls.__dict__
    annotations = cls.__annotations__
    for field_name in annotations:
        if field_name not in clsdict and not is_const_classvar(
                field_name, annotations[field_name], PyRDLOpDefinitionError):
            raise _Unusual(field_name)
    fields = []
    for field_name, value in clsdict.items():
        if field_name in _SKIPPED:
            continue
        if field_name in annotations and is_const_classvar(field_name, annotations[field_name],
                                                           PyRDLOpDefinitionError):
            continue
        if field_name == "irdl_options":  # (xDSL's `isa(value, tuple[IRDLOption, ...])`)
            if not isinstance(value, tuple) or not all(isinstance(o, _ops.IRDLOption) for o in value):
                raise _Unusual(field_name)
            fields.append((field_name, value))
            continue
        if field_name == "traits":
            if not isinstance(value, _ops.OpTraits):
                raise _Unusual(field_name)
            fields.append((field_name, value))
            continue
        if field_name[:2] == "__" and field_name[-2:] == "__":
            continue
        if isinstance(value, _METHODS):
            continue
        if not isinstance(value, _ops._OpDefField):  # noqa: SLF001
            raise _Unusual(field_name)
        fields.append((field_name, value))
    return fields


#: base class -> (its namespace's items when classified, the classification)
_classified: dict[type, tuple[tuple, list[tuple[str, object]]]] = {}


def _fields(cls: type, first: bool) -> list[tuple[str, object]]:
    if first:  # the op class itself: its namespace changes once defined (accessors)
        return _own_fields(cls)
    known = _classified.get(cls)
    if known is not None:
        items = tuple(cls.__dict__.items())
        if len(known[0]) == len(items) and all(a[0] is b[0] and a[1] is b[1] for a, b in zip(known[0], items)):
            return known[1]
    fields = _own_fields(cls)  # (its first `__annotations__` may add an empty dict to the namespace)
    _classified[cls] = (tuple(cls.__dict__.items()), fields)
    return fields


class _Recipe:
    """What `OpDef.from_pyrdl` reads from an op class when it is defined, in its order."""

    __slots__ = ("name", "steps", "traits_defs", "assembly_format", "custom_directives")

    def __init__(self, pyrdl_def: type) -> None:
        if issubclass(pyrdl_def, Generic):
            raise _Unusual("Generic")
        self.name = pyrdl_def.name
        self.steps: list[tuple[str, object]] = []  # (field name or "irdl_options", field value)
        self.traits_defs: list = []
        field_names: set[str] = set()
        first = True
        for parent_cls in pyrdl_def.mro():
            if parent_cls is Generic or parent_cls in _OPERATION_MRO:
                first = False
                continue
            for field_name, value in _fields(parent_cls, first):
                if field_name in field_names:
                    continue
                if field_name == "traits":
                    self.traits_defs.append(value)
                    continue
                if field_name != "irdl_options":
                    field_names.add(field_name)
                    if (isinstance(value, _ops._ResultFieldDef | _ops._OperandFieldDef)  # noqa: SLF001
                            and not issubclass(value.cls, _ops.VariadicDef)
                            and isinstance(value.param, RangeConstraint)):
                        raise _Unusual(field_name)  # (xDSL's TypeError)
                self.steps.append((field_name, value))
            first = False
        self.assembly_format = pyrdl_def.assembly_format
        self.custom_directives = {directive.__name__: directive for directive in pyrdl_def.custom_directives}
        if self.assembly_format is not None and (
                pyrdl_def.print != Operation.print
                or not isinstance(pyrdl_def.parse, MethodType)
                or pyrdl_def.parse.__func__ != Operation.parse.__func__):
            raise _Unusual("assembly_format")

    def traits(self):
        traits_defs = self.traits_defs
        if not traits_defs:
            return _ops.traits_def()
        if len(traits_defs) == 1:
            return traits_defs[0]
        return _ops.OpTraits(lambda: tuple(trait for traits in traits_defs for trait in traits.gen_traits()))

    def build(self, shape_only: bool = False) -> _ops.OpDef:
        """The OpDef (with `shape_only`, a `_Shape`: enough for xDSL's accessors)."""
        single, ranged, attr = (_shape, _shape, _shape) if shape_only else (_single, _ranged, _attr_or_prop)
        op_def = _Shape(self.name) if shape_only else _ops.OpDef(self.name)
        for field_name, value in self.steps:
            if field_name == "irdl_options":
                _add_options(op_def, value)
            elif isinstance(value, _ops._ResultFieldDef):  # noqa: SLF001
                new = ranged if issubclass(value.cls, _ops.VariadicDef) else single
                op_def.results.append((field_name, new(value.cls, value.param)))
            elif isinstance(value, _ops._OperandFieldDef):  # noqa: SLF001
                new = ranged if issubclass(value.cls, _ops.VariadicDef) else single
                op_def.operands.append((field_name, new(value.cls, value.param)))
            elif isinstance(value, _ops._AttributeFieldDef):  # noqa: SLF001
                ir_name = field_name if value.ir_name is None else value.ir_name
                op_def.attributes[ir_name] = attr(value.cls, value.param, value.default_value)
                op_def.accessor_names[field_name] = (ir_name, "attribute")
            elif isinstance(value, _ops._PropertyFieldDef):  # noqa: SLF001
                ir_name = field_name if value.ir_name is None else value.ir_name
                op_def.properties[ir_name] = attr(value.cls, value.param, value.default_value)
                op_def.accessor_names[field_name] = (ir_name, "property")
            elif isinstance(value, _ops._RegionFieldDef):  # noqa: SLF001
                op_def.regions.append((field_name, ranged(value.cls, value.entry_args)))
            elif isinstance(value, _ops._SuccessorFieldDef):  # noqa: SLF001
                op_def.successors.append((field_name, value.cls()))
            else:
                raise _Unusual(field_name)
        op_def.traits = self.traits()
        op_def.assembly_format = self.assembly_format
        op_def.custom_directives = dict(self.custom_directives)
        return op_def


class _Shape:
    """What `get_accessors_from_op_def` reads of an OpDef, without building one (its seven default
    factories are `list[...]()` calls through typing)."""

    __slots__ = ("name", "operands", "results", "properties", "attributes", "regions", "successors", "options",
                 "traits", "accessor_names", "assembly_format", "custom_directives")

    def __init__(self, name: str) -> None:
        self.name = name
        self.operands, self.results, self.regions, self.successors, self.options = [], [], [], [], []
        self.properties, self.attributes, self.accessor_names = {}, {}, {}


def _constraint(pyrdl_constr):
    return irdl_list_to_attr_constraint((pyrdl_constr,), allow_type_var=True)


def _single(cls, param):
    """xDSL's def of a single operand or result (`value.cls(get_constraint(value.param))`)."""
    return cls(_constraint(param))


def _ranged(cls, param):
    """xDSL's def of a variadic operand or result, or a region (`get_range_constraint`)."""
    return cls(param if isinstance(param, RangeConstraint) else RangeOf(_constraint(param)))


def _attr_or_prop(cls, param, default_value):
    return cls(_constraint(param), default_value)


def _shape(cls, param, *default_value):
    """The def's class (and default value) without its constraint: what the accessors look at."""
    d = object.__new__(cls)
    if default_value:
        d.default_value = default_value[0]
    return d


def _add_options(op_def: _ops.OpDef, options: tuple) -> None:
    op_def.options.extend(options)
    for option in options:
        if isinstance(option, _ops.AttrSizedSegments):
            defs = op_def.properties if option.as_property else op_def.attributes
            if option.attribute_name in defs:
                raise _Unusual(option.attribute_name)
            from xdsl.dialects.builtin import DenseArrayBase

            if option.as_property:
                op_def.properties[option.attribute_name] = _ops.PropertyDef(irdl_to_attr_constraint(DenseArrayBase))
            else:
                op_def.attributes[option.attribute_name] = _ops.AttributeDef(irdl_to_attr_constraint(DenseArrayBase))


def from_pyrdl(pyrdl_def: type) -> _ops.OpDef:
    """`OpDef.from_pyrdl`: the recipe above, or xDSL's own code for anything it does not take."""
    try:
        return _Recipe(pyrdl_def).build()
    except Exception:  # noqa: BLE001 -- xDSL's code decides (and raises its own error)
        FALLBACKS.append(pyrdl_def)
        return ORIGINAL_FROM_PYRDL(pyrdl_def)


def irdl_op_definition(cls):
    """xDSL's decorator; for our and xDSL's dialects with the OpDef built on first use."""
    if not getattr(cls, "__module__", "").startswith(_SCOPE) or not issubclass(cls, _ops.IRDLOperation):
        return ORIGINAL_DEFINITION(cls)
    custom_verify = getattr(cls, "verify_", None)
    try:
        recipe = _Recipe(cls)
        shape = recipe.build(shape_only=True)
        new_attrs = _ops.get_accessors_from_op_def(shape, custom_verify)  # (lazy_formats: parse/print)
    except Exception:  # noqa: BLE001 -- xDSL's code decides (and raises its own error)
        FALLBACKS.append(cls)
        return ORIGINAL_DEFINITION(cls)
    traits = new_attrs["traits"]
    built: list[_ops.OpDef] = []

    def definition() -> _ops.OpDef:
        if not built:
            with _lock:
                if not built:
                    op_def = recipe.build()
                    op_def.traits = traits  # the class's own `traits` object, as in xDSL
                    built.append(op_def)
        return built[0]

    @classmethod
    def get_irdl_definition(cls):
        return built[0] if built else definition()

    if custom_verify is not None:
        def verify_(self):
            definition().verify(self)
            custom_verify(self)
    else:
        def verify_(self):
            definition().verify(self)

    new_attrs["get_irdl_definition"] = get_irdl_definition
    new_attrs["verify_"] = verify_
    for k, v in new_attrs.items():
        setattr(cls, k, v)
    DEFERRED.append(cls)
    return cls


def build_all() -> int:
    """Build every deferred definition now (a malformed constraint raises here); returns how many."""
    for cls in DEFERRED:
        cls.get_irdl_definition()
    return len(DEFERRED)


#: `AnyOf.get`'s results by its arguments (`_any_of_get`)
_ANY_OF_MEMO: dict = {}
_ORIGINAL_ANY_OF_GET = AnyOf.__dict__["get"].__func__


def _any_of_get(*attr_constrs):
    """xDSL's `AnyOf.get`, once per distinct argument tuple. Its merge of the alternatives is quadratic
    (`container_of(AnyFloat)` alone compares ~20 float types pairwise, ~0.4 ms), and the dialects a
    compile imports ask for the same unions again and again (48 calls, 20 distinct: ~1.5 ms of a first
    compile). The arguments are frozen constraints (or types) compared by value, and the result, built
    from them alone, is frozen too, so equal arguments may share it; unhashable ones go to xDSL."""
    try:
        return _ANY_OF_MEMO[attr_constrs]
    except TypeError:
        return _ORIGINAL_ANY_OF_GET(*attr_constrs)
    except KeyError:
        result = _ANY_OF_MEMO[attr_constrs] = _ORIGINAL_ANY_OF_GET(*attr_constrs)
        return result


def install() -> None:
    """Use the above for op classes defined from now on (idempotent)."""
    AnyOf.get = staticmethod(_any_of_get)
    _ops.OpDef.from_pyrdl = staticmethod(from_pyrdl)
    _ops.irdl_op_definition = irdl_op_definition
    xdsl.irdl.irdl_op_definition = irdl_op_definition
