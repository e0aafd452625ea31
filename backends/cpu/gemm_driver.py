"""The generated gemm's driver, in LLVM IR: the parallel work (per k block, shared packing
then tiles of C, all as jobs from one atomic counter, one fork-join per product), the
packing buffer kept across calls (one k block's panels, or two while one's are at most
`TWO_SLOTS_BYTES`: at most 2 x 4096 x KC elements per element type, 16 MiB for f32 and
for f64), the no-product and out-of-memory paths, the dispatcher to a
library for small products, and the JIT compilation. The micro-kernel and the
packing are in `gemm_codegen.py`, which says how the pieces fit (BLIS/Goto
blocking).
"""

from __future__ import annotations

from minixla.backends.cpu.gemm_codegen import COL_MAJOR, NO_TRANS, KernelShape, kernel_ir, packing_ir
from minixla.backends.cpu.gemm_edges import buffer_ir, edge_paths_ir
from minixla.backends.cpu.gemm_tiles import tile_loops

# ---- driver ---------------------------------------------------------------------------------
#: context of the parallel work (field numbers used below)
_CTX = ("ptr", "i64", "i64", "ptr", "i64", "i64", "ptr", "i64", "i64", "i64", "i64", "T", "T",
        "ptr", "ptr", "ptr", "i64", "i64", "i64", "i64", "i64", "i64", "i64", "i64", "i64",
        "ptr", "ptr", "i1")
(_A, _ARS, _ACS, _B, _BRS, _BCS, _C, _LDC, _M, _N, _K, _ALPHA, _BETA,
 _APACK, _BPACK, _COUNTER, _NPA, _NPB, _NRC, _NTILES, _ASTRIDE, _BSTRIDE, _NSLOT, _NKB, _NPER,
 _PDONE, _FLAGS, _LATE) = range(len(_CTX))


def _fields(g: str, t: str, names: dict[str, int]) -> str:
    """Load the named context fields: `%name = ...`."""
    ctx = f"%ctx_{g}"
    out = []
    for name, idx in names.items():
        ty = t if _CTX[idx] == "T" else _CTX[idx]
        out += [f"  %{name}.p = getelementptr {ctx}, ptr %ctx, i32 0, i32 {idx}",
                f"  %{name} = load {ty}, ptr %{name}.p"]
    return "\n".join(out)


def _kb_params(kc: int, u: int) -> str:
    """`%p0`, `%kc`, `%kcp` (kc rounded up to the unroll) of k block `%kb` of a product of depth `%k`,
    and `%kmx`, the largest kcp: A micro-panels are `%kmx` apart whatever their k block's kcp, since a
    task packing its own A (`gemm_tiles.tile_loops`) may run beside one of another k block."""
    return f"""  %kmx.0 = call i64 @llvm.umin.i64(i64 %k, i64 {kc})
  %kmx.1 = add i64 %kmx.0, {u - 1}
  %kmx.2 = udiv i64 %kmx.1, {u}
  %kmx = mul i64 %kmx.2, {u}
  %p0 = mul i64 %kb, {kc}
  %kleft = sub i64 %k, %p0
  %kc = call i64 @llvm.umin.i64(i64 %kleft, i64 {kc})
  %kcp.0 = add i64 %kc, {u - 1}
  %kcp.1 = udiv i64 %kcp.0, {u}
  %kcp = mul i64 %kcp.1, {u}"""


def _spin_until(g: str, n: int, block: str, entry: str, ptr: str, need: str, value: str, ok: str, then: str) -> str:
    """Blocks `block` (entered from `entry`) and `spin<n>`: wait, with `@<g>_backoff`, until the counter
    at `%ptr` (acquire) is at least `%need`, then branch to `then`."""
    return f"""{block}:
  %sp{n} = phi i32 [ 0, %{entry} ], [ %sp{n}.next, %spin{n} ]
  %{value} = load atomic i64, ptr %{ptr} acquire, align 8
  %{ok} = icmp uge i64 %{value}, %{need}
  br i1 %{ok}, label %{then}, label %spin{n}
spin{n}:
  %sp{n}.next = call i32 @{g}_backoff(i32 %sp{n})
  br label %{block}"""


