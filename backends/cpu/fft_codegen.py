"""minixla's FFT kernel, in LLVM IR: radix-2 for powers of two, Bluestein for other lengths.

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

from minixla.passes.fft_plan import IFFT, IRFFT, RFFT, symbol

#: points per cache block of the early stages (2^12 complex64 = 32 KiB)
BLOCK = 1 << 12
#: entries of the low twiddle table (the high one has m / 2 / LOW entries)
LOW = 512

_TYPES = {"c64": ("float", 4), "c128": ("double", 8)}


def _stage(g: str, t: str) -> str:
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


def _tables(g: str, t: str) -> str:
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


def _fetch(g: str, t: str) -> str:
    """`@{g}_fetch(src, ss, imode, k, n, nh, pk)`: point k of a line's transform input (k < n)."""
    ct = f"{{ {t}, {t} }}"
    return f"""
; imode 0: complex src; 1: real src; 2: half spectrum of nh entries (upper half = conjugate mirror);
; 3: packed real src (z_k = x_2k + i x_2k+1); 4: packed half spectrum (n + 1 entries; Z_k = E_k + i O_k with
; E_k = (X_k + conj X_n-k) / 2, O_k = (X_k - conj X_n-k) conj(W^k) / 2, W^k = pk[k]; Im X_0, Im X_n ignored)
define internal {ct} @{g}_fetch(ptr %src, i64 %ss, i32 %imode, i64 %k, i64 %n, i64 %nh, ptr %pk) alwaysinline {{
entry:
  %off = mul i64 %k, %ss
  switch i32 %imode, label %cplx [ i32 1, label %real
                                   i32 2, label %half
                                   i32 3, label %pair
                                   i32 4, label %packed ]
cplx:
  %cp = getelementptr [2 x {t}], ptr %src, i64 %off
  %cpi = getelementptr {t}, ptr %cp, i64 1
  %cr = load {t}, ptr %cp
  %ci = load {t}, ptr %cpi
  br label %done
real:
  %rp = getelementptr {t}, ptr %src, i64 %off
  %rr = load {t}, ptr %rp
  br label %done
half:
  %up = icmp uge i64 %k, %nh
  %nk = sub i64 %n, %k
  %kk = select i1 %up, i64 %nk, i64 %k
  %hoff = mul i64 %kk, %ss
  %hp = getelementptr [2 x {t}], ptr %src, i64 %hoff
  %hpi = getelementptr {t}, ptr %hp, i64 1
  %hr = load {t}, ptr %hp
  %hi.0 = load {t}, ptr %hpi
  %hi.n = fneg {t} %hi.0
  %hi = select i1 %up, {t} %hi.n, {t} %hi.0
  br label %done
pair:
  %po0 = shl i64 %off, 1
  %po1 = add i64 %po0, %ss
  %pp0 = getelementptr {t}, ptr %src, i64 %po0
  %pp1 = getelementptr {t}, ptr %src, i64 %po1
  %pr = load {t}, ptr %pp0
  %pi = load {t}, ptr %pp1
  br label %done
packed:
  %ap = getelementptr [2 x {t}], ptr %src, i64 %off
  %api = getelementptr {t}, ptr %ap, i64 1
  %nk2 = sub i64 %n, %k
  %boff = mul i64 %nk2, %ss
  %bp = getelementptr [2 x {t}], ptr %src, i64 %boff
  %bpi = getelementptr {t}, ptr %bp, i64 1
  %ar = load {t}, ptr %ap
  %ai.0 = load {t}, ptr %api
  %br = load {t}, ptr %bp
  %bi.0 = load {t}, ptr %bpi
  %k0 = icmp eq i64 %k, 0
  %ai = select i1 %k0, {t} 0.0, {t} %ai.0
  %bi = select i1 %k0, {t} 0.0, {t} %bi.0
  %e2r = fadd {t} %ar, %br
  %e2i = fsub {t} %ai, %bi
  %d2r = fsub {t} %ar, %br
  %d2i = fadd {t} %ai, %bi
  %er = fmul {t} %e2r, 0.5
  %ei = fmul {t} %e2i, 0.5
  %dr = fmul {t} %d2r, 0.5
  %di = fmul {t} %d2i, 0.5
  %wp = getelementptr [2 x {t}], ptr %pk, i64 %k
  %wpi = getelementptr {t}, ptr %wp, i64 1
  %wr = load {t}, ptr %wp
  %wi = load {t}, ptr %wpi
  %q1 = fmul {t} %dr, %wr
  %q2 = fmul {t} %di, %wi
  %or = fadd {t} %q1, %q2
  %q3 = fmul {t} %di, %wr
  %q4 = fmul {t} %dr, %wi
  %oi = fsub {t} %q3, %q4
  %zr = fsub {t} %er, %oi
  %zi = fadd {t} %ei, %or
  br label %done
done:
  %re = phi {t} [ %cr, %cplx ], [ %rr, %real ], [ %hr, %half ], [ %pr, %pair ], [ %zr, %packed ]
  %im = phi {t} [ %ci, %cplx ], [ 0.0, %real ], [ %hi, %half ], [ %pi, %pair ], [ %zi, %packed ]
  %v0 = insertvalue {ct} poison, {t} %re, 0
  %v1 = insertvalue {ct} %v0, {t} %im, 1
  ret {ct} %v1
}}
"""


