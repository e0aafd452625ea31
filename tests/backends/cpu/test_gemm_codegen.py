"""minixla's generated gemm (backends/cpu/gemm_codegen.py, gemm_driver.py) against numpy in float64:
both storage orders and all transposes, odd sizes (edge tiles in m and n, k
not a multiple of the unroll, several k blocks), leading dimensions larger
than the matrix, alpha/beta (beta = 0 never reads C, NaN included), k = 0,
alpha = 0, empty products, 1-3 threads, and both kernel shapes (AVX-512 and
AVX2; the AVX2 one runs on any AVX-512 host too). Then the choice made by
MINIXLA_BLAS, and tf.matmul through the JIT with it."""

from __future__ import annotations

import ctypes
import itertools

import numpy as np
import pytest

from minixla.backends.cpu import blas
from minixla.backends.cpu.gemm_codegen import kernel_shapes
from minixla.backends.cpu.gemm_driver import compile_gemm
from minixla.backends.cpu.target import host_target
from minixla.backends.cpu.threadpool import set_num_threads

ROW_MAJOR, COL_MAJOR, NO_TRANS, TRANS = 101, 102, 111, 112
FEATURES = {"avx512": "+avx512f,+avx2,+fma", "avx2": "+avx2,+fma"}
HOST = set(f[1:] for f in host_target().features.split(",") if f.startswith("+"))
_ENGINES: dict = {}


def _runnable(kind):
    need = {"avx512": {"avx512f", "avx2", "fma"}, "avx2": {"avx2", "fma"}}[kind]
    return need <= HOST


def _gemm(kind, dtype):
    """ctypes function of the generated gemm with the `kind` kernel shapes."""
    if not _runnable(kind):
        pytest.skip(f"this CPU cannot run the {kind} kernel")
    if kind not in _ENGINES:
        _ENGINES[kind] = compile_gemm(kernel_shapes(FEATURES[kind]))
    engine, sgemm, dgemm = _ENGINES[kind]
    scalar = ctypes.c_float if dtype == np.float32 else ctypes.c_double
    i32, i64, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    proto = ctypes.CFUNCTYPE(None, i32, i32, i32, i64, i64, i64, scalar, ptr, i64, ptr, i64, scalar, ptr, i64)
    return proto(sgemm if dtype == np.float32 else dgemm)


def _stored(rng, rows, cols, dtype, order, pad):
    """A rows x cols matrix in `order` inside a buffer with `pad` extra leading-dimension elements."""
    big = rng.standard_normal((rows, cols + pad) if order == ROW_MAJOR else (cols, rows + pad)).astype(dtype)
    view = big[:, :cols] if order == ROW_MAJOR else big[:, :rows].T
    return big, view, big.shape[1]


def _check(gemm, dtype, order, m, n, k, ta, tb, alpha, beta, rng, nan_c=False):
    a_big, a, lda = _stored(rng, *((m, k) if ta == NO_TRANS else (k, m)), dtype, order, pad=3)
    b_big, b, ldb = _stored(rng, *((k, n) if tb == NO_TRANS else (n, k)), dtype, order, pad=1)
    c_big, c, ldc = _stored(rng, m, n, dtype, order, pad=2)
    if nan_c:
        c[...] = np.nan
    c0 = c.copy()
    outside = c_big.copy()
    gemm(order, ta, tb, m, n, k, alpha, a_big.ctypes.data, lda, b_big.ctypes.data, ldb, beta, c_big.ctypes.data, ldc)
    opa = a if ta == NO_TRANS else a.T
    opb = b if tb == NO_TRANS else b.T
    want = alpha * (opa.astype(np.float64) @ opb)
    if beta != 0:
        want = want + beta * c0
    tol = 2e-5 if dtype == np.float32 else 1e-12
    scale = max(1.0, float(np.abs(want).max()) if want.size else 1.0)
    np.testing.assert_allclose(c, want, rtol=tol, atol=tol * scale)
    mask = np.ones(c_big.shape, bool)  # the padding around C is never written
    if order == ROW_MAJOR:
        mask[:, :n] = False
    else:
        mask[:, :m] = False
    np.testing.assert_array_equal(c_big[mask], outside[mask])


