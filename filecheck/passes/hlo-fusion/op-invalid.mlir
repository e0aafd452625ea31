// RUN: minixla-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier rules of hlo.fusion (generic form).

// CHECK: kind must be one of loop, input, multi_output, got 'bogus'
func.func @bad_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "hlo.fusion"(%x) <{kind = "bogus"}> ({
  ^bb0(%p: tensor<4xf32>):
    "hlo.return"(%p) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: fusion region returns ['tensor<4xf32>'], but the op's results are ['tensor<4xi32>']
func.func @bad_result(%x: tensor<4xf32>) -> tensor<4xi32> {
  %r = "hlo.fusion"(%x) <{kind = "loop"}> ({
  ^bb0(%p: tensor<4xf32>):
    "hlo.return"(%p) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}
