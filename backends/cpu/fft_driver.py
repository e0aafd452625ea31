"""The FFT kernel's entries (ABI: passes/fft_plan.py; algorithm: fft_codegen.py): per call, the
twiddle, chirp and packing tables; then the lines, on the calling thread or split over
`minixla_parallel_for` (each task with its own scratch). `fft_ir()` is the whole kernel."""

from __future__ import annotations

from minixla.passes.fft_plan import IFFT, IRFFT, RFFT, symbol
from minixla.backends.cpu.fft_codegen import TYPES, elem_size, stage_ir, tables_ir
from minixla.backends.cpu.fft_lines import line_ir


def _entry(g: str, t: str) -> str:
    size = elem_size(t)
    sets = _ctx_sets(g, t)
    return f"""
{_ctx_type(g, t)}
{_tasks(g, t)}
define i32 @minixla_fft_{g}(ptr %src, ptr %dst, i64 %outer, i64 %n, i64 %inner, i32 %kind) {{
entry:
  %z0 = icmp eq i64 %outer, 0
  %z1 = icmp eq i64 %n, 0
  %z2 = icmp eq i64 %inner, 0
  %z01 = or i1 %z0, %z1
  %empty = or i1 %z01, %z2
  br i1 %empty, label %ok, label %setup
setup:                                 ; a real transform of even n is a complex one of n/2 ("packed")
  %is_r = icmp eq i32 %kind, {RFFT}
  %is_ir = icmp eq i32 %kind, {IRFFT}
  %is_i = icmp eq i32 %kind, {IFFT}
  %real = or i1 %is_r, %is_ir
  %odd = trunc i64 %n to i1
  %even = xor i1 %odd, true
  %n1 = icmp ugt i64 %n, 1
  %pk.ok = and i1 %even, %n1
  %packed = and i1 %real, %pk.ok
  %nh.0 = lshr i64 %n, 1
  %nh = add i64 %nh.0, 1
  %tl = select i1 %packed, i64 %nh.0, i64 %n
  %imode.r = select i1 %packed, i32 3, i32 1
  %imode.ir = select i1 %packed, i32 4, i32 2
  %imode.0 = select i1 %is_ir, i32 %imode.ir, i32 0
  %imode = select i1 %is_r, i32 %imode.r, i32 %imode.0
  %omode.r = select i1 %packed, i32 2, i32 0
  %omode.ir = select i1 %packed, i32 3, i32 1
  %omode.0 = select i1 %is_ir, i32 %omode.ir, i32 0
  %omode = select i1 %is_r, i32 %omode.r, i32 %omode.0
  %inv = or i1 %is_i, %is_ir
  %nsrc = select i1 %is_ir, i64 %nh, i64 %n
  %ndst = select i1 %is_r, i64 %nh, i64 %n
  %pairs = icmp eq i32 %omode, 3
  %nstore = select i1 %pairs, i64 %tl, i64 %ndst
  %pop = call i64 @llvm.ctpop.i64(i64 %tl)
  %pow2 = icmp eq i64 %pop, 1
  %n2 = shl i64 %tl, 1
  %n2m = sub i64 %n2, 2
  %lz = call i64 @llvm.ctlz.i64(i64 %n2m, i1 false)
  %sh = sub i64 64, %lz
  %mb = shl i64 1, %sh
  %m = select i1 %pow2, i64 %tl, i64 %mb
  %bits = call i64 @llvm.cttz.i64(i64 %m, i1 false)
  %mbytes.0 = mul i64 %m, {2 * size}
  %mbytes.1 = add i64 %mbytes.0, 63
  %mbytes = and i64 %mbytes.1, -64
  %nbytes.0 = mul i64 %n, {2 * size}
  %nbytes.1 = add i64 %nbytes.0, 63
  %nbytes = and i64 %nbytes.1, -64
  %pkbytes = select i1 %packed, i64 %nbytes, i64 64
  %pkt = call ptr @aligned_alloc(i64 64, i64 %pkbytes)
  %tw = call ptr @aligned_alloc(i64 64, i64 %mbytes)
  br i1 %pow2, label %allocated, label %alloc_blue
alloc_blue:
  %c.b = call ptr @aligned_alloc(i64 64, i64 %nbytes)
  %bh.b = call ptr @aligned_alloc(i64 64, i64 %mbytes)
  br label %allocated
allocated:
  %c = phi ptr [ null, %setup ], [ %c.b, %alloc_blue ]
  %bh = phi ptr [ null, %setup ], [ %bh.b, %alloc_blue ]
  %twn = icmp eq ptr %tw, null
  %cn = icmp eq ptr %c, null
  %bhn = icmp eq ptr %bh, null
  %bn.0 = or i1 %cn, %bhn
  %np2 = xor i1 %pow2, true
  %bn = and i1 %bn.0, %np2
  %pkn = icmp eq ptr %pkt, null
  %oom.0 = or i1 %twn, %bn
  %oom = or i1 %oom.0, %pkn
  br i1 %oom, label %nomem, label %tables
tables:
  %mge2 = icmp uge i64 %m, 2
  br i1 %mge2, label %twiddles, label %pk_pre
twiddles:
  call void @{g}_twiddles(ptr %tw, i64 %m)
  br label %pk_pre
pk_pre:                                ; packing twiddles W^k = exp(-2 pi i k / n), k < n/2, at pk
  %pk = getelementptr [2 x {t}], ptr %pkt, i64 %nh.0
  br i1 %packed, label %pk_fill, label %blue_pre
pk_fill:
  call void @{g}_twiddles(ptr %pkt, i64 %n)
  br label %blue_pre
blue_pre:
  br i1 %pow2, label %lines, label %blue
blue:                                  ; the chirp and the transform of its conjugate, wrapped cyclically
  call void @{g}_chirp(ptr %c, i64 %tl)
  call void @llvm.memset.p0.i64(ptr %bh, i8 0, i64 %mbytes, i1 false)
  br label %bfill
bfill:
  %d = phi i64 [ 0, %blue ], [ %d.next, %bfill_end ]
  %dp = getelementptr [2 x {t}], ptr %c, i64 %d
  %dpi = getelementptr {t}, ptr %dp, i64 1
  %dr = load {t}, ptr %dp
  %di.0 = load {t}, ptr %dpi
  %di = fneg {t} %di.0
  %rd = call i64 @{g}_rev(i64 %d, i64 %bits)
  %bp = getelementptr [2 x {t}], ptr %bh, i64 %rd
  %bpi = getelementptr {t}, ptr %bp, i64 1
  store {t} %dr, ptr %bp
  store {t} %di, ptr %bpi
  %dnz = icmp ne i64 %d, 0
  br i1 %dnz, label %bwrap, label %bfill_end
bwrap:
  %md = sub i64 %m, %d
  %rmd = call i64 @{g}_rev(i64 %md, i64 %bits)
  %bq = getelementptr [2 x {t}], ptr %bh, i64 %rmd
  %bqi = getelementptr {t}, ptr %bq, i64 1
  store {t} %dr, ptr %bq
  store {t} %di, ptr %bqi
  br label %bfill_end
bfill_end:
  %d.next = add i64 %d, 1
  %dm = icmp ult i64 %d.next, %tl
  br i1 %dm, label %bfill, label %bfft
bfft:
  call void @{g}_pass(ptr %bh, i64 %m, ptr %tw)
  br label %lines
lines:
  %nf = uitofp i64 %tl to {t}
  %rn = fdiv {t} 1.0, %nf
  %scale = select i1 %inv, {t} %rn, {t} 1.0
  %sstride = mul i64 %nsrc, %inner
  %dstride = mul i64 %ndst, %inner
  %oreal = icmp eq i32 %kind, {IRFFT}
  %sreal = icmp eq i32 %kind, {RFFT}
  %ctx = alloca %ctx_{g}, align 8
{sets}
  %nlines = mul i64 %outer, %inner
  %work = mul i64 %nlines, %m
  %few = icmp ult i64 %nlines, 2
  %little = icmp ult i64 %work, {THREAD_WORK}
  %serial = or i1 %few, %little
  br i1 %serial, label %one_thread, label %threads
one_thread:
  call void @{g}_lines(i64 0, i64 %nlines, ptr %ctx)
  br label %release
threads:
  call void @minixla_parallel_for(ptr @{g}_lines, ptr %ctx, i64 0, i64 %nlines)
  br label %release
release:
  %stp = getelementptr %ctx_{g}, ptr %ctx, i32 0, i32 {_STATUS}
  %status = load i32, ptr %stp
  call void @free(ptr %tw)
  call void @free(ptr %c)
  call void @free(ptr %bh)
  call void @free(ptr %pkt)
  ret i32 %status
nomem:
  call void @free(ptr %tw)
  call void @free(ptr %c)
  call void @free(ptr %bh)
  call void @free(ptr %pkt)
  ret i32 1
ok:
  ret i32 0
}}
"""


