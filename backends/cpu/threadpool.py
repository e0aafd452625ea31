"""`minixla_parallel_for`: the native fork-join helper compiled code calls.

    void minixla_parallel_for(void (*fn)(i64 lo, i64 hi, void *ctx), void *ctx, i64 lo, i64 hi)

splits [lo, hi) into `T = min(num_threads, hi - lo)` contiguous shares,
starts T-1 pthreads for shares 1..T-1, runs share 0 on the calling thread
and joins the others (a thread that cannot be started runs its share
inline). Written in LLVM IR and compiled once with llvmlite, so it needs no C
compiler; it calls only libc's pthread_create/pthread_join, never Python.
Its address is registered with `llvm.add_symbol` before any module that
calls it is JIT-compiled (`ensure_registered`, from the JIT).

Thread creation costs tens of microseconds, which is why the threading pass
only threads loops with enough work (passes/lower_to_llvm/threads.py). Results
never depend on the thread count: loops are element-wise independent, and
reductions are split into a fixed number of chunks combined in order by
the generated code, whatever the shares.

`MINIXLA_NUM_THREADS` (read once; default: the cores this process may use)
sets the count; `set_num_threads` changes it at run time (tests use it).
"""

from __future__ import annotations

import ctypes
import os
import threading

import llvmlite.binding as llvm

SYMBOL = "minixla_parallel_for"

#: How long a thread of the pool keeps polling, between `sched_yield` calls, before it sleeps on the
#: futex, in TSC cycles (2^19: ~0.24 ms at 2.2 GHz). The caller waiting in the join polls JOIN_CYCLES
#: while every worker has picked the job up (they are running shares, so they end soon); while one has
#: not, it yields at once (the worker may be queued on this vCPU) and sleeps after PICKUP_CYCLES (the
#: vCPU going idle lets the kernel move the worker here). Sleeping after 200 pauses (~6 us), as before,
#: put the caller to sleep in most joins of a training step whose worker ran on another vCPU, each sleep
#: costing a futex wake-up and the kernel's wake-up latency: the MLP step 0.49-0.50 -> 0.36-0.38 ms with
#: the threads pinned apart, 0.63-0.68 -> 0.54-0.56 on one vCPU (with the session's other changes;
#: docs/cpu-pipeline.md, session 10). A worker waiting for the next loop does not poll longer
#: (IDLE_CYCLES = 0: 200 pauses, one yield): it measured no faster, and a thread polling with
#: sched_yield keeps its vCPU from a thread the scheduler holds ineligible (EEVDF), such as numpy's
#: OpenBLAS worker spinning after a product. A plain pause spin instead of yielding made the step 8x
#: slower at load 7 (a spinning caller kept a worker queued on its vCPU from running).
IDLE_CYCLES = 0
JOIN_CYCLES = 1 << 19
#: jobs after which a worker takes back the vCPU its start left (`@pool_move_away`): the MLP step's
#: ~500 steps (4 fork-joins each), by when the load balancer has placed it
WARM_JOBS = 2048
PICKUP_CYCLES = 1 << 15

