// RUN: minixla-opt %s --split-input-file -p convert-hlo-to-linalg | filecheck %s

// A loop fusion is one parallel generic: broadcast and transpose are indexing
// maps, the splat constant a scalar; no tensor.empty besides the output.
// CHECK-LABEL: func.func @loop
// CHECK-NEXT:    %[[OUT:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>, tensor<8x4xf32>) outs(%[[OUT]] : tensor<4x8xf32>)
// CHECK:           arith.addf
// CHECK:           arith.constant 2.000000e+00 : f32
// CHECK:           arith.mulf
// CHECK:           arith.subf
// CHECK:           linalg.yield
// CHECK-NOT:     linalg.generic
func.func @loop(%x: tensor<4x8xf32>, %v: tensor<8xf32>, %t: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %r = hlo.fusion kind = loop (%p0 = %x, %p1 = %v, %p2 = %t) : (tensor<4x8xf32>, tensor<8xf32>, tensor<8x4xf32>) -> tensor<4x8xf32> {
    %b = hlo.broadcast_in_dim %p1, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    %a = hlo.add %p0, %b : tensor<4x8xf32>
    %c = hlo.constant dense<2.0> : tensor<f32>
    %cb = hlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %m = hlo.multiply %a, %cb : tensor<4x8xf32>
    %tt = hlo.transpose %p2, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %s = hlo.subtract %m, %tt : tensor<4x8xf32>
    hlo.return %s : tensor<4x8xf32>
  }
  func.return %r : tensor<4x8xf32>
}

// -----

// A reshape inside a fusion is index arithmetic (floordiv/mod), iota an index.
// CHECK-LABEL: func.func @reshape_iota
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((d1 + (d0 * 4)))>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:           linalg.index 1
// CHECK:           arith.sitofp
func.func @reshape_iota(%x: tensor<8xf32>) -> tensor<2x4xf32> {
  %r = hlo.fusion kind = loop (%p = %x) : (tensor<8xf32>) -> tensor<2x4xf32> {
    %s = hlo.reshape %p : (tensor<8xf32>) -> tensor<2x4xf32>
    %i = hlo.iota dim = 1 : tensor<2x4xf32>
    %a = hlo.add %s, %i : tensor<2x4xf32>
    hlo.return %a : tensor<2x4xf32>
  }
  func.return %r : tensor<2x4xf32>
}

// -----

// Row reduction with an epilogue: the accumulator is f64 per row; the
// finalizer rounds it and applies the scale.
// CHECK-LABEL: func.func @row_mean
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf64>)
// CHECK:           arith.addf {{.*}} fastmath<reassoc> : f64
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<4xf64>) outs(%{{.*}} : tensor<4xf32>)
// CHECK:           arith.truncf
// CHECK:           arith.mulf
func.func @row_mean(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = input (%p = %x) : (tensor<4x8xf32>) -> tensor<4xf32> {
    %z = hlo.constant dense<0.0> : tensor<f32>
    %s = hlo.reduce(%p init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %k = hlo.constant dense<0.125> : tensor<4xf32>
    %m = hlo.multiply %s, %k : tensor<4xf32>
    hlo.return %m : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// Multi-output reduction: one generic, two accumulators; max stays f32.
// CHECK-LABEL: func.func @sum_max
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<4xf64>, tensor<4xf32>)
// CHECK:           arith.addf {{.*}} fastmath<reassoc> : f64
// CHECK:           arith.maximumf
// CHECK:         linalg.generic
// CHECK:           arith.truncf
// CHECK-NOT:     linalg.generic
func.func @sum_max(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s, %m = hlo.fusion kind = multi_output (%p = %x) : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %z = hlo.constant dense<0.0> : tensor<f32>
    %s1 = hlo.reduce(%p init: %z) applies hlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
    %m1 = hlo.reduce(%p init: %ninf) applies hlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    hlo.return %s1, %m1 : tensor<4xf32>, tensor<4xf32>
  }
  func.return %s, %m : tensor<4xf32>, tensor<4xf32>
}

// -----

// An op the fused codegen does not cover (dot_general) falls back to
// op-by-op lowering of the region: correct, just unfused.
// CHECK-LABEL: func.func @fallback
// CHECK:         linalg.generic
// CHECK:         linalg.generic
func.func @fallback(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = hlo.fusion kind = loop (%p = %a) : (tensor<2x2xf32>) -> tensor<2x2xf32> {
    %d = hlo.dot_general %p, %p, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %n = hlo.negate %d : tensor<2x2xf32>
    hlo.return %n : tensor<2x2xf32>
  }
  func.return %r : tensor<2x2xf32>
}
