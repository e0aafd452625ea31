// RUN: minixla-run %s | filecheck %s
// RUN: minixla-run %s --entry=other | filecheck %s --check-prefix=OTHER

// CHECK:      tensor<2x2xf32> {
// CHECK-NEXT:   [
// CHECK-NEXT:     [2.000000e+00, 4.000000e+00],
// CHECK-NEXT:     [6.000000e+00, 8.000000e+00]
// CHECK-NEXT:   ]
// CHECK-NEXT: }
// CHECK-NEXT: tensor<i32> {7}
func.func @main() -> (tensor<2x2xf32>, tensor<i32>) {
  %0 = hlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %1 = hlo.add %0, %0 : tensor<2x2xf32>
  %2 = hlo.constant dense<7> : tensor<i32>
  func.return %1, %2 : tensor<2x2xf32>, tensor<i32>
}

// OTHER:      tensor<3xi1> {
// OTHER-NEXT:   [true, false, true]
// OTHER-NEXT: }
func.func @other() -> tensor<3xi1> {
  %0 = hlo.constant dense<[true, false, true]> : tensor<3xi1>
  func.return %0 : tensor<3xi1>
}
