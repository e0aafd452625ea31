"""Persistent on-disk cache of native object code (JAX's persistent cache,
XLA's `--xla_persistent_cache_dir`), so a new process does not run LLVM's
optimizer and code generator again for a module it has compiled before.

Key: sha256 of the LLVM IR text, the opt level, the host triple/CPU/features,
the minixla, llvmlite, numpy and Python versions (the trampolines read
ndarray fields) and a hash of the sources that decide the LLVM stage
(jit.py, target.py, runtime.py, parallel_jit.py, this file). Entries are `MAGIC + sha256(payload)
+ payload`; a truncated or corrupted one fails its checksum, is deleted and
rebuilt. Writes go to a temp file in the cache directory and `os.replace` it
into place (atomic, so concurrent processes never see half an entry). After
each write the oldest entries (by mtime, which a hit refreshes) are evicted
until the directory is under its size bound.

Environment: `MINIXLA_CACHE_DIR` moves it (`off` disables; so does
`MINIXLA_DISABLE_CACHE=1`); default `$XDG_CACHE_HOME/minixla` or
`~/.cache/minixla`. `MINIXLA_CACHE_MAX_BYTES` bounds it (default 1 GiB).
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from functools import cache
from pathlib import Path

MAGIC = b"MXOBJ1\n"
DEFAULT_MAX_BYTES = 1 << 30
_SUFFIX = ".o.mx"


def write_atomically(path: Path, data: bytes, prefix: str, suffix: str = "") -> None:
    """`data` to `path` through a temporary file in its folder and a rename, so concurrent readers and
    writers see the old file or the whole new one; the temporary is removed on failure (OSError raised)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class DiskCache:
    """Content-addressed files in one directory, size-bounded with LRU eviction. A write scans the
    directory only when the size it knows of (its last scan plus its own writes) passes the bound:
    scanning on every write cost 0.33 s per compile with 41,000 entries (what slowed the fuzzer from
    8 to 1.5 programs/s); another process's writes are seen at the next scan."""

    def __init__(self, directory: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES):
        self.directory = Path(directory)
        self.max_bytes = max_bytes
        self.hits = self.misses = self.corrupt = 0
        #: the directory's total size as last scanned plus what this process wrote since: a put scans
        #: the directory (every entry's stat) only when this may pass the bound, not on every write
        self._estimate: int | None = None

    def _path(self, key: str) -> Path:
        return self.directory / (key + _SUFFIX)

    def get(self, key: str) -> bytes | None:
        """The payload stored under `key`, or None (missing or corrupted: a corrupted file is removed)."""
        path = self._path(key)
        try:
            blob = path.read_bytes()
        except OSError:
            self.misses += 1
            return None
        head = len(MAGIC) + 32
        payload = blob[head:]
        if len(blob) < head or not blob.startswith(MAGIC) or hashlib.sha256(payload).digest() != blob[len(MAGIC):head]:
            self.corrupt += 1
            self.misses += 1
            try:
                path.unlink()
            except OSError:
                pass
            return None
        try:
            os.utime(path)  # LRU: a hit makes the entry the newest
        except OSError:
            pass
        self.hits += 1
        return payload

    def put(self, key: str, payload: bytes) -> None:
        """Store atomically, then evict down to the bound. Failures (read-only or full disk) are ignored:
        the cache only saves time."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_atomically(self._path(key), MAGIC + hashlib.sha256(payload).digest() + payload, ".tmp-", _SUFFIX)
        except OSError:
            return
        if self._estimate is None:
            self._estimate = self.size()
        else:
            self._estimate += len(MAGIC) + 32 + len(payload)
        if self._estimate > self.max_bytes:
            self.evict()

    def entries(self) -> list[tuple[float, int, Path]]:
        """(mtime, size, path) of each complete entry, oldest first."""
        found = []
        try:
            with os.scandir(self.directory) as it:
                for entry in it:
                    if entry.name.endswith(_SUFFIX) and not entry.name.startswith(".tmp-"):
                        try:
                            st = entry.stat()
                        except OSError:  # evicted by another process meanwhile
                            continue
                        found.append((st.st_mtime, st.st_size, Path(entry.path)))
        except OSError:
            return []
        return sorted(found)

    def size(self) -> int:
        return sum(size for _, size, _ in self.entries())

    def evict(self) -> None:
        """Delete the least recently used entries until the total is at most `max_bytes`."""
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        for _, size, path in entries:
            if total <= self.max_bytes:
                break
            try:
                path.unlink()
            except OSError:
                pass
            total -= size
        self._estimate = total


def cache_directory() -> Path | None:
    """Where the cache lives now (env read on every call), or None when it is disabled."""
    if os.environ.get("MINIXLA_DISABLE_CACHE", "") not in ("", "0"):
        return None
    configured = os.environ.get("MINIXLA_CACHE_DIR")
    if configured is not None:
        return None if configured.strip().lower() in ("", "off", "0", "none") else Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "minixla"


_CACHES: dict[tuple[Path, int], DiskCache] = {}


def active_cache() -> DiskCache | None:
    """The cache for the current environment (one object per directory and bound, so counters persist)."""
    directory = cache_directory()
    if directory is None:
        return None
    try:
        max_bytes = int(os.environ.get("MINIXLA_CACHE_MAX_BYTES", DEFAULT_MAX_BYTES))
    except ValueError:
        raise ValueError("MINIXLA_CACHE_MAX_BYTES must be an integer number of bytes, got "
                         f"{os.environ['MINIXLA_CACHE_MAX_BYTES']!r}") from None
    key = (directory, max_bytes)
    if key not in _CACHES:
        _CACHES[key] = DiskCache(directory, max_bytes)
    return _CACHES[key]


@cache
def compiler_fingerprint() -> str:
    """What besides the IR decides the object code: versions, the LLVM-stage sources, the host CPU."""
    import sys

    import llvmlite
    import numpy

    from minixla import __version__
    from minixla._importing import importing

    with importing():  # (llvmlite, on a first compile with the cache on)
        from minixla.backends.cpu.target import host_target

    h = hashlib.sha256()
    host = host_target()
    for part in (__version__, llvmlite.__version__, numpy.__version__, sys.version, host.triple, host.cpu, host.features):
        h.update(part.encode() + b"\0")
    here = Path(__file__).parent
    for name in ("jit.py", "target.py", "runtime.py", "compile_cache.py", "parallel_jit.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()


def object_key(llvm_ir: str, opt_level: int | str) -> str:
    h = hashlib.sha256(compiler_fingerprint().encode())
    h.update(f"\0O{opt_level}\0".encode())
    h.update(llvm_ir.encode())
    return h.hexdigest()


def _stamps(roots: tuple[Path, ...]) -> list[tuple[str, int, int]]:
    """(path, size, mtime_ns) of every `.py` file under `roots`, sorted: one stat per file (~1 ms for
    the ~300 files of the compiler), where reading and hashing them all costs several."""
    found = []
    pending = list(roots)
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as it:
                for entry in it:
                    if entry.name.endswith(".py") and entry.is_file():
                        st = entry.stat()
                        found.append((str(entry.path), st.st_size, st.st_mtime_ns))
                    elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
        except OSError:  # a folder gone meanwhile: the files found still key
            continue
    return sorted(found)


def _content_hash(roots: tuple[Path, ...], stamps: list[tuple[str, int, int]]) -> str:
    """Hash of the files' paths below their root and contents (~1.6 ms for the compiler's ~170 files)."""
    h = hashlib.sha256()
    prefixes = [str(root) + os.sep for root in roots]
    for path, _, _ in stamps:
        rel = next((path[len(p):] for p in prefixes if path.startswith(p)), path)
        with open(path, "rb") as fh:
            h.update(rel.encode() + b"\0" + fh.read())
    return h.hexdigest()


@cache
def tree_fingerprint(roots: tuple[Path, ...]) -> str:
    """Hash of the contents of every `.py` file under `roots`, memoised under the files' (path, size,
    mtime_ns): a new process stats the files (~0.5 ms) instead of reading and hashing them all (~2-4 ms).
    The memo lives beside the sources' bytecode (a property of the install, so an empty or new cache
    directory still finds it; written when Python may write bytecode) and in the disk cache. An edit
    changes a file's mtime (and mostly its size), so it still changes the result."""
    stamps = _stamps(roots)
    stamp_key = hashlib.sha256(repr(("sources-stamp", MAGIC, [str(r) for r in roots], stamps)).encode()).hexdigest()
    beside = _memo_beside(roots, stamp_key)
    if beside is not None:
        return beside
    disk = active_cache()
    memo = disk.get(stamp_key) if disk is not None else None
    if memo is not None and len(memo) == 64:
        digest = memo.decode()
    else:
        digest = _content_hash(roots, stamps)
        if disk is not None:
            disk.put(stamp_key, digest.encode())
    _remember_beside(roots, stamp_key, digest)
    return digest


