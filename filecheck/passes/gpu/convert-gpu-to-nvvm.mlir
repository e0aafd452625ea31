// RUN: minixla-opt %s -p convert-gpu-to-nvvm | filecheck %s

// Device code is lowered to the llvm dialect inside the gpu.module: ids read
// the PTX special registers, the barrier is nvvm.barrier0, the shared alloca
// is an internal addrspace(3) global, exp calls libdevice, and the kernel is
// an llvm.func tagged gpu.kernel (no C wrapper). The host stays as it was.
// CHECK:       func.func @f(
// CHECK:         "gpu.launch_func"
// CHECK:       "gpu.module"() <{sym_name = "minixla_kernels"}>
// CHECK:         llvm.mlir.global internal @__shared_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x f32>
// CHECK:         llvm.func @k(%[[A:.*]]: !llvm.ptr) attributes {gpu.kernel
// CHECK:           %[[T:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:           llvm.sext %[[T]] : i32 to i64
// CHECK:           nvvm.read.ptx.sreg.ntid.x : i32
// CHECK:           %[[S:.*]] = llvm.mlir.addressof @__shared_0 : !llvm.ptr
// CHECK:           llvm.call @__nv_expf
// CHECK:           llvm.getelementptr inbounds %[[S]]
// CHECK:           llvm.store
// CHECK:           nvvm.barrier0
// CHECK:           llvm.return
// CHECK-NOT:     _mlir_ciface_
// CHECK:         llvm.func @__nv_expf(f32) -> f32
builtin.module attributes {gpu.container_module} {
  func.func @f(%a: memref<32xf32>) {
    %one = arith.constant 1 : index
    %n = arith.constant 32 : index
    "gpu.launch_func"(%one, %one, %one, %n, %one, %one, %a) <{kernel = @minixla_kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0>}> : (index, index, index, index, index, index, memref<32xf32>) -> ()
    return
  }
  "gpu.module"() <{sym_name = "minixla_kernels"}> ({
    "gpu.func"() <{function_type = (memref<32xf32>) -> (), kernel}> ({
    ^bb0(%a: memref<32xf32>):
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %nt = "gpu.block_dim"() <{dimension = #gpu<dim x>}> : () -> index
      %s = memref.alloca() : memref<32xf32, 3 : i32>
      %x = memref.load %a[%t] : memref<32xf32>
      %e = math.exp %x : f32
      memref.store %e, %s[%t] : memref<32xf32, 3 : i32>
      "gpu.barrier"() : () -> ()
      %y = memref.load %s[%nt] : memref<32xf32, 3 : i32>
      memref.store %y, %a[%t] : memref<32xf32>
      "gpu.return"() : () -> ()
    }) {sym_name = "k"} : () -> ()
  }) : () -> ()
}