def _line(g: str, t: str) -> str:
    """`@{g}_line`: one line: gather (bit-reversed, through @fetch), transform, store."""
    return _fetch(g, t) + f"""
; imode / omode: see @{g}_fetch / the store below; n is the transform length (n/2 of a packed real line)
define internal void @{g}_line(ptr noalias %src, i64 %ss, i32 %imode, ptr noalias %dst, i64 %ds, i32 %omode, i64 %nout,
                               i64 %n, i64 %nh, i1 %inv, {t} %scale, i64 %m, i64 %bits, ptr noalias %tw,
                               ptr noalias %w, ptr noalias %c, ptr noalias %bh, ptr noalias %pk) {{
entry:
  %blue = icmp ne i64 %m, %n
  br i1 %blue, label %zero, label %gather
zero:
  %wbytes = mul i64 %m, {2 * _size(t)}
  call void @llvm.memset.p0.i64(ptr %w, i8 0, i64 %wbytes, i1 false)
  br label %gather
gather:
  %k = phi i64 [ 0, %entry ], [ 0, %zero ], [ %k.next, %gather ]
  %x = call {{ {t}, {t} }} @{g}_fetch(ptr %src, i64 %ss, i32 %imode, i64 %k, i64 %n, i64 %nh, ptr %pk)
  %xr = extractvalue {{ {t}, {t} }} %x, 0
  %xi.1 = extractvalue {{ {t}, {t} }} %x, 1
  %xi.n = fneg {t} %xi.1
  %xi = select i1 %inv, {t} %xi.n, {t} %xi.1
  %cp.0 = getelementptr [2 x {t}], ptr %c, i64 %k
  %cp = select i1 %blue, ptr %cp.0, ptr %w
  %cpi = getelementptr {t}, ptr %cp, i64 1
  %ccr = load {t}, ptr %cp
  %cci = load {t}, ptr %cpi
  %cr = select i1 %blue, {t} %ccr, {t} 1.0
  %ci = select i1 %blue, {t} %cci, {t} 0.0
  %a1 = fmul {t} %xr, %cr
  %a2 = fmul {t} %xi, %ci
  %ar = fsub {t} %a1, %a2
  %a3 = fmul {t} %xr, %ci
  %a4 = fmul {t} %xi, %cr
  %ai = fadd {t} %a3, %a4
  %rk = call i64 @{g}_rev(i64 %k, i64 %bits)
  %wp = getelementptr [2 x {t}], ptr %w, i64 %rk
  %wpi = getelementptr {t}, ptr %wp, i64 1
  store {t} %ar, ptr %wp
  store {t} %ai, ptr %wpi
  %k.next = add i64 %k, 1
  %km = icmp ult i64 %k.next, %n
  br i1 %km, label %gather, label %transform
transform:
  call void @{g}_pass(ptr %w, i64 %m, ptr %tw)
  br i1 %blue, label %conv, label %store
conv:                                  ; times the chirp's transform, conjugated (inverse = conj o forward o conj)
  %j = phi i64 [ 0, %transform ], [ %j.next, %conv ]
  %zp = getelementptr [2 x {t}], ptr %w, i64 %j
  %zpi = getelementptr {t}, ptr %zp, i64 1
  %bp = getelementptr [2 x {t}], ptr %bh, i64 %j
  %bpi = getelementptr {t}, ptr %bp, i64 1
  %zr = load {t}, ptr %zp
  %zi = load {t}, ptr %zpi
  %br = load {t}, ptr %bp
  %bi = load {t}, ptr %bpi
  %z1 = fmul {t} %zr, %br
  %z2 = fmul {t} %zi, %bi
  %yr = fsub {t} %z1, %z2
  %z3 = fmul {t} %zr, %bi
  %z4 = fmul {t} %zi, %br
  %yi.0 = fadd {t} %z3, %z4
  %yi = fneg {t} %yi.0
  store {t} %yr, ptr %zp
  store {t} %yi, ptr %zpi
  %j.next = add i64 %j, 1
  %jm = icmp ult i64 %j.next, %m
  br i1 %jm, label %conv, label %conv_fft
conv_fft:
  call void @{g}_bitrev(ptr %w, i64 %m, i64 %bits)
  call void @{g}_pass(ptr %w, i64 %m, ptr %tw)
  %mf = uitofp i64 %m to {t}
  %im = fdiv {t} 1.0, %mf
  br label %post
post:                                  ; X_k = c_k * conj(w_k) / m
  %p = phi i64 [ 0, %conv_fft ], [ %p.next, %post ]
  %qp = getelementptr [2 x {t}], ptr %w, i64 %p
  %qpi = getelementptr {t}, ptr %qp, i64 1
  %qr.0 = load {t}, ptr %qp
  %qi.0 = load {t}, ptr %qpi
  %qr = fmul {t} %qr.0, %im
  %qi.1 = fmul {t} %qi.0, %im
  %qi = fneg {t} %qi.1
  %pcp = getelementptr [2 x {t}], ptr %c, i64 %p
  %pcpi = getelementptr {t}, ptr %pcp, i64 1
  %pcr = load {t}, ptr %pcp
  %pci = load {t}, ptr %pcpi
  %o1 = fmul {t} %qr, %pcr
  %o2 = fmul {t} %qi, %pci
  %or = fsub {t} %o1, %o2
  %o3 = fmul {t} %qr, %pci
  %o4 = fmul {t} %qi, %pcr
  %oi = fadd {t} %o3, %o4
  store {t} %or, ptr %qp
  store {t} %oi, ptr %qpi
  %p.next = add i64 %p, 1
  %pm = icmp ult i64 %p.next, %n
  br i1 %pm, label %post, label %store
store:
  %s = phi i64 [ 0, %transform ], [ 0, %post ], [ %s.next, %store_end ]
  %sp = getelementptr [2 x {t}], ptr %w, i64 %s
  %spi = getelementptr {t}, ptr %sp, i64 1
  %vr.0 = load {t}, ptr %sp
  %vi.0 = load {t}, ptr %spi
  %vr = fmul {t} %vr.0, %scale
  %vi.1 = fmul {t} %vi.0, %scale
  %vi.n = fneg {t} %vi.1
  %vi = select i1 %inv, {t} %vi.n, {t} %vi.1
  %doff = mul i64 %s, %ds
  switch i32 %omode, label %store_cplx [ i32 1, label %store_real
                                         i32 2, label %store_unpack
                                         i32 3, label %store_pair ]
store_real:
  %drp = getelementptr {t}, ptr %dst, i64 %doff
  store {t} %vr, ptr %drp
  br label %store_end
store_pair:                            ; a packed real line: z_s = (x_2s, x_2s+1)
  %po0 = shl i64 %doff, 1
  %po1 = add i64 %po0, %ds
  %pp0 = getelementptr {t}, ptr %dst, i64 %po0
  %pp1 = getelementptr {t}, ptr %dst, i64 %po1
  store {t} %vr, ptr %pp0
  store {t} %vi, ptr %pp1
  br label %store_end
store_cplx:
  %dcp = getelementptr [2 x {t}], ptr %dst, i64 %doff
  %dcpi = getelementptr {t}, ptr %dcp, i64 1
  store {t} %vr, ptr %dcp
  store {t} %vi, ptr %dcpi
  br label %store_end
store_unpack:                          ; X_s = E_s + W^s O_s from Z = FFT(x_even + i x_odd), s = 0..n
  %sn = icmp eq i64 %s, %n
  %sa = select i1 %sn, i64 0, i64 %s
  %s0 = icmp eq i64 %s, 0
  %nms = sub i64 %n, %s
  %sb = select i1 %s0, i64 0, i64 %nms
  %uap = getelementptr [2 x {t}], ptr %w, i64 %sa
  %uapi = getelementptr {t}, ptr %uap, i64 1
  %ubp = getelementptr [2 x {t}], ptr %w, i64 %sb
  %ubpi = getelementptr {t}, ptr %ubp, i64 1
  %zar = load {t}, ptr %uap
  %zai = load {t}, ptr %uapi
  %zbr = load {t}, ptr %ubp
  %zbi = load {t}, ptr %ubpi
  %e2r = fadd {t} %zar, %zbr
  %e2i = fsub {t} %zai, %zbi
  %er = fmul {t} %e2r, 0.5
  %ei = fmul {t} %e2i, 0.5
  %o2r = fadd {t} %zai, %zbi
  %o2i = fsub {t} %zbr, %zar
  %or2 = fmul {t} %o2r, 0.5
  %oi2 = fmul {t} %o2i, 0.5
  %wkp.0 = getelementptr [2 x {t}], ptr %pk, i64 %sa
  %wkp = select i1 %sn, ptr %w, ptr %wkp.0
  %wkpi = getelementptr {t}, ptr %wkp, i64 1
  %wkr.0 = load {t}, ptr %wkp
  %wki.0 = load {t}, ptr %wkpi
  %wkr = select i1 %sn, {t} -1.0, {t} %wkr.0
  %wki = select i1 %sn, {t} 0.0, {t} %wki.0
  %u1 = fmul {t} %wkr, %or2
  %u2 = fmul {t} %wki, %oi2
  %u3 = fsub {t} %u1, %u2
  %u4 = fmul {t} %wkr, %oi2
  %u5 = fmul {t} %wki, %or2
  %u6 = fadd {t} %u4, %u5
  %xur = fadd {t} %er, %u3
  %xui = fadd {t} %ei, %u6
  %ucp = getelementptr [2 x {t}], ptr %dst, i64 %doff
  %ucpi = getelementptr {t}, ptr %ucp, i64 1
  store {t} %xur, ptr %ucp
  store {t} %xui, ptr %ucpi
  br label %store_end
store_end:
  %s.next = add i64 %s, 1
  %sm = icmp ult i64 %s.next, %nout
  br i1 %sm, label %store, label %done
done:
  ret void
}}
"""


def _size(t: str) -> int:
    return 4 if t == "float" else 8


def _entry(g: str, t: str) -> str:
    size = _size(t)
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
    for g, (t, _) in _TYPES.items():
        parts += [_stage(g, t), _tables(g, t), _line(g, t), _entry(g, t), _aliases(g)]
    return "\n".join(parts)
