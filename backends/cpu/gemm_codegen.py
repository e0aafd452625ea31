"""minixla's own gemm: an AVX-512/AVX2 micro-kernel with packing and cache blocking, in LLVM IR.

Same entry ABI as the BLAS path (`blas.py`): CBLAS ILP64,

    void minixla_gen_sgemm(i32 order, i32 transa, i32 transb, i64 m, i64 n, i64 k, float alpha,
                           ptr a, i64 lda, ptr b, i64 ldb, float beta, ptr c, i64 ldc)

Why our own: numpy's OpenBLAS reaches its per-core speed on one thread, but
splitting a gemm over our threads (`gemm_threads.py`) makes every thread pack
all of B again, and an even static split waits for the slowest core of a busy
machine. Here the structure is the BLIS/Goto one (van Zee & van de Geijn):

    for p0 in k, step KC:                    (one fork-join pair per step)
        pack A[:, p0:p0+KC] into MR-row micro-panels         shared, split over threads
        tasks: column blocks of NC columns, taken from an atomic counter (dynamic balance)
            pack B[p0:p0+KC, block] into NR-column micro-panels   per thread, L2-resident
            for each MR-row micro-panel of A:                      12 x KC, L1-resident
                for each NR-column micro-panel of B: micro-kernel  MR x NR tile of C

so A and B are each packed exactly once. The micro-kernel keeps an MR x NR
tile of C in registers (NR = NV vectors of VL lanes; AVX-512 f32: 12 x 32 in
24 zmm) and per k does NV vector loads of B, MR broadcasts of A and MR*NV
FMAs. Packed panels are zero-padded to whole tiles and to a multiple of the
unroll in k, so the kernel has no remainder loops; edge tiles of C are
written with masked loads/stores. C is row-major (a column-major call computes
C^T = B^T A^T); transposes are strides in the packing.

`kernel_shape(features)` picks the shape from the CPU features llvmlite
reports (AVX-512F, else AVX2+FMA); without either there is no generated gemm.
"""

from __future__ import annotations

from dataclasses import dataclass

COL_MAJOR, NO_TRANS = 102, 111


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

    @property
    def nr(self) -> int:
        return self.vl * self.nv

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
        return {"s": KernelShape("float", 16, 12, 2, 256, 512), "d": KernelShape("double", 8, 12, 2, 256, 256)}
    if "avx2" in feats and "fma" in feats:
        return {"s": KernelShape("float", 8, 6, 2, 256, 256), "d": KernelShape("double", 4, 6, 2, 256, 128)}
    return None


# ---- micro-kernel --------------------------------------------------------------------------
def _kernel(g: str, s: KernelShape) -> str:
    """`@{g}_ukernel(kc, ap, bp, c, ldc, alpha, beta, mr, nr)`: C tile = alpha*Ap*Bp + beta*C
    (C not read where beta == 0) over kc (a multiple of the unroll) packed steps."""
    t, vt, vl, mr, nv, u = s.ty, s.vt, s.vl, s.mr, s.nv, s.unroll
    fma = f"@llvm.fma.{s.suffix}"
    acc = [[f"%acc{i}_{v}" for v in range(nv)] for i in range(mr)]
    L = [f"define internal void @{g}_ukernel(i64 %kc, ptr noalias %ap, ptr noalias %bp, ptr noalias %c, "
         f"i64 %ldc, {t} %alpha, {t} %beta, i64 %mr, i64 %nr) {{",
         "entry:"]
    for i in range(mr):  # C's tile is needed at the end: fetch its lines while the loop runs
        L += [f"  %pfr{i} = mul i64 %ldc, {i}", f"  %pfp{i} = getelementptr {t}, ptr %c, i64 %pfr{i}"]
        for line in range(0, s.nr * s.size, 64):
            L += [f"  %pfq{i}_{line} = getelementptr i8, ptr %pfp{i}, i64 {line}",
                  f"  call void @llvm.prefetch.p0(ptr %pfq{i}_{line}, i32 1, i32 3, i32 1)"]
    L += ["  br label %loop", "loop:", "  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]"]
    last = {}
    for i in range(mr):
        for v in range(nv):
            last[i, v] = f"%a{u - 1}_{i}_{v}"
            L.append(f"  {acc[i][v]} = phi {vt} [ zeroinitializer, %entry ], [ {last[i, v]}, %loop ]")
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
    # full tile: plain loads/stores
    L.append("st_full:")
    for i in range(mr):
        L.append(f"  %fr{i} = mul i64 %ldc, {i}")
        for v in range(nv):
            p = f"%fp{i}_{v}"
            L.append(f"  %fo{i}_{v} = add i64 %fr{i}, {v * vl}")
            L.append(f"  {p} = getelementptr {t}, ptr %c, i64 %fo{i}_{v}")
            L += _merge(f"f{i}_{v}", s, last[i, v], p, None)
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
def _packing(g: str, s: KernelShape) -> str:
    """`@{g}_pack_a(...)` and `@{g}_pack_b(...)`, one template: `@{g}_pack_W(dst, src, ls, ks, l0,
    lanes, p0, kc, kcp)` stores lanes [l0, l0+lanes) of k-steps [p0, p0+kc) as micro-panels of W
    lanes (kcp x W each, lane fastest, zero-padded), element (lane l, step p) being at
    src + l*ls + p*ks. A's lanes are its rows (W = MR), B's its columns (W = NR)."""
    return _packer(g, s, s.mr, "a") + _packer(g, s, s.nr, "b")