#: the persistent pool: worker threads started on first need and parked on a futex between loops, so a
#: parallel loop costs a wake-up instead of thread creation (tens of microseconds per loop). One loop
#: runs on the pool at a time (`@pool_busy`); a loop that finds it busy (another thread's, or a loop
#: nested in a worker's share) starts threads of its own as before (`@minixla_spawn_for`). Every
#: started worker acknowledges every generation (`@pool_pending`), so the job's fields are never
#: rewritten while a worker may still read them. A forked child starts with no workers (pthread_atfork).
PERSISTENT_IR = r"""
@pool_busy = internal global i32 0
@pool_gen = internal global i32 0
@pool_pending = internal global i32 0
@pool_picked = internal global i32 0
@pool_started = internal global i64 0
@pool_atfork = internal global i32 0
@pool_fn = internal global ptr null
@pool_ctx = internal global ptr null
@pool_lo = internal global i64 0
@pool_n = internal global i64 0
@pool_t = internal global i64 0

declare i64 @syscall(i64, ...)
declare i32 @pthread_detach(i64)
declare void @llvm.x86.sse2.pause()
declare i64 @llvm.readcyclecounter()
declare i32 @sched_yield()

define internal void @pool_after_fork() {
  store atomic i32 0, ptr @pool_busy seq_cst, align 4
  store atomic i64 0, ptr @pool_started seq_cst, align 8
  store atomic i32 0, ptr @pool_pending seq_cst, align 4
  ret void
}

define internal void @pool_futex_wait(ptr %addr, i32 %val) {
  %r = call i64 (i64, ...) @syscall(i64 202, ptr %addr, i32 128, i32 %val, ptr null)
  ret void
}

define internal void @pool_futex_wake(ptr %addr) {
  %r = call i64 (i64, ...) @syscall(i64 202, ptr %addr, i32 129, i32 2147483647)
  ret void
}

define internal void @pool_run_share(i64 %k) {
  %fn = load ptr, ptr @pool_fn
  %ctx = load ptr, ptr @pool_ctx
  %lo = load i64, ptr @pool_lo
  %n = load i64, ptr @pool_n
  %t = load i64, ptr @pool_t
  %a = mul i64 %n, %k
  %b = sdiv i64 %a, %t
  %slo = add i64 %lo, %b
  %k1 = add i64 %k, 1
  %c = mul i64 %n, %k1
  %d = sdiv i64 %c, %t
  %shi = add i64 %lo, %d
  call void %fn(i64 %slo, i64 %shi, ptr %ctx)
  ret void
}

; wait until *%addr != %seen; returns the new value. While at least %workers workers have picked the
; current job up (@pool_picked): spin 200 pauses (back-to-back loops), then poll between sched_yield
; calls for %budget TSC cycles; while fewer have, one may be queued on this vCPU: yield at once, and
; poll for %short cycles only. Then sleep on the futex
define internal i32 @pool_wait_change(ptr %addr, i32 %seen, i64 %budget, i32 %workers, i64 %short) {
entry:
  br label %poll
poll:
  %i = phi i32 [ 0, %entry ], [ %i1, %pause ]
  %cur = load atomic i32, ptr %addr seq_cst, align 4
  %changed = icmp ne i32 %cur, %seen
  br i1 %changed, label %done, label %idle
idle:
  %i1 = add i32 %i, 1
  %picked0 = load atomic i32, ptr @pool_picked seq_cst, align 4
  %running0 = icmp sge i32 %picked0, %workers
  %few = icmp slt i32 %i, 200
  %spinning = and i1 %few, %running0
  br i1 %spinning, label %pause, label %yield_start
pause:
  call void @llvm.x86.sse2.pause()
  br label %poll
yield_start:
  %t0 = call i64 @llvm.readcyclecounter()
  br label %yield
yield:
  %y = call i32 @sched_yield()
  %cur2 = load atomic i32, ptr %addr seq_cst, align 4
  %changed2 = icmp ne i32 %cur2, %seen
  br i1 %changed2, label %done2, label %yield_more
yield_more:
  %picked = load atomic i32, ptr @pool_picked seq_cst, align 4
  %running = icmp sge i32 %picked, %workers
  %limit = select i1 %running, i64 %budget, i64 %short
  %t = call i64 @llvm.readcyclecounter()
  %el = sub i64 %t, %t0
  %more = icmp ult i64 %el, %limit
  br i1 %more, label %yield, label %sleep
sleep:
  call void @pool_futex_wait(ptr %addr, i32 %seen)
  %cur3 = load atomic i32, ptr %addr seq_cst, align 4
  %changed3 = icmp ne i32 %cur3, %seen
  br i1 %changed3, label %done2, label %sleep
done2:
  %r = phi i32 [ %cur2, %yield ], [ %cur3, %sleep ]
  ret i32 %r
done:
  ret i32 %cur
}

; a new thread inherits its creator's MXCSR, and the pool starts inside whichever compiled call first
; runs a threaded loop: one of a tf function flushes denormals (FTZ/DAZ set), and its workers would keep
; them for IEEE modules' tasks too; they start from the default instead (each task sets its own mode)
define internal void @pool_default_fp() {
  %s = alloca i32
  store i32 8064, ptr %s
  call void @llvm.x86.sse.ldmxcsr(ptr %s)
  ret void
}
declare void @llvm.x86.sse.ldmxcsr(ptr)

; a new worker starts on its creator's vCPU, and a kernel that places a woken thread on its waker's vCPU
; (this project's guests) kept it there for the first ~100-200 fork-joins of a process: the MLP step ran
; at 0.50 ms instead of 0.31 until the load balancer moved it. The worker leaves the creator's vCPU at
; once (its affinity minus that CPU, when anything is left), and takes its whole affinity back after
; @WARM_JOBS@ jobs, when the placement has settled. Raw syscalls (x86_64: 203 sched_setaffinity, 204
; sched_getaffinity), as for the futex
@pool_home_cpu = internal global i32 -1

define internal i1 @pool_move_away(ptr %saved) {
entry:
  %away = alloca [16 x i64], align 8
  %home = load atomic i32, ptr @pool_home_cpu monotonic, align 4
  %known = icmp ult i32 %home, 1024
  br i1 %known, label %zero, label %stay
zero:
  %i = phi i64 [ 0, %entry ], [ %i1, %zero ]
  %zp = getelementptr i64, ptr %saved, i64 %i
  store i64 0, ptr %zp
  %i1 = add i64 %i, 1
  %zmore = icmp slt i64 %i1, 16
  br i1 %zmore, label %zero, label %read
read:
  %got = call i64 (i64, ...) @syscall(i64 204, i64 0, i64 128, ptr %saved)
  %ok = icmp sgt i64 %got, 0
  %h = zext i32 %home to i64
  %hw = lshr i64 %h, 6
  %hb = and i64 %h, 63
  %bit = shl i64 1, %hb
  %clear = xor i64 %bit, -1
  br i1 %ok, label %copy, label %stay
copy:
  %j = phi i64 [ 0, %read ], [ %j1, %copy ]
  %acc = phi i64 [ 0, %read ], [ %acc1, %copy ]
  %sp = getelementptr i64, ptr %saved, i64 %j
  %w = load i64, ptr %sp
  %cleared = and i64 %w, %clear
  %here = icmp eq i64 %j, %hw
  %w2 = select i1 %here, i64 %cleared, i64 %w
  %ap = getelementptr i64, ptr %away, i64 %j
  store i64 %w2, ptr %ap
  %acc1 = or i64 %acc, %w2
  %j1 = add i64 %j, 1
  %cmore = icmp slt i64 %j1, 16
  br i1 %cmore, label %copy, label %decide
decide:
  %others = icmp ne i64 %acc1, 0
  br i1 %others, label %move, label %stay
move:
  %rc = call i64 (i64, ...) @syscall(i64 203, i64 0, i64 128, ptr %away)
  %moved = icmp eq i64 %rc, 0
  ret i1 %moved
stay:
  ret i1 false
}

define internal ptr @pool_worker(ptr %arg) {
entry:
  call void @pool_default_fp()
  %saved = alloca [16 x i64], align 8
  %moved = call i1 @pool_move_away(ptr %saved)
  %bits = ptrtoint ptr %arg to i64
  %k = and i64 %bits, 4294967295
  %hi = lshr i64 %bits, 32
  %seen0 = trunc i64 %hi to i32
  br label %wait
wait:
  %seen = phi i32 [ %seen0, %entry ], [ %g, %acked ], [ %g, %restore ]
  %jobs = phi i64 [ 0, %entry ], [ %jobs1, %acked ], [ %jobs1, %restore ]
  %g = call i32 @pool_wait_change(ptr @pool_gen, i32 %seen, i64 @IDLE_CYCLES@, i32 0, i64 0)
  %p = atomicrmw add ptr @pool_picked, i32 1 seq_cst
  %t = load i64, ptr @pool_t
  %active = icmp slt i64 %k, %t
  br i1 %active, label %run, label %ack
run:
  call void @pool_run_share(i64 %k)
  br label %ack
ack:
  %old = atomicrmw sub ptr @pool_pending, i32 1 seq_cst
  %last = icmp eq i32 %old, 1
  br i1 %last, label %wake, label %acked
wake:
  call void @pool_futex_wake(ptr @pool_pending)
  br label %acked
acked:
  %jobs1 = add i64 %jobs, 1
  %settled = icmp eq i64 %jobs1, @WARM_JOBS@
  %back = and i1 %settled, %moved
  br i1 %back, label %restore, label %wait
restore:
  %rrc = call i64 (i64, ...) @syscall(i64 203, i64 0, i64 128, ptr %saved)
  br label %wait
}

define void @minixla_parallel_for(ptr %fn, ptr %ctx, i64 %lo, i64 %hi) {
entry:
  %n = sub i64 %hi, %lo
  %want = call i64 @minixla_thread_count()
  %few = icmp slt i64 %n, %want
  %t0 = select i1 %few, i64 %n, i64 %want
  %serial = icmp sle i64 %t0, 1
  br i1 %serial, label %inline, label %claim
inline:
  call void %fn(i64 %lo, i64 %hi, ptr %ctx)
  ret void
claim:
  %pair = cmpxchg ptr @pool_busy, i32 0, i32 1 seq_cst seq_cst
  %mine = extractvalue { i32, i1 } %pair, 1
  br i1 %mine, label %setup, label %spawn
spawn:
  call void @minixla_spawn_for(ptr %fn, ptr %ctx, i64 %lo, i64 %hi, i64 %t0)
  ret void
setup:
  %registered = load i32, ptr @pool_atfork
  %first = icmp eq i32 %registered, 0
  br i1 %first, label %register, label %grow
register:
  store i32 1, ptr @pool_atfork
  call void @minixla_pool_register_atfork(ptr @pool_after_fork)
  br label %grow
grow:
  %g = load atomic i32, ptr @pool_gen seq_cst, align 4
  %gw = zext i32 %g to i64
  %gshift = shl i64 %gw, 32
  %tid = alloca i64
  %w0 = load atomic i64, ptr @pool_started seq_cst, align 8
  %need = sub i64 %t0, 1
  br label %start
start:
  %w = phi i64 [ %w0, %grow ], [ %w1, %detach ]
  %short = icmp slt i64 %w, %need
  br i1 %short, label %create, label %started
create:
  %cpu = alloca i32
  %grc = call i64 (i64, ...) @syscall(i64 309, ptr %cpu, ptr null, ptr null)
  %gok = icmp eq i64 %grc, 0
  %cpuv = load i32, ptr %cpu
  %home = select i1 %gok, i32 %cpuv, i32 -1
  store atomic i32 %home, ptr @pool_home_cpu monotonic, align 4
  %w1 = add i64 %w, 1
  %argbits = or i64 %gshift, %w1
  %argp = inttoptr i64 %argbits to ptr
  %rc = call i32 @pthread_create(ptr %tid, ptr null, ptr @pool_worker, ptr %argp)
  %ok = icmp eq i32 %rc, 0
  br i1 %ok, label %detach, label %started
detach:
  %tv = load i64, ptr %tid
  %drc = call i32 @pthread_detach(i64 %tv)
  store atomic i64 %w1, ptr @pool_started seq_cst, align 8
  br label %start
started:
  %wn = load atomic i64, ptr @pool_started seq_cst, align 8
  %team = add i64 %wn, 1
  %fits = icmp slt i64 %t0, %team
  %t = select i1 %fits, i64 %t0, i64 %team
  %alone = icmp sle i64 %t, 1
  br i1 %alone, label %release_inline, label %publish
release_inline:
  store atomic i32 0, ptr @pool_busy seq_cst, align 4
  call void %fn(i64 %lo, i64 %hi, ptr %ctx)
  ret void
publish:
  store ptr %fn, ptr @pool_fn
  store ptr %ctx, ptr @pool_ctx
  store i64 %lo, ptr @pool_lo
  store i64 %n, ptr @pool_n
  store i64 %t, ptr @pool_t
  %wn32 = trunc i64 %wn to i32
  store atomic i32 %wn32, ptr @pool_pending seq_cst, align 4
  store atomic i32 0, ptr @pool_picked seq_cst, align 4
  %g1 = add i32 %g, 1
  store atomic i32 %g1, ptr @pool_gen seq_cst, align 4
  call void @pool_futex_wake(ptr @pool_gen)
  call void @pool_run_share(i64 0)
  br label %join
join:
  %left = load atomic i32, ptr @pool_pending seq_cst, align 4
  %finished = icmp eq i32 %left, 0
  br i1 %finished, label %release, label %waitmore
waitmore:
  %now = call i32 @pool_wait_change(ptr @pool_pending, i32 %left, i64 @JOIN_CYCLES@, i32 %wn32, i64 @PICKUP_CYCLES@)
  br label %join
release:
  store atomic i32 0, ptr @pool_busy seq_cst, align 4
  ret void
}
""".replace("@IDLE_CYCLES@", str(IDLE_CYCLES)).replace("@JOIN_CYCLES@", str(JOIN_CYCLES)).replace(
    "@PICKUP_CYCLES@", str(PICKUP_CYCLES)).replace("@WARM_JOBS@", str(WARM_JOBS))