def _memo_path(roots: tuple[Path, ...]) -> Path:
    """One file per set of roots in the first root's `__pycache__` (rewritten when stale, so edits leave
    no trail of old memos)."""
    name = hashlib.sha256("\0".join(str(r) for r in roots).encode()).hexdigest()[:16]
    return Path(roots[0]) / "__pycache__" / f"minixla-sources-{name}.txt"


def _memo_beside(roots: tuple[Path, ...], stamp_key: str) -> str | None:
    """The digest memoised beside the bytecode under `stamp_key`, or None (missing, stale, unreadable)."""
    try:
        text = _memo_path(roots).read_text()
    except (OSError, ValueError):
        return None
    key, _, digest = text.partition(" ")
    return digest if key == stamp_key and len(digest) == 64 else None


def _remember_beside(roots: tuple[Path, ...], stamp_key: str, digest: str) -> None:
    """Write the memo atomically, as Python writes bytecode: not under `-B` / PYTHONDONTWRITEBYTECODE, and
    never failing (a read-only install keeps using the disk cache's memo)."""
    import sys

    if sys.dont_write_bytecode or not roots:
        return
    path = _memo_path(roots)
    try:
        path.parent.mkdir(exist_ok=True)
        write_atomically(path, f"{stamp_key} {digest}".encode(), ".tmp-minixla-")
    except OSError:
        return