def _packer(g: str, s: KernelShape, w: int, name: str) -> str:
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
    return f"""
define internal void @{g}_pack_{name}(ptr noalias %dst, ptr noalias %src, i64 %ls, i64 %ks, i64 %l0, i64 %lanes,
                                 i64 %p0, i64 %kc, i64 %kcp) {{
entry:
  %lanes_pad = add i64 %lanes, {w - 1}
  %npanel = udiv i64 %lanes_pad, {w}
  %unit = icmp eq i64 %ls, 1
  br label %panel
panel:
  %q = phi i64 [ 0, %entry ], [ %q.next, %panel_end ]
  %ql = mul i64 %q, {w}
  %left = sub i64 %lanes, %ql
  %full = icmp uge i64 %left, {w}
  %dbase.0 = mul i64 %q, %kcp
  %dbase = mul i64 %dbase.0, {w}
  %gl = add i64 %l0, %ql
  %lbase = mul i64 %gl, %ls
  %pbase = mul i64 %p0, %ks
  %sbase0 = add i64 %lbase, %pbase
  br i1 %full, label %fstep, label %estep
fstep:                                 ; a whole panel: one vector row per k step
  %fp = phi i64 [ 0, %panel ], [ %fp.next, %fstep_end ]
  %fdo.0 = mul i64 %fp, {w}
  %fdo = add i64 %dbase, %fdo.0
  %fdp = getelementptr {t}, ptr %dst, i64 %fdo
  %fso = mul i64 %fp, %ks
  %sbase = add i64 %sbase0, %fso
  br i1 %unit, label %fvec, label %fgather
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
  %zp = phi i64 [ %kc, %fstep_end ], [ %zp.next, %padz ]
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


# ---- driver ---------------------------------------------------------------------------------
#: context of the two parallel phases (field numbers used below)
_CTX = ("ptr", "i64", "i64", "ptr", "i64", "i64", "ptr", "i64", "i64", "i64", "i64", "i64", "i64", "T", "T",
        "ptr", "ptr", "ptr", "i64", "i64", "i64", "i64", "i64")
(_A, _ARS, _ACS, _B, _BRS, _BCS, _C, _LDC, _M, _N, _P0, _KC, _KCP, _ALPHA, _BETA,
 _APACK, _BPACK, _COUNTER, _NPA, _NPB, _NRC, _NBC, _NTASKS) = range(len(_CTX))


def _fields(g: str, t: str, names: dict[str, int]) -> str:
    """Load the named context fields: `%name = ...`."""
    ctx = f"%ctx_{g}"
    out = []
    for name, idx in names.items():
        ty = t if _CTX[idx] == "T" else _CTX[idx]
        out += [f"  %{name}.p = getelementptr {ctx}, ptr %ctx, i32 0, i32 {idx}",
                f"  %{name} = load {ty}, ptr %{name}.p"]
    return "\n".join(out)


def _driver(g: str, s: KernelShape, serial_work: int, rows_per_task: int) -> str:
    t, mr, nr, kc, nc, u = s.ty, s.mr, s.nr, s.kc, s.nc, s.unroll
    ctx_type = f"%ctx_{g} = type {{ {', '.join(t if f == 'T' else f for f in _CTX)} }}"
    panels_per_task = max(1, rows_per_task // mr)
    bpanels_per_block = nc // nr
    pack_fields = _fields(g, t, dict(a=_A, ars=_ARS, acs=_ACS, b=_B, brs=_BRS, bcs=_BCS, m=_M, n=_N, p0=_P0,
                                     kc=_KC, kcp=_KCP, apack=_APACK, bpack=_BPACK, npa=_NPA, npb=_NPB))
    comp_fields = _fields(g, t, dict(c=_C, ldc=_LDC, m=_M, n=_N, kcp=_KCP, alpha=_ALPHA, beta=_BETA,
                                     apack=_APACK, bpack=_BPACK, counter=_COUNTER, npa=_NPA, npb=_NPB,
                                     nbc=_NBC, ntasks=_NTASKS))

    def store(field: int, ty: str, val: str) -> str:
        return (f"  %st{field}.p = getelementptr %ctx_{g}, ptr %ctx, i32 0, i32 {field}\n"
                f"  store {ty} {val}, ptr %st{field}.p")

    sets = "\n".join([store(_A, "ptr", "%a"), store(_ARS, "i64", "%ars"), store(_ACS, "i64", "%acs"),
                      store(_B, "ptr", "%b"), store(_BRS, "i64", "%brs"), store(_BCS, "i64", "%bcs"),
                      store(_C, "ptr", "%c"), store(_LDC, "i64", "%ldc"), store(_M, "i64", "%m"),
                      store(_N, "i64", "%n"), store(_ALPHA, t, "%alpha"), store(_APACK, "ptr", "%apack"),
                      store(_BPACK, "ptr", "%bpack"), store(_COUNTER, "ptr", "%counter"),
                      store(_NPA, "i64", "%npa"), store(_NPB, "i64", "%npb"), store(_NRC, "i64", "%nrc"),
                      store(_NBC, "i64", "%nbc"), store(_NTASKS, "i64", "%ntasks")])
    return f"""
{ctx_type}

