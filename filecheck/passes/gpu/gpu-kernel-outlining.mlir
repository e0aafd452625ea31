// RUN: minixla-opt %s -p gpu-kernel-outlining | filecheck %s

// The launch body becomes a kernel in gpu.module @minixla_kernels: captured
// memrefs become parameters, captured constants are cloned in, the launch's
// id arguments become gpu.block_id/thread_id/grid_dim/block_dim.
// CHECK:       builtin.module attributes {gpu.container_module}
// CHECK:       func.func @f(%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>)
// CHECK:         "gpu.launch_func"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[A]], %[[B]]) <{kernel = @minixla_kernels::@f_kernel_0
// CHECK-NOT:     "gpu.launch"(
// CHECK:       "gpu.module"() <{sym_name = "minixla_kernels"}>
// CHECK:         "gpu.func"() <{function_type = (memref<64xf32>, memref<64xf32>) -> (), kernel}>
// CHECK:         ^{{.*}}(%[[KA:.*]]: memref<64xf32>, %[[KB:.*]]: memref<64xf32>):
// CHECK:           %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:           %[[BID:.*]] = "gpu.block_id"() <{dimension = #gpu<dim x>}>
// CHECK:           %[[TID:.*]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}>
// CHECK:           "gpu.grid_dim"
// CHECK:           %[[NT:.*]] = "gpu.block_dim"
// CHECK:           %[[M:.*]] = arith.muli %[[BID]], %[[NT]] : index
// CHECK:           %[[I:.*]] = arith.addi %[[M]], %[[TID]] : index
// CHECK:           %[[X:.*]] = memref.load %[[KA]][%[[I]]] : memref<64xf32>
// CHECK:           %[[Y:.*]] = arith.mulf %[[X]], %[[TWO]] : f32
// CHECK:           memref.store %[[Y]], %[[KB]][%[[I]]] : memref<64xf32>
// CHECK:           "gpu.return"() : () -> ()
// CHECK:         sym_name = "f_kernel_0", gpu.known_block_size = array<i32: 64, 1, 1>
func.func @f(%a: memref<64xf32>, %b: memref<64xf32>) {
  %one = arith.constant 1 : index
  %n = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  "gpu.launch"(%one, %one, %one, %n, %one, %one) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
  ^bb0(%bx: index, %by: index, %bz: index, %tx: index, %ty: index, %tz: index, %gx: index, %gy: index, %gz: index, %nx: index, %ny: index, %nz: index):
    %m = arith.muli %bx, %nx : index
    %i = arith.addi %m, %tx : index
    %x = memref.load %a[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%i] : memref<64xf32>
    "gpu.terminator"() : () -> ()
  }) : (index, index, index, index, index, index) -> ()
  return
}