def compiler_roots() -> tuple[Path, ...]:
    """The source folders of the layers a compile runs: dialects, passes, backends."""
    import minixla.backends
    import minixla.dialects
    import minixla.passes

    return tuple(Path(p.__file__).parent for p in (minixla.dialects, minixla.passes, minixla.backends))


@cache
def sources_fingerprint() -> str:
    """Hash of every source file of the layers a compile runs (dialects, passes, backends) and the
    compiler's versions (with xDSL's and ml_dtypes'): any edit to the compiler invalidates the
    lowered-module entries."""
    import ml_dtypes
    import xdsl

    h = hashlib.sha256(compiler_fingerprint().encode())
    # xDSL's version string reads package metadata (importlib.metadata: ~40 ms); an install or upgrade
    # rewrites its __init__.py, so that file's stat stands for it
    st = os.stat(xdsl.__file__)
    h.update(f"\0xdsl {xdsl.__file__} {st.st_size} {st.st_mtime_ns}\0ml_dtypes {ml_dtypes.__version__}\0".encode())
    h.update(tree_fingerprint(compiler_roots()).encode())
    return h.hexdigest()


def module_key(module, entry: str, opt_level: int, pipelines: str) -> str:
    """Key of a whole backend compile: the input module's structure (ir_digest.py: one walk, no
    printing) and everything that lowers it."""
    from minixla.backends.ir_digest import module_digest
    from minixla.backends.cpu.loop_hints import enabled as loop_hints
    from minixla.backends.cpu.parallel_jit import split_threshold

    h = hashlib.sha256(sources_fingerprint().encode())
    # the stored LLVM IR carries loop hints or not (MINIXLA_LOOP_HINTS), a big function cut in two or not
    h.update(f"\0lowered\0{entry}\0O{opt_level}\0{pipelines}\0hints {loop_hints()} split {split_threshold()}\0"
             .encode())
    structural = h.copy()
    if module_digest(module, structural):
        return structural.hexdigest()
    h.update(b"\0printed\0" + printed(module).encode())
    return h.hexdigest()


