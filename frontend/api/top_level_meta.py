"""Top-level `tf.*` names about the program rather than the numbers: where we are (executing_eagerly,
inside_function, get_current_name_scope), what a value is (is_tensor, get_static_value,
type_spec_from_value, TensorSpec), enums (AggregationMethod, VariableAggregation,
VariableSynchronization), DeviceSpec, the TF1-style initializer classes, `tf.nest`, and
`register_tensor_conversion_function` (used by `tf.convert_to_tensor` and every op's inputs)."""

from __future__ import annotations

import enum
import logging
from types import SimpleNamespace

import numpy as np

from minixla.frontend import dtypes
from minixla.frontend.conversions import register_tensor_conversion_function
from minixla.frontend.graph import current_graph
from minixla.frontend.tensor import Tensor
from minixla.frontend.tensor_spec import (IndexedSlicesSpec, NoneTensorSpec, OptionalSpec, TensorArraySpec, TensorSpec,
                                         TypeSpec, type_spec_from_value)

tf = None  # the public `tf` module, set by install()


def executing_eagerly() -> bool:
    return current_graph() is None


def inside_function() -> bool:
    return current_graph() is not None


def is_tensor(x) -> bool:
    """Tensors, variables and the composite tensors (IndexedSlices, SparseTensor, RaggedTensor)."""
    from minixla.frontend.indexed_slices import IndexedSlices
    from minixla.frontend.ragged_tensor import RaggedTensor
    from minixla.frontend.sparse_tensor import SparseTensor

    return isinstance(x, (Tensor, IndexedSlices, SparseTensor, RaggedTensor)) or hasattr(x, "_variable_value")


def is_symbolic_tensor(x) -> bool:
    return isinstance(x, Tensor) and x._graph is not None


def get_static_value(tensor, partial=False):
    """The numpy value of `tensor` if known without running anything (eager, or a traced constant)."""
    if hasattr(tensor, "_variable_value"):
        return None if current_graph() is not None else tensor.numpy()
    if isinstance(tensor, Tensor):
        known = tensor._value if tensor._graph is None else tensor._const
        return None if known is None else np.asarray(known)
    return np.asarray(tensor)


def get_current_name_scope() -> str:
    from minixla.frontend.api.config import current_name_scope

    return current_name_scope().rstrip("/")


def get_logger() -> logging.Logger:
    return logging.getLogger("tensorflow")


class TensorProto:
    """A serialized tensor (TF's protobuf message, without protobuf): dtype, shape and the raw
    little-endian bytes, as `make_tensor_proto` fills them and `make_ndarray` reads them."""

    def __init__(self, dtype: dtypes.DType, shape: list[int], tensor_content: bytes):
        self.dtype, self.tensor_shape, self.tensor_content = dtype, list(shape), tensor_content

    def __repr__(self) -> str:
        return f"TensorProto(dtype={self.dtype!r}, tensor_shape={self.tensor_shape})"


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    arr = np.asarray(values.numpy() if isinstance(values, Tensor) else values)
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.as_dtype(
        np.float32 if arr.dtype == np.float64 and not isinstance(values, np.ndarray) else
        np.int32 if arr.dtype == np.int64 and not isinstance(values, np.ndarray) else arr.dtype)
    arr = arr.astype(dt.np)
    if shape is not None:
        shape = [int(d) for d in shape]
        if verify_shape and list(arr.shape) != shape:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {arr.shape}.")
        if arr.size == 1 or allow_broadcast:
            arr = np.broadcast_to(arr, shape)
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise ValueError(f"Too many elements provided. Takes at most {int(np.prod(shape))}, but got "
                             f"{arr.size}.")
    if dt == dtypes.string:
        raise TypeError("minixla's make_tensor_proto holds numbers only (no string protos)")
    return TensorProto(dt, list(arr.shape), np.ascontiguousarray(arr).astype(dt.np.newbyteorder("<")).tobytes())


def make_ndarray(tensor):
    """The numpy array of a TensorProto (or of an eager tensor)."""
    if isinstance(tensor, TensorProto):
        return np.frombuffer(tensor.tensor_content, tensor.dtype.np.newbyteorder("<")).astype(
            tensor.dtype.np).reshape(tensor.tensor_shape)
    if isinstance(tensor, Tensor) and tensor._graph is None:
        return np.array(tensor._value)
    raise TypeError(f"make_ndarray expects a TensorProto, got {tensor!r}")


