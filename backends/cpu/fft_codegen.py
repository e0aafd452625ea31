"""minixla's FFT kernel, in LLVM IR: radix-2 for powers of two, Bluestein for other lengths.

Three modules: this one (butterfly stages, twiddle/chirp tables, bit
reversal), `fft_lines.py` (one line: gather, transform, store) and
`fft_driver.py` (the entries, tables per call, lines over threads; `fft_ir()`).

One entry per element type (interleaved complex, numpy's layout; `g` = c64 / c128),
the ABI of passes/fft_plan.py:

    i32 minixla_fft_<g>(ptr src, ptr dst, i64 outer, i64 n, i64 inner, i32 kind)

transforms every line of a [outer, len, inner] row-major array along its
middle axis (element (o, k, i) at (o*len + k)*inner + i) and returns 0, or 1
when scratch memory could not be had (nothing is written then). `kind`:
0 FFT, 1 IFFT (scaled by 1/n), 2 RFFT (src real, lines of n; dst complex,
lines of n/2+1), 3 IRFFT (src complex half spectra of n/2+1, dst real, lines
of n). src == dst is allowed for FFT/IFFT: each line is gathered into scratch
first. An n-d transform is one call per axis (RFFT: its real axis first;
IRFFT: last).

How, and why (O(n log n) on every length, no DFT matrix):

- Only forward transforms are ever computed: IFFT(x) = conj(FFT(conj(x)))/n,
  so one twiddle table serves both directions.
- Radix 2, iterative: a line is gathered into scratch in bit-reversed order
  (`llvm.bitreverse`), then log2(m) butterfly stages run in place. Stages
  whose butterflies span less than `BLOCK` points run block by block (depth
  first) so they stay in cache; only the last few sweep the whole line. The
  twiddles of the stage of span h are stored contiguously at [h, 2h) of an
  m-entry table, so every stage reads them unit-stride.
- Twiddles are computed in double once per call, as products of two short
  tables of exact cos/sin (k = hi*512 + lo): 2 * sqrt(m) libm calls instead of m, error
  ~2 ulp of double before rounding to the element type.
- Other lengths: Bluestein's chirp-z algorithm: X_k = c_k * sum_j (x_j c_j)
  conj(c_{k-j}) with c_k = exp(-i pi k^2 / n), a cyclic convolution of length
  m = the power of two >= 2n - 1 done with the radix-2 transform; the
  chirp's transform is computed once per call and shared by all lines.
- RFFT / IRFFT of even n are a complex transform of n/2 points ("packed"):
  z_j = x_2j + i x_2j+1, and X_k = E_k + W^k O_k with E/O the transforms of
  the even/odd samples, E_k = (Z_k + conj Z_n/2-k)/2, O_k = (Z_k - conj Z_n/2-k)/2i
  (IRFFT builds Z from X the other way round). Odd n: the complex transform of
  n points on a line whose imaginary part is zero / whose upper half is the
  conjugate mirror of the half spectrum. Either way the imaginary parts of X_0
  and X_n/2 are ignored, as numpy does.
"""

from __future__ import annotations

#: points per cache block of the early stages (2^12 complex64 = 32 KiB)
BLOCK = 1 << 12
#: entries of the low twiddle table (the high one has m / 2 / LOW entries)
LOW = 512

TYPES = {"c64": ("float", 4), "c128": ("double", 8)}


