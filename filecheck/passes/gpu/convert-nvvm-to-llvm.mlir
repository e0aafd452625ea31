// RUN: minixla-opt %s -p convert-nvvm-to-llvm | filecheck %s

// Each nvvm op becomes a call of its llvm.nvvm.* intrinsic.
// CHECK-LABEL: llvm.func @k
// CHECK:       llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
// CHECK:       llvm.call_intrinsic "llvm.nvvm.barrier0"() : () -> ()
// CHECK:       llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32, i32) -> i32
// CHECK:       llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, f32, i32, i32) -> f32
// CHECK-NOT:   nvvm.
llvm.func @k(%x: f32) {
  %b = nvvm.read.ptx.sreg.ctaid.x : i32
  nvvm.barrier0
  %m = llvm.mlir.constant(-1 : i32) : i32
  %c = llvm.mlir.constant(31 : i32) : i32
  %v = nvvm.shfl.sync "down" %m, %b, %b, %c : i32 -> i32
  %w = nvvm.shfl.sync "bfly" %m, %x, %b, %c : f32 -> f32
  llvm.return
}