; pack units [lo, hi): A micro-panels 0..npa-1, then B micro-panels npa..npa+npb-1
define internal void @{g}_pack_task(i64 %lo, i64 %hi, ptr %ctx) {{
entry:
{pack_fields}
  %alo = call i64 @llvm.umin.i64(i64 %lo, i64 %npa)
  %ahi = call i64 @llvm.umin.i64(i64 %hi, i64 %npa)
  %has_a = icmp ult i64 %alo, %ahi
  br i1 %has_a, label %do_a, label %b_part
do_a:
  %ai0 = mul i64 %alo, {mr}
  %aend0 = mul i64 %ahi, {mr}
  %aend = call i64 @llvm.umin.i64(i64 %aend0, i64 %m)
  %arows = sub i64 %aend, %ai0
  %adoff0 = mul i64 %ai0, %kcp
  %adst = getelementptr {t}, ptr %apack, i64 %adoff0
  call void @{g}_pack_a(ptr %adst, ptr %a, i64 %ars, i64 %acs, i64 %ai0, i64 %arows, i64 %p0, i64 %kc, i64 %kcp)
  br label %b_part
b_part:
  %blo0 = call i64 @llvm.umax.i64(i64 %lo, i64 %npa)
  %blo = sub i64 %blo0, %npa
  %bhi0 = call i64 @llvm.umax.i64(i64 %hi, i64 %npa)
  %bhi = sub i64 %bhi0, %npa
  %has_b = icmp ult i64 %blo, %bhi
  br i1 %has_b, label %do_b, label %done
do_b:
  %bj0 = mul i64 %blo, {nr}
  %bend0 = mul i64 %bhi, {nr}
  %bend = call i64 @llvm.umin.i64(i64 %bend0, i64 %n)
  %bcols = sub i64 %bend, %bj0
  %bdoff0 = mul i64 %bj0, %kcp
  %bdst = getelementptr {t}, ptr %bpack, i64 %bdoff0
  call void @{g}_pack_b(ptr %bdst, ptr %b, i64 %bcs, i64 %brs, i64 %bj0, i64 %bcols, i64 %p0, i64 %kc, i64 %kcp)
  br label %done
done:
  ret void
}}

