// The LLVM IR of a tiny loop nest (4 x 10 iterations) marks its inner loop's back edge
// "do not vectorize" (backends/cpu/loop_hints.py); a bigger nest (512 x 10), a loop of 16 or
// more iterations and a loop with a dynamic bound keep LLVM's own choice.
// RUN: minixla-opt %s -p lower-scf-to-cf,convert-memref-to-llvm,convert-math-to-llvm,convert-index-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts | minixla-translate --mlir-to-llvmir | filecheck %s
// RUN: minixla-opt %s -p lower-scf-to-cf,convert-memref-to-llvm,convert-math-to-llvm,convert-index-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts | env MINIXLA_LOOP_HINTS=0 minixla-translate --mlir-to-llvmir | filecheck %s --check-prefix=OFF

// CHECK-LABEL: define void @"tiny"
// CHECK:         icmp slt i64 %{{.*}}, 4
// CHECK:         icmp slt i64 %{{.*}}, 10
// CHECK:         br label %"bb{{[0-9]+}}", !llvm.loop ![[LOOP:[0-9]+]]
// CHECK-NOT:     !llvm.loop
// CHECK:       }
// CHECK-LABEL: define void @"big_nest"
// CHECK-NOT:     !llvm.loop
// CHECK:       }
// CHECK-LABEL: define void @"long_loop"
// CHECK-NOT:     !llvm.loop
// CHECK:       }
// CHECK-LABEL: define void @"dynamic"
// CHECK-NOT:     !llvm.loop
// CHECK:       }
// CHECK:       ![[HINT:[0-9]+]] = !{ !"llvm.loop.vectorize.enable", i1 0 }
// CHECK:       ![[LOOP]] = !{ ![[LOOP]], ![[HINT]] }

// OFF-NOT: !llvm.loop
func.func @tiny(%a: memref<4x10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c10 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x10xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%i, %j] : memref<4x10xf32>
    }
  }
  return
}
func.func @big_nest(%a: memref<512x10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %c512 step %c1 {
    scf.for %j = %c0 to %c10 step %c1 {
      %x = memref.load %a[%i, %j] : memref<512x10xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%i, %j] : memref<512x10xf32>
    }
  }
  return
}
func.func @long_loop(%a: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %a[%i] : memref<16xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%i] : memref<16xf32>
  }
  return
}
func.func @dynamic(%a: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<16xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%i] : memref<16xf32>
  }
  return
}