def printed(module) -> str:
    """`module` as text: the key of what `ir_digest` cannot walk."""
    from io import StringIO

    from xdsl.printer import Printer

    text = StringIO()
    Printer(stream=text).print_op(module)
    return text.getvalue()


def store_lowered(disk: DiskCache, key: str, compiled_module) -> None:
    """Keep what a later process needs to skip lowering: the LLVM IR, the signatures, the entry kind."""
    store_lowered_parts(disk, key, (compiled_module.llvm_ir, compiled_module.signatures, compiled_module.by_object))


def store_lowered_parts(disk: DiskCache, key: str, parts: tuple) -> None:
    """`store_lowered` from the (llvm_ir, signatures, by_object) that `load_lowered` returns."""
    import pickle

    disk.put(key, pickle.dumps(tuple(parts), protocol=pickle.HIGHEST_PROTOCOL))


def load_lowered(disk: DiskCache, key: str):
    """(llvm_ir, signatures, by_object) stored under `key`, or None (an unreadable entry counts as corrupt)."""
    import pickle

    payload = disk.get(key)
    if payload is None:
        return None
    try:
        llvm_ir, signatures, by_object = pickle.loads(payload)
    except Exception:  # noqa: BLE001 -- checksum passed but the content is not ours: rebuild it
        disk.corrupt += 1
        return None
    return llvm_ir, signatures, by_object


def kernel_key(text: str, codegen_level: int = 3) -> str:
    """The cache key of runtime kernel `text` (no IR optimizer) compiled at `codegen_level`."""
    return object_key(text, 0 if codegen_level == 3 else f"0-codegen{codegen_level}")


def cache_object_code(engine, text: str, codegen_level: int = 3) -> None:
    """The object code of a runtime kernel compiled from fixed IR `text` (the gemm, the thread pool) comes
    from (or goes to) the persistent compile cache, as a JIT-compiled module's does: the gemm's code
    generation is ~0.1 s of every new process's first gemm-using compile."""
    disk = active_cache()
    if disk is None:
        return
    key = kernel_key(text, codegen_level)
    cached = disk.get(key)
    engine.set_object_cache(None if cached is not None else (lambda _m, data: disk.put(key, bytes(data))),
                            lambda _m: cached)


def cached_object(text: str, opt_level: int = 0) -> bytes | None:
    """The object code stored for IR `text` at `opt_level`, or None (cache off, or not stored)."""
    disk = active_cache()
    return None if disk is None else disk.get(object_key(text, opt_level))


#: a payload of several objects (parallel_jit.py): this, their count, each one's length, the objects
MULTI_MAGIC = b"MXOBJS\n"


def pack_objects(objects: list[bytes]) -> bytes:
    """One cache payload holding several objects (the two halves of a module compiled side by side)."""
    return b"".join([MULTI_MAGIC, struct.pack("<I", len(objects)), *(struct.pack("<Q", len(o)) for o in objects),
                     *objects])


def unpack_objects(payload: bytes) -> list[bytes]:
    """The objects of `payload`: one for a plain object file, several for a `pack_objects` one
    (ValueError when its layout does not add up)."""
    if not payload.startswith(MULTI_MAGIC):
        return [payload]
    head = len(MULTI_MAGIC)
    try:
        (count,) = struct.unpack_from("<I", payload, head)
        sizes = struct.unpack_from(f"<{count}Q", payload, head + 4)
    except struct.error:
        raise ValueError("truncated object list") from None
    start = head + 4 + 8 * count
    if count < 1 or start + sum(sizes) != len(payload):
        raise ValueError("object list lengths do not add up")
    objects = []
    for size in sizes:
        objects.append(payload[start:start + size])
        start += size
    return objects


def engine_for_objects(objects: list[bytes]):
    """A finalized MCJIT engine linking `objects` (calls between them resolve): a stand-in IR module (as in
    `engine_for_object`) plus each object added."""
    import llvmlite.binding as llvm

    from minixla.backends.cpu.target import create_machine, host_target

    host = host_target()
    module = llvm.parse_assembly(f'target triple = "{host.triple}"\ntarget datalayout = "{host.data_layout}"\n')
    engine = llvm.create_mcjit_compiler(module, create_machine(host.triple, host.cpu, host.features))
    for data in objects:
        engine.add_object_file(llvm.ObjectFileRef.from_data(data))
    engine.finalize_object()
    return engine