def no_gradient(op_type: str) -> None:
    """Declare TF op `op_type` not differentiable: its inputs get no gradient (None), as in TF."""
    from minixla.frontend.ops.registry import GRADIENTS, REGISTRY

    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    if op_type not in REGISTRY:
        raise LookupError(f"minixla has no op named {op_type!r}")
    if op_type in GRADIENTS:
        raise KeyError(f"Registering two gradient with name '{op_type}'! (Previous registration was in minixla)")
    GRADIENTS[op_type] = lambda b, op, *grads: [None] * len(op.inputs)


def guarantee_const(input, name=None):  # noqa: A002 -- TF's argument name
    return tf.identity(input)


def timestamp(name=None):
    """Seconds since the epoch as float64, read on the host when the op runs (not compilable, as in TF)."""
    from minixla.frontend.execute import execute

    return execute("Timestamp", [])


def tuple_(tensors, control_inputs=None, name=None):
    """The tensors, each available only after all of them (and control_inputs) are computed."""
    return [None if t is None else tf.identity(t) for t in tensors]


class AggregationMethod:
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class VariableSynchronization(enum.Enum):
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


class DeviceSpec:
    """`/job:<job>/replica:<r>/task:<t>/device:<TYPE>:<index>`, parsed and printed like TF's."""

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job, self.replica, self.task = job, replica, task
        self.device_type = device_type.upper() if device_type else None
        self.device_index = device_index

    @classmethod
    def from_string(cls, spec: str) -> DeviceSpec:
        out = cls()
        for part in filter(None, spec.split("/")):
            key, _, value = part.partition(":")
            if key == "job":
                out.job = value
            elif key in ("replica", "task"):
                setattr(out, key, int(value))
            elif key == "device":
                kind, _, index = value.partition(":")
                out.device_type, out.device_index = kind.upper(), (None if index in ("", "*") else int(index))
            elif key.upper() in ("CPU", "GPU", "TPU"):
                out.device_type, out.device_index = key.upper(), (None if value in ("", "*") else int(value))
            else:
                raise ValueError(f"Unknown attribute '{key}' is encountered while parsing the device spec: '{spec}'.")
        return out

    def to_string(self) -> str:
        parts = []
        if self.job is not None:
            parts.append(f"/job:{self.job}")
        if self.replica is not None:
            parts.append(f"/replica:{self.replica}")
        if self.task is not None:
            parts.append(f"/task:{self.task}")
        if self.device_type is not None:
            parts.append(f"/device:{self.device_type}:{'*' if self.device_index is None else self.device_index}")
        return "".join(parts)

    def replace(self, **kwargs) -> DeviceSpec:
        fields = dict(job=self.job, replica=self.replica, task=self.task, device_type=self.device_type,
                      device_index=self.device_index)
        fields.update(kwargs)
        return DeviceSpec(**fields)

    def make_merged_spec(self, dev: DeviceSpec) -> DeviceSpec:
        return self.replace(**{k: v for k, v in vars(dev).items() if v is not None})

    def __eq__(self, other) -> bool:
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return hash(self.to_string())

    def __repr__(self) -> str:
        return f"<DeviceSpec '{self.to_string()}'>"


# -- TF2's initializer classes (tf.zeros_initializer()(shape, dtype)) ---------------------------------

class _Initializer:
    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return self._make(list(shape.as_list() if hasattr(shape, "as_list") else shape), dtypes.as_dtype(dtype))

    def get_config(self) -> dict:
        return dict(self._config)


class zeros_initializer(_Initializer):  # noqa: N801 -- TF's names
    _config: dict = {}

    def _make(self, shape, dtype):
        return tf.zeros(shape, dtype)


class ones_initializer(_Initializer):  # noqa: N801
    _config: dict = {}

    def _make(self, shape, dtype):
        return tf.ones(shape, dtype)


class constant_initializer(_Initializer):  # noqa: N801
    def __init__(self, value=0):
        self.value = value
        self._config = {"value": value}

    def _make(self, shape, dtype):
        value = np.asarray(self.value)
        if value.size not in (1, int(np.prod(shape))):
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {self.value} (converted "
                            f"from {self.value}) has {value.size} elements, but got `shape` {tuple(shape)} with "
                            f"{int(np.prod(shape))} elements).")
        return tf.constant(np.broadcast_to(value.reshape(-1) if value.size == 1 else value, shape)
                           if value.size == 1 else value.reshape(shape), dtype)


