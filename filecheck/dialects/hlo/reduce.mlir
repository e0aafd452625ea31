// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// The compact `applies` form for every combiner the printer recognises.
func.func @reduce_applies(%a: tensor<2x3xf32>, %z: tensor<f32>, %i: tensor<4xi32>, %iz: tensor<i32>, %p: tensor<5xi1>, %pz: tensor<i1>) {
  %add = hlo.reduce(%a init: %z) applies hlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %mul = hlo.reduce(%a init: %z) applies hlo.multiply across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  %max = hlo.reduce(%i init: %iz) applies hlo.maximum across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
  %min = hlo.reduce(%i init: %iz) applies hlo.minimum across dimensions = [] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %and = hlo.reduce(%p init: %pz) applies hlo.and across dimensions = [0] : (tensor<5xi1>, tensor<i1>) -> tensor<i1>
  %or = hlo.reduce(%p init: %pz) applies hlo.or across dimensions = [0] {tag} : (tensor<5xi1>, tensor<i1>) -> tensor<i1>
  %xor = hlo.reduce(%i init: %iz) applies hlo.xor across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
  func.return
}
// CHECK-LABEL: func.func @reduce_applies(%a: tensor<2x3xf32>, %z: tensor<f32>, %i: tensor<4xi32>, %iz: tensor<i32>, %p: tensor<5xi1>, %pz: tensor<i1>) {
// CHECK-NEXT:  %add = hlo.reduce(%a init: %z) applies hlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:  %mul = hlo.reduce(%a init: %z) applies hlo.multiply across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:  %max = hlo.reduce(%i init: %iz) applies hlo.maximum across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:  %min = hlo.reduce(%i init: %iz) applies hlo.minimum across dimensions = [] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:  %and = hlo.reduce(%p init: %pz) applies hlo.and across dimensions = [0] : (tensor<5xi1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT:  %or = hlo.reduce(%p init: %pz) applies hlo.or across dimensions = [0] {tag} : (tensor<5xi1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT:  %xor = hlo.reduce(%i init: %iz) applies hlo.xor across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// Two inputs with a `reducer(...)` body, and bodies that keep the explicit
// form: operands swapped, and a combiner carrying attributes.
func.func @reduce_reducer(%a: tensor<2x3xf32>, %z: tensor<f32>, %i: tensor<2x3xi32>, %iz: tensor<i32>, %e: tensor<0x4xbf16>, %ez: tensor<bf16>) {
  %r:2 = hlo.reduce(%a init: %z), (%i init: %iz) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
    reducer(%acc0: tensor<f32>, %x0: tensor<f32>) (%acc1: tensor<i32>, %x1: tensor<i32>) {
      %m = hlo.maximum %acc0, %x0 : tensor<f32>
      %n = hlo.minimum %acc1, %x1 : tensor<i32>
      hlo.return %m, %n : tensor<f32>, tensor<i32>
    }
  %s = hlo.reduce(%e init: %ez) across dimensions = [0] : (tensor<0x4xbf16>, tensor<bf16>) -> tensor<4xbf16>
    reducer(%p: tensor<bf16>, %q: tensor<bf16>) {
      %t = hlo.add %q, %p : tensor<bf16>
      hlo.return %t : tensor<bf16>
    }
  %k = hlo.reduce(%a init: %z) across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
    reducer(%p: tensor<f32>, %q: tensor<f32>) {
      %t = hlo.add %p, %q {tag} : tensor<f32>
      hlo.return %t : tensor<f32>
    }
  func.return
}
// CHECK-LABEL: func.func @reduce_reducer(%a: tensor<2x3xf32>, %z: tensor<f32>, %i: tensor<2x3xi32>, %iz: tensor<i32>, %e: tensor<0x4xbf16>, %ez: tensor<bf16>) {
// CHECK-NEXT:  %r, %r_1 = hlo.reduce(%a init: %z), (%i init: %iz) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) reducer(%acc0: tensor<f32>, %x0: tensor<f32>)(%acc1: tensor<i32>, %x1: tensor<i32>) {
// CHECK-NEXT:  %m = hlo.maximum %acc0, %x0 : tensor<f32>
// CHECK-NEXT:  %n = hlo.minimum %acc1, %x1 : tensor<i32>
// CHECK-NEXT:  hlo.return %m, %n : tensor<f32>, tensor<i32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %s = hlo.reduce(%e init: %ez) across dimensions = [0] : (tensor<0x4xbf16>, tensor<bf16>) -> tensor<4xbf16> reducer(%p: tensor<bf16>, %q: tensor<bf16>) {
// CHECK-NEXT:  %t = hlo.add %q, %p : tensor<bf16>
// CHECK-NEXT:  hlo.return %t : tensor<bf16>
// CHECK-NEXT:  }
// CHECK-NEXT:  %k = hlo.reduce(%a init: %z) across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32> reducer(%p_1: tensor<f32>, %q_1: tensor<f32>) {
// CHECK-NEXT:  %t_1 = hlo.add %p_1, %q_1 {tag} : tensor<f32>
// CHECK-NEXT:  hlo.return %t_1 : tensor<f32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// The generic spelling of a StableHLO reduce prints in the compact form.
func.func @reduce_generic(%a: tensor<4x5xf64>, %z: tensor<f64>) {
  %r = "hlo.reduce"(%a, %z) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f64>, %y: tensor<f64>):
    %s = "hlo.add"(%x, %y) : (tensor<f64>, tensor<f64>) -> tensor<f64>
    "hlo.return"(%s) : (tensor<f64>) -> ()
  }) : (tensor<4x5xf64>, tensor<f64>) -> tensor<5xf64>
  func.return
}
// CHECK-LABEL: func.func @reduce_generic(%a: tensor<4x5xf64>, %z: tensor<f64>) {
// CHECK-NEXT:  %r = hlo.reduce(%a init: %z) applies hlo.add across dimensions = [0] : (tensor<4x5xf64>, tensor<f64>) -> tensor<5xf64>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
