// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

%x = "test.op"() : () -> tensor<2xf32>
%c = toy.clamp %x between 3.0 and 1.0 : tensor<2xf32>
// CHECK: error: 'toy.clamp' op needs lo <= hi, got 3.0 > 1.0

// -----
%y = "test.op"() : () -> tensor<2xi32>
%s = toy.scale %y by 2.0 : tensor<2xi32>
// CHECK: error: 'toy.scale' op needs a tensor of floats, got tensor<2xi32>
