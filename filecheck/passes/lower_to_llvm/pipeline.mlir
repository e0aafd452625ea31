// RUN: minixla-opt %s -p lower-scf-to-cf,convert-memref-to-llvm,convert-math-to-llvm,convert-index-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts | filecheck %s

// The whole lowering leaves only llvm ops: no casts, no source dialects.
// CHECK-LABEL: llvm.func @scale(%a: !llvm.ptr, %out: !llvm.ptr)
// CHECK:         llvm.br ^{{.*}}(%{{.*}} : i64)
// CHECK:         llvm.getelementptr inbounds %a[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.call_intrinsic "llvm.sqrt.f32"
// CHECK:         llvm.getelementptr inbounds %out[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-LABEL: llvm.func @_mlir_ciface_scale(
// CHECK-NOT:     unrealized_conversion_cast
// CHECK-NOT:     {{(arith|scf|cf|memref|func|math)\.}}
func.func @scale(%a: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %a[%i] : memref<16xf32>
    %y = math.sqrt %x : f32
    memref.store %y, %out[%i] : memref<16xf32>
  }
  return
}
