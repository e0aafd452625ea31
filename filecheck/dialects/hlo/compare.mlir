// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @compare_directions(%i: tensor<3xi32>) {
  %eq = hlo.compare EQ, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %ne = hlo.compare NE, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %ge = hlo.compare GE, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %gt = hlo.compare GT, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %le = hlo.compare LE, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %lt = hlo.compare LT, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  func.return
}
// CHECK-LABEL: func.func @compare_directions(%i: tensor<3xi32>) {
// CHECK-NEXT:  %eq = hlo.compare EQ, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK-NEXT:  %ne = hlo.compare NE, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK-NEXT:  %ge = hlo.compare GE, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK-NEXT:  %gt = hlo.compare GT, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK-NEXT:  %le = hlo.compare LE, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK-NEXT:  %lt = hlo.compare LT, %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @compare_types(%i: tensor<i64>, %u: tensor<2xui8>, %p: tensor<i1>, %f: tensor<0xf16>, %z: tensor<complex<f32>>) {
  %a = hlo.compare LT, %i, %i, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %b = hlo.compare GT, %u, %u, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  %c = hlo.compare EQ, %p, %p, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %d = hlo.compare NE, %p, %p, SIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %e = hlo.compare LE, %f, %f, FLOAT : (tensor<0xf16>, tensor<0xf16>) -> tensor<0xi1>
  %g = hlo.compare GE, %f, %f, TOTALORDER : (tensor<0xf16>, tensor<0xf16>) -> tensor<0xi1>
  %h = hlo.compare EQ, %z, %z, FLOAT : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<i1>
  %k = hlo.compare NE, %i, %i, NOTYPE {tag} : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %m = "hlo.compare"(%i, %i) <{comparison_direction = #hlo<comparison_direction GT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
  func.return
}
// CHECK-LABEL: func.func @compare_types(%i: tensor<i64>, %u: tensor<2xui8>, %p: tensor<i1>, %f: tensor<0xf16>, %z: tensor<complex<f32>>) {
// CHECK-NEXT:  %a = hlo.compare LT, %i, %i, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:  %b = hlo.compare GT, %u, %u, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
// CHECK-NEXT:  %c = hlo.compare EQ, %p, %p, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT:  %d = hlo.compare NE, %p, %p, SIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT:  %e = hlo.compare LE, %f, %f, FLOAT : (tensor<0xf16>, tensor<0xf16>) -> tensor<0xi1>
// CHECK-NEXT:  %g = hlo.compare GE, %f, %f, TOTALORDER : (tensor<0xf16>, tensor<0xf16>) -> tensor<0xi1>
// CHECK-NEXT:  %h = hlo.compare EQ, %z, %z, FLOAT : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<i1>
// CHECK-NEXT:  %k = hlo.compare NE, %i, %i, NOTYPE {tag} : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:  %m = hlo.compare GT, %i, %i : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
