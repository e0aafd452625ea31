// RUN: minixla-opt %s --print-op-generic | minixla-opt | filecheck %s

// Two carried values; the body's arguments print under cond's names.
func.func @while2(%n: tensor<i64>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %w:2 = hlo.while(%i = %n, %acc = %x) : tensor<i64>, tensor<4xf32>
    cond {
      %c = hlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      hlo.return %c : tensor<i1>
    } do {
      %a = hlo.add %acc, %acc : tensor<4xf32>
      hlo.return %i, %a : tensor<i64>, tensor<4xf32>
    }
  func.return %w#1 : tensor<4xf32>
}
// CHECK-LABEL: func.func @while2(%n: tensor<i64>, %x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:  %w, %w_1 = hlo.while(%i = %n, %acc = %x) : tensor<i64>, tensor<4xf32> cond {
// CHECK-NEXT:  %c = hlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:  hlo.return %c : tensor<i1>
// CHECK-NEXT:  } do {
// CHECK-NEXT:  %a = hlo.add %acc, %acc : tensor<4xf32>
// CHECK-NEXT:  hlo.return %i, %a : tensor<i64>, tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return %w_1 : tensor<4xf32>
// CHECK-NEXT:  }

// One carried value with discardable attributes; no carried values.
func.func @while_forms(%n: tensor<ui8>, %p: tensor<i1>) {
  %w = hlo.while(%j = %n) : tensor<ui8> attributes {tag = 1 : i64}
    cond {
      hlo.return %p : tensor<i1>
    } do {
      hlo.return %j : tensor<ui8>
    }
  hlo.while() cond {
    hlo.return %p : tensor<i1>
  } do {
    hlo.return
  }
  func.return
}
// CHECK-LABEL: func.func @while_forms(%n: tensor<ui8>, %p: tensor<i1>) {
// CHECK-NEXT:  %w = hlo.while(%j = %n) : tensor<ui8> attributes {tag = 1 : i64} cond {
// CHECK-NEXT:  hlo.return %p : tensor<i1>
// CHECK-NEXT:  } do {
// CHECK-NEXT:  hlo.return %j : tensor<ui8>
// CHECK-NEXT:  }
// CHECK-NEXT:  hlo.while() cond {
// CHECK-NEXT:  hlo.return %p : tensor<i1>
// CHECK-NEXT:  } do {
// CHECK-NEXT:  hlo.return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

func.func @while_generic(%n: tensor<i32>) {
  %w = "hlo.while"(%n) ({
  ^bb0(%a: tensor<i32>):
    %c = hlo.compare GT, %a, %a : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }, {
  ^bb0(%b: tensor<i32>):
    hlo.return %b : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  func.return
}
// CHECK-LABEL: func.func @while_generic(%n: tensor<i32>) {
// CHECK-NEXT:  %w = hlo.while(%a = %n) : tensor<i32> cond {
// CHECK-NEXT:  %c = hlo.compare GT, %a, %a : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:  hlo.return %c : tensor<i1>
// CHECK-NEXT:  } do {
// CHECK-NEXT:  hlo.return %a : tensor<i32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
