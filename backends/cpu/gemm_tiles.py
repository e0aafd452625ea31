"""The generated gemm's innermost task body, in LLVM IR: one task's micro-kernel calls over a block
of A micro-panels x B micro-panels, with the prefetches that ride on those calls (the next A
micro-panel, or the next column block's packed B) and the late packing of A. `gemm_driver.py`
splices it into each task; it reads the task's values by name (`%m`, `%apack`, `%kcp`, ...).
"""

from __future__ import annotations


def tile_loops(g: str, t: str, mr: int, nr: int, size: int, unit: int) -> str:
    """The micro-kernel calls over A micro-panels [ip0, ip1) x B micro-panels [jp0, jp1): A's
    micro-panel stays in L1 while B's stream from L2 (the other order measured 5% slower).
    With `%late` (A's k unit-stride) the task of column block 0 (`%packa`) packs its A micro-panels
    itself, just before their kernel calls: written into L1 and read from there, instead of a
    packing pass writing all of them to memory for the tasks to read back; the row chunk's tasks of
    the other column blocks wait for it (session 10: 2048^3 +0.8-1.2%, 1024^3 +0.8-2.8%,
    1024x512x4096 +5.6%, one thread, CPU time; before, only products of one column block did this).
    (With A's lanes unit-stride, e.g. a kernel gradient's transposed patches, that was 3-5%
    slower: each k step of a panel is a new row of A, which the next panel, packed right after
    in the packing pass, reads again from cache.)"""
    return f"""  br label %irow
irow:
  %ip = phi i64 [ %ip0, %tile_go ], [ %ip.next, %irow_end ]
  %i0 = mul i64 %ip, {mr}
  %mleft = sub i64 %m, %i0
  %mrv = call i64 @llvm.umin.i64(i64 %mleft, i64 {mr})
  %aoff = mul i64 %i0, %kmx
  %ap = getelementptr {t}, ptr %apack, i64 %aoff
  %crow = mul i64 %i0, %ldc
  ; the next A micro-panel, prefetched into L2 by this one's kernel calls when k is unit-stride in A
  %inext = add i64 %i0, {mr}
  %nleft0 = sub i64 %m, %inext
  %inside = icmp ult i64 %inext, %m
  %nmr = call i64 @llvm.umin.i64(i64 %nleft0, i64 {mr})
  %haspf.0 = and i1 %packa, %inside
  %kunit = icmp eq i64 %acs, 1
  %haspf = and i1 %haspf.0, %kunit
  %pfo.0 = mul i64 %inext, %ars
  %pfo = add i64 %pfo.0, %p0
  %pfa = getelementptr {t}, ptr %a, i64 %pfo
  %pfrs = mul i64 %ars, {size}
  %pflpr.0 = mul i64 %kc, {size}
  %pflpr.1 = add i64 %pflpr.0, {unit - 1}
  %pflpr = udiv i64 %pflpr.1, {unit}
  %pfn.0 = mul i64 %pflpr, %nmr
  %pflines.a = select i1 %haspf, i64 %pfn.0, i64 0
  ; or the next column block's packed B (`%pfb`): one row of lines over the task's kernel calls
  %pfx = select i1 %pfb, ptr %bnx, ptr %pfa
  %pfxrs = select i1 %pfb, i64 %bnbytes, i64 %pfrs
  %pfxlpr = select i1 %pfb, i64 %bnlines, i64 %pflpr
  %pflines = select i1 %pfb, i64 %bnlines, i64 %pflines.a
  %ipd = sub i64 %ip, %ip0
  %rowcalls = mul i64 %ipd, %njp
  br i1 %packa, label %apanel, label %jcol
apanel:                                ; this task is the panel's only user: packed here, used from L1
  call void @{g}_pack_a(ptr %ap, ptr %a, i64 %ars, i64 %acs, i64 %i0, i64 %mrv, i64 %p0, i64 %kc, i64 %kcp)
  br label %jcol
jcol:
  %jp = phi i64 [ %jp0, %irow ], [ %jp0, %apanel ], [ %jp.next, %jcol ]
  %pfcall = sub i64 %jp, %jp0
  %pfcallb = add i64 %pfcall, %rowcalls
  %pfcallx = select i1 %pfb, i64 %pfcallb, i64 %pfcall
  %pfline = mul i64 %pfcallx, %kpf
  %j0 = mul i64 %jp, {nr}
  %nleft = sub i64 %n, %j0
  %nrv = call i64 @llvm.umin.i64(i64 %nleft, i64 {nr})
  %boff = mul i64 %j0, %kcp
  %bp = getelementptr {t}, ptr %bpack, i64 %boff
  %coff = add i64 %crow, %j0
  %cp = getelementptr {t}, ptr %c, i64 %coff
  call void @{g}_ukernel(i64 %kcp, ptr %ap, ptr %bp, ptr %cp, i64 %ldc, {t} %alpha, {t} %beta, i64 %mrv, i64 %nrv,
                         ptr %pfx, i64 %pfxrs, i64 %pfxlpr, i64 %pflines, i64 %pfline)
  %jp.next = add i64 %jp, 1
  %jmore = icmp ult i64 %jp.next, %jp1
  br i1 %jmore, label %jcol, label %irow_end
irow_end:
  %ip.next = add i64 %ip, 1
  %imore = icmp ult i64 %ip.next, %ip1
  br i1 %imore, label %irow, label %next"""
