// RUN: minixla-opt %s -p convert-hlo-to-linalg | filecheck %s

// A stable bottom-up merge sort: an scf.for over pairs of passes carrying the
// run width and the operands; each pass loops over the slices (here the 2
// rows), the runs (step 2 * width) and the merged positions, carrying the two
// read positions. The comparator is inlined on (right, left): the right run's
// element is taken only when it is strictly less. Both operands move together.
// CHECK-LABEL: func.func @sort_pairs
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[W:.*]] = %{{.*}}, %[[K:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}) -> (index, tensor<2x5xf32>, tensor<2x5xi32>)
// CHECK:         %[[T0:.*]] = tensor.empty() : tensor<2x5xf32>
// CHECK:         scf.for %[[ROW:.*]] = {{.*}} iter_args(%{{.*}} = %[[T0]], %{{.*}} = %{{.*}}) -> (tensor<2x5xf32>, tensor<2x5xi32>)
// CHECK:           scf.for %[[LO:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:             scf.for %[[P:.*]] = %[[LO]] to %{{.*}} step %{{.*}} iter_args(%[[I:.*]] = %[[LO]], %[[J:.*]] = %{{.*}}, %[[D0:.*]] = %{{.*}}, %[[D1:.*]] = %{{.*}}) -> (index, index, tensor<2x5xf32>, tensor<2x5xi32>)
// CHECK:               %[[A:.*]] = tensor.extract %[[K]][%[[ROW]], %{{.*}}] : tensor<2x5xf32>
// CHECK:               %[[B:.*]] = tensor.extract %[[K]][%[[ROW]], %{{.*}}] : tensor<2x5xf32>
// CHECK:               %[[LESS:.*]] = arith.cmpf olt, %[[B]], %[[A]] : f32
// CHECK:               %[[TAKEB:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:               %[[X:.*]] = arith.select %[[TAKEB]], %[[B]], %[[A]] : f32
// CHECK:               tensor.insert %[[X]] into %[[D0]][%[[ROW]], %[[P]]] : tensor<2x5xf32>
// CHECK:               tensor.insert %{{.*}} into %[[D1]][%[[ROW]], %[[P]]] : tensor<2x5xi32>
// CHECK:               scf.yield
func.func @sort_pairs(%x: tensor<2x5xf32>, %i: tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
  %r:2 = "hlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = hlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  }) : (tensor<2x5xf32>, tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>)
  return %r#0, %r#1 : tensor<2x5xf32>, tensor<2x5xi32>
}

// TOTALORDER compares the sign-magnitude-flipped integer keys.
// CHECK-LABEL: func.func @sort_total
// CHECK:       arith.bitcast %{{.*}} : f32 to i32
// CHECK:       arith.cmpi slt
func.func @sort_total(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "hlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = hlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A single-element dimension is already sorted.
// CHECK-LABEL: func.func @sort_one
// CHECK-NEXT:  func.return %{{.*}} : tensor<3x1xi32>
func.func @sort_one(%x: tensor<3x1xi32>) -> tensor<3x1xi32> {
  %r = "hlo.sort"(%x) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = hlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  }) : (tensor<3x1xi32>) -> tensor<3x1xi32>
  return %r : tensor<3x1xi32>
}
