// The C header of AOT output: one declaration per public function, inputs
// const, then results (destination-passing), element types from hlo (unsigned, i1).
// RUN: minixla-translate --mlir-to-c-header %s --symbol-prefix demo_ | filecheck %s
// RUN: minixla-translate --mlir-to-c-header %s --entry scaled | filecheck %s --check-prefix=ONE
// RUN: not minixla-translate --mlir-to-c-header %s --entry nope 2>&1 | filecheck %s --check-prefix=ERR

// CHECK:      Calling convention: one data pointer per parameter of the hlo function,
// CHECK:      #ifndef DEMO_AOT_H
// CHECK:      #include <stdint.h>
// CHECK:      /* @scaled(f32[2x3] arg0, f64[] arg1) -> (f32[2x3] result0) */
// CHECK-NEXT: void demo_scaled(const float *arg0, const double *arg1, float *result0);
// CHECK:      /* @flags(ui16[4] arg0) -> (i1[4] result0, i32[] result1) */
// CHECK-NEXT: void demo_flags(const uint16_t *arg0, bool *result0, int32_t *result1);
// CHECK:      int64_t demo_set_num_threads(int64_t n);
// CHECK:      #endif /* DEMO_AOT_H */

// ONE:     void minixla_scaled(
// ONE-NOT: flags

// ERR: error: no public function @nope; have @scaled, @flags

func.func @scaled(%x: tensor<2x3xf32>, %s: tensor<f64>) -> tensor<2x3xf32> {
  %c = hlo.convert %s : (tensor<f64>) -> tensor<f32>
  %b = hlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %r = hlo.multiply %x, %b : tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

func.func @flags(%x: tensor<4xui16>) -> (tensor<4xi1>, tensor<i32>) {
  %z = hlo.constant dense<0> : tensor<4xui16>
  %c = hlo.compare NE, %x, %z : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xi1>
  %n = hlo.constant dense<4> : tensor<i32>
  func.return %c, %n : tensor<4xi1>, tensor<i32>
}