#: context of the line tasks: (name, type); "T" is the element's real type, booleans are i32
_CTX = (("src", "ptr"), ("dst", "ptr"), ("inner", "i64"), ("sstride", "i64"), ("dstride", "i64"), ("imode", "i32"),
        ("oreal", "i32"), ("sreal", "i32"), ("tl", "i64"), ("nh", "i64"), ("inv", "i32"), ("scale", "T"), ("m", "i64"),
        ("bits", "i64"), ("tw", "ptr"), ("c", "ptr"), ("bh", "ptr"), ("nstore", "i64"), ("mbytes", "i64"),
        ("omode", "i32"), ("pk", "ptr"), ("status", "i32"))
_STATUS = len(_CTX) - 1
#: points (lines x transform length) below which the lines run on the calling thread
THREAD_WORK = 1 << 16


def _ctx_type(g: str, t: str) -> str:
    return f"%ctx_{g} = type {{ {', '.join(t if ty == 'T' else ty for _, ty in _CTX)} }}"


def _ctx_sets(g: str, t: str) -> str:
    """Store the entry's values into the context (booleans widened to i32, status 0)."""
    lines = []
    for k, (name, ty) in enumerate(_CTX):
        ty = t if ty == "T" else ty
        value = {"oreal": "%oreal.w", "sreal": "%sreal.w", "inv": "%inv.w", "status": "0"}.get(name, f"%{name}")
        lines.append(f"  %cx{k} = getelementptr %ctx_{g}, ptr %ctx, i32 0, i32 {k}")
        lines.append(f"  store {ty} {value}, ptr %cx{k}")
    widen = [f"  %{b}.w = zext i1 %{b} to i32" for b in ("oreal", "sreal", "inv")]
    return "\n".join(widen + lines)


