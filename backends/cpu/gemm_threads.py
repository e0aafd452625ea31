"""`minixla_sgemm`/`minixla_dgemm`: gemm on minixla's own threads.

Compiled code calls these with the CBLAS ILP64 arguments (see `blas.py`).
They split C into row blocks (or column blocks, when it has more columns than
rows) over `minixla_parallel_for`, the fork-join helper the threaded loops
use, and each block calls the BLAS with OpenBLAS's threads turned off for the
calling thread (`openblas_set_num_threads_local(1)`, restored after).

Why not let OpenBLAS thread itself: its workers spin for a while after each
call, and our own parallel loops that follow then wait for a core. On two
cores a training step (3 gemms among ~40 threaded loops) ran 36 ms with both
pools and 0.9 ms with one. One pool, as XLA CPU has with Eigen, removes the
contention; `MINIXLA_NUM_THREADS` then sets the threads of gemms too. numpy's
own matmuls in the same process keep OpenBLAS's threads (the setting is per
calling thread).

Small products (fewer than `SERIAL_WORK` multiply-adds) run as one call on
the calling thread: starting threads costs more than they save.
"""

from __future__ import annotations

import string

import llvmlite.binding as llvm

#: multiply-adds below which a gemm runs as one single-threaded call
SERIAL_WORK = 1 << 20

_ROW_MAJOR, _NO_TRANS = 101, 111

_HELPERS = string.Template("""
declare i32 @$LOCAL(i32)
declare void @minixla_parallel_for(ptr, ptr, i64, i64)
""")

_TEMPLATE = string.Template(r"""
%args_$G = type { i32, i32, i32, i64, i64, i64, $T, ptr, i64, ptr, i64, $T, ptr, i64, i1 }

declare void @$CBLAS(i32, i32, i32, i64, i64, i64, $T, ptr, i64, ptr, i64, $T, ptr, i64)

define internal void @${G}_block(i64 %lo, i64 %hi, ptr %ctx) {
  %s = load %args_$G, ptr %ctx
  %order = extractvalue %args_$G %s, 0
  %ta = extractvalue %args_$G %s, 1
  %tb = extractvalue %args_$G %s, 2
  %m = extractvalue %args_$G %s, 3
  %n = extractvalue %args_$G %s, 4
  %k = extractvalue %args_$G %s, 5
  %alpha = extractvalue %args_$G %s, 6
  %a = extractvalue %args_$G %s, 7
  %lda = extractvalue %args_$G %s, 8
  %b = extractvalue %args_$G %s, 9
  %ldb = extractvalue %args_$G %s, 10
  %beta = extractvalue %args_$G %s, 11
  %c = extractvalue %args_$G %s, 12
  %ldc = extractvalue %args_$G %s, 13
  %cols = extractvalue %args_$G %s, 14
  %cnt = sub i64 %hi, %lo
  %rowmajor = icmp eq i32 %order, $ROW_MAJOR
  ; a block of rows of C: rows of op(A); a block of columns: columns of op(B)
  %a_plain = icmp eq i32 %ta, $NO_TRANS
  %b_plain = icmp eq i32 %tb, $NO_TRANS
  ; row i of op(A) starts at i*lda when op(A) rows are A's rows in the storage order, else at i
  %a_rows_strided = icmp eq i1 %rowmajor, %a_plain
  %b_cols_strided = icmp ne i1 %rowmajor, %b_plain
  %lo_lda = mul i64 %lo, %lda
  %lo_ldb = mul i64 %lo, %ldb
  %lo_ldc = mul i64 %lo, %ldc
  %aoff_rows = select i1 %a_rows_strided, i64 %lo_lda, i64 %lo
  %boff_cols = select i1 %b_cols_strided, i64 %lo_ldb, i64 %lo
  %coff_rows = select i1 %rowmajor, i64 %lo_ldc, i64 %lo
  %coff_cols = select i1 %rowmajor, i64 %lo, i64 %lo_ldc
  %aoff = select i1 %cols, i64 0, i64 %aoff_rows
  %boff = select i1 %cols, i64 %boff_cols, i64 0
  %coff = select i1 %cols, i64 %coff_cols, i64 %coff_rows
  %m2 = select i1 %cols, i64 %m, i64 %cnt
  %n2 = select i1 %cols, i64 %cnt, i64 %n
  %a2 = getelementptr $T, ptr %a, i64 %aoff
  %b2 = getelementptr $T, ptr %b, i64 %boff
  %c2 = getelementptr $T, ptr %c, i64 %coff
  %prev = call i32 @$LOCAL(i32 1)
  call void @$CBLAS(i32 %order, i32 %ta, i32 %tb, i64 %m2, i64 %n2, i64 %k, $T %alpha, ptr %a2, i64 %lda,
                             ptr %b2, i64 %ldb, $T %beta, ptr %c2, i64 %ldc)
  %restored = call i32 @$LOCAL(i32 %prev)
  ret void
}

define void @minixla_$G(i32 %order, i32 %ta, i32 %tb, i64 %m, i64 %n, i64 %k, $T %alpha, ptr %a, i64 %lda,
                       ptr %b, i64 %ldb, $T %beta, ptr %c, i64 %ldc) {
entry:
  %cols = icmp sgt i64 %n, %m
  %len = select i1 %cols, i64 %n, i64 %m
  %s0 = insertvalue %args_$G undef, i32 %order, 0
  %s1 = insertvalue %args_$G %s0, i32 %ta, 1
  %s2 = insertvalue %args_$G %s1, i32 %tb, 2
  %s3 = insertvalue %args_$G %s2, i64 %m, 3
  %s4 = insertvalue %args_$G %s3, i64 %n, 4
  %s5 = insertvalue %args_$G %s4, i64 %k, 5
  %s6 = insertvalue %args_$G %s5, $T %alpha, 6
  %s7 = insertvalue %args_$G %s6, ptr %a, 7
  %s8 = insertvalue %args_$G %s7, i64 %lda, 8
  %s9 = insertvalue %args_$G %s8, ptr %b, 9
  %s10 = insertvalue %args_$G %s9, i64 %ldb, 10
  %s11 = insertvalue %args_$G %s10, $T %beta, 11
  %s12 = insertvalue %args_$G %s11, ptr %c, 12
  %s13 = insertvalue %args_$G %s12, i64 %ldc, 13
  %s14 = insertvalue %args_$G %s13, i1 %cols, 14
  %ctx = alloca %args_$G
  store %args_$G %s14, ptr %ctx
  %mn = mul i64 %m, %n
  %work = mul i64 %mn, %k
  %small = icmp slt i64 %work, $SERIAL_WORK
  br i1 %small, label %serial, label %parallel
serial:
  call void @${G}_block(i64 0, i64 %len, ptr %ctx)
  ret void
parallel:
  call void @minixla_parallel_for(ptr @${G}_block, ptr %ctx, i64 0, i64 %len)
  ret void
}
""")


