"""The generated gemm's paths around its blocked product (`gemm_driver.py`), in LLVM IR:
the packing buffer kept across calls, C = beta*C when there is no product, and the
plain triple loop when there is no memory for the packed panels (none of them depends
on the driver's jobs and slots).
"""

from __future__ import annotations

#: the reused packing buffer is aligned to and grown in huge pages (2 MiB), which madvise asks for
_HUGE = 1 << 21
_MADV_HUGEPAGE = 14


def buffer_ir(g: str) -> str:
    """`@{g}_acquire(bytes)`/`@{g}_release(p)`: the packing buffer, one per element type kept across
    calls (a fresh one costs a page fault per 4 KiB on every call: ~4% of a 2048^3 product),
    in huge pages where the kernel gives them (fewer TLB misses while packing and computing).
    A call that finds it taken (a gemm on another thread) allocates its own, as before;
    null: no memory."""
    return f"""@{g}_buf = internal global ptr null
@{g}_buf_size = internal global i64 0
@{g}_buf_busy = internal global i32 0

define internal ptr @{g}_acquire(i64 %bytes) {{
entry:
  %r = cmpxchg ptr @{g}_buf_busy, i32 0, i32 1 acquire monotonic
  %ok = extractvalue {{ i32, i1 }} %r, 1
  br i1 %ok, label %mine, label %fresh
fresh:
  %f = call ptr @aligned_alloc(i64 64, i64 %bytes)
  ret ptr %f
mine:
  %have = load i64, ptr @{g}_buf_size
  %enough = icmp uge i64 %have, %bytes
  %old = load atomic ptr, ptr @{g}_buf monotonic, align 8
  br i1 %enough, label %reuse, label %grow
reuse:
  ret ptr %old
grow:                                  ; never a freed address in @buf: release compares with it
  store atomic ptr null, ptr @{g}_buf seq_cst, align 8
  call void @free(ptr %old)
  %rb.0 = add i64 %bytes, {_HUGE - 1}
  %rb = and i64 %rb.0, {-_HUGE}
  %q = call ptr @aligned_alloc(i64 {_HUGE}, i64 %rb)
  store atomic ptr %q, ptr @{g}_buf seq_cst, align 8
  %null = icmp eq ptr %q, null
  %size = select i1 %null, i64 0, i64 %rb
  store i64 %size, ptr @{g}_buf_size
  br i1 %null, label %fail, label %grown
fail:
  store atomic i32 0, ptr @{g}_buf_busy release, align 4
  ret ptr null
grown:
  %ma = call i32 @madvise(ptr %q, i64 %rb, i32 {_MADV_HUGEPAGE})
  ret ptr %q
}}

define internal void @{g}_release(ptr %p) {{
entry:
  %cached = load atomic ptr, ptr @{g}_buf seq_cst, align 8
  %mine = icmp eq ptr %p, %cached
  br i1 %mine, label %give, label %own
give:
  store atomic i32 0, ptr @{g}_buf_busy release, align 4
  ret void
own:
  call void @free(ptr %p)
  ret void
}}"""


def edge_paths_ir(g: str, t: str) -> str:
    """`@{g}_scale(m, n, beta, c, ldc)` and `@{g}_naive(m, n, k, alpha, a, ars, acs, b, brs, bcs, beta, c, ldc)`."""
    fma = "f32" if t == "float" else "f64"
    return f"""; C = beta*C (k == 0 or alpha == 0: A and B are not read); beta == 0 writes zeros
define internal void @{g}_scale(i64 %m, i64 %n, {t} %beta, ptr %c, i64 %ldc) {{
entry:
  %bz = fcmp oeq {t} %beta, 0.0
  br label %row
row:
  %i = phi i64 [ 0, %entry ], [ %i.next, %row_end ]
  %rb = mul i64 %i, %ldc
  br label %col
col:
  %j = phi i64 [ 0, %row ], [ %j.next, %col ]
  %o = add i64 %rb, %j
  %p = getelementptr {t}, ptr %c, i64 %o
  %x = load {t}, ptr %p
  %y = fmul {t} %x, %beta
  %z = select i1 %bz, {t} 0.0, {t} %y
  store {t} %z, ptr %p
  %j.next = add i64 %j, 1
  %jm = icmp ult i64 %j.next, %n
  br i1 %jm, label %col, label %row_end
row_end:
  %i.next = add i64 %i, 1
  %im = icmp ult i64 %i.next, %m
  br i1 %im, label %row, label %done
done:
  ret void
}}

; no memory for the packed panels: the plain triple loop (slow, but the result is right)
define internal void @{g}_naive(i64 %m, i64 %n, i64 %k, {t} %alpha, ptr %a, i64 %ars, i64 %acs, ptr %b, i64 %brs,
                                i64 %bcs, {t} %beta, ptr %c, i64 %ldc) {{
entry:
  %bz = fcmp oeq {t} %beta, 0.0
  br label %row
row:
  %i = phi i64 [ 0, %entry ], [ %i.next, %row_end ]
  %arow = mul i64 %i, %ars
  %crow = mul i64 %i, %ldc
  br label %col
col:
  %j = phi i64 [ 0, %row ], [ %j.next, %col_end ]
  %bcol = mul i64 %j, %bcs
  br label %dot
dot:
  %p = phi i64 [ 0, %col ], [ %p.next, %dot ]
  %acc = phi {t} [ 0.0, %col ], [ %acc.next, %dot ]
  %ao.0 = mul i64 %p, %acs
  %ao = add i64 %arow, %ao.0
  %ap = getelementptr {t}, ptr %a, i64 %ao
  %x = load {t}, ptr %ap
  %bo.0 = mul i64 %p, %brs
  %bo = add i64 %bcol, %bo.0
  %bp = getelementptr {t}, ptr %b, i64 %bo
  %y = load {t}, ptr %bp
  %acc.next = call {t} @llvm.fma.{fma}({t} %x, {t} %y, {t} %acc)
  %p.next = add i64 %p, 1
  %pm = icmp ult i64 %p.next, %k
  br i1 %pm, label %dot, label %col_end
col_end:
  %co = add i64 %crow, %j
  %cp = getelementptr {t}, ptr %c, i64 %co
  %old = load {t}, ptr %cp
  %scaled = fmul {t} %acc.next, %alpha
  %sum = call {t} @llvm.fma.{fma}({t} %old, {t} %beta, {t} %scaled)
  %new = select i1 %bz, {t} %scaled, {t} %sum
  store {t} %new, ptr %cp
  %j.next = add i64 %j, 1
  %jm = icmp ult i64 %j.next, %n
  br i1 %jm, label %col, label %row_end
row_end:
  %i.next = add i64 %i, 1
  %im = icmp ult i64 %i.next, %m
  br i1 %im, label %row, label %done
done:
  ret void
}}"""