#: the pool itself; it calls `minixla_thread_count()` and `minixla_pool_register_atfork(child)`, which the
#: text appended to it defines: the JIT's count reads a global Python sets, AOT libraries' (`AOT_COUNT_IR`)
#: decide alone; the JIT registers the fork handler with glibc's `__register_atfork` (`pthread_atfork` is a
#: static libc_nonshared.a wrapper the JIT cannot resolve), AOT libraries with `pthread_atfork`, which
#: the linker provides and which unregisters the handler when the library is unloaded
POOL_IR = r"""
%task = type { ptr, ptr, i64, i64 }
""" + PERSISTENT_IR + r"""
declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @pthread_join(i64, ptr)

define internal ptr @minixla_worker(ptr %t) {
  call void @pool_default_fp()
  %fp = getelementptr %task, ptr %t, i32 0, i32 0
  %fn = load ptr, ptr %fp
  %cp = getelementptr %task, ptr %t, i32 0, i32 1
  %ctx = load ptr, ptr %cp
  %lp = getelementptr %task, ptr %t, i32 0, i32 2
  %lo = load i64, ptr %lp
  %hp = getelementptr %task, ptr %t, i32 0, i32 3
  %hi = load i64, ptr %hp
  call void %fn(i64 %lo, i64 %hi, ptr %ctx)
  ret ptr null
}

define internal void @minixla_spawn_for(ptr %fn, ptr %ctx, i64 %lo, i64 %hi, i64 %t0) {
fork:
  %n = sub i64 %hi, %lo
  %tasks = alloca %task, i64 %t0
  %tids = alloca i64, i64 %t0
  %ok = alloca i8, i64 %t0
  br label %spawn
spawn:
  %k = phi i64 [ 1, %fork ], [ %k1, %spawned ]
  %a = mul i64 %n, %k
  %b = sdiv i64 %a, %t0
  %slo = add i64 %lo, %b
  %k1 = add i64 %k, 1
  %c = mul i64 %n, %k1
  %d = sdiv i64 %c, %t0
  %shi = add i64 %lo, %d
  %tk = getelementptr %task, ptr %tasks, i64 %k
  %f0 = getelementptr %task, ptr %tk, i32 0, i32 0
  store ptr %fn, ptr %f0
  %f1 = getelementptr %task, ptr %tk, i32 0, i32 1
  store ptr %ctx, ptr %f1
  %f2 = getelementptr %task, ptr %tk, i32 0, i32 2
  store i64 %slo, ptr %f2
  %f3 = getelementptr %task, ptr %tk, i32 0, i32 3
  store i64 %shi, ptr %f3
  %tid = getelementptr i64, ptr %tids, i64 %k
  %rc = call i32 @pthread_create(ptr %tid, ptr null, ptr @minixla_worker, ptr %tk)
  %started = icmp eq i32 %rc, 0
  %okp = getelementptr i8, ptr %ok, i64 %k
  %okv = zext i1 %started to i8
  store i8 %okv, ptr %okp
  br i1 %started, label %spawned, label %fallback
fallback:
  call void %fn(i64 %slo, i64 %shi, ptr %ctx)
  br label %spawned
spawned:
  %more = icmp slt i64 %k1, %t0
  br i1 %more, label %spawn, label %own
own:
  %e = sdiv i64 %n, %t0
  %ohi = add i64 %lo, %e
  call void %fn(i64 %lo, i64 %ohi, ptr %ctx)
  br label %join
join:
  %j = phi i64 [ 1, %own ], [ %j1, %joined ]
  %jp = getelementptr i8, ptr %ok, i64 %j
  %jv = load i8, ptr %jp
  %jok = icmp ne i8 %jv, 0
  br i1 %jok, label %dojoin, label %joined
dojoin:
  %jt = getelementptr i64, ptr %tids, i64 %j
  %jtid = load i64, ptr %jt
  %jrc = call i32 @pthread_join(i64 %jtid, ptr null)
  br label %joined
joined:
  %j1 = add i64 %j, 1
  %jmore = icmp slt i64 %j1, %t0
  br i1 %jmore, label %join, label %done
done:
  ret void
}
"""