def engine_for_object(data: bytes):
    """An MCJIT engine (finalized) holding object code `data` from the cache. Its IR module is an empty
    stand-in: MCJIT takes the object from the cache and never looks at the IR, so nothing is parsed or
    verified (parsing the generated gemm's IR was ~5 ms of a warm first call). The IR must not need
    static constructors (minixla's has none)."""
    import llvmlite.binding as llvm

    from minixla.backends.cpu.target import create_machine, host_target

    host = host_target()
    module = llvm.parse_assembly(f'target triple = "{host.triple}"\ntarget datalayout = "{host.data_layout}"\n')
    engine = llvm.create_mcjit_compiler(module, create_machine(host.triple, host.cpu, host.features))
    engine.set_object_cache(None, lambda _m: data)
    engine.finalize_object()
    return engine


#: IR text of a runtime kernel -> the forked child compiling it (`prefetch_runtime_kernel`)
_BACKGROUND: dict = {}


def prefetch_runtime_kernel(text: str) -> bool:
    """Start compiling runtime kernel `text` (the generated gemm: ~0.13 s of code generation) in a forked
    child, so that its LLVM work runs on the other core while this process runs the compile's Python
    passes; `runtime_kernel_engine` then takes the child's object. In-process background threads could
    not do that: llvmlite serializes LLVM calls, and the JIT of the module itself waited for the gemm.
    Only where parallel_jit.py may fork (never under MPI, `MINIXLA_PARALLEL_JIT=0` turns it off) and a
    core looks idle, and not for a kernel the disk cache holds. True when a child was started."""
    from minixla.backends.cpu import parallel_jit

    if text in _BACKGROUND or not parallel_jit.enabled() or not parallel_jit.core_idle():
        return False
    if cached_object(text) is not None:
        return False
    try:
        _BACKGROUND[text] = parallel_jit.compile_in_background(text)
    except OSError:
        return False
    return True


def _from_background(text: str) -> bytes | None:
    """The object of a kernel `prefetch_runtime_kernel` started, stored in the disk cache; None when none
    was started or its child failed (then a warning, and the caller compiles it here)."""
    child = _BACKGROUND.pop(text, None)
    if child is None:
        return None
    data = child.result(60.0)
    if data is None:
        import warnings

        from minixla.backends.cpu.parallel_jit import ParallelJitWarning

        warnings.warn(f"the child compiling a runtime kernel failed ({child.error}); compiling it in this process "
                      "(MINIXLA_PARALLEL_JIT=0 turns the child off)", ParallelJitWarning, stacklevel=3)
        return None
    disk = active_cache()
    if disk is not None:
        disk.put(object_key(text, 0), data)
    return data


def runtime_kernel_engine(text: str, codegen_level: int = 3):
    """A finalized MCJIT engine for a runtime kernel's fixed IR `text` (the gemm, its wrappers, the thread
    pool): the object code from the disk cache when stored (no parsing nor code generation), or from the
    child `prefetch_runtime_kernel` started, else compiled for the host and stored. `codegen_level` 0
    (LLVM's fast instruction selection and register allocation) is for glue whose speed is the calls it
    makes, not its own instructions: the thread pool's 206 instructions take ~5 ms there, ~20 ms at 3."""
    disk = active_cache()
    stored = None if disk is None else disk.get(kernel_key(text, codegen_level))
    if stored is None and codegen_level == 3:
        stored = _from_background(text)
    if stored is not None:
        return engine_for_object(stored)
    import llvmlite.binding as llvm

    from minixla.backends.cpu.target import create_machine, host_target

    host = host_target()
    module = llvm.parse_assembly(text)
    module.triple = host.triple
    module.verify()
    engine = llvm.create_mcjit_compiler(module, create_machine(host.triple, host.cpu, host.features, opt=codegen_level))
    cache_object_code(engine, text, codegen_level)
    engine.finalize_object()
    return engine
