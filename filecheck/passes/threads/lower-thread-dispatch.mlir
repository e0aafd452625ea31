// RUN: minixla-opt %s -p 'convert-parallel-loops-to-threads,lower-scf-to-cf,convert-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts,lower-thread-dispatch' | filecheck %s

// The call becomes: captures stored into 8-byte slots (an alloca in the entry
// block), then minixla_parallel_for(@task, ctx, lo, hi); the task loads them
// back and calls the outlined body.
// CHECK-LABEL: llvm.func @scale(%x: !llvm.ptr, %s: f32, %out: !llvm.ptr)
// CHECK:         %[[N:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[CTX:.*]] = llvm.alloca %[[N]] x !llvm.ptr {alignment = 8 : i64}
// CHECK:         llvm.store %x, %{{.*}}
// CHECK:         llvm.store %s, %{{.*}}
// CHECK:         llvm.store %out, %{{.*}}
// CHECK:         %[[T:.*]] = llvm.mlir.addressof @scale_par0__task : !llvm.ptr
// CHECK:         llvm.call @minixla_parallel_for(%[[T]], %[[CTX]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// CHECK:       llvm.func internal @scale_par0(
// CHECK-LABEL: llvm.func internal @scale_par0__task(%{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr)
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.call @scale_par0(
// CHECK:       llvm.func @minixla_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-NOT:   __threaded
func.func @scale(%x: memref<1024x1024xf32>, %s: f32, %out: memref<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %v = memref.load %x[%i, %j] : memref<1024x1024xf32>
    %w = arith.mulf %v, %s : f32
    memref.store %w, %out[%i, %j] : memref<1024x1024xf32>
    "scf.reduce"() : () -> ()
  }) : (index, index, index, index, index, index) -> ()
  func.return
}
