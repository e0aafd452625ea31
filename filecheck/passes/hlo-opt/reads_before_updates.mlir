// RUN: minixla-opt %s --split-input-file -p hlo-reads-before-updates | filecheck %s

// The old row's read moves above the update of the same stack (which bufferization can then do in
// place); the read of the updated stack and the read whose index is computed after the update stay.
// CHECK-LABEL: func.func @stack
// CHECK:       %[[OLD:.*]] = hlo.dynamic_slice %[[S:[^,]*]], %[[I:[^,]*]], %[[Z:[^,]*]], sizes = [1, 4]
// CHECK-NEXT:  %[[NEW:.*]] = hlo.dynamic_update_slice %[[S]], %{{.*}}, %[[I]], %[[Z]]
// CHECK-NEXT:  %[[ONE:.*]] = hlo.constant dense<1>
// CHECK-NEXT:  %[[J:.*]] = hlo.add %[[I]], %[[ONE]]
// CHECK-NEXT:  %{{.*}} = hlo.dynamic_slice %[[S]], %[[J]], %[[Z]], sizes = [1, 4]
// CHECK-NEXT:  %{{.*}} = hlo.dynamic_slice %[[NEW]], %[[I]], %[[Z]], sizes = [1, 4]
func.func @stack(%s: tensor<12x4xf32>, %u: tensor<1x4xf32>, %i: tensor<i32>, %z: tensor<i32>) -> (tensor<12x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) {
  %new = hlo.dynamic_update_slice %s, %u, %i, %z : (tensor<12x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<12x4xf32>
  %one = hlo.constant dense<1> : tensor<i32>
  %j = hlo.add %i, %one : tensor<i32>
  %next = hlo.dynamic_slice %s, %j, %z, sizes = [1, 4] : (tensor<12x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  %back = hlo.dynamic_slice %new, %i, %z, sizes = [1, 4] : (tensor<12x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  %old = hlo.dynamic_slice %s, %i, %z, sizes = [1, 4] : (tensor<12x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  return %new, %next, %back, %old : tensor<12x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>
}
