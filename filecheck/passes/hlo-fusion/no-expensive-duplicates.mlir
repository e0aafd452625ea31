// RUN: minixla-opt %s --split-input-file -p hlo-fusion | filecheck %s

// An LSTM cell: the new state %cn is carried to the next step, %h is carried and also stacked through a
// reshape. The reshape's group may duplicate the cheap multiply, but not what that multiply reads
// (tanh, logistic): those run once, in one multi-output fusion of %h and %cn; the reshape stays a view.
// CHECK-LABEL: func.func @cell
// CHECK:       %[[H:.*]], %[[CN:.*]] = hlo.fusion kind = multi_output
// CHECK:       hlo.logistic
// CHECK:       hlo.logistic
// CHECK:       hlo.tanh
// CHECK:       hlo.logistic
// CHECK:       hlo.tanh
// CHECK:       hlo.return
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[H3:.*]] = hlo.reshape %[[H]] : (tensor<32x16xf32>) -> tensor<1x32x16xf32>
// CHECK-NOT:   hlo.logistic
// CHECK-NOT:   hlo.tanh
// CHECK:       func.return %[[CN]], %[[H]], %{{.*}}
func.func @cell(%a: tensor<32x16xf32>, %b: tensor<32x16xf32>, %c: tensor<32x16xf32>, %g: tensor<32x16xf32>, %s: tensor<12x32x16xf32>, %i: tensor<i32>) -> (tensor<32x16xf32>, tensor<32x16xf32>, tensor<12x32x16xf32>) {
  %z = hlo.constant dense<0> : tensor<i32>
  %f = hlo.logistic %a : tensor<32x16xf32>
  %in = hlo.logistic %b : tensor<32x16xf32>
  %fc = hlo.multiply %f, %c : tensor<32x16xf32>
  %t = hlo.tanh %g : tensor<32x16xf32>
  %it = hlo.multiply %in, %t : tensor<32x16xf32>
  %cn = hlo.add %fc, %it : tensor<32x16xf32>
  %o = hlo.logistic %a : tensor<32x16xf32>
  %tc = hlo.tanh %cn : tensor<32x16xf32>
  %h = hlo.multiply %o, %tc : tensor<32x16xf32>
  %h3 = hlo.reshape %h : (tensor<32x16xf32>) -> tensor<1x32x16xf32>
  %s2 = hlo.dynamic_update_slice %s, %h3, %i, %z, %z : (tensor<12x32x16xf32>, tensor<1x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12x32x16xf32>
  return %cn, %h, %s2 : tensor<32x16xf32>, tensor<32x16xf32>, tensor<12x32x16xf32>
}