def _tasks(g: str, t: str) -> str:
    """`@{g}_lines(lo, hi, ctx)`: lines [lo, hi) (line L = (o, i): o = L / inner, i = L % inner), each
    through this task's own scratch; no memory for it sets the status to 1."""
    loads = []
    for k, (name, ty) in enumerate(_CTX[:-1]):
        ty = t if ty == "T" else ty
        loads += [f"  %{name}.p = getelementptr %ctx_{g}, ptr %ctx, i32 0, i32 {k}", f"  %{name} = load {ty}, ptr %{name}.p"]
    text = "\n".join(loads)
    return f"""
define internal void @{g}_lines(i64 %lo, i64 %hi, ptr %ctx) {{
entry:
{text}
  %w = call ptr @aligned_alloc(i64 64, i64 %mbytes)
  %wn = icmp eq ptr %w, null
  br i1 %wn, label %nomem, label %go
nomem:
  %stp = getelementptr %ctx_{g}, ptr %ctx, i32 0, i32 {_STATUS}
  store atomic i32 1, ptr %stp monotonic, align 4
  ret void
go:
  %ob = icmp ne i32 %oreal, 0
  %sb = icmp ne i32 %sreal, 0
  %ib = icmp ne i32 %inv, 0
  br label %loop
loop:
  %l = phi i64 [ %lo, %go ], [ %l.next, %loop ]
  %o = udiv i64 %l, %inner
  %i = urem i64 %l, %inner
  %so = mul i64 %o, %sstride
  %do = mul i64 %o, %dstride
  %si = add i64 %so, %i
  %di = add i64 %do, %i
  %si2 = shl i64 %si, 1
  %sfo = select i1 %sb, i64 %si, i64 %si2
  %di2 = shl i64 %di, 1
  %dfo = select i1 %ob, i64 %di, i64 %di2
  %sp = getelementptr {t}, ptr %src, i64 %sfo
  %dp = getelementptr {t}, ptr %dst, i64 %dfo
  call void @{g}_line(ptr %sp, i64 %inner, i32 %imode, ptr %dp, i64 %inner, i32 %omode, i64 %nstore, i64 %tl,
                      i64 %nh, i1 %ib, {t} %scale, i64 %m, i64 %bits, ptr %tw, ptr %w, ptr %c, ptr %bh, ptr %pk)
  %l.next = add i64 %l, 1
  %more = icmp ult i64 %l.next, %hi
  br i1 %more, label %loop, label %done
done:
  call void @free(ptr %w)
  ret void
}}
"""


_DECLS = """
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)
declare void @minixla_parallel_for(ptr, ptr, i64, i64)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i64 @llvm.umin.i64(i64, i64)
declare i64 @llvm.ctpop.i64(i64)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i64 @llvm.cttz.i64(i64, i1)
declare i64 @llvm.bitreverse.i64(i64)
declare double @llvm.cos.f64(double)
declare double @llvm.sin.f64(double)
"""

def _aliases(g: str) -> str:
    """The real-typed names of the entry (passes/fft_plan.py `symbol`): callers declare them with real buffers."""
    sig = "ptr %s, ptr %d, i64 %o, i64 %n, i64 %i, i32 %k"
    call = f"call i32 @minixla_fft_{g}(ptr %s, ptr %d, i64 %o, i64 %n, i64 %i, i32 %k)"
    return "\n".join(f"define i32 @{symbol(kind, g)}({sig}) {{\n  %r = tail {call}\n  ret i32 %r\n}}"
                     for kind in (RFFT, IRFFT))


def fft_ir() -> str:
    """LLVM IR defining every entry of passes/fft_plan.py for complex64 and complex128."""
    parts = [_DECLS]
    for g, (t, _) in TYPES.items():
        parts += [stage_ir(g, t), tables_ir(g, t), line_ir(g, t), _entry(g, t), _aliases(g)]
    return "\n".join(parts)