; tiles of C (a row chunk x a column block), taken from the shared counter until none is left
define internal void @{g}_compute_task(i64 %lo, i64 %hi, ptr %ctx) {{
entry:
{comp_fields}
  br label %next
next:
  %tk = atomicrmw add ptr %counter, i64 1 monotonic
  %left = icmp ult i64 %tk, %ntasks
  br i1 %left, label %tile, label %done
tile:
  %rc = udiv i64 %tk, %nbc
  %bc = urem i64 %tk, %nbc
  %ip0 = mul i64 %rc, {panels_per_task}
  %ip1.0 = add i64 %ip0, {panels_per_task}
  %ip1 = call i64 @llvm.umin.i64(i64 %ip1.0, i64 %npa)
  %jp0 = mul i64 %bc, {bpanels_per_block}
  %jp1.0 = add i64 %jp0, {bpanels_per_block}
  %jp1 = call i64 @llvm.umin.i64(i64 %jp1.0, i64 %npb)
  br label %irow
irow:
  %ip = phi i64 [ %ip0, %tile ], [ %ip.next, %irow_end ]
  %i0 = mul i64 %ip, {mr}
  %mleft = sub i64 %m, %i0
  %mrv = call i64 @llvm.umin.i64(i64 %mleft, i64 {mr})
  %aoff = mul i64 %i0, %kcp
  %ap = getelementptr {t}, ptr %apack, i64 %aoff
  %crow = mul i64 %i0, %ldc
  br label %jcol
jcol:
  %jp = phi i64 [ %jp0, %irow ], [ %jp.next, %jcol ]
  %j0 = mul i64 %jp, {nr}
  %nleft = sub i64 %n, %j0
  %nrv = call i64 @llvm.umin.i64(i64 %nleft, i64 {nr})
  %boff = mul i64 %j0, %kcp
  %bp = getelementptr {t}, ptr %bpack, i64 %boff
  %coff = add i64 %crow, %j0
  %cp = getelementptr {t}, ptr %c, i64 %coff
  call void @{g}_ukernel(i64 %kcp, ptr %ap, ptr %bp, ptr %cp, i64 %ldc, {t} %alpha, {t} %beta, i64 %mrv, i64 %nrv)
  %jp.next = add i64 %jp, 1
  %jmore = icmp ult i64 %jp.next, %jp1
  br i1 %jmore, label %jcol, label %irow_end
irow_end:
  %ip.next = add i64 %ip, 1
  %imore = icmp ult i64 %ip.next, %ip1
  br i1 %imore, label %irow, label %next
done:
  ret void
}}

; C = beta*C (k == 0 or alpha == 0: A and B are not read); beta == 0 writes zeros
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
  %acc.next = call {t} @llvm.fma.{'f32' if t == 'float' else 'f64'}({t} %x, {t} %y, {t} %acc)
  %p.next = add i64 %p, 1
  %pm = icmp ult i64 %p.next, %k
  br i1 %pm, label %dot, label %col_end
col_end:
  %co = add i64 %crow, %j
  %cp = getelementptr {t}, ptr %c, i64 %co
  %old = load {t}, ptr %cp
  %scaled = fmul {t} %acc.next, %alpha
  %sum = call {t} @llvm.fma.{'f32' if t == 'float' else 'f64'}({t} %old, {t} %beta, {t} %scaled)
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
}}

