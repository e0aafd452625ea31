// RUN: minixla-opt %s -p insert-bounds-checks | filecheck %s

// Each access compares every index with its dimension (unsigned: negative indices too),
// uses index 0 instead of a bad one, and records the first violation (site, dim, index).
func.func @main(%a: memref<4x3xf32>, %i: index, %j: index) -> f32 {
  %v = memref.load %a[%i, %j] : memref<4x3xf32>
  memref.store %v, %a[%j, %i] : memref<4x3xf32>
  func.return %v : f32
}

// A zero-size memref has no element to touch: the access is dropped (a load gives 0).
func.func @empty(%a: memref<0xf32>, %i: index) -> f32 {
  %v = memref.load %a[%i] : memref<0xf32>
  func.return %v : f32
}

// CHECK-DAG: "memref.global"() <{sym_name = "__minixla_bounds_site", type = memref<i64>, initial_value = dense<-1> : tensor<i64>
// CHECK-DAG: "memref.global"() <{sym_name = "__minixla_bounds_dim", type = memref<i64>
// CHECK-DAG: "memref.global"() <{sym_name = "__minixla_bounds_index", type = memref<i64>
// CHECK-DAG: "memref.global"() <{sym_name = "__minixla_bounds_sites", type = memref<{{[0-9]+}}xi8>, {{.*}} constant
// CHECK-LABEL: func.func @main
// CHECK:       %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:  %[[BADI:.*]] = arith.cmpi uge, %i, %[[C4]] : index
// CHECK-NEXT:  %[[SAFEI:.*]] = arith.select %[[BADI]], %{{.*}}, %i : index
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:  %[[BADJ:.*]] = arith.cmpi uge, %j, %[[C3]] : index
// CHECK-NEXT:  %[[SAFEJ:.*]] = arith.select %[[BADJ]], %{{.*}}, %j : index
// CHECK:       %[[BAD:.*]] = arith.ori %[[BADI]], %[[BADJ]] : i1
// CHECK:       %[[SITE:.*]] = memref.get_global @__minixla_bounds_site : memref<i64>
// CHECK-NEXT:  %[[FIRST:.*]] = memref.load %[[SITE]][] : memref<i64>
// CHECK:       %[[NONE:.*]] = arith.cmpi eq, %[[FIRST]], %{{.*}} : i64
// CHECK-NEXT:  %[[RECORD:.*]] = arith.andi %[[BAD]], %[[NONE]] : i1
// CHECK:       memref.store %{{.*}}, %[[SITE]][] : memref<i64>
// CHECK:       %v = memref.load %a[%[[SAFEI]], %[[SAFEJ]]] : memref<4x3xf32>
// CHECK:       memref.store %v, %a[%{{.*}}, %{{.*}}] : memref<4x3xf32>
// CHECK-LABEL: func.func @empty
// CHECK-NOT:   memref.load %a
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  func.return %[[ZERO]] : f32
