// RUN: minixla-opt %s -p hlo-to-gpu | filecheck %s

// The running example, reduce_mean(x**2*3+y), through the whole GPU pipeline:
// the host keeps allocation and launches; the device module is llvm dialect.
// CHECK:       builtin.module attributes {gpu.container_module}
// CHECK:       func.func @main(%{{.*}}: memref<64x64xf32>, %{{.*}}: memref<64x64xf32>, %{{.*}}: memref<f32>)
// CHECK:         "gpu.launch_func"{{.*}}@minixla_kernels::@main_kernel_0
// CHECK:         "gpu.launch_func"{{.*}}@minixla_kernels::@main_kernel_{{[0-9]+}}
// CHECK:       "gpu.module"() <{sym_name = "minixla_kernels"}>
// CHECK:         llvm.func @main_kernel_0({{.*}}) attributes {gpu.kernel, {{.*}}minixla.gpu_mapping = "parallel"}
// CHECK:         llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"
// CHECK:         llvm.func @main_kernel_{{[0-9]+}}({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, minixla.gpu_mapping = "reduction-partials"}
// CHECK:         llvm.call_intrinsic "llvm.nvvm.shfl.sync.down.i32"
// CHECK:         llvm.mlir.addressof @__shared_
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier0"
// CHECK:         llvm.func @main_kernel_{{[0-9]+}}({{.*}}) attributes {gpu.kernel, {{.*}}minixla.gpu_mapping = "reduction-final"}
func.func @main(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<f32> {
  %c2 = hlo.constant dense<2.0> : tensor<64x64xf32>
  %sq = hlo.power %x, %c2 : tensor<64x64xf32>
  %c3 = hlo.constant dense<3.0> : tensor<64x64xf32>
  %m = hlo.multiply %sq, %c3 : tensor<64x64xf32>
  %a = hlo.add %m, %y : tensor<64x64xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%a init: %z) applies hlo.add across dimensions = [0, 1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<f32>
  %n = hlo.constant dense<4096.0> : tensor<f32>
  %r = hlo.divide %s, %n : tensor<f32>
  return %r : tensor<f32>
}