def stage_ir(g: str, t: str) -> str:
    """`@{g}_stage(x, lo, hi, h, tw)`: the butterflies of span h over points [lo, hi)."""
    return f"""
define internal void @{g}_stage(ptr noalias %x, i64 %lo, i64 %hi, i64 %h, ptr noalias %tw) {{
entry:
  %h2 = shl i64 %h, 1
  br label %grp
grp:
  %base = phi i64 [ %lo, %entry ], [ %base.next, %grp_end ]
  br label %bf
bf:
  %j = phi i64 [ 0, %grp ], [ %j.next, %bf ]
  %ia = add i64 %base, %j
  %ib = add i64 %ia, %h
  %it = add i64 %h, %j
  %pa = getelementptr [2 x {t}], ptr %x, i64 %ia
  %pai = getelementptr {t}, ptr %pa, i64 1
  %pb = getelementptr [2 x {t}], ptr %x, i64 %ib
  %pbi = getelementptr {t}, ptr %pb, i64 1
  %pt = getelementptr [2 x {t}], ptr %tw, i64 %it
  %pti = getelementptr {t}, ptr %pt, i64 1
  %ar = load {t}, ptr %pa
  %ai = load {t}, ptr %pai
  %br = load {t}, ptr %pb
  %bi = load {t}, ptr %pbi
  %tr = load {t}, ptr %pt
  %ti = load {t}, ptr %pti
  %m1 = fmul contract {t} %tr, %br
  %m2 = fmul contract {t} %ti, %bi
  %mr = fsub contract {t} %m1, %m2
  %m3 = fmul contract {t} %tr, %bi
  %m4 = fmul contract {t} %ti, %br
  %mi = fadd contract {t} %m3, %m4
  %sr = fadd {t} %ar, %mr
  %si = fadd {t} %ai, %mi
  %dr = fsub {t} %ar, %mr
  %di = fsub {t} %ai, %mi
  store {t} %sr, ptr %pa
  store {t} %si, ptr %pai
  store {t} %dr, ptr %pb
  store {t} %di, ptr %pbi
  %j.next = add i64 %j, 1
  %jm = icmp ult i64 %j.next, %h
  br i1 %jm, label %bf, label %grp_end
grp_end:
  %base.next = add i64 %base, %h2
  %gm = icmp ult i64 %base.next, %hi
  br i1 %gm, label %grp, label %done
done:
  ret void
}}

; all stages on bit-reversed data x[0, m), two at a time (one read and write of each point per pair):
; spans below the block size block by block, then whole sweeps; an odd stage left over runs alone
define internal void @{g}_pass(ptr noalias %x, i64 %m, ptr noalias %tw) {{
entry:
  %small = icmp ult i64 %m, 2
  br i1 %small, label %done, label %go
go:
  %bk = call i64 @llvm.umin.i64(i64 %m, i64 {BLOCK})
  br label %blocks
blocks:
  %b0 = phi i64 [ 0, %go ], [ %b0.next, %blocks_end ]
  %b1 = add i64 %b0, %bk
  br label %inner_test
inner_test:
  %h = phi i64 [ 1, %blocks ], [ %h.next, %inner ]
  %h4 = shl i64 %h, 2
  %pair = icmp ule i64 %h4, %bk
  br i1 %pair, label %inner, label %inner_last
inner:
  call void @{g}_stage2(ptr %x, i64 %b0, i64 %b1, i64 %h, ptr %tw)
  %h.next = shl i64 %h, 2
  br label %inner_test
inner_last:
  %odd = icmp ult i64 %h, %bk
  br i1 %odd, label %inner_one, label %blocks_end
inner_one:
  call void @{g}_stage(ptr %x, i64 %b0, i64 %b1, i64 %h, ptr %tw)
  br label %blocks_end
blocks_end:
  %b0.next = add i64 %b0, %bk
  %bm = icmp ult i64 %b0.next, %m
  br i1 %bm, label %blocks, label %outer_test
outer_test:
  %hh = phi i64 [ %bk, %blocks_end ], [ %hh.next, %outer ]
  %hh4 = shl i64 %hh, 2
  %opair = icmp ule i64 %hh4, %m
  br i1 %opair, label %outer, label %outer_last
outer:
  call void @{g}_stage2(ptr %x, i64 0, i64 %m, i64 %hh, ptr %tw)
  %hh.next = shl i64 %hh, 2
  br label %outer_test
outer_last:
  %oodd = icmp ult i64 %hh, %m
  br i1 %oodd, label %outer_one, label %done
outer_one:
  call void @{g}_stage(ptr %x, i64 0, i64 %m, i64 %hh, ptr %tw)
  br label %done
done:
  ret void
}}
""" + _stage2(g, t)


