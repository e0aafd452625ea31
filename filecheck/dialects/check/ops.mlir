// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @expect_eq(%a: tensor<4xf32>, %b: tensor<2xi32>, %p: tensor<i1>, %z: tensor<complex<f64>>) {
  check.expect_eq %a, %a : tensor<4xf32>
  check.expect_eq %b, %b {tag} : tensor<2xi32>
  check.expect_eq %p, %p : tensor<i1>
  check.expect_eq %z, %z : tensor<complex<f64>>
  "check.expect_eq"(%b, %b) : (tensor<2xi32>, tensor<2xi32>) -> ()
  func.return
}
// CHECK-LABEL: func.func @expect_eq(%a: tensor<4xf32>, %b: tensor<2xi32>, %p: tensor<i1>, %z: tensor<complex<f64>>) {
// CHECK-NEXT:  check.expect_eq %a, %a : tensor<4xf32>
// CHECK-NEXT:  check.expect_eq %b, %b {tag} : tensor<2xi32>
// CHECK-NEXT:  check.expect_eq %p, %p : tensor<i1>
// CHECK-NEXT:  check.expect_eq %z, %z : tensor<complex<f64>>
// CHECK-NEXT:  check.expect_eq %b, %b : tensor<2xi32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @expect_almost_eq(%a: tensor<4xf32>, %h: tensor<bf16>, %z: tensor<2xcomplex<f32>>) {
  check.expect_almost_eq %a, %a : tensor<4xf32>
  check.expect_almost_eq %a, %a, tolerance = 0.001 : tensor<4xf32>
  check.expect_almost_eq %h, %h, tolerance = 0.5 : f64 : tensor<bf16>
  check.expect_almost_eq %z, %z {tolerance = 0.25 : f64} : tensor<2xcomplex<f32>>
  check.expect_almost_eq %a, %a, tolerance = 1.0e-10 : tensor<4xf32>
  func.return
}
// CHECK-LABEL: func.func @expect_almost_eq(%a: tensor<4xf32>, %h: tensor<bf16>, %z: tensor<2xcomplex<f32>>) {
// CHECK-NEXT:  check.expect_almost_eq %a, %a : tensor<4xf32>
// CHECK-NEXT:  check.expect_almost_eq %a, %a, tolerance = 0.001 : tensor<4xf32>
// CHECK-NEXT:  check.expect_almost_eq %h, %h, tolerance = 0.5 : tensor<bf16>
// CHECK-NEXT:  check.expect_almost_eq %z, %z, tolerance = 0.25 : tensor<2xcomplex<f32>>
// CHECK-NEXT:  check.expect_almost_eq %a, %a, tolerance = 1.0e-10 : tensor<4xf32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @expect_const(%b: tensor<2xi32>, %u: tensor<ui8>, %a: tensor<4xf32>, %e: tensor<0xf64>) {
  check.expect_eq_const %b, dense<[1, -2]> : tensor<2xi32>
  check.expect_eq_const %u, dense<255> : tensor<ui8>
  check.expect_eq_const %e, dense<> : tensor<0xf64>
  check.expect_almost_eq_const %a, dense<[1.0, 2.5, 0x7F800000, 0xFF800000]> : tensor<4xf32>
  check.expect_almost_eq_const %a, dense<1.0> : tensor<4xf32>, tolerance = 0.5
  check.expect_almost_eq_const %a, dense<1.0> : tensor<4xf32> {tag}
  "check.expect_eq_const"(%u) <{value = dense<7> : tensor<ui8>}> : (tensor<ui8>) -> ()
  func.return
}
// CHECK-LABEL: func.func @expect_const(%b: tensor<2xi32>, %u: tensor<ui8>, %a: tensor<4xf32>, %e: tensor<0xf64>) {
// CHECK-NEXT:  check.expect_eq_const %b, dense<[1, -2]> : tensor<2xi32>
// CHECK-NEXT:  check.expect_eq_const %u, dense<255> : tensor<ui8>
// CHECK-NEXT:  check.expect_eq_const %e, dense<> : tensor<0xf64>
// CHECK-NEXT:  check.expect_almost_eq_const %a, dense<[1.000000e+00, 2.500000e+00, 0x7f800000, 0xff800000]> : tensor<4xf32>
// CHECK-NEXT:  check.expect_almost_eq_const %a, dense<1.000000e+00> : tensor<4xf32>, tolerance = 0.5
// CHECK-NEXT:  check.expect_almost_eq_const %a, dense<1.000000e+00> : tensor<4xf32> {tag}
// CHECK-NEXT:  check.expect_eq_const %u, dense<7> : tensor<ui8>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @expect_close(%a: tensor<4xf32>, %d: tensor<f64>) {
  check.expect_close %a, %a, max_ulp_difference = 3 : tensor<4xf32>, tensor<4xf32>
  check.expect_close %a, %a, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<4xf32>, tensor<4xf32>
  check.expect_close %d, %d : tensor<f64>, tensor<f64>
  check.expect_close %d, %d : {max_ulp_difference = 2 : i64} tensor<f64>, tensor<f64>
  func.return
}
// CHECK-LABEL: func.func @expect_close(%a: tensor<4xf32>, %d: tensor<f64>) {
// CHECK-NEXT:  check.expect_close %a, %a, max_ulp_difference = 3 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:  check.expect_close %a, %a, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:  check.expect_close %d, %d : tensor<f64>, tensor<f64>
// CHECK-NEXT:  check.expect_close %d, %d, max_ulp_difference = 2 : tensor<f64>, tensor<f64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
