"""minixla's own gemm: an AVX-512/AVX2 micro-kernel with packing and cache blocking, in LLVM IR.

Same entry ABI as the BLAS path (`blas.py`): CBLAS ILP64,

    void minixla_gen_sgemm(i32 order, i32 transa, i32 transb, i64 m, i64 n, i64 k, float alpha,
                           ptr a, i64 lda, ptr b, i64 ldb, float beta, ptr c, i64 ldc)

Why our own: numpy's OpenBLAS reaches its per-core speed on one thread, but
splitting a gemm over our threads (`gemm_threads.py`) makes every thread pack
all of B again, and an even static split waits for the slowest core of a busy
machine. Here the structure is the BLIS/Goto one (van Zee & van de Geijn):

    for p0 in k, step KC:                    (jobs from one atomic counter, one fork-join in all)
        pack A[:, p0:p0+KC] into MR-row micro-panels         shared, split over threads
        pack B[p0:p0+KC, :] into NR-column micro-panels      shared, split over threads
        tasks: (column block of NC columns, row chunk)       dynamic balance; each waits only
                                                             for its k block's packing and its
                                                             tile's previous k block
            for each MR-row micro-panel of A in the chunk:         MR x KC, L1-resident
                for each NR-column micro-panel of B in the block:  packed block in L2
                    micro-kernel: MR x NR tile of C

so A and B are each packed exactly once, into one buffer kept across calls.
Where A's k is unit-stride (row-major A, a convolution's patches), the task of
column block 0 packs its A micro-panels itself right before their kernel calls
(into L1, not through memory; the row chunk's tasks of other column blocks
wait for it), and those calls prefetch the next micro-panel's rows of A into
L2 (`gemm_tiles.tile_loops`).
The micro-kernel keeps an MR x NR tile of C in registers (NR = NV vectors of
VL lanes; AVX-512 f32: 12 x 32 in 24 zmm) and per k does NV vector loads of
B, MR broadcasts of A and MR*NV FMAs; it prefetches C's tile one line per
unrolled step. Packed panels are zero-padded to whole tiles and to a multiple
of the unroll in k, so the kernel has no remainder loops; edge tiles of C are
written with masked loads/stores. C is row-major (a column-major call computes
C^T = B^T A^T); transposes are strides in the packing, and a panel whose k is
unit-stride packs by 4x4 transposes.

`kernel_shapes(features)` picks the shape from the CPU features llvmlite
reports (AVX-512F, else AVX2+FMA); without either there is no generated gemm.
The AVX-512 f32 entry was chosen by measurement (2-core AVX-512 Xeon, 2048^3,
one thread, CPU-time GFLOP/s; the FMA peak measured 246): 12x32 KC=256 NC=512
188-192, KC=512 190, 14x32 186, 8x48 189, 6x64 194; with C prefetched line by
line 12x32 196, then KC=512 NC=256 199 (the micro-kernel alone: 220).
Tried since, no gain measured (one thread, CPU time, interleaved): even k
blocks (2304 = 5 x 464 instead of 4 x 512 + 256), prefetching B rows while
packing (a panel at a time; a row at a time across a job's panels, session 10,
gained 1-3%), prefetching B in the kernel, the tasks packing A for several column
blocks too (+0.5-1.4% then; done in session 10 with the per-tile flags), 48 instead of
16 row chunks with one column block (two threads); slower: KC=768 (-2%) and
KC=1024 (-6%) with NC=256, C's lines prefetched over the last 40 or 80
unrolled steps instead of the first 24 (-3%); one fork-join per product (every
thread walks the k blocks, phases end when their work is done, not when every
worker has arrived; two threads, load 5: 2-6% slower). Session 9's one fork-join
(`gemm_driver._driver`: jobs from one counter, a task waits only for its own
k block's packing and its tile's previous k block, two slots of panels where
small) is no slower on one thread and faster on two (quiet: 2048^3 399 -> 401,
a convolution block 357 -> 374; busy: up to 1.8x); also tried then, within 1%
at 2048^3: unroll 8, NC=512, KC=384 and 640, a second slot at 2048^3 (-2.5%
on two threads: cold when packed again). Where the time goes (one
thread, 2048^3, perf samples): the kernel 95% (its k loop 93% of that, the C
update the rest), packing B 2.4%, packing A 1.7%.
The driver, the dispatcher and the JIT compilation are in `gemm_driver.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

COL_MAJOR, NO_TRANS = 102, 111
#: rows ahead the packing of whole panels from unit-stride rows prefetches (`_packer`)
ROW_PREFETCH = 8


@dataclass(frozen=True)
class KernelShape:
    """Register tile and cache blocking for one element type."""
    ty: str  # "float" / "double"
    vl: int  # lanes per vector
    mr: int  # rows of the C tile (broadcasts of A)
    nv: int  # vectors per row of the tile: NR = nv * vl columns
    kc: int  # k block: B micro-panel (kc x NR) and A micro-panel in L1/L2
    nc: int  # columns per task: packed B block (kc x nc) in L2
    unroll: int = 4
    rows_per_task: int = 256  # at most, per task (`gemm_driver._MIN_CHUNKS` makes them smaller)

    @property
    def nr(self) -> int:
        return self.vl * self.nv

    @property
    def pf_unit(self) -> int:
        """Bytes of the next A micro-panel's rows the kernel prefetches per unrolled step."""
        return 64 * max(1, self.unroll // 4)

    @property
    def size(self) -> int:
        return 4 if self.ty == "float" else 8

    @property
    def vt(self) -> str:
        return f"<{self.vl} x {self.ty}>"

    @property
    def suffix(self) -> str:
        return f"v{self.vl}f{self.size * 8}"


def kernel_shapes(features: str) -> dict[str, KernelShape] | None:
    """{"s": f32 shape, "d": f64 shape} for a CPU with these (llvmlite) features, or None."""
    feats = {f[1:] for f in features.split(",") if f.startswith("+")}
    if "avx512f" in feats:
        return {"s": KernelShape("float", 16, 12, 2, 512, 256), "d": KernelShape("double", 8, 12, 2, 256, 256)}
    if "avx2" in feats and "fma" in feats:
        return {"s": KernelShape("float", 8, 6, 2, 256, 256), "d": KernelShape("double", 4, 6, 2, 256, 128)}
    return None


# ---- micro-kernel --------------------------------------------------------------------------
def kernel_ir(g: str, s: KernelShape) -> str:
    """`@{g}_ukernel(kc, ap, bp, c, ldc, alpha, beta, mr, nr, pf, pfrs, pflpr, pflines, pfline)`:
    C tile = alpha*Ap*Bp + beta*C (C not read where beta == 0) over kc (a multiple of the unroll)
    packed steps. It also prefetches into L2 `pf_unit` bytes per unrolled step of a region the caller
    packs next (`pflines` units from unit `pfline` on, rows of `pflpr` units `pfrs` bytes apart
    from `pf`; pflines == 0: none): the driver's late A packing (gemm_tiles.tile_loops)."""
    t, vt, vl, mr, nv, u = s.ty, s.vt, s.vl, s.mr, s.nv, s.unroll
    fma = f"@llvm.fma.{s.suffix}"
    acc = [[f"%acc{i}_{v}" for v in range(nv)] for i in range(mr)]
    L = [f"define internal void @{g}_ukernel(i64 %kc, ptr noalias %ap, ptr noalias %bp, ptr noalias %c, "
         f"i64 %ldc, {t} %alpha, {t} %beta, i64 %mr, i64 %nr, ptr %pf0, i64 %pfrs, i64 %pflpr, i64 %pfl0, "
         "i64 %pfline) {",
         "entry:",
         # no region: prefetch the (cached) packed A instead of testing in the loop
         "  %pfnone = icmp eq i64 %pfl0, 0",
         "  %pf = select i1 %pfnone, ptr %ap, ptr %pf0",
         "  %pflines = select i1 %pfnone, i64 1, i64 %pfl0",
         "  %pflast = sub i64 %pflines, 1",
         "  %pfpr = select i1 %pfnone, i64 1, i64 %pflpr",
         # the first line's place (one division per call; the loop steps it)
         "  %pfs = call i64 @llvm.umin.i64(i64 %pfline, i64 %pflast)",
         "  %pfr0 = udiv i64 %pfs, %pfpr", "  %pfc0 = urem i64 %pfs, %pfpr",
         "  %pfro = mul i64 %pfr0, %pfrs", f"  %pfco = mul i64 %pfc0, {s.pf_unit}", "  %pfo0 = add i64 %pfro, %pfco",
         f"  %pfrow = mul i64 %pfpr, {s.pf_unit}", "  %pfwrap = sub i64 %pfrs, %pfrow"]
    lpr = max(1, s.nr * s.size // 64)  # cache lines per row of the C tile
    unit = s.pf_unit
    L += [f"  %ldcb = mul i64 %ldc, {s.size}", "  br label %loop", "loop:",
          "  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]",
          "  %cq = phi ptr [ %c, %entry ], [ %cq.next, %loop ]",
          f"  %cr = phi i64 [ {mr - 1}, %entry ], [ %cr.next, %loop ]"]
    # C's tile is needed at the end: fetch one of its rows per unrolled step while the loop runs
    # (all of them at the start left ~7% of a 2048^3 product waiting on C: too many misses at once).
    # A pointer walk (a line per step before, from index arithmetic: ~30 scalar instructions per
    # step): a short k now prefetches the whole tile (4096x256x36: +3%, one thread, CPU time);
    # 2048^3 unchanged.
    prefetch = []
    for line in range(lpr):
        prefetch += [f"  %pf.c{line} = getelementptr i8, ptr %cq, i64 {line * 64}",
                     f"  call void @llvm.prefetch.p0(ptr %pf.c{line}, i32 1, i32 3, i32 1)"]
    prefetch += ["  %cmore = icmp ne i64 %cr, 0", "  %cq.a = getelementptr i8, ptr %cq, i64 %ldcb",
                 "  %cq.next = select i1 %cmore, ptr %cq.a, ptr %cq", "  %cr.d = sub i64 %cr, 1",
                 "  %cr.next = select i1 %cmore, i64 %cr.d, i64 %cr",
                 "  %pa.p = getelementptr i8, ptr %pf, i64 %pa.o"]
    for line in range(unit // 64):
        prefetch += [f"  %pa.p{line} = getelementptr i8, ptr %pa.p, i64 {line * 64}",
                     f"  call void @llvm.prefetch.p0(ptr %pa.p{line}, i32 0, i32 2, i32 1)"]
    # next unit: along the row, or the next row's first; past the region's last: stay
    prefetch += ["  %pa.c1 = add i64 %pa.c, 1", "  %pa.wrap = icmp eq i64 %pa.c1, %pfpr",
                 f"  %pa.oa = add i64 %pa.o, {unit}", "  %pa.ow = add i64 %pa.o, %pfwrap",
                 "  %pa.on = select i1 %pa.wrap, i64 %pa.ow, i64 %pa.oa",
                 "  %pa.cn = select i1 %pa.wrap, i64 0, i64 %pa.c1",
                 "  %pa.l1 = add i64 %pa.l, 1", "  %pa.end = icmp ugt i64 %pa.l1, %pflast",
                 "  %pa.o.next = select i1 %pa.end, i64 %pa.o, i64 %pa.on",
                 "  %pa.c.next = select i1 %pa.end, i64 %pa.c, i64 %pa.cn",
                 "  %pa.l.next = select i1 %pa.end, i64 %pa.l, i64 %pa.l1"]
    last = {}
    for i in range(mr):
        for v in range(nv):
            last[i, v] = f"%a{u - 1}_{i}_{v}"
            L.append(f"  {acc[i][v]} = phi {vt} [ zeroinitializer, %entry ], [ {last[i, v]}, %loop ]")
    L += ["  %pa.o = phi i64 [ %pfo0, %entry ], [ %pa.o.next, %loop ]",
          "  %pa.c = phi i64 [ %pfc0, %entry ], [ %pa.c.next, %loop ]",
          "  %pa.l = phi i64 [ %pfs, %entry ], [ %pa.l.next, %loop ]"]
    L += prefetch
    L.append(f"  %aoff = mul i64 %k, {mr}")
    L.append(f"  %boff = mul i64 %k, {s.nr}")
    for step in range(u):
        for v in range(nv):
            L.append(f"  %bo{step}_{v} = add i64 %boff, {step * s.nr + v * vl}")
            L.append(f"  %bptr{step}_{v} = getelementptr {t}, ptr %bp, i64 %bo{step}_{v}")
            L.append(f"  %b{step}_{v} = load {vt}, ptr %bptr{step}_{v}, align {s.size}")
        for i in range(mr):
            L.append(f"  %ao{step}_{i} = add i64 %aoff, {step * mr + i}")
            L.append(f"  %aptr{step}_{i} = getelementptr {t}, ptr %ap, i64 %ao{step}_{i}")
            L.append(f"  %x{step}_{i} = load {t}, ptr %aptr{step}_{i}, align {s.size}")
            L.append(f"  %xi{step}_{i} = insertelement {vt} poison, {t} %x{step}_{i}, i64 0")
            L.append(f"  %xs{step}_{i} = shufflevector {vt} %xi{step}_{i}, {vt} poison, <{vl} x i32> zeroinitializer")
            for v in range(nv):
                prev = acc[i][v] if step == 0 else f"%a{step - 1}_{i}_{v}"
                L.append(f"  %a{step}_{i}_{v} = call {vt} {fma}({vt} %xs{step}_{i}, {vt} %b{step}_{v}, {vt} {prev})")
    L += [f"  %k.next = add i64 %k, {u}", "  %more = icmp ult i64 %k.next, %kc",
          "  br i1 %more, label %loop, label %store", "store:"]
    L.append(f"  %al0 = insertelement {vt} poison, {t} %alpha, i64 0")
    L.append(f"  %alv = shufflevector {vt} %al0, {vt} poison, <{vl} x i32> zeroinitializer")
    L.append(f"  %be0 = insertelement {vt} poison, {t} %beta, i64 0")
    L.append(f"  %bev = shufflevector {vt} %be0, {vt} poison, <{vl} x i32> zeroinitializer")
    L.append(f"  %bz = fcmp oeq {t} %beta, 0.0")
    L.append(f"  %fullm = icmp eq i64 %mr, {mr}")
    L.append(f"  %fulln = icmp eq i64 %nr, {s.nr}")
    L.append("  %full = and i1 %fullm, %fulln")
    L.append("  br i1 %full, label %st_full, label %st_edge0")
    # full tile: plain loads/stores; beta == 0 (a product's first k block) only writes: C's old
    # tile is neither loaded nor waited for
    L.append("st_full:")
    L.append("  br i1 %bz, label %st_write, label %st_rmw")
    for label, pre in (("st_rmw", "f"), ("st_write", "w")):
        L.append(f"{label}:")
        for i in range(mr):
            L.append(f"  %{pre}r{i} = mul i64 %ldc, {i}")
            for v in range(nv):
                p = f"%{pre}p{i}_{v}"
                L.append(f"  %{pre}o{i}_{v} = add i64 %{pre}r{i}, {v * vl}")
                L.append(f"  {p} = getelementptr {t}, ptr %c, i64 %{pre}o{i}_{v}")
                if pre == "f":
                    L += _merge(f"f{i}_{v}", s, last[i, v], p, None)
                else:
                    L += [f"  %w{i}_{v}_new = fmul {vt} %alv, {last[i, v]}",
                          f"  store {vt} %w{i}_{v}_new, ptr {p}, align {s.size}"]
        L.append("  ret void")
    # edge tile: rows below mr skipped, columns below nr masked
    iota = ", ".join(f"i64 {j}" for j in range(vl))
    for i in range(mr):
        L.append(f"st_edge{i}:")
        L.append(f"  %eok{i} = icmp slt i64 {i}, %mr")
        L.append(f"  br i1 %eok{i}, label %st_row{i}, label %st_done")
        L.append(f"st_row{i}:")
        L.append(f"  %er{i} = mul i64 %ldc, {i}")
        for v in range(nv):
            n = f"e{i}_{v}"
            L.append(f"  %{n}_lim = sub i64 %nr, {v * vl}")
            L.append(f"  %{n}_l0 = insertelement <{vl} x i64> poison, i64 %{n}_lim, i64 0")
            L.append(f"  %{n}_ls = shufflevector <{vl} x i64> %{n}_l0, <{vl} x i64> poison, <{vl} x i32> zeroinitializer")
            L.append(f"  %{n}_mask = icmp slt <{vl} x i64> <{iota}>, %{n}_ls")
            L.append(f"  %{n}_o = add i64 %er{i}, {v * vl}")
            L.append(f"  %{n}_p = getelementptr {t}, ptr %c, i64 %{n}_o")
            L += _merge(n, s, last[i, v], f"%{n}_p", f"%{n}_mask")
        L.append(f"  br label %st_edge{i + 1}" if i + 1 < mr else "  br label %st_done")
    L += ["st_done:", "  ret void", "}"]
    return "\n".join(L)


def _merge(n: str, s: KernelShape, acc: str, ptr: str, mask: str | None) -> list[str]:
    """Store alpha*acc + beta*C at ptr (C's old value ignored when beta == 0)."""
    vt, vl = s.vt, s.vl
    if mask is None:
        load = f"  %{n}_old = load {vt}, ptr {ptr}, align {s.size}"
        store = f"  store {vt} %{n}_new, ptr {ptr}, align {s.size}"
    else:
        load = (f"  %{n}_old = call {vt} @llvm.masked.load.{s.suffix}.p0(ptr {ptr}, i32 {s.size}, "
                f"<{vl} x i1> {mask}, {vt} zeroinitializer)")
        store = f"  call void @llvm.masked.store.{s.suffix}.p0({vt} %{n}_new, ptr {ptr}, i32 {s.size}, <{vl} x i1> {mask})"
    return [f"  %{n}_scaled = fmul {vt} %alv, {acc}", load,
            f"  %{n}_sum = call {vt} @llvm.fma.{s.suffix}({vt} %bev, {vt} %{n}_old, {vt} %{n}_scaled)",
            f"  %{n}_new = select i1 %bz, {vt} %{n}_scaled, {vt} %{n}_sum", store]


# ---- packing --------------------------------------------------------------------------------
def packing_ir(g: str, s: KernelShape) -> str:
    """`@{g}_pack_a(...)` and `@{g}_pack_b(...)`, one template: `@{g}_pack_W(dst, src, ls, ks, l0,
    lanes, p0, kc, kcp)` stores lanes [l0, l0+lanes) of k-steps [p0, p0+kc) as micro-panels of W
    lanes (kcp x W each, lane fastest, zero-padded), element (lane l, step p) being at
    src + l*ls + p*ks. A's lanes are its rows (W = MR), B's its columns (W = NR)."""
    return _packer(g, s, s.mr, "a", False) + _packer(g, s, s.nr, "b", True)


def _transpose4(s: KernelShape, w: int) -> tuple[list[str], list[str]]:
    """Packing a whole panel whose k is unit-stride (row-major A, transposed B): per 4 k steps,
    one 4-element load from each lane and 4x4 transposes, instead of a scalar load and an insert
    per element (~1.4x faster packing of an L2-resident 384 x 512 A; it matters where A is tall
    and B narrow, as in convolutions' patches)."""
    t, size = s.ty, s.size
    v4 = f"<4 x {t}>"
    setup, body = [], []
    for lane in range(w):
        setup += [f"  %tro{lane} = mul i64 %ls, {lane}", f"  %trs{lane} = add i64 %sbase0, %tro{lane}",
                  f"  %trp{lane} = getelementptr {t}, ptr %src, i64 %trs{lane}"]
    for grp in range(w // 4):
        r = [f"%tr{grp}_{j}" for j in range(4)]
        for j in range(4):
            lane = 4 * grp + j
            body += [f"  %trq{lane} = getelementptr {t}, ptr %trp{lane}, i64 %tp",
                     f"  {r[j]} = load {v4}, ptr %trq{lane}, align {size}"]
        lo, hi, c = f"%tlo{grp}", f"%thi{grp}", f"%tc{grp}"
        body += [f"  {lo}a = shufflevector {v4} {r[0]}, {v4} {r[1]}, <4 x i32> <i32 0, i32 4, i32 1, i32 5>",
                 f"  {lo}b = shufflevector {v4} {r[2]}, {v4} {r[3]}, <4 x i32> <i32 0, i32 4, i32 1, i32 5>",
                 f"  {hi}a = shufflevector {v4} {r[0]}, {v4} {r[1]}, <4 x i32> <i32 2, i32 6, i32 3, i32 7>",
                 f"  {hi}b = shufflevector {v4} {r[2]}, {v4} {r[3]}, <4 x i32> <i32 2, i32 6, i32 3, i32 7>",
                 f"  {c}_0 = shufflevector {v4} {lo}a, {v4} {lo}b, <4 x i32> <i32 0, i32 1, i32 4, i32 5>",
                 f"  {c}_1 = shufflevector {v4} {lo}a, {v4} {lo}b, <4 x i32> <i32 2, i32 3, i32 6, i32 7>",
                 f"  {c}_2 = shufflevector {v4} {hi}a, {v4} {hi}b, <4 x i32> <i32 0, i32 1, i32 4, i32 5>",
                 f"  {c}_3 = shufflevector {v4} {hi}a, {v4} {hi}b, <4 x i32> <i32 2, i32 3, i32 6, i32 7>"]
        for q in range(4):  # k step tp+q, lanes 4grp..4grp+3
            body += [f"  %tdo{grp}_{q}.0 = add i64 %tp, {q}", f"  %tdo{grp}_{q}.1 = mul i64 %tdo{grp}_{q}.0, {w}",
                     f"  %tdo{grp}_{q}.2 = add i64 %tdo{grp}_{q}.1, %dbase",
                     f"  %tdo{grp}_{q} = add i64 %tdo{grp}_{q}.2, {4 * grp}",
                     f"  %tdp{grp}_{q} = getelementptr {t}, ptr %dst, i64 %tdo{grp}_{q}",
                     f"  store {v4} {c}_{q}, ptr %tdp{grp}_{q}, align {size}"]
    return setup, body


def _rows(s: KernelShape, w: int) -> str:
    """Whole panels of a packing whose lanes are unit-stride (row-major B), a k step (a source row)
    across all of them at a time: a row's panels are adjacent lines of one page, which the
    hardware's streamer follows, where a panel at a time (two lines a row) made every row a new
    page; the same lines ROW_PREFETCH rows further down are prefetched (a row's stride is beyond the
    stride prefetcher). Then `qstart` packs what is left (the partial panel), or all with strided lanes."""
    t, size = s.ty, s.size
    wt = f"<{w} x {t}>"
    prefetch = "\n".join(
        f"  %rpf{i} = getelementptr i8, ptr %rsp, i64 {64 * i}\n"
        f"  %rpfa{i} = getelementptr {t}, ptr %rpf{i}, i64 %rpfd\n"
        f"  call void @llvm.prefetch.p0(ptr %rpfa{i}, i32 0, i32 3, i32 1)" for i in range(max(1, w * size // 64)))
    return f"""  %nfull = udiv i64 %lanes, {w}
  %hasfull = icmp ne i64 %nfull, 0
  %rowwise = and i1 %unit, %hasfull
  %rbase0 = mul i64 %p0, %ks
  %rbase = add i64 %rbase0, %l0
  %rpfd = mul i64 %ks, {ROW_PREFETCH}
  br i1 %rowwise, label %rrow, label %qstart
rrow:                                  ; lanes unit-stride: whole panels a k step (a source row) at a time
  %rp = phi i64 [ 0, %entry ], [ %rp.next, %rrow_end ]
  %rso.0 = mul i64 %rp, %ks
  %rso = add i64 %rbase, %rso.0
  %rdo = mul i64 %rp, {w}
  br label %rqloop
rqloop:
  %rq = phi i64 [ 0, %rrow ], [ %rq.next, %rqloop ]
  %rqo = mul i64 %rq, {w}
  %rsi = add i64 %rso, %rqo
  %rsp = getelementptr {t}, ptr %src, i64 %rsi
  %rx = load {wt}, ptr %rsp, align {size}
  %rdi.0 = mul i64 %rq, %kcp
  %rdi.1 = mul i64 %rdi.0, {w}
  %rdi = add i64 %rdi.1, %rdo
  %rdp = getelementptr {t}, ptr %dst, i64 %rdi
  store {wt} %rx, ptr %rdp, align {size}
{prefetch}
  %rq.next = add i64 %rq, 1
  %rqmore = icmp ult i64 %rq.next, %nfull
  br i1 %rqmore, label %rqloop, label %rrow_end
rrow_end:
  %rp.next = add i64 %rp, 1
  %rpmore = icmp ult i64 %rp.next, %kc
  br i1 %rpmore, label %rrow, label %rzero
rzero:                                 ; their k steps kc..kcp-1 are zeros
  %rz = phi i64 [ %kc, %rrow_end ], [ %rz.next, %rzq_end ]
  %rzin = icmp ult i64 %rz, %kcp
  br i1 %rzin, label %rzq, label %qstart
rzq:
  %rzqi = phi i64 [ 0, %rzero ], [ %rzqi.next, %rzq ]
  %rzd.0 = mul i64 %rzqi, %kcp
  %rzd.1 = add i64 %rzd.0, %rz
  %rzd = mul i64 %rzd.1, {w}
  %rzp = getelementptr {t}, ptr %dst, i64 %rzd
  store {wt} zeroinitializer, ptr %rzp, align {size}
  %rzqi.next = add i64 %rzqi, 1
  %rzqmore = icmp ult i64 %rzqi.next, %nfull
  br i1 %rzqmore, label %rzq, label %rzq_end
rzq_end:
  %rz.next = add i64 %rz, 1
  br label %rzero
"""


def _packer(g: str, s: KernelShape, w: int, name: str, by_rows: bool) -> str:
    t, size = s.ty, s.size
    wt = f"<{w} x {t}>"
    # full panel, lanes strided: w scalar loads per step, one vector store
    gather = []
    for lane in range(w):
        gather += [f"  %go{lane} = add i64 %sbase, {lane}" if lane == 0 else
                   f"  %go{lane} = add i64 %go{lane - 1}, %ls",
                   f"  %gp{lane} = getelementptr {t}, ptr %src, i64 %go{lane}",
                   f"  %gx{lane} = load {t}, ptr %gp{lane}, align {size}",
                   f"  %gv{lane} = insertelement {wt} {'poison' if lane == 0 else f'%gv{lane - 1}'}, "
                   f"{t} %gx{lane}, i64 {lane}"]
    gather[0] = "  %go0 = add i64 %sbase, 0"
    tr_setup, tr_body = _transpose4(s, w) if w % 4 == 0 else ([], [])
    rows = _rows(s, w) if by_rows else "  br label %qstart\n"
    return f"""
define internal void @{g}_pack_{name}(ptr noalias %dst, ptr noalias %src, i64 %ls, i64 %ks, i64 %l0, i64 %lanes,
                                 i64 %p0, i64 %kc, i64 %kcp) {{
entry:
  %lanes_pad = add i64 %lanes, {w - 1}
  %npanel = udiv i64 %lanes_pad, {w}
  %unit = icmp eq i64 %ls, 1
{rows}qstart:                                ; the rest (all panels, or the partial one after the row-wise ones)
  %q0 = {"select i1 %rowwise, i64 %nfull, i64 0" if by_rows else "add i64 0, 0"}
  %qleft = icmp ult i64 %q0, %npanel
  br i1 %qleft, label %panel, label %done
panel:
  %q = phi i64 [ %q0, %qstart ], [ %q.next, %panel_end ]
  %ql = mul i64 %q, {w}
  %left = sub i64 %lanes, %ql
  %full = icmp uge i64 %left, {w}
  %dbase.0 = mul i64 %q, %kcp
  %dbase = mul i64 %dbase.0, {w}
  %gl = add i64 %l0, %ql
  %lbase = mul i64 %gl, %ls
  %pbase = mul i64 %p0, %ks
  %sbase0 = add i64 %lbase, %pbase
  br i1 %full, label %fpre, label %estep
fpre:                                  ; k unit-stride, lanes strided: 4 k steps at a time by 4x4 transposes
  %kc4 = and i64 %kc, -4
  %ks1 = icmp eq i64 %ks, 1
  %has4 = icmp ne i64 %kc4, 0
  %notunit = xor i1 %unit, true
  %tr.0 = and i1 %ks1, %has4
  %tr = and i1 %tr.0, %notunit
  br i1 {"%tr" if tr_body else "false"}, label %tpre, label %fstep
tpre:
{chr(10).join(tr_setup)}
  br label %tstep
tstep:
  %tp = phi i64 [ 0, %tpre ], [ %tp.next, %tstep ]
{chr(10).join(tr_body)}
  %tp.next = add i64 %tp, 4
  %tmore = icmp ult i64 %tp.next, %kc4
  br i1 %tmore, label %tstep, label %tdone
tdone:
  %tfin = icmp eq i64 %kc4, %kc
  br i1 %tfin, label %pad, label %fstep
fstep:                                 ; a whole panel: one vector row per k step
  %fp = phi i64 [ 0, %fpre ], [ %kc4, %tdone ], [ %fp.next, %fstep_end ]
  %fdo.0 = mul i64 %fp, {w}
  %fdo = add i64 %dbase, %fdo.0
  %fdp = getelementptr {t}, ptr %dst, i64 %fdo
  %fso = mul i64 %fp, %ks
  %sbase = add i64 %sbase0, %fso
  br i1 {"false" if by_rows else "%unit"}, label %fvec, label %fgather
fvec:
  %vp = getelementptr {t}, ptr %src, i64 %sbase
  %vx = load {wt}, ptr %vp, align {size}
  store {wt} %vx, ptr %fdp, align {size}
  br label %fstep_end
fgather:
{chr(10).join(gather)}
  store {wt} %gv{w - 1}, ptr %fdp, align {size}
  br label %fstep_end
fstep_end:
  %fp.next = add i64 %fp, 1
  %fmore = icmp ult i64 %fp.next, %kc
  br i1 %fmore, label %fstep, label %pad
pad:                                   ; k steps kc..kcp-1 of a whole panel are zeros
  %zp = phi i64 [ %kc, %fstep_end ], [ %kc, %tdone ], [ %zp.next, %padz ]
  %zmore = icmp ult i64 %zp, %kcp
  br i1 %zmore, label %padz, label %panel_end
padz:
  %zdo.0 = mul i64 %zp, {w}
  %zdo = add i64 %dbase, %zdo.0
  %zdp = getelementptr {t}, ptr %dst, i64 %zdo
  store {wt} zeroinitializer, ptr %zdp, align {size}
  %zp.next = add i64 %zp, 1
  br label %pad
estep:                                 ; the last, partial panel: element by element, zeros outside
  %ep = phi i64 [ 0, %panel ], [ %ep.next, %estep_end ]
  %ein = icmp ult i64 %ep, %kc
  %eso = mul i64 %ep, %ks
  %ebase = add i64 %sbase0, %eso
  %edo.0 = mul i64 %ep, {w}
  %edo = add i64 %dbase, %edo.0
  br label %elane
elane:
  %l = phi i64 [ 0, %estep ], [ %l.next, %elane ]
  %lin = icmp ult i64 %l, %left
  %ok = and i1 %lin, %ein
  %elo.0 = mul i64 %l, %ls
  %elo = add i64 %ebase, %elo.0
  %eidx = select i1 %ok, i64 %elo, i64 0
  %esp = getelementptr {t}, ptr %src, i64 %eidx
  %ex = load {t}, ptr %esp, align {size}
  %ev = select i1 %ok, {t} %ex, {t} 0.0
  %edi = add i64 %edo, %l
  %edp = getelementptr {t}, ptr %dst, i64 %edi
  store {t} %ev, ptr %edp, align {size}
  %l.next = add i64 %l, 1
  %lmore = icmp ult i64 %l.next, {w}
  br i1 %lmore, label %elane, label %estep_end
estep_end:
  %ep.next = add i64 %ep, 1
  %emore = icmp ult i64 %ep.next, %kcp
  br i1 %emore, label %estep, label %panel_end
panel_end:
  %q.next = add i64 %q, 1
  %qmore = icmp ult i64 %q.next, %npanel
  br i1 %qmore, label %panel, label %done
done:
  ret void
}}
"""