def _bfly(t: str, n: str, ar: str, ai: str, br: str, bi: str, tr: str, ti: str) -> tuple[list[str], tuple[str, ...]]:
    """One radix-2 butterfly (a + w*b, a - w*b) as in @stage: lines and (sum re, sum im, diff re, diff im)."""
    lines = [f"  %{n}m1 = fmul contract {t} {tr}, {br}", f"  %{n}m2 = fmul contract {t} {ti}, {bi}",
             f"  %{n}mr = fsub contract {t} %{n}m1, %{n}m2", f"  %{n}m3 = fmul contract {t} {tr}, {bi}",
             f"  %{n}m4 = fmul contract {t} {ti}, {br}", f"  %{n}mi = fadd contract {t} %{n}m3, %{n}m4",
             f"  %{n}sr = fadd {t} {ar}, %{n}mr", f"  %{n}si = fadd {t} {ai}, %{n}mi",
             f"  %{n}dr = fsub {t} {ar}, %{n}mr", f"  %{n}di = fsub {t} {ai}, %{n}mi"]
    return lines, (f"%{n}sr", f"%{n}si", f"%{n}dr", f"%{n}di")


def _stage2(g: str, t: str) -> str:
    """`@{g}_stage2(x, lo, hi, h, tw)`: the stages of spans h and 2h fused (the same operations as two
    `@{g}_stage` calls, so the same results), over groups of 4h points in [lo, hi)."""
    body = []
    for k, off in enumerate(("%j", "%i1o", "%i2o", "%i3o")):
        body += [f"  %i{k} = add i64 %base, {off}", f"  %p{k} = getelementptr [2 x {t}], ptr %x, i64 %i{k}",
                 f"  %p{k}i = getelementptr {t}, ptr %p{k}, i64 1", f"  %a{k}r = load {t}, ptr %p{k}",
                 f"  %a{k}i = load {t}, ptr %p{k}i"]
    for k, idx in enumerate(("%t1", "%t2", "%t3")):
        body += [f"  %w{k}p = getelementptr [2 x {t}], ptr %tw, i64 {idx}", f"  %w{k}pi = getelementptr {t}, ptr %w{k}p, i64 1",
                 f"  %w{k}r = load {t}, ptr %w{k}p", f"  %w{k}i = load {t}, ptr %w{k}pi"]
    l01, (b0r, b0i, b1r, b1i) = _bfly(t, "x", "%a0r", "%a0i", "%a1r", "%a1i", "%w0r", "%w0i")
    l23, (b2r, b2i, b3r, b3i) = _bfly(t, "y", "%a2r", "%a2i", "%a3r", "%a3i", "%w0r", "%w0i")
    l02, (c0r, c0i, c2r, c2i) = _bfly(t, "u", b0r, b0i, b2r, b2i, "%w1r", "%w1i")
    l13, (c1r, c1i, c3r, c3i) = _bfly(t, "v", b1r, b1i, b3r, b3i, "%w2r", "%w2i")
    body += l01 + l23 + l02 + l13
    for k, (re, im) in enumerate(((c0r, c0i), (c1r, c1i), (c2r, c2i), (c3r, c3i))):
        body += [f"  store {t} {re}, ptr %p{k}", f"  store {t} {im}, ptr %p{k}i"]
    text = "\n".join(body)
    return f"""
define internal void @{g}_stage2(ptr noalias %x, i64 %lo, i64 %hi, i64 %h, ptr noalias %tw) {{
entry:
  %h2 = shl i64 %h, 1
  %h3 = add i64 %h2, %h
  %h4 = shl i64 %h, 2
  br label %grp
grp:
  %base = phi i64 [ %lo, %entry ], [ %base.next, %grp_end ]
  br label %bf
bf:
  %j = phi i64 [ 0, %grp ], [ %j.next, %bf ]
  %i1o = add i64 %j, %h
  %i2o = add i64 %j, %h2
  %i3o = add i64 %j, %h3
  %t1 = add i64 %h, %j
  %t2 = add i64 %h2, %j
  %t3 = add i64 %h3, %j
{text}
  %j.next = add i64 %j, 1
  %jm = icmp ult i64 %j.next, %h
  br i1 %jm, label %bf, label %grp_end
grp_end:
  %base.next = add i64 %base, %h4
  %gm = icmp ult i64 %base.next, %hi
  br i1 %gm, label %grp, label %done
done:
  ret void
}}
"""


