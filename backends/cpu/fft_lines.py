"""The FFT kernel's per-line code (see fft_codegen.py for the algorithm): `@<g>_fetch` reads
point k of a line's transform input (complex, real, half spectrum, or the packed forms of even
real transforms), `@<g>_line` gathers a line bit-reversed into scratch, transforms it (radix 2,
or Bluestein's convolution) and stores it (complex, real, unpacked or real pairs)."""

from __future__ import annotations

from minixla.backends.cpu.fft_codegen import elem_size


def fetch_ir(g: str, t: str) -> str:
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


def line_ir(g: str, t: str) -> str:
    """`@{g}_line`: one line: gather (bit-reversed, through @fetch), transform, store."""
    return fetch_ir(g, t) + f"""
; imode / omode: see @{g}_fetch / the store below; n is the transform length (n/2 of a packed real line)
define internal void @{g}_line(ptr noalias %src, i64 %ss, i32 %imode, ptr noalias %dst, i64 %ds, i32 %omode, i64 %nout,
                               i64 %n, i64 %nh, i1 %inv, {t} %scale, i64 %m, i64 %bits, ptr noalias %tw,
                               ptr noalias %w, ptr noalias %c, ptr noalias %bh, ptr noalias %pk) {{
entry:
  %blue = icmp ne i64 %m, %n
  br i1 %blue, label %zero, label %gather
zero:
  %wbytes = mul i64 %m, {2 * elem_size(t)}
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