_JIT_COUNT_IR = r"""
@minixla_num_threads = global i64 1

declare i32 @__register_atfork(ptr, ptr, ptr, ptr)

define void @minixla_pool_register_atfork(ptr %child) {
  %r = call i32 @__register_atfork(ptr null, ptr null, ptr %child, ptr null)
  ret void
}

define i64 @minixla_thread_count() {
  %n = load i64, ptr @minixla_num_threads
  ret i64 %n
}
"""

#: For AOT libraries (backends/cpu/aot.py), where no Python sets the count: it is
#: decided on first use, as `default_num_threads` does (MINIXLA_NUM_THREADS if it
#: is a positive integer, else the CPUs in this thread's affinity mask, else 1),
#: and `@minixla_set_num_threads` (exported under the library's own name) changes it.
AOT_COUNT_IR = r"""
@minixla_num_threads = internal global i64 0

declare i32 @pthread_atfork(ptr, ptr, ptr)

define internal void @minixla_pool_register_atfork(ptr %child) {
  %r = call i32 @pthread_atfork(ptr null, ptr null, ptr %child)
  ret void
}
@minixla_threads_env = private unnamed_addr constant [20 x i8] c"MINIXLA_NUM_THREADS\00"

declare ptr @getenv(ptr)
declare i64 @strtol(ptr, ptr, i32)
declare i32 @sched_getaffinity(i32, i64, ptr)
declare i64 @llvm.ctpop.i64(i64)

define internal i64 @minixla_default_threads() {
entry:
  %s = call ptr @getenv(ptr @minixla_threads_env)
  %has = icmp ne ptr %s, null
  br i1 %has, label %parse, label %affinity
parse:
  %n = call i64 @strtol(ptr %s, ptr null, i32 10)
  %ok = icmp sgt i64 %n, 0
  br i1 %ok, label %given, label %affinity
given:
  ret i64 %n
affinity:
  %mask = alloca [16 x i64], align 8
  call void @llvm.memset.p0.i64(ptr %mask, i8 0, i64 128, i1 false)
  %rc = call i32 @sched_getaffinity(i32 0, i64 128, ptr %mask)
  %failed = icmp ne i32 %rc, 0
  br i1 %failed, label %one, label %count
count:
  %i = phi i64 [ 0, %affinity ], [ %i1, %count ]
  %acc = phi i64 [ 0, %affinity ], [ %acc1, %count ]
  %wp = getelementptr i64, ptr %mask, i64 %i
  %w = load i64, ptr %wp
  %bits = call i64 @llvm.ctpop.i64(i64 %w)
  %acc1 = add i64 %acc, %bits
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, 16
  br i1 %more, label %count, label %counted
counted:
  %any = icmp sgt i64 %acc1, 0
  br i1 %any, label %cpus, label %one
cpus:
  ret i64 %acc1
one:
  ret i64 1
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define internal i64 @minixla_thread_count() {
entry:
  %v = load atomic i64, ptr @minixla_num_threads monotonic, align 8
  %known = icmp sgt i64 %v, 0
  br i1 %known, label %done, label %decide
decide:
  %d = call i64 @minixla_default_threads()
  store atomic i64 %d, ptr @minixla_num_threads monotonic, align 8
  ret i64 %d
done:
  ret i64 %v
}

define i64 @minixla_set_num_threads(i64 %n) {
  %old = call i64 @minixla_thread_count()
  %pos = icmp sgt i64 %n, 1
  %v = select i1 %pos, i64 %n, i64 1
  store atomic i64 %v, ptr @minixla_num_threads monotonic, align 8
  ret i64 %old
}
"""