def wrapper_ir(cblas: tuple[str, str] = ("minixla_cblas_sgemm", "minixla_cblas_dgemm"),
               threads_local: str = "minixla_blas_threads_local") -> str:
    """LLVM IR of both wrappers (`minixla_sgemm`, `minixla_dgemm`) calling the
    BLAS under these names: the JIT registers its own names for the addresses it
    resolved, an AOT library calls the BLAS library's real symbols."""
    consts = dict(ROW_MAJOR=_ROW_MAJOR, NO_TRANS=_NO_TRANS, SERIAL_WORK=SERIAL_WORK, LOCAL=threads_local)
    bodies = [_TEMPLATE.substitute(G=g, T=t, CBLAS=c, **consts)
              for g, t, c in (("sgemm", "float", cblas[0]), ("dgemm", "double", cblas[1]))]
    return "\n".join([_HELPERS.substitute(LOCAL=threads_local), *bodies])


def compile_wrappers(sgemm: int, dgemm: int, threads_local: int) -> tuple[object, int, int]:
    """JIT the wrappers over the BLAS at these addresses; returns (engine to keep, sgemm, dgemm addresses)."""
    from minixla.backends.cpu.compile_cache import runtime_kernel_engine
    from minixla.backends.cpu.threadpool import ensure_registered

    ensure_registered()
    llvm.add_symbol("minixla_cblas_sgemm", sgemm)
    llvm.add_symbol("minixla_cblas_dgemm", dgemm)
    llvm.add_symbol("minixla_blas_threads_local", threads_local)
    text = wrapper_ir()
    engine = runtime_kernel_engine("; minixla gemm wrappers\n" + text)
    return engine, engine.get_function_address("minixla_sgemm"), engine.get_function_address("minixla_dgemm")