class random_normal_initializer(_Initializer):  # noqa: N801
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self._config = {"mean": mean, "stddev": stddev, "seed": seed}

    def _make(self, shape, dtype):
        return tf.random.normal(shape, self.mean, self.stddev, dtype, seed=self.seed)


class random_uniform_initializer(_Initializer):  # noqa: N801
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed
        self._config = {"minval": minval, "maxval": maxval, "seed": seed}

    def _make(self, shape, dtype):
        return tf.random.uniform(shape, self.minval, self.maxval, dtype, seed=self.seed)


# -- tf.nest -----------------------------------------------------------------------------------------

def _is_nested(x) -> bool:
    return isinstance(x, (list, tuple, dict))


def nest_flatten(structure, expand_composites=False):
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in nest_flatten(structure[k])]
    if isinstance(structure, (list, tuple)):
        return [leaf for v in structure for leaf in nest_flatten(v)]
    return [structure]


def nest_pack_sequence_as(structure, flat_sequence, expand_composites=False):
    flat = list(flat_sequence)
    if len(flat) != len(nest_flatten(structure)):
        raise ValueError(f"Could not pack sequence. Structure had {len(nest_flatten(structure))} atoms, but "
                         f"flat_sequence had {len(flat)} items.")
    it = iter(flat)

    def build(s):
        if isinstance(s, dict):
            built = {k: build(s[k]) for k in sorted(s)}
            return type(s)((k, built[k]) for k in s)
        if isinstance(s, tuple) and hasattr(s, "_fields"):
            return type(s)(*[build(v) for v in s])
        if isinstance(s, (list, tuple)):
            return type(s)(build(v) for v in s)
        return next(it)

    return build(structure)


def nest_assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    def shape(s):
        if isinstance(s, dict):
            return ("dict", tuple((k, shape(s[k])) for k in sorted(s)))
        if isinstance(s, (list, tuple)):
            return (type(s).__name__ if check_types else "seq", tuple(shape(v) for v in s))
        return "leaf"

    if shape(nest1) != shape(nest2):
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: "
                         f"{nest1}\n\nSecond structure: {nest2}")


def nest_map_structure(func, *structure, **kwargs):
    if not structure:
        raise ValueError("Must provide at least one structure")
    for other in structure[1:]:
        nest_assert_same_structure(structure[0], other, check_types=kwargs.get("check_types", True))
    flats = [nest_flatten(s) for s in structure]
    return nest_pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)])


nest = SimpleNamespace(flatten=nest_flatten, pack_sequence_as=nest_pack_sequence_as, map_structure=nest_map_structure,
                       assert_same_structure=nest_assert_same_structure, is_nested=_is_nested)


def install(tf_module) -> None:
    global tf
    tf = tf_module
    for fn in (executing_eagerly, inside_function, is_tensor, is_symbolic_tensor, get_static_value,
               get_current_name_scope, get_logger, make_ndarray, make_tensor_proto, no_gradient, guarantee_const,
               timestamp,
               register_tensor_conversion_function, type_spec_from_value):
        setattr(tf_module, fn.__name__, fn)
    tf_module.tuple = tuple_
    for cls in (TensorSpec, TypeSpec, IndexedSlicesSpec, NoneTensorSpec, OptionalSpec, TensorArraySpec, AggregationMethod, VariableAggregation, VariableSynchronization, DeviceSpec,
                zeros_initializer, ones_initializer, constant_initializer, random_normal_initializer,
                random_uniform_initializer):
        setattr(tf_module, cls.__name__, cls)
    tf_module.nest = nest
    for name in ("qint8", "quint8", "qint16", "quint16", "qint32", "resource", "variant"):
        setattr(tf_module, name, getattr(dtypes, name))
        if hasattr(tf_module, "dtypes"):
            setattr(tf_module.dtypes, name, getattr(dtypes, name))
    # tf.losses, tf.metrics, tf.optimizers, tf.initializers: tf.keras's, imported on first use (tf.__getattr__)