_LOCK = threading.Lock()
_STATE: dict = {}


def default_num_threads() -> int:
    env = os.environ.get("MINIXLA_NUM_THREADS", "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            raise ValueError(f"MINIXLA_NUM_THREADS must be a positive integer, got {env!r}") from None
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


#: the helper's IR as a runtime kernel (the disk cache's key; `prefetch` may compile it in a child)
POOL_TEXT = "; minixla thread pool\n" + POOL_IR + _JIT_COUNT_IR


def ensure_registered() -> None:
    """Compile the helper once and make `minixla_parallel_for` resolvable."""
    if _STATE:
        return
    with _LOCK:
        if _STATE:
            return
        from minixla.backends.cpu.compile_cache import runtime_kernel_engine

        # LLVM's fast code generation: ~5 ms per new process (~20 ms at -O3; its speed is the futex and
        # atomic calls it makes, the same either way), else cached
        engine = runtime_kernel_engine(POOL_TEXT, codegen_level=0)
        llvm.add_symbol(SYMBOL, engine.get_function_address(SYMBOL))
        count = ctypes.c_int64.from_address(engine.get_global_value_address("minixla_num_threads"))
        count.value = default_num_threads()
        _STATE.update(engine=engine, count=count)


def set_num_threads(n: int) -> int:
    """Set the thread count compiled code uses from now on; returns the old one."""
    ensure_registered()
    old = int(_STATE["count"].value)
    _STATE["count"].value = max(1, int(n))
    return old


def get_num_threads() -> int:
    ensure_registered()
    return int(_STATE["count"].value)


def prefetch() -> None:
    """Start `ensure_registered` on a background thread (the compile calls this once it knows the
    module will call the pool): building the helper (~5 ms of LLVM code generation per new process
    when the disk cache is off or cold) then overlaps the remaining Python passes, since LLVM releases
    the GIL (llvmlite serializes LLVM calls, so this only helps while the main thread is in Python).
    Until session 11 it ran at -O3 (~20 ms) in a forked child: the fork and the copy-on-write faults it
    left cost the main thread more than this thread's whole build."""
    if _STATE or _PREFETCH:
        return
    thread = threading.Thread(target=_register_quietly, name="minixla-pool-build", daemon=True)
    _PREFETCH.append(thread)
    thread.start()


_PREFETCH: list[threading.Thread] = []


def _register_quietly() -> None:
    try:
        ensure_registered()
    except Exception:  # noqa: BLE001 -- the JIT calls ensure_registered again and reports
        pass
