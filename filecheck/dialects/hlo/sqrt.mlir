// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @sqrt(%f: tensor<3xf32>, %h: tensor<0x2xf16>, %z: tensor<complex<f64>>) {
  %a = hlo.sqrt %f : tensor<3xf32>
  %b = hlo.sqrt %h : tensor<0x2xf16>
  %c = hlo.sqrt %z : tensor<complex<f64>>
  func.return
}
// CHECK-LABEL: func.func @sqrt(%f: tensor<3xf32>, %h: tensor<0x2xf16>, %z: tensor<complex<f64>>) {
// CHECK-NEXT:  %a = hlo.sqrt %f : tensor<3xf32>
// CHECK-NEXT:  %b = hlo.sqrt %h : tensor<0x2xf16>
// CHECK-NEXT:  %c = hlo.sqrt %z : tensor<complex<f64>>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