def tables_ir(g: str, t: str) -> str:
    """Twiddles, chirp and bit reversal."""
    trunc = (lambda v, out: f"  {out} = fptrunc double {v} to float") if t == "float" else \
        (lambda v, out: f"  {out} = fadd double {v}, 0.0")
    return f"""
; tw[h + j] = exp(-2 pi i j / (2h)) for every span h = m/2, m/4, ..., 1 (m >= 2)
define internal void @{g}_twiddles(ptr noalias %tw, i64 %m) {{
entry:
  %wlo = alloca [{2 * LOW} x double], align 16
  %half = lshr i64 %m, 1
  %mf = uitofp i64 %m to double
  %step = fdiv double -6.283185307179586, %mf
  %nlo = call i64 @llvm.umin.i64(i64 %half, i64 {LOW})
  br label %lo
lo:
  %l = phi i64 [ 0, %entry ], [ %l.next, %lo ]
  %lf = uitofp i64 %l to double
  %la = fmul double %step, %lf
  %lc = call double @llvm.cos.f64(double %la)
  %ls = call double @llvm.sin.f64(double %la)
  %lp = getelementptr [2 x double], ptr %wlo, i64 %l
  %lpi = getelementptr double, ptr %lp, i64 1
  store double %lc, ptr %lp
  store double %ls, ptr %lpi
  %l.next = add i64 %l, 1
  %lm = icmp ult i64 %l.next, %nlo
  br i1 %lm, label %lo, label %hi
hi:
  %q = phi i64 [ 0, %lo ], [ %q.next, %hi_end ]
  %q0 = mul i64 %q, {LOW}
  %qf = uitofp i64 %q0 to double
  %qa = fmul double %step, %qf
  %qc = call double @llvm.cos.f64(double %qa)
  %qs = call double @llvm.sin.f64(double %qa)
  %left = sub i64 %half, %q0
  %cnt = call i64 @llvm.umin.i64(i64 %left, i64 {LOW})
  br label %prod
prod:
  %r = phi i64 [ 0, %hi ], [ %r.next, %prod ]
  %rp = getelementptr [2 x double], ptr %wlo, i64 %r
  %rpi = getelementptr double, ptr %rp, i64 1
  %cr = load double, ptr %rp
  %ci = load double, ptr %rpi
  %p1 = fmul double %qc, %cr
  %p2 = fmul double %qs, %ci
  %wr = fsub double %p1, %p2
  %p3 = fmul double %qc, %ci
  %p4 = fmul double %qs, %cr
  %wi = fadd double %p3, %p4
{trunc("%wr", "%wrt")}
{trunc("%wi", "%wit")}
  %j = add i64 %q0, %r
  %ti = add i64 %half, %j
  %tp = getelementptr [2 x {t}], ptr %tw, i64 %ti
  %tpi = getelementptr {t}, ptr %tp, i64 1
  store {t} %wrt, ptr %tp
  store {t} %wit, ptr %tpi
  %r.next = add i64 %r, 1
  %rm = icmp ult i64 %r.next, %cnt
  br i1 %rm, label %prod, label %hi_end
hi_end:
  %q.next = add i64 %q, 1
  %qn = mul i64 %q.next, {LOW}
  %qm = icmp ult i64 %qn, %half
  br i1 %qm, label %hi, label %sub_pre
sub_pre:
  %h0 = lshr i64 %half, 1
  %any = icmp ne i64 %h0, 0
  br i1 %any, label %sub, label %done
sub:                                   ; span h's twiddles are every other one of span 2h's
  %h = phi i64 [ %h0, %sub_pre ], [ %h.next, %sub_end ]
  br label %copy
copy:
  %k = phi i64 [ 0, %sub ], [ %k.next, %copy ]
  %k2 = shl i64 %k, 1
  %from.0 = shl i64 %h, 1
  %from = add i64 %from.0, %k2
  %to = add i64 %h, %k
  %fp = getelementptr [2 x {t}], ptr %tw, i64 %from
  %v = load <2 x {t}>, ptr %fp
  %tp2 = getelementptr [2 x {t}], ptr %tw, i64 %to
  store <2 x {t}> %v, ptr %tp2
  %k.next = add i64 %k, 1
  %km = icmp ult i64 %k.next, %h
  br i1 %km, label %copy, label %sub_end
sub_end:
  %h.next = lshr i64 %h, 1
  %hm = icmp ne i64 %h.next, 0
  br i1 %hm, label %sub, label %done
done:
  ret void
}}

; c[k] = exp(-i pi q / n), q = k^2 mod 2n (kept incrementally: q += 2k + 1), k < n; exp as the product
; of two exact tables (q = hi * {LOW} + lo), as the twiddles; without memory for the high table, libm per k
define internal void @{g}_chirp(ptr noalias %c, i64 %n) {{
entry:
  %wlo = alloca [{2 * LOW} x double], align 16
  %n2 = shl i64 %n, 1
  %nf = uitofp i64 %n to double
  %step = fdiv double -3.141592653589793, %nf
  %nlo = call i64 @llvm.umin.i64(i64 %n2, i64 {LOW})
  br label %lo
lo:
  %l = phi i64 [ 0, %entry ], [ %l.next, %lo ]
  %lf = uitofp i64 %l to double
  %la = fmul double %step, %lf
  %lc = call double @llvm.cos.f64(double %la)
  %ls = call double @llvm.sin.f64(double %la)
  %lp = getelementptr [2 x double], ptr %wlo, i64 %l
  %lpi = getelementptr double, ptr %lp, i64 1
  store double %lc, ptr %lp
  store double %ls, ptr %lpi
  %l.next = add i64 %l, 1
  %lm = icmp ult i64 %l.next, %nlo
  br i1 %lm, label %lo, label %hi_alloc
hi_alloc:
  %nhi.0 = add i64 %n2, {LOW - 1}
  %nhi = udiv i64 %nhi.0, {LOW}
  %hb.0 = mul i64 %nhi, 16
  %hb.1 = add i64 %hb.0, 63
  %hb = and i64 %hb.1, -64
  %whi = call ptr @aligned_alloc(i64 64, i64 %hb)
  %nomem = icmp eq ptr %whi, null
  br i1 %nomem, label %direct, label %hi
hi:
  %h = phi i64 [ 0, %hi_alloc ], [ %h.next, %hi ]
  %h0 = mul i64 %h, {LOW}
  %hf = uitofp i64 %h0 to double
  %ha = fmul double %step, %hf
  %hc = call double @llvm.cos.f64(double %ha)
  %hs = call double @llvm.sin.f64(double %ha)
  %hp = getelementptr [2 x double], ptr %whi, i64 %h
  %hpi = getelementptr double, ptr %hp, i64 1
  store double %hc, ptr %hp
  store double %hs, ptr %hpi
  %h.next = add i64 %h, 1
  %hm = icmp ult i64 %h.next, %nhi
  br i1 %hm, label %hi, label %loop
loop:
  %k = phi i64 [ 0, %hi ], [ %k.next, %loop ]
  %q = phi i64 [ 0, %hi ], [ %q.next, %loop ]
  %qh = lshr i64 %q, {LOW.bit_length() - 1}
  %ql = and i64 %q, {LOW - 1}
  %ap = getelementptr [2 x double], ptr %whi, i64 %qh
  %api = getelementptr double, ptr %ap, i64 1
  %bp = getelementptr [2 x double], ptr %wlo, i64 %ql
  %bpi = getelementptr double, ptr %bp, i64 1
  %ar = load double, ptr %ap
  %ai = load double, ptr %api
  %br = load double, ptr %bp
  %bi = load double, ptr %bpi
  %p1 = fmul double %ar, %br
  %p2 = fmul double %ai, %bi
  %cr = fsub double %p1, %p2
  %p3 = fmul double %ar, %bi
  %p4 = fmul double %ai, %br
  %ci = fadd double %p3, %p4
{trunc("%cr", "%crt")}
{trunc("%ci", "%cit")}
  %p = getelementptr [2 x {t}], ptr %c, i64 %k
  %pi = getelementptr {t}, ptr %p, i64 1
  store {t} %crt, ptr %p
  store {t} %cit, ptr %pi
  %k2 = shl i64 %k, 1
  %inc = add i64 %k2, 1
  %q.1 = add i64 %q, %inc
  %wrap = icmp uge i64 %q.1, %n2
  %q.2 = sub i64 %q.1, %n2
  %q.next = select i1 %wrap, i64 %q.2, i64 %q.1
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %loop, label %release
release:
  call void @free(ptr %whi)
  ret void
direct:
  %dk = phi i64 [ 0, %hi_alloc ], [ %dk.next, %direct ]
  %dkk = mul i64 %dk, %dk
  %dkm = urem i64 %dkk, %n2
  %dkf = uitofp i64 %dkm to double
  %da = fmul double %step, %dkf
  %dcr = call double @llvm.cos.f64(double %da)
  %dci = call double @llvm.sin.f64(double %da)
{trunc("%dcr", "%dcrt")}
{trunc("%dci", "%dcit")}
  %dp = getelementptr [2 x {t}], ptr %c, i64 %dk
  %dpi = getelementptr {t}, ptr %dp, i64 1
  store {t} %dcrt, ptr %dp
  store {t} %dcit, ptr %dpi
  %dk.next = add i64 %dk, 1
  %dmore = icmp ult i64 %dk.next, %n
  br i1 %dmore, label %direct, label %done
done:
  ret void
}}

; in-place bit-reversal permutation of x[0, m), m = 2^bits
define internal void @{g}_bitrev(ptr noalias %x, i64 %m, i64 %bits) {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %next ]
  %r = call i64 @{g}_rev(i64 %i, i64 %bits)
  %lt = icmp ult i64 %i, %r
  br i1 %lt, label %swap, label %next
swap:
  %pi = getelementptr [2 x {t}], ptr %x, i64 %i
  %pr = getelementptr [2 x {t}], ptr %x, i64 %r
  %vi = load <2 x {t}>, ptr %pi
  %vr = load <2 x {t}>, ptr %pr
  store <2 x {t}> %vr, ptr %pi
  store <2 x {t}> %vi, ptr %pr
  br label %next
next:
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %m
  br i1 %more, label %loop, label %done
done:
  ret void
}}

define internal i64 @{g}_rev(i64 %i, i64 %bits) alwaysinline {{
  %b = call i64 @llvm.bitreverse.i64(i64 %i)
  %s = sub i64 63, %bits
  %r0 = lshr i64 %b, %s
  %r = lshr i64 %r0, 1
  ret i64 %r
}}
"""


def elem_size(t: str) -> int:
    return 4 if t == "float" else 8