SHAPES = [(1, 1, 1), (5, 7, 3), (12, 32, 4), (13, 33, 5), (11, 31, 257), (100, 70, 300), (37, 520, 600),
          (600, 17, 9), (300, 1, 40), (1, 300, 40)]


@pytest.mark.parametrize("kind", ["avx512", "avx2"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", [ROW_MAJOR, COL_MAJOR])
@pytest.mark.parametrize("shape", SHAPES)
def test_matches_numpy(kind, dtype, order, shape):
    gemm = _gemm(kind, dtype)
    m, n, k = shape
    rng = np.random.default_rng(m * 31 + n * 7 + k)
    old = set_num_threads(2)
    try:
        for ta, tb in itertools.product((NO_TRANS, TRANS), repeat=2):
            _check(gemm, dtype, order, m, n, k, ta, tb, 1.5, 0.5, rng)
    finally:
        set_num_threads(old)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_threads_and_big_sizes(threads, dtype):
    """Past the serial threshold, several row chunks and column blocks, odd edges."""
    gemm = _gemm("avx512" if _runnable("avx512") else "avx2", dtype)
    rng = np.random.default_rng(threads)
    old = set_num_threads(threads)
    try:
        for ta, tb in ((NO_TRANS, NO_TRANS), (TRANS, TRANS)):
            _check(gemm, dtype, ROW_MAJOR, 531, 1100, 301, ta, tb, 1.0, 0.0, rng)
    finally:
        set_num_threads(old)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", [ROW_MAJOR, COL_MAJOR])
def test_blocks_of_c_bound_the_packing(dtype, order):
    """C is computed in blocks of at most max_block x max_block (4096 by default, 50 here):
    several row and column blocks, uneven last blocks, every transpose, alpha/beta."""
    if "small_blocks" not in _ENGINES:
        _ENGINES["small_blocks"] = compile_gemm(kernel_shapes(host_target().features)
                                                or kernel_shapes(FEATURES["avx2"]), max_block=50)
    engine, sgemm, dgemm = _ENGINES["small_blocks"]
    scalar = ctypes.c_float if dtype == np.float32 else ctypes.c_double
    i32, i64, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    proto = ctypes.CFUNCTYPE(None, i32, i32, i32, i64, i64, i64, scalar, ptr, i64, ptr, i64, scalar, ptr, i64)
    gemm = proto(sgemm if dtype == np.float32 else dgemm)
    rng = np.random.default_rng(21)
    for ta, tb in itertools.product((NO_TRANS, TRANS), repeat=2):
        _check(gemm, dtype, order, 131, 107, 300, ta, tb, 0.5, 1.5, rng)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_packing_buffer_reused_grown_and_shared(dtype):
    """The packing buffer kept across calls: smaller, larger (it grows) and smaller products again
    give numpy's result, and gemms called at once from several Python threads (ctypes lets go of
    the GIL), which find it taken and pack into their own, do too."""
    import threading

    gemm = _gemm("avx512" if _runnable("avx512") else "avx2", dtype)
    rng = np.random.default_rng(5)
    for m, n, k in ((140, 150, 33), (300, 260, 700), (129, 131, 1025), (140, 150, 33)):
        _check(gemm, dtype, ROW_MAJOR, m, n, k, NO_TRANS, TRANS, 1.0, 0.0, rng)
    errors: list = []

    def worker(seed):
        try:
            r = np.random.default_rng(seed)
            for _ in range(3):
                _check(gemm, dtype, ROW_MAJOR, 150 + seed, 170, 300 + 7 * seed, NO_TRANS, NO_TRANS, 1.0, 0.0, r)
        except Exception as exc:  # noqa: BLE001 -- reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("k", [3, 4, 7, 513, 515])
def test_transposed_packing_edges(dtype, k):
    """Panels whose k is unit-stride (row-major A, transposed B) pack 4 k steps at a time by 4x4
    transposes: k below 4, a multiple of 4, a remainder, and a remainder in the second k block."""
    gemm = _gemm("avx512" if _runnable("avx512") else "avx2", dtype)
    rng = np.random.default_rng(k)
    old = set_num_threads(2)
    try:
        for order in (ROW_MAJOR, COL_MAJOR):
            _check(gemm, dtype, order, 37, 70, k, NO_TRANS, TRANS, 1.0, 0.0, rng)
            _check(gemm, dtype, order, 130, 140, k, TRANS, NO_TRANS, 1.0, 1.0, rng)
    finally:
        set_num_threads(old)


@pytest.mark.parametrize("kind", ["avx512", "avx2"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 31, 32, 69, 128, 300])
def test_row_major_b_packs_by_rows(kind, dtype, n):
    """B with unit-stride columns (row-major, or column-major transposed) packs its whole
    micro-panels a source row at a time (prefetching rows ahead) and the partial one after them:
    no whole panel, exactly one, several plus a partial one; k = 515 leaves a second k block of 3
    steps (a zero row of padding); B's leading dimension is larger than n (`_check`'s padding)."""
    gemm = _gemm(kind, dtype)
    rng = np.random.default_rng(n)
    old = set_num_threads(2)
    try:
        _check(gemm, dtype, ROW_MAJOR, 150, n, 515, NO_TRANS, NO_TRANS, 1.0, 0.0, rng)
        _check(gemm, dtype, ROW_MAJOR, 150, n, 515, TRANS, NO_TRANS, 0.5, 2.0, rng)
        _check(gemm, dtype, COL_MAJOR, n, 150, 515, NO_TRANS, TRANS, 1.0, 0.0, rng)  # C^T = B^T A^T
    finally:
        set_num_threads(old)


#: (m, n) of row-major C: n <= NC (256 here) is one column block, whose tasks pack their own A
#: micro-panels and prefetch the next one when A's k is unit-stride (op(A) not transposed, row-major;
#: the other transposes take the packing phase); n = 257 is two blocks, packed by the packing phase
#: again. m: 1, below and above MR, not multiples of it.
LATE_A = [(1, 256), (7, 33), (31, 256), (33, 7), (257, 1), (300, 31), (130, 95), (61, 257)]


@pytest.mark.parametrize("kind", ["avx512", "avx2"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mn", LATE_A)
def test_one_column_block_packs_a_in_its_tasks(kind, dtype, mn):
    """k = 601: several k blocks and a remainder past the unroll; every transpose (A's k unit-stride
    or not), both orders (column-major swaps m and n), beta 0 over NaN C (the first k block only
    writes C) and beta 1; 2 and 3 threads (the products here pass the serial threshold but the
    smallest)."""
    gemm = _gemm(kind, dtype)
    m, n = mn
    rng = np.random.default_rng(m * 7 + n)
    old = set_num_threads(2)
    try:
        for (ta, tb), order in itertools.product(itertools.product((NO_TRANS, TRANS), repeat=2),
                                                 (ROW_MAJOR, COL_MAJOR)):
            rm, rn = (m, n) if order == ROW_MAJOR else (n, m)  # C^T = B^T A^T: row-major (m, n) again
            _check(gemm, dtype, order, rm, rn, 601, ta, tb, 1.0, 0.0, rng, nan_c=True)
        set_num_threads(3)
        _check(gemm, dtype, ROW_MAJOR, m, n, 601, NO_TRANS, NO_TRANS, -0.5, 1.0, rng)
    finally:
        set_num_threads(old)


@pytest.mark.parametrize("slots", ["one", "two"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_k_blocks_apply_in_order_whatever_the_threads(slots, dtype):
    """All of a product's jobs come from one counter (gemm_driver._driver): a tile's k blocks still
    add up in order, so 1, 2 and 3 threads give bitwise the same C (and numpy's, within rounding),
    with the packed panels in one slot (the next k block's packing waits for the slot's tasks: 3
    threads get there) or two; several column blocks (column block 0's tasks pack A, the others
    wait for them: without that wait this test fails) and one (tasks pack A: a task of the last,
    shorter k block beside one of the block before once packed its A over the other's, when
    micro-panels were placed by their own k block's length)."""
    key = f"slots_{slots}"
    if key not in _ENGINES:
        shapes = kernel_shapes(host_target().features) or kernel_shapes(FEATURES["avx2"])
        _ENGINES[key] = compile_gemm(shapes, two_slots_bytes=0 if slots == "one" else 1 << 40)
    engine, sgemm, dgemm = _ENGINES[key]
    scalar = ctypes.c_float if dtype == np.float32 else ctypes.c_double
    i32, i64, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    proto = ctypes.CFUNCTYPE(None, i32, i32, i32, i64, i64, i64, scalar, ptr, i64, ptr, i64, scalar, ptr, i64)
    gemm = proto(sgemm if dtype == np.float32 else dgemm)
    rng = np.random.default_rng(17)
    old = set_num_threads(1)
    try:
        for m, n, k in ((300, 530, 1100), (410, 200, 1100)):
            a = rng.standard_normal((m, k)).astype(dtype)
            b = rng.standard_normal((k, n)).astype(dtype)
            c0 = rng.standard_normal((m, n)).astype(dtype)
            got = []
            for threads in (1, 2, 3, 2, 3, 2, 3):  # repeated: a race shows on some runs only
                set_num_threads(threads)
                c = c0.copy()
                gemm(ROW_MAJOR, NO_TRANS, NO_TRANS, m, n, k, 1.0, a.ctypes.data, k, b.ctypes.data, n, 0.5,
                     c.ctypes.data, n)
                got.append(c)
            want = a.astype(np.float64) @ b + 0.5 * c0
            tol = 2e-5 if dtype == np.float32 else 1e-12
            np.testing.assert_allclose(got[0], want, rtol=tol, atol=tol * float(np.abs(want).max()))
            for other in got[1:]:
                np.testing.assert_array_equal(other, got[0])
    finally:
        set_num_threads(old)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_beta_zero_does_not_read_c(dtype):
    gemm = _gemm("avx512" if _runnable("avx512") else "avx2", dtype)
    rng = np.random.default_rng(3)
    for m, n, k in ((13, 33, 5), (200, 150, 70)):
        _check(gemm, dtype, ROW_MAJOR, m, n, k, NO_TRANS, NO_TRANS, 2.0, 0.0, rng, nan_c=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_no_product_only_scales_c(dtype):
    """k = 0 or alpha = 0: C = beta*C and A, B are not read (null pointers here); m or n = 0: nothing."""
    gemm = _gemm("avx512" if _runnable("avx512") else "avx2", dtype)
    c = np.arange(12, dtype=dtype).reshape(3, 4)
    gemm(ROW_MAJOR, NO_TRANS, NO_TRANS, 3, 4, 0, 1.0, None, 1, None, 4, 2.0, c.ctypes.data, 4)
    np.testing.assert_array_equal(c, 2 * np.arange(12).reshape(3, 4))
    gemm(ROW_MAJOR, NO_TRANS, NO_TRANS, 3, 4, 5, 0.0, None, 5, None, 4, 0.0, c.ctypes.data, 4)
    np.testing.assert_array_equal(c, np.zeros((3, 4)))
    c[...] = 7
    gemm(ROW_MAJOR, NO_TRANS, NO_TRANS, 0, 4, 5, 1.0, None, 5, None, 4, 0.0, c.ctypes.data, 4)
    gemm(ROW_MAJOR, NO_TRANS, NO_TRANS, 3, 0, 5, 1.0, None, 5, None, 1, 0.0, c.ctypes.data, 1)
    assert np.all(c == 7)


def test_small_and_skinny_products_go_to_the_fallback():
    """compile_gemm(fallback=...): below MIN_DIM / MIN_WORK the library's gemm is called (here a
    recording stand-in), above it the generated one computes the product."""
    from minixla.backends.cpu.gemm_driver import MIN_DIM, MIN_WORK

    calls = []
    i32, i64, ptr, f32, f64 = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p, ctypes.c_float, ctypes.c_double
    stand_ins = [ctypes.CFUNCTYPE(None, i32, i32, i32, i64, i64, i64, s, ptr, i64, ptr, i64, s, ptr, i64)(
        lambda *args, g=g: calls.append((g, args[3], args[4], args[5]))) for g, s in (("s", f32), ("d", f64))]
    addrs = tuple(ctypes.cast(f, ctypes.c_void_p).value for f in stand_ins)
    engine, sgemm, dgemm = compile_gemm(kernel_shapes(host_target().features) or kernel_shapes(FEATURES["avx2"]),
                                        addrs)
    proto = ctypes.CFUNCTYPE(None, i32, i32, i32, i64, i64, i64, f32, ptr, i64, ptr, i64, f32, ptr, i64)
    run = proto(sgemm)
    rng = np.random.default_rng(11)
    for m, n, k, small in ((MIN_DIM - 1, 300, 300, True), (300, MIN_DIM - 1, 300, True), (130, 130, 8, True),
                           (MIN_DIM, MIN_DIM, MIN_WORK // MIN_DIM ** 2, False)):
        a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
        c = np.zeros((m, n), np.float32)
        calls.clear()
        run(ROW_MAJOR, NO_TRANS, NO_TRANS, m, n, k, 1.0, a.ctypes.data, k, b.ctypes.data, n, 0.0, c.ctypes.data, n)
        assert calls == ([("s", m, n, k)] if small else []), (m, n, k)
        if not small:
            np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=2e-5, atol=2e-4)
    del engine


def test_kernel_shapes_follow_cpu_features():
    wide = kernel_shapes("+avx512f,+avx2,+fma,+sse4.2")
    assert wide is not None and wide["s"].nr == 32 and wide["d"].nr == 16
    narrow = kernel_shapes("+avx2,+fma,-avx512f")
    assert narrow is not None and narrow["s"].vl == 8 and narrow["s"].mr * narrow["s"].nv <= 14  # 16 ymm
    assert kernel_shapes("+sse4.2,+avx") is None
    assert kernel_shapes("+avx2,-fma") is None


# ---- which gemm the JIT uses (MINIXLA_BLAS) -------------------------------------------------------
@pytest.fixture
def setting(monkeypatch):
    def use(value):
        monkeypatch.setenv("MINIXLA_BLAS", value)
        blas.reset()
    yield use
    monkeypatch.delenv("MINIXLA_BLAS", raising=False)
    blas.reset()


def test_default_is_generated_where_the_cpu_has_it(setting):
    setting("")
    want = "generated" if blas.generated_shapes() is not None else ("library" if blas.library() else None)
    assert blas.gemm_kind() == want


def test_openblas_setting_uses_the_library(setting):
    setting("openblas")
    if blas.library() is None:
        pytest.skip("numpy has no bundled ILP64 OpenBLAS")
    assert blas.gemm_kind() == "library"


def test_generated_setting_without_the_features_is_a_clear_error(setting, monkeypatch):
    setting("generated")
    monkeypatch.setattr(blas, "generated_shapes", lambda: None)
    with pytest.raises(blas.BlasUnavailableError, match="needs AVX-512F or AVX2\\+FMA"):
        blas.gemm_kind()
    setting("auto")  # auto falls back to the library instead
    assert blas.gemm_kind() == ("library" if blas.library() else None)


@pytest.mark.parametrize("value", ["generated", "openblas"])
def test_tf_matmul_through_the_jit(setting, value):
    from minixla.frontend import tf

    setting(value)
    if not blas.available():
        pytest.skip(f"MINIXLA_BLAS={value} has no gemm here")
    rng = np.random.default_rng(5)
    for dtype in (np.float32, np.float64):
        x, y = rng.standard_normal((3, 67, 45)).astype(dtype), rng.standard_normal((3, 33, 45)).astype(dtype)
        f = tf.function(lambda p, q: tf.matmul(p, q, transpose_b=True), jit_compile=True)
        got = f(tf.constant(x), tf.constant(y)).numpy()
        tol = 2e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, x.astype(np.float64) @ y.transpose(0, 2, 1), rtol=tol, atol=tol * 10)
