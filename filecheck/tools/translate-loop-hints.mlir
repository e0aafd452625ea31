// Loop hints in the LLVM IR (backends/cpu/loop_hints.py): the inner loop of a tiny nest (4 x 10) is
// not vectorized; the inner loops of small nests (512 x 10, a 16-iteration loop) are vectorized but
// not interleaved; a big nest (256 x 128) and a loop with a dynamic bound keep LLVM's own choice; an
// outer loop never gets a hint. MINIXLA_LOOP_HINTS=0: no hints.
// RUN: minixla-opt %s -p lower-scf-to-cf,convert-memref-to-llvm,convert-math-to-llvm,convert-index-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts | minixla-translate --mlir-to-llvmir | filecheck %s
// RUN: minixla-opt %s -p lower-scf-to-cf,convert-memref-to-llvm,convert-math-to-llvm,convert-index-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts | env MINIXLA_LOOP_HINTS=0 minixla-translate --mlir-to-llvmir | filecheck %s --check-prefix=OFF

// CHECK-LABEL: define void @"tiny"
// CHECK:         icmp slt i64 %{{.*}}, 4
// CHECK:         icmp slt i64 %{{.*}}, 10
// CHECK:         br label %"bb{{[0-9]+}}", !llvm.loop ![[TINY:[0-9]+]]
// CHECK-NOT:     !llvm.loop
// CHECK:       }
// CHECK-LABEL: define void @"small_nest"
// CHECK:         br label %"bb{{[0-9]+}}", !llvm.loop ![[SMALL:[0-9]+]]
// CHECK-NOT:     !llvm.loop
// CHECK:       }
// CHECK-LABEL: define void @"short_loop"
// CHECK:         br label %"bb{{[0-9]+}}", !llvm.loop ![[SHORT:[0-9]+]]
// CHECK:       }
// CHECK-LABEL: define void @"big_nest"
// CHECK-NOT:     !llvm.loop
// CHECK:       }
// CHECK-LABEL: define void @"dynamic"
// CHECK-NOT:     !llvm.loop
// CHECK:       }
// CHECK-DAG:   ![[NOVEC:[0-9]+]] = !{ !"llvm.loop.vectorize.enable", i1 0 }
// CHECK-DAG:   ![[TINY]] = !{ ![[TINY]], ![[NOVEC]] }
// CHECK-DAG:   ![[IC1:[0-9]+]] = !{ !"llvm.loop.interleave.count", i32 1 }
// CHECK-DAG:   ![[SMALL]] = !{ ![[SMALL]], ![[IC1]] }
// CHECK-DAG:   ![[SHORT]] = !{ ![[SHORT]], ![[IC1]] }

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
func.func @small_nest(%a: memref<512x10xf32>) {
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
func.func @short_loop(%a: memref<16xf32>) {
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
func.func @big_nest(%a: memref<256x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %c256 step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %x = memref.load %a[%i, %j] : memref<256x128xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%i, %j] : memref<256x128xf32>
    }
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
