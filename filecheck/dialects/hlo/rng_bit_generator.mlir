// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

func.func @rng_bit_generator(%s2: tensor<2xui64>, %s3: tensor<3xui64>, %s5: tensor<5xui64>) {
  %a, %b = hlo.rng_bit_generator %s2, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
  %c, %d = hlo.rng_bit_generator %s3, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xf32>)
  %e, %f = hlo.rng_bit_generator %s2, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<i8>)
  %g, %h = hlo.rng_bit_generator %s5, algorithm = DEFAULT {tag} : (tensor<5xui64>) -> (tensor<5xui64>, tensor<0xf64>)
  %k, %l = "hlo.rng_bit_generator"(%s2) <{rng_algorithm = #hlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xbf16>)
  func.return
}
// CHECK-LABEL: func.func @rng_bit_generator(%s2: tensor<2xui64>, %s3: tensor<3xui64>, %s5: tensor<5xui64>) {
// CHECK-NEXT:  %a, %b = hlo.rng_bit_generator %s2, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
// CHECK-NEXT:  %c, %d = hlo.rng_bit_generator %s3, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xf32>)
// CHECK-NEXT:  %e, %f = hlo.rng_bit_generator %s2, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<i8>)
// CHECK-NEXT:  %g, %h = hlo.rng_bit_generator %s5, algorithm = DEFAULT {tag} : (tensor<5xui64>) -> (tensor<5xui64>, tensor<0xf64>)
// CHECK-NEXT:  %k, %l = hlo.rng_bit_generator %s2, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xbf16>)
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
