"""`tf.config`, `tf.device` and `tf.name_scope`: what TF programs call around compiled code.

minixla computes on the host CPU (and, with the `gpu` backend, an NVIDIA GPU):
`list_physical_devices` reports what is here; `tf.device` accepts TF's device
strings and places work on the CPU (a GPU request warns once, since placement is
per compiled function in minixla); `run_functions_eagerly(True)` makes every
`tf.function` run its Python body op by op, as in TF. Threading settings are
kept and read back as TF does.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import warnings
from collections import namedtuple
from types import SimpleNamespace

from minixla.frontend.errors import InvalidArgumentError

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = namedtuple("LogicalDevice", ["name", "device_type"])

#: jit: None (TF_XLA_FLAGS decides), True (autoclustering) or False, from tf.config.optimizer.set_jit
_STATE = SimpleNamespace(run_eagerly=False, intra_op=0, inter_op=0, visible=None, soft_placement=True, jit=None,
                         experimental_options={})
_DEVICE = re.compile(r"^(/job:\w+)?(/replica:\d+)?(/task:\d+)?(/device:|/)?((?P<type>[A-Za-z_]+):(?P<index>\d+|\*))?$")
_local = threading.local()


def list_physical_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    devices = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
    return [d for d in devices if device_type is None or d.device_type == device_type.upper()]


def list_logical_devices(device_type: str | None = None) -> list[LogicalDevice]:
    visible = get_visible_devices(device_type)
    return [LogicalDevice(f"/device:{d.device_type}:0", d.device_type) for d in visible]


def get_visible_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    devices = _STATE.visible if _STATE.visible is not None else list_physical_devices()
    return [d for d in devices if device_type is None or d.device_type == device_type.upper()]


def set_visible_devices(devices, device_type: str | None = None) -> None:
    devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    known = list_physical_devices()
    for d in devices:
        if d not in known:
            raise ValueError(f"Unrecognized device: {d!r}")
    if not any(d.device_type == "CPU" for d in devices) and (device_type in (None, "CPU")):
        devices = devices + [known[0]]  # TF keeps the CPU visible
    _STATE.visible = devices


def set_soft_device_placement(enabled: bool) -> None:
    _STATE.soft_placement = bool(enabled)


def get_soft_device_placement() -> bool:
    return _STATE.soft_placement


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Every `tf.function` runs its Python body eagerly (for debugging), as in TF."""
    _STATE.run_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _STATE.run_eagerly


def _set_intra(n: int) -> None:
    _STATE.intra_op = int(n)


def _set_inter(n: int) -> None:
    _STATE.inter_op = int(n)


def _set_memory_growth(device, enable: bool) -> None:
    if device.device_type == "CPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


threading_ns = SimpleNamespace(set_intra_op_parallelism_threads=_set_intra,
                               get_intra_op_parallelism_threads=lambda: _STATE.intra_op,
                               set_inter_op_parallelism_threads=_set_inter,
                               get_inter_op_parallelism_threads=lambda: _STATE.inter_op)
experimental = SimpleNamespace(set_memory_growth=_set_memory_growth, get_memory_growth=lambda device: False,
                               list_physical_devices=list_physical_devices,
                               set_visible_devices=set_visible_devices, get_visible_devices=get_visible_devices)

def set_jit(enabled) -> None:
    """`tf.config.optimizer.set_jit`: True or "autoclustering" clusters the compilable parts of every
    `tf.function` traced from now on (frontend/autoclustering.py); False turns it off."""
    if isinstance(enabled, str):
        if enabled not in ("autoclustering", ""):
            raise ValueError(f"Invalid value for 'enabled' for set_jit: {enabled!r}; expected True, False or "
                             "'autoclustering'")
        enabled = enabled == "autoclustering"
    _STATE.jit = bool(enabled)


def get_jit() -> str:
    """"autoclustering" when it is on (by set_jit or TF_XLA_FLAGS=--tf_xla_auto_jit), else "" (as TF)."""
    return "autoclustering" if autoclustering_enabled() else ""


#: TF's default --tf_xla_min_cluster_size
DEFAULT_MIN_CLUSTER_SIZE = 4


