"""NVPTX as an LLVM target through llvmlite: target machines per SM
architecture, the data layout, libdevice discovery and `ptxas` validation."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import llvmlite.binding as llvm

TRIPLE = "nvptx64-nvidia-cuda"
DEFAULT_ARCH = "sm_80"
ARCHS = ("sm_80", "sm_86", "sm_89", "sm_90")


class GpuToolchainError(RuntimeError):
    """A part of the NVPTX toolchain (libdevice, ptxas) is missing or failed."""


@cache
def _init() -> None:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


def target_machine(arch: str = DEFAULT_ARCH, opt: int = 3) -> llvm.TargetMachine:
    """A fresh NVPTX TargetMachine for `arch` (e.g. "sm_90")."""
    if not arch.startswith("sm_"):
        raise ValueError(f"GPU architecture must look like 'sm_90', got '{arch}'")
    _init()
    return llvm.Target.from_triple(TRIPLE).create_target_machine(cpu=arch, opt=opt)


@cache
def data_layout() -> str:
    return str(target_machine(DEFAULT_ARCH).target_data)


def _libdevice_candidates() -> list[Path]:
    out: list[Path] = []
    if os.environ.get("MINIXLA_LIBDEVICE"):
        out.append(Path(os.environ["MINIXLA_LIBDEVICE"]))
    roots = [os.environ.get(v) for v in ("CUDA_HOME", "CUDA_PATH")]
    for tool in ("nvcc", "ptxas"):
        exe = shutil.which(tool)
        if exe:
            roots.append(str(Path(os.path.realpath(exe)).parent.parent))
    roots += ["/usr/local/cuda", *sorted(str(p) for p in Path("/usr/local").glob("cuda-*"))]
    for root in filter(None, roots):
        out.append(Path(root) / "nvvm" / "libdevice" / "libdevice.10.bc")
    try:  # pip's nvidia-cuda-nvcc wheels
        import nvidia.cuda_nvcc as wheel  # type: ignore[import-not-found]

        out.append(Path(wheel.__path__[0]) / "nvvm" / "libdevice" / "libdevice.10.bc")
    except ImportError:
        pass
    return out


@cache
def libdevice_path() -> Path | None:
    """libdevice.10.bc ($MINIXLA_LIBDEVICE, $CUDA_HOME, next to nvcc/ptxas, /usr/local/cuda*)."""
    for p in _libdevice_candidates():
        if p.is_file():
            return p
    return None


@cache
def _libdevice_bytes() -> bytes:
    path = libdevice_path()
    if path is None:
        raise GpuToolchainError(
            "the kernels call libdevice math functions (__nv_*) but libdevice.10.bc was not found; "
            "set MINIXLA_LIBDEVICE or CUDA_HOME (it ships with the CUDA toolkit)")
    return path.read_bytes()


def libdevice_module() -> llvm.ModuleRef:
    return llvm.parse_bitcode(_libdevice_bytes())


def ptxas_path() -> str | None:
    return shutil.which("ptxas")


def ptxas(ptx: str, arch: str) -> str:
    """Assemble `ptx` for `arch` with ptxas; raises GpuToolchainError with its
    diagnostics on failure, returns its (possibly empty) stderr otherwise."""
    exe = ptxas_path()
    if exe is None:
        raise GpuToolchainError("ptxas is not on PATH (it ships with the CUDA toolkit)")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "kernel.ptx"
        src.write_text(ptx)
        proc = subprocess.run([exe, f"-arch={arch}", str(src), "-o", str(Path(tmp) / "kernel.cubin")],
                              capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise GpuToolchainError(f"ptxas -arch={arch} rejected the PTX:\n{proc.stderr}")
    return proc.stderr