#: row chunks a k block's tiles are split into at least (tasks = chunks x column blocks; the column
#: block is the outer index, so consecutive tasks share the packed B block in L2): with 2-8 threads
#: taking tasks from the counter, the last one waits for at most a sixteenth of the work
_MIN_CHUNKS = 16
#: micro-panels per packing task
_PACK_GRAIN = 2

#: packed panels of one k block up to which the next k block is packed into a second slot
TWO_SLOTS_BYTES = 4 << 20

#: pauses a task waiting for another thread's task spins before it yields its core instead
_SPINS = 100

def _driver(g: str, s: KernelShape, serial_work: int, max_block: int, two_slots_bytes: int) -> str:
    t, mr, nr, kc, nc, u = s.ty, s.mr, s.nr, s.kc, s.nc, s.unroll
    ctx_type = f"%ctx_{g} = type {{ {', '.join(t if f == 'T' else f for f in _CTX)} }}"
    panels_per_task = max(1, s.rows_per_task // mr)
    bpanels_per_block = nc // nr
    pack_fields = _fields(g, t, dict(a=_A, ars=_ARS, acs=_ACS, b=_B, brs=_BRS, bcs=_BCS, m=_M, n=_N, k=_K,
                                     apack0=_APACK, bpack0=_BPACK, npa=_NPA, astride=_ASTRIDE, bstride=_BSTRIDE,
                                     nslot=_NSLOT))
    work_fields = _fields(g, t, dict(c=_C, ldc=_LDC, m=_M, n=_N, k=_K, alpha=_ALPHA, beta0=_BETA,
                                     apack0=_APACK, bpack0=_BPACK, counter=_COUNTER, npa=_NPA, npb=_NPB,
                                     nrc=_NRC, ntiles=_NTILES, a=_A, ars=_ARS, acs=_ACS,
                                     astride=_ASTRIDE, bstride=_BSTRIDE, nslot=_NSLOT, nkb=_NKB,
                                     nper=_NPER, pdone=_PDONE, flags=_FLAGS, late=_LATE))

    def store(field: int, ty: str, val: str) -> str:
        return (f"  %st{field}.p = getelementptr %ctx_{g}, ptr %ctx, i32 0, i32 {field}\n"
                f"  store {ty} {val}, ptr %st{field}.p")

    sets = "\n".join([store(_A, "ptr", "%a"), store(_ARS, "i64", "%ars"), store(_ACS, "i64", "%acs"),
                      store(_B, "ptr", "%b"), store(_BRS, "i64", "%brs"), store(_BCS, "i64", "%bcs"),
                      store(_C, "ptr", "%c"), store(_LDC, "i64", "%ldc"), store(_M, "i64", "%m"),
                      store(_N, "i64", "%n"), store(_K, "i64", "%k"), store(_ALPHA, t, "%alpha"),
                      store(_BETA, t, "%beta"), store(_APACK, "ptr", "%apack"), store(_BPACK, "ptr", "%bpack"),
                      store(_COUNTER, "ptr", "%counter"), store(_NPA, "i64", "%npa"), store(_NPB, "i64", "%npb"),
                      store(_NRC, "i64", "%nrc"), store(_NTILES, "i64", "%ntiles"),
                      store(_ASTRIDE, "i64", "%astride"),
                      store(_BSTRIDE, "i64", "%bstride"), store(_NPER, "i64", "%nper"),
                      store(_PDONE, "ptr", "%pdone"), store(_FLAGS, "ptr", "%flags"), store(_LATE, "i1", "%late"),
                      store(_NSLOT, "i64", "%nslot"), store(_NKB, "i64", "%nkbt")])
    return f"""
{ctx_type}

; the whole product on each thread, as jobs from one counter in k-block order: per k block, its
; packing units (grains of A and B micro-panels; a B micro-panel is NR/MR times an A one's work)
; then its tasks (row chunk x column block of C). A job waits only for what it needs: a task for
; its k block's packing (`%pdone`, per slot) and for the previous k block's task on its tile
; (`%flags`), packing for the tasks of the k block that used the slot before (`%pdone` + 2). A thread done early
; packs and computes the next k block instead of waiting at a barrier: one fork-join per product
; instead of two per k block (their waits for the slower thread's last task were 2-6 ms of a 3x3
; convolution's ~22, more on a busy machine).
define internal void @{g}_work(i64 %lo0, i64 %hi0, ptr %ctx) {{
entry:
{work_fields}
  %npg = udiv i64 %nper, {_PACK_GRAIN}
  %per = add i64 %npg, %ntiles
  %nall = mul i64 %nkb, %per
  %poff = select i1 %late, i64 %npa, i64 0
  %npack = add i64 %npa, %npb
  %nbc = udiv i64 %ntiles, %nrc
  ; this thread's estimate of the threads: the parallel_for split the %shares jobs evenly
  %shares.0 = mul i64 %nkb, %ntiles
  %shares = add i64 %shares.0, 1
  %mine.0 = sub i64 %hi0, %lo0
  %mine = call i64 @llvm.umax.i64(i64 %mine.0, i64 1)
  %half = lshr i64 %mine, 1
  %nthr.0 = add i64 %shares, %half
  %nthr = udiv i64 %nthr.0, %mine
  br label %next
next:
  %pfid = phi i64 [ 0, %entry ], [ %pfid, %packit ], [ %pfid.new, %tdone ]
  %job = atomicrmw add ptr %counter, i64 1 monotonic
  %left = icmp ult i64 %job, %nall
  br i1 %left, label %which, label %done
which:
  %kb = udiv i64 %job, %per
  %w = urem i64 %job, %per
  ; k block kb's panels are in slot kb mod nslot: its packing waits until k block kb - nslot's
  ; tasks are done (with two threads they always are); counters per slot count up across k blocks
  %slot = urem i64 %kb, %nslot
  %round = udiv i64 %kb, %nslot
  %pdp = getelementptr i64, ptr %pdone, i64 %slot
  %tdi = add i64 %slot, 2
  %tdp = getelementptr i64, ptr %pdone, i64 %tdi
  %ispack = icmp ult i64 %w, %npg
  br i1 %ispack, label %pack, label %task
pack:
  %pw = mul i64 %w, {_PACK_GRAIN}
  %plo.0 = add i64 %pw, %poff
  %plo = call i64 @llvm.umin.i64(i64 %plo.0, i64 %npack)
  %phi.0 = add i64 %plo.0, {_PACK_GRAIN}
  %phi = call i64 @llvm.umin.i64(i64 %phi.0, i64 %npack)
  %tneed = mul i64 %round, %ntiles
  br label %wfree
{_spin_until(g, 0, "wfree", "pack", "tdp", "tneed", "tdv", "free", "packit")}
packit:
  call void @{g}_pack_units(i64 %plo, i64 %phi, ptr %ctx, i64 %kb)
  %pdold = atomicrmw add ptr %pdp, i64 1 release
  br label %next
task:
  %tl = sub i64 %w, %npg
  %round1 = add i64 %round, 1
  %pneed = mul i64 %round1, %npg
  %flp = getelementptr i64, ptr %flags, i64 %tl
  br label %wpack
{_spin_until(g, 1, "wpack", "task", "pdp", "pneed", "pdv", "pok", "wtile")}
{_spin_until(g, 2, "wtile", "wpack", "flp", "kb", "flv", "fok", "tile")}
tile:
{_kb_params(kc, u)}
  %first = icmp eq i64 %kb, 0
  %beta = select i1 %first, {t} %beta0, {t} 1.0
  %aoffk = mul i64 %slot, %astride
  %apack = getelementptr {t}, ptr %apack0, i64 %aoffk
  %boffk = mul i64 %slot, %bstride
  %bpack = getelementptr {t}, ptr %bpack0, i64 %boffk
  %kpf = udiv i64 %kcp, {u}
  %bc = udiv i64 %tl, %nrc
  %rc = urem i64 %tl, %nrc
  ; row chunks as even as whole micro-panels allow: a short last chunk would walk the whole B block
  ; for a few panels
  %ip0.0 = mul i64 %rc, %npa
  %ip0 = udiv i64 %ip0.0, %nrc
  %rc1 = add i64 %rc, 1
  %ip1.0 = mul i64 %rc1, %npa
  %ip1 = udiv i64 %ip1.0, %nrc
  %jp0 = mul i64 %bc, {bpanels_per_block}
  %jp1.0 = add i64 %jp0, {bpanels_per_block}
  %jp1 = call i64 @llvm.umin.i64(i64 %jp1.0, i64 %npb)
  ; with %late, column block 0's task of this row chunk packs its A micro-panels; the other column
  ; blocks' tasks wait for it (taken from the counter before them: it is running or done)
  %bc0 = icmp eq i64 %bc, 0
  %packa = and i1 %late, %bc0
  %nbc0 = xor i1 %bc0, true
  %needa = and i1 %late, %nbc0
  %a0p = getelementptr i64, ptr %flags, i64 %rc
  %kb1w = add i64 %kb, 1
  ; a task among its column block's last %nthr is likely this thread's last on its B block: its kernel
  ; calls prefetch the next column block's packed B into L2 (once per thread and block), instead of
  ; the next task streaming it in from L3 at its FMAs' pace (with two threads partly from the other
  ; core's L2, where it was packed)
  %bc1 = add i64 %bc, 1
  %hasnb = icmp ult i64 %bc1, %nbc
  %rcn = add i64 %rc, %nthr
  %near = icmp uge i64 %rcn, %nrc
  %pfid.b = mul i64 %kb, %nbc
  %pfid.c = add i64 %pfid.b, %bc1
  %pfnew = icmp ne i64 %pfid.c, %pfid
  %pfb.0 = and i1 %hasnb, %near
  %pfb.1 = and i1 %pfb.0, %pfnew
  %nopacka = xor i1 %packa, true
  %pfb = and i1 %pfb.1, %nopacka
  %pfid.new = select i1 %pfb, i64 %pfid.c, i64 %pfid
  %njp = sub i64 %jp1, %jp0
  %bnxo = mul i64 %jp1, {nr}
  %bnxoff = mul i64 %bnxo, %kcp
  %bnx = getelementptr {t}, ptr %bpack, i64 %bnxoff
  %jp2.0 = add i64 %jp1, {bpanels_per_block}
  %jp2 = call i64 @llvm.umin.i64(i64 %jp2.0, i64 %npb)
  %bnp = sub i64 %jp2, %jp1
  %bnbytes.0 = mul i64 %bnp, {nr * s.size}
  %bnbytes = mul i64 %bnbytes.0, %kcp
  %bnlines = lshr i64 %bnbytes, 6
  br i1 %needa, label %wapanel, label %tile_go
{_spin_until(g, 3, "wapanel", "tile", "a0p", "kb1w", "a0v", "a0ok", "tile_go")}
tile_go:
{tile_loops(g, t, mr, nr, s.size, s.pf_unit).replace("label %next", "label %tdone")}
tdone:
  %kb1 = add i64 %kb, 1
  store atomic i64 %kb1, ptr %flp release, align 8
  %tdold = atomicrmw add ptr %tdp, i64 1 release
  br label %next
done:
  ret void
}}

; one wait step: a pause while the thread we wait for is likely running (it holds one task),
; then the core is given away (a busy machine may have preempted that thread: spinning would
; keep it off a core); returns the next step's count
define internal i32 @{g}_backoff(i32 %i) {{
entry:
  %spin = icmp ult i32 %i, {_SPINS}
  br i1 %spin, label %pause, label %yield
pause:
  call void @llvm.x86.sse2.pause()
  %i1 = add i32 %i, 1
  ret i32 %i1
yield:
  %r = call i32 @sched_yield()
  ret i32 %i
}}

; pack units [lo, hi) of k block kb: A micro-panels 0..npa-1, then B micro-panels npa..npa+npb-1
define internal void @{g}_pack_units(i64 %lo, i64 %hi, ptr %ctx, i64 %kb) {{
entry:
{pack_fields}
{_kb_params(kc, u)}
  %slot = urem i64 %kb, %nslot
  %aoffk = mul i64 %slot, %astride
  %apack = getelementptr {t}, ptr %apack0, i64 %aoffk
  %boffk = mul i64 %slot, %bstride
  %bpack = getelementptr {t}, ptr %bpack0, i64 %boffk
  %alo = call i64 @llvm.umin.i64(i64 %lo, i64 %npa)
  %ahi = call i64 @llvm.umin.i64(i64 %hi, i64 %npa)
  %has_a = icmp ult i64 %alo, %ahi
  br i1 %has_a, label %do_a, label %b_part
do_a:                                  ; one micro-panel at a time: they are %kmx apart, not %kcp
  %aq = phi i64 [ %alo, %entry ], [ %aq.next, %do_a ]
  %ai0 = mul i64 %aq, {mr}
  %aleft = sub i64 %m, %ai0
  %arows = call i64 @llvm.umin.i64(i64 %aleft, i64 {mr})
  %adoff0 = mul i64 %ai0, %kmx
  %adst = getelementptr {t}, ptr %apack, i64 %adoff0
  call void @{g}_pack_a(ptr %adst, ptr %a, i64 %ars, i64 %acs, i64 %ai0, i64 %arows, i64 %p0, i64 %kc, i64 %kcp)
  %aq.next = add i64 %aq, 1
  %amore = icmp ult i64 %aq.next, %ahi
  br i1 %amore, label %do_a, label %b_part
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

{edge_paths_ir(g, t)}

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
  br i1 %empty, label %ret, label %rows
rows:                                  ; blocks of at most {max_block} x {max_block} of C bound the packing buffers
  %i0 = phi i64 [ 0, %entry ], [ %i0.next, %rows_end ]
  %mleft = sub i64 %m, %i0
  %mb = call i64 @llvm.umin.i64(i64 %mleft, i64 {max_block})
  %aoff = mul i64 %i0, %ars
  %ai = getelementptr {t}, ptr %a, i64 %aoff
  %crow = mul i64 %i0, %ldc
  br label %cols
cols:
  %j0 = phi i64 [ 0, %rows ], [ %j0.next, %cols ]
  %nleft = sub i64 %n, %j0
  %nb = call i64 @llvm.umin.i64(i64 %nleft, i64 {max_block})
  %boff = mul i64 %j0, %bcs
  %bj = getelementptr {t}, ptr %b, i64 %boff
  %coff = add i64 %crow, %j0
  %cij = getelementptr {t}, ptr %c, i64 %coff
  call void @{g}_core(i64 %mb, i64 %nb, i64 %k, {t} %alpha, ptr %ai, i64 %ars, i64 %acs, ptr %bj, i64 %brs,
                      i64 %bcs, {t} %beta, ptr %cij, i64 %ldc)
  %j0.next = add i64 %j0, {max_block}
  %jmore = icmp ult i64 %j0.next, %n
  br i1 %jmore, label %cols, label %rows_end
rows_end:
  %i0.next = add i64 %i0, {max_block}
  %imore = icmp ult i64 %i0.next, %m
  br i1 %imore, label %rows, label %ret
ret:
  ret void
}}

{buffer_ir(g)}

; one block of C: k blocks of packing and tiles
define internal void @{g}_core(i64 %m, i64 %n, i64 %k, {t} %alpha, ptr %a, i64 %ars, i64 %acs, ptr %b, i64 %brs,
                               i64 %bcs, {t} %beta, ptr %c, i64 %ldc) {{
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
  ; row chunks as many as chunks of ppt A micro-panels need: at least {_MIN_CHUNKS} (the last task then
  ; holds up little), at most {panels_per_task}; as even as whole micro-panels allow (`%ip0`, `%ip1`)
  %ppt.0 = udiv i64 %npa, {_MIN_CHUNKS}
  %ppt.1 = call i64 @llvm.umax.i64(i64 %ppt.0, i64 1)
  %ppt = call i64 @llvm.umin.i64(i64 %ppt.1, i64 {panels_per_task})
  %nrc.0 = add i64 %npa, %ppt
  %nrc.1 = sub i64 %nrc.0, 1
  %nrc = udiv i64 %nrc.1, %ppt
  %nbc.0 = add i64 %npb, {bpanels_per_block - 1}
  %nbc = udiv i64 %nbc.0, {bpanels_per_block}
  %ntiles = mul i64 %nrc, %nbc
  ; A's k unit-stride: column block 0's tasks pack A (`gemm_tiles.tile_loops`), the packing only B; with one
  ; column block, one k block's A buffer for all (a tile's k blocks run in order), else one per slot
  ; (a slot's next k block starts when all of its previous one's tasks are done)
  %onecol = icmp ule i64 %npb, {bpanels_per_block}
  %late = icmp eq i64 %acs, 1
  %lone = and i1 %late, %onecol
  %nkbt.0 = add i64 %k, {kc - 1}
  %nkbt = udiv i64 %nkbt.0, {kc}
  %kfirst = call i64 @llvm.umin.i64(i64 %k, i64 {kc})
  %kmax.0 = add i64 %kfirst, {u - 1}
  %kmax.1 = udiv i64 %kmax.0, {u}
  %kmax = mul i64 %kmax.1, {u}
  %akb = mul i64 %npa, {mr}
  %astride.0 = mul i64 %akb, %kmax
  %astride = select i1 %lone, i64 0, i64 %astride.0
  %bkb = mul i64 %npb, {nr}
  %bstride = mul i64 %bkb, %kmax
  ; two slots of packed panels where one k block's are small: k block kb + 1 is packed while k block
  ; kb's last tasks run; one for big ones (8 MiB at 2048^3: a second slot, cold in the cache when
  ; packed again, cost 2-3% of one thread's time), on one thread, and for a single k block
  %kbbytes.0 = add i64 %astride, %bstride
  %kbbytes = mul i64 %kbbytes.0, {s.size}
  %mn = mul i64 %m, %n
  %work = mul i64 %mn, %k
  %serial = icmp ult i64 %work, {serial_work}
  %small = icmp ule i64 %kbbytes, {two_slots_bytes}
  %twin = xor i1 %serial, true
  %two = and i1 %small, %twin
  %slots = select i1 %two, i64 2, i64 1
  %nslot = call i64 @llvm.umin.i64(i64 %nkbt, i64 %slots)
  %ablocks = select i1 %lone, i64 1, i64 %nslot
  %abytes.0 = mul i64 %astride.0, {s.size}
  %abytes.1 = mul i64 %abytes.0, %ablocks
  %abytes.2 = add i64 %abytes.1, 4095
  %abytes = and i64 %abytes.2, -4096
  %bbytes.0 = mul i64 %bstride, {s.size}
  %bbytes.1 = mul i64 %bbytes.0, %nslot
  %bbytes.2 = add i64 %bbytes.1, 63
  %bbytes = and i64 %bbytes.2, -64
  %packbytes = add i64 %abytes, %bbytes
  %apack = call ptr @{g}_acquire(i64 %packbytes)
  %bpack = getelementptr i8, ptr %apack, i64 %abytes
  %oom = icmp eq ptr %apack, null
  br i1 %oom, label %nomem, label %go
nomem:
  call void @{g}_naive(i64 %m, i64 %n, i64 %k, {t} %alpha, ptr %a, i64 %ars, i64 %acs, ptr %b, i64 %brs,
                       i64 %bcs, {t} %beta, ptr %c, i64 %ldc)
  br label %ret
go:
  %ctx = alloca %ctx_{g}, align 8
  %counter = alloca i64, align 8
  ; per slot: packing grains done, then tasks done (both counting up over the slot's k blocks);
  ; per tile of C: its k blocks done
  %pdone = alloca i64, i64 4, align 8
  %flags = alloca i64, i64 %ntiles, align 8
  %flbytes = mul i64 %ntiles, 8
  call void @llvm.memset.p0.i64(ptr %flags, i8 0, i64 %flbytes, i1 false)
  call void @llvm.memset.p0.i64(ptr %pdone, i8 0, i64 32, i1 false)
  %npack = add i64 %npa, %npb
  ; packing units per k block, whole grains (a grain never spans two k blocks)
  %nper.0 = select i1 %late, i64 %npb, i64 %npack
  %nper.1 = add i64 %nper.0, {_PACK_GRAIN - 1}
  %nper.2 = udiv i64 %nper.1, {_PACK_GRAIN}
  %nper = mul i64 %nper.2, {_PACK_GRAIN}
{sets}
  %shares.0 = mul i64 %ntiles, %nkbt
  %shares = add i64 %shares.0, 1
  store i64 0, ptr %counter
  br i1 %serial, label %one_thread, label %threads
one_thread:
  call void @{g}_work(i64 0, i64 %shares, ptr %ctx)
  br label %release
threads:
  call void @minixla_parallel_for(ptr @{g}_work, ptr %ctx, i64 0, i64 %shares)
  br label %release
release:
  call void @{g}_release(ptr %apack)
  br label %ret
ret:
  ret void
}}
"""


_DECLS = """
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)
declare i32 @madvise(ptr, i64, i32)
declare void @minixla_parallel_for(ptr, ptr, i64, i64)
declare i64 @llvm.umin.i64(i64, i64)
declare i64 @llvm.umax.i64(i64, i64)
declare void @llvm.prefetch.p0(ptr, i32, i32, i32)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.x86.sse2.pause()
declare i32 @sched_yield()
"""


def _intrinsics(s: KernelShape) -> str:
    vt, vl = s.vt, s.vl
    return "\n".join([
        f"declare {vt} @llvm.fma.{s.suffix}({vt}, {vt}, {vt})",
        f"declare {s.ty} @llvm.fma.f{s.size * 8}({s.ty}, {s.ty}, {s.ty})",
        f"declare {vt} @llvm.masked.load.{s.suffix}.p0(ptr, i32, <{vl} x i1>, {vt})",
        f"declare void @llvm.masked.store.{s.suffix}.p0({vt}, ptr, i32, <{vl} x i1>)"])


def gemm_ir(shapes: dict[str, KernelShape], serial_work: int = 1 << 20, max_block: int = 4096,
            two_slots_bytes: int = TWO_SLOTS_BYTES) -> str:
    """LLVM IR defining `minixla_gen_sgemm` and `minixla_gen_dgemm` for these kernel shapes."""
    parts = [_DECLS]
    for g in ("s", "d"):
        s = shapes[g]
        assert s.nc % s.nr == 0 and s.kc % s.unroll == 0, s
        parts += [_intrinsics(s), kernel_ir(g, s), packing_ir(g, s), _driver(g, s, serial_work, max_block, two_slots_bytes)]
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


def gemm_text(shapes: dict[str, KernelShape], dispatch: bool, max_block: int = 4096,
              two_slots_bytes: int = TWO_SLOTS_BYTES) -> str:
    """The generated gemm's IR as the runtime kernel `compile_gemm` compiles (blas.prefetch may compile the
    same text in a forked child first): the kernels, and the dispatchers when `dispatch`."""
    text = gemm_ir(shapes, max_block=max_block, two_slots_bytes=two_slots_bytes)
    return "; minixla generated gemm\n" + text + (dispatch_ir() if dispatch else "")


def compile_gemm(shapes: dict[str, KernelShape], fallback: tuple[int, int] | None = None,
                 max_block: int = 4096, two_slots_bytes: int = TWO_SLOTS_BYTES) -> tuple[object, int, int]:
    """JIT the generated gemm for the host; returns (engine to keep, sgemm, dgemm addresses).
    With `fallback` (addresses of a library's sgemm, dgemm), the returned entries are the
    dispatchers that leave small and skinny products to it."""
    import llvmlite.binding as llvm

    from minixla.backends.cpu.compile_cache import runtime_kernel_engine
    from minixla.backends.cpu.threadpool import ensure_registered

    ensure_registered()  # minixla_parallel_for
    if fallback is not None:
        llvm.add_symbol("minixla_fallback_sgemm", fallback[0])
        llvm.add_symbol("minixla_fallback_dgemm", fallback[1])
    engine = runtime_kernel_engine(gemm_text(shapes, fallback is not None, max_block, two_slots_bytes))
    entry = "minixla_dispatch_" if fallback is not None else "minixla_gen_"
    return engine, engine.get_function_address(entry + "sgemm"), engine.get_function_address(entry + "dgemm")