define void @minixla_gen_{g}gemm(i32 %order, i32 %ta0, i32 %tb0, i64 %m0, i64 %n0, i64 %k, {t} %alpha,
                                ptr %a0, i64 %lda0, ptr %b0, i64 %ldb0, {t} %beta, ptr %c, i64 %ldc) {{
entry:
  ; column-major C: compute C^T = op(B)^T op(A)^T in row-major terms
  %cm = icmp eq i32 %order, {COL_MAJOR}
  %m = select i1 %cm, i64 %n0, i64 %m0
  %n = select i1 %cm, i64 %m0, i64 %n0
  %a = select i1 %cm, ptr %b0, ptr %a0
  %b = select i1 %cm, ptr %a0, ptr %b0
  %lda = select i1 %cm, i64 %ldb0, i64 %lda0
  %ldb = select i1 %cm, i64 %lda0, i64 %ldb0
  %ta = select i1 %cm, i32 %tb0, i32 %ta0
  %tb = select i1 %cm, i32 %ta0, i32 %tb0
  %anotr = icmp eq i32 %ta, {NO_TRANS}
  %ars = select i1 %anotr, i64 %lda, i64 1
  %acs = select i1 %anotr, i64 1, i64 %lda
  %bnotr = icmp eq i32 %tb, {NO_TRANS}
  %brs = select i1 %bnotr, i64 %ldb, i64 1
  %bcs = select i1 %bnotr, i64 1, i64 %ldb
  %mz = icmp eq i64 %m, 0
  %nz = icmp eq i64 %n, 0
  %empty = or i1 %mz, %nz
  br i1 %empty, label %ret, label %nonempty
nonempty:
  %kz = icmp eq i64 %k, 0
  %alz = fcmp oeq {t} %alpha, 0.0
  %noprod = or i1 %kz, %alz
  br i1 %noprod, label %scale, label %setup
scale:
  call void @{g}_scale(i64 %m, i64 %n, {t} %beta, ptr %c, i64 %ldc)
  br label %ret
setup:
  %npa.0 = add i64 %m, {mr - 1}
  %npa = udiv i64 %npa.0, {mr}
  %npb.0 = add i64 %n, {nr - 1}
  %npb = udiv i64 %npb.0, {nr}
  %nrc.0 = add i64 %npa, {panels_per_task - 1}
  %nrc = udiv i64 %nrc.0, {panels_per_task}
  %nbc.0 = add i64 %npb, {bpanels_per_block - 1}
  %nbc = udiv i64 %nbc.0, {bpanels_per_block}
  %ntasks = mul i64 %nrc, %nbc
  %kfirst = call i64 @llvm.umin.i64(i64 %k, i64 {kc})
  %kmax.0 = add i64 %kfirst, {u - 1}
  %kmax.1 = udiv i64 %kmax.0, {u}
  %kmax = mul i64 %kmax.1, {u}
  %abytes.0 = mul i64 %npa, {mr * s.size}
  %abytes.1 = mul i64 %abytes.0, %kmax
  %abytes.2 = add i64 %abytes.1, 63
  %abytes = and i64 %abytes.2, -64
  %bbytes.0 = mul i64 %npb, {nr * s.size}
  %bbytes.1 = mul i64 %bbytes.0, %kmax
  %bbytes.2 = add i64 %bbytes.1, 63
  %bbytes = and i64 %bbytes.2, -64
  %apack = call ptr @aligned_alloc(i64 64, i64 %abytes)
  %bpack = call ptr @aligned_alloc(i64 64, i64 %bbytes)
  %anull = icmp eq ptr %apack, null
  %bnull = icmp eq ptr %bpack, null
  %oom = or i1 %anull, %bnull
  br i1 %oom, label %nomem, label %go
nomem:
  call void @free(ptr %apack)
  call void @free(ptr %bpack)
  call void @{g}_naive(i64 %m, i64 %n, i64 %k, {t} %alpha, ptr %a, i64 %ars, i64 %acs, ptr %b, i64 %brs,
                       i64 %bcs, {t} %beta, ptr %c, i64 %ldc)
  br label %ret
go:
  %ctx = alloca %ctx_{g}, align 8
  %counter = alloca i64, align 8
{sets}
  %mn = mul i64 %m, %n
  %work = mul i64 %mn, %k
  %serial = icmp ult i64 %work, {serial_work}
  %npack = add i64 %npa, %npb
  br label %kblock
kblock:
  %p0 = phi i64 [ 0, %go ], [ %p0.next, %kblock_end ]
  %kleft = sub i64 %k, %p0
  %kcb = call i64 @llvm.umin.i64(i64 %kleft, i64 {kc})
  %kcp.0 = add i64 %kcb, {u - 1}
  %kcp.1 = udiv i64 %kcp.0, {u}
  %kcp = mul i64 %kcp.1, {u}
  %first = icmp eq i64 %p0, 0
  %beff = select i1 %first, {t} %beta, {t} 1.0
{store(_P0, "i64", "%p0").replace("%st", "%sp")}
{store(_KC, "i64", "%kcb").replace("%st", "%sk")}
{store(_KCP, "i64", "%kcp").replace("%st", "%skp")}
{store(_BETA, t, "%beff").replace("%st", "%sb")}
  store i64 0, ptr %counter
  br i1 %serial, label %one_thread, label %threads
one_thread:
  call void @{g}_pack_task(i64 0, i64 %npack, ptr %ctx)
  call void @{g}_compute_task(i64 0, i64 %ntasks, ptr %ctx)
  br label %kblock_end
threads:
  call void @minixla_parallel_for(ptr @{g}_pack_task, ptr %ctx, i64 0, i64 %npack)
  call void @minixla_parallel_for(ptr @{g}_compute_task, ptr %ctx, i64 0, i64 %ntasks)
  br label %kblock_end
kblock_end:
  %p0.next = add i64 %p0, {kc}
  %kmore = icmp ult i64 %p0.next, %k
  br i1 %kmore, label %kblock, label %release
release:
  call void @free(ptr %apack)
  call void @free(ptr %bpack)
  br label %ret
ret:
  ret void
}}
"""


_DECLS = """
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)
declare void @minixla_parallel_for(ptr, ptr, i64, i64)
declare i64 @llvm.umin.i64(i64, i64)
declare i64 @llvm.umax.i64(i64, i64)
declare void @llvm.prefetch.p0(ptr, i32, i32, i32)
"""


def _intrinsics(s: KernelShape) -> str:
    vt, vl = s.vt, s.vl
    return "\n".join([
        f"declare {vt} @llvm.fma.{s.suffix}({vt}, {vt}, {vt})",
        f"declare {s.ty} @llvm.fma.f{s.size * 8}({s.ty}, {s.ty}, {s.ty})",
        f"declare {vt} @llvm.masked.load.{s.suffix}.p0(ptr, i32, <{vl} x i1>, {vt})",
        f"declare void @llvm.masked.store.{s.suffix}.p0({vt}, ptr, i32, <{vl} x i1>)"])


def gemm_ir(shapes: dict[str, KernelShape], serial_work: int = 1 << 20, rows_per_task: int = 256) -> str:
    """LLVM IR defining `minixla_gen_sgemm` and `minixla_gen_dgemm` for these kernel shapes."""
    parts = [_DECLS]
    for g in ("s", "d"):
        s = shapes[g]
        assert s.nc % s.nr == 0 and s.kc % s.unroll == 0, s
        parts += [_intrinsics(s), _kernel(g, s), _packing(g, s), _driver(g, s, serial_work, rows_per_task)]
    return "\n".join(parts)


#: below these the library's gemm (if any) is faster: packing and tile padding cost more than they save
#: (measured: 64^3 3x, matrix-vector 5-10x, n = 64 x k = 576 convolution patches 1.3x slower generated)
MIN_DIM = 128
MIN_WORK = 1 << 21


def dispatch_ir(min_dim: int = MIN_DIM, min_work: int = MIN_WORK) -> str:
    """`minixla_dispatch_?gemm`: small or skinny products to `minixla_fallback_?gemm`
    (the library's gemm), the rest to the generated one. Same ABI."""
    out = []
    for g, t in (("s", "float"), ("d", "double")):
        sig = (f"i32 %order, i32 %ta, i32 %tb, i64 %m, i64 %n, i64 %k, {t} %alpha, ptr %a, i64 %lda, "
               f"ptr %b, i64 %ldb, {t} %beta, ptr %c, i64 %ldc")
        args = ", ".join(a for a in sig.split(", "))
        out.append(f"""
declare void @minixla_fallback_{g}gemm({sig})
define void @minixla_dispatch_{g}gemm({sig}) {{
entry:
  %mn = call i64 @llvm.umin.i64(i64 %m, i64 %n)
  %thin = icmp ult i64 %mn, {min_dim}
  %mnp = mul i64 %m, %n
  %work = mul i64 %mnp, %k
  %little = icmp ult i64 %work, {min_work}
  %small = or i1 %thin, %little
  br i1 %small, label %lib, label %gen
lib:
  call void @minixla_fallback_{g}gemm({args})
  ret void
gen:
  call void @minixla_gen_{g}gemm({args})
  ret void
}}""")
    return "\n".join(out)


def compile_gemm(shapes: dict[str, KernelShape], fallback: tuple[int, int] | None = None) -> tuple[object, int, int]:
    """JIT the generated gemm for the host; returns (engine to keep, sgemm, dgemm addresses).
    With `fallback` (addresses of a library's sgemm, dgemm), the returned entries are the
    dispatchers that leave small and skinny products to it."""
    import llvmlite.binding as llvm

    from minixla.backends.cpu.target import create_machine, host_target
    from minixla.backends.cpu.threadpool import ensure_registered

    ensure_registered()  # minixla_parallel_for
    text = gemm_ir(shapes)
    if fallback is not None:
        llvm.add_symbol("minixla_fallback_sgemm", fallback[0])
        llvm.add_symbol("minixla_fallback_dgemm", fallback[1])
        text += dispatch_ir()
    host = host_target()
    module = llvm.parse_assembly(text)
    module.triple = host.triple
    module.verify()
    engine = llvm.create_mcjit_compiler(module, create_machine(host.triple, host.cpu, host.features))
    engine.finalize_object()
    entry = "minixla_dispatch_" if fallback is not None else "minixla_gen_"
    return engine, engine.get_function_address(entry + "sgemm"), engine.get_function_address(entry + "dgemm")