def auto_jit_flag(name: str) -> str | None:
    """The value of TF_XLA_FLAGS' `--name=value` (a bare `--name` reads "true"), or None."""
    m = re.search(rf"--{name}(?:=(\S*))?", os.environ.get("TF_XLA_FLAGS", ""))
    return None if m is None else (m.group(1) if m.group(1) is not None else "true")


def autoclustering_enabled() -> bool:
    """`tf.config.optimizer.set_jit(True | 'autoclustering')`, or `TF_XLA_FLAGS=--tf_xla_auto_jit=1|2`
    (also TF's `single-gpu(2)` spelling); `set_jit(False)` turns the environment's setting off."""
    if _STATE.jit is not None:
        return _STATE.jit
    level = auto_jit_flag("tf_xla_auto_jit")
    return level is not None and (level in ("1", "2") or level.startswith("single-gpu"))


def min_cluster_size() -> int:
    value = auto_jit_flag("tf_xla_min_cluster_size")
    try:
        return DEFAULT_MIN_CLUSTER_SIZE if value is None else max(1, int(value))
    except ValueError:
        raise ValueError(f"--tf_xla_min_cluster_size must be an integer, got {value!r}") from None




def _set_experimental_options(options: dict) -> None:
    _STATE.experimental_options.update(options)


optimizer = SimpleNamespace(set_jit=set_jit, get_jit=get_jit,
                            set_experimental_options=_set_experimental_options,
                            get_experimental_options=lambda: dict(_STATE.experimental_options))

config = SimpleNamespace(optimizer=optimizer, list_physical_devices=list_physical_devices, list_logical_devices=list_logical_devices,
                         get_visible_devices=get_visible_devices, set_visible_devices=set_visible_devices,
                         set_soft_device_placement=set_soft_device_placement,
                         get_soft_device_placement=get_soft_device_placement,
                         run_functions_eagerly=run_functions_eagerly, functions_run_eagerly=functions_run_eagerly,
                         experimental_run_functions_eagerly=run_functions_eagerly,
                         experimental_functions_run_eagerly=functions_run_eagerly,
                         threading=threading_ns, experimental=experimental,
                         PhysicalDevice=PhysicalDevice, LogicalDevice=LogicalDevice)

_warned_gpu = [False]


@contextlib.contextmanager
def device(device_name):
    """`tf.device`: TF's device strings are accepted; work runs on the CPU (a GPU request warns once)."""
    name = "" if device_name is None else str(device_name)
    m = _DEVICE.match(name)
    if m is None:
        raise InvalidArgumentError(f"Failed to parse device name: {name!r}")
    kind = (m.group("type") or "CPU").upper()
    if kind not in ("CPU", "GPU", "TPU", "XLA_CPU", "XLA_GPU"):
        raise InvalidArgumentError(f"Unknown device type {kind!r} in {name!r}")
    if kind != "CPU" and not _warned_gpu[0]:
        _warned_gpu[0] = True
        warnings.warn(f"tf.device({name!r}): minixla places work per compiled function; this code runs on the CPU",
                      stacklevel=3)
    stack = _local.__dict__.setdefault("devices", [])
    stack.append(name)
    try:
        yield name
    finally:
        stack.pop()


class name_scope:  # noqa: N801 -- TF's name
    """`tf.name_scope("block")`: `with ... as scope` gives "block/" (nested: "outer/block/"), as in TF."""

    def __init__(self, name: str):
        if not isinstance(name, str) or not re.match(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$", name or "."):
            raise ValueError(f"'{name}' is not a valid scope name. A scope name has to match the following "
                             "pattern: ^[A-Za-z0-9_.\\\\/>-]*$")
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        stack = _local.__dict__.setdefault("scopes", [])
        parent = stack[-1] if stack else ""
        scope = self._name if self._name.endswith("/") else parent + self._name + "/"  # "x/" resets, as in TF
        stack.append(scope)
        return scope

    def __exit__(self, *exc) -> None:
        _local.scopes.pop()


def current_name_scope() -> str:
    stack = _local.__dict__.get("scopes", [])
    return stack[-1] if stack else ""


__all__ = ["config", "current_name_scope", "device", "functions_run_eagerly", "name_scope"]
