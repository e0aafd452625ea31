// RUN: minixla-opt %s -p convert-memref-to-llvm | filecheck %s

// A memref is its base pointer; the static layout (strides, offset) becomes
// one linearised GEP inbounds at each access. Views keep the pointer.
// CHECK-LABEL: func.func @strided
// CHECK:         %[[P:.*]] = builtin.unrealized_conversion_cast %m : memref<4x6xf32> to !llvm.ptr
// CHECK:         %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK:         %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
// CHECK:         %[[S:.*]] = llvm.mul %[[I]], %{{.*}} overflow<nsw> : i64
// CHECK:         %[[L:.*]] = llvm.add %[[S]], %[[J]] overflow<nsw> : i64
// CHECK:         %[[L2:.*]] = llvm.add %[[L]], %{{.*}} overflow<nsw> : i64
// CHECK:         %[[G:.*]] = llvm.getelementptr inbounds %[[P]][%[[L2]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.load %[[G]] : !llvm.ptr -> f32
func.func @strided(%m: memref<4x6xf32>, %i: index, %j: index) -> f32 {
  %v = memref.subview %m[1, 2] [2, 3] [2, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[12, 1], offset: 8>>
  %x = memref.load %v[%i, %j] : memref<2x3xf32, strided<[12, 1], offset: 8>>
  return %x : f32
}

// i1 lives in memory as i8.
// CHECK-LABEL: func.func @bools
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK:         %[[T:.*]] = llvm.trunc %[[B]] : i8 to i1
// CHECK:         %[[Z:.*]] = llvm.zext %[[T]] : i1 to i8
// CHECK:         llvm.store %[[Z]], %{{.*}} : i8, !llvm.ptr
func.func @bools(%a: memref<i1>, %b: memref<i1>) {
  %x = memref.load %a[] : memref<i1>
  memref.store %x, %b[] : memref<i1>
  return
}

// i4 (and i2) take one byte in memory, the value in its low bits as ml_dtypes stores
// int4: truncated at load, zero-extended at store.
// CHECK-LABEL: func.func @nibbles
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK:         %[[T:.*]] = llvm.trunc %[[B]] : i8 to i4
// CHECK:         %[[Z:.*]] = llvm.zext %[[T]] : i4 to i8
// CHECK:         llvm.store %[[Z]], %{{.*}} : i8, !llvm.ptr
func.func @nibbles(%a: memref<4xi4>, %b: memref<4xi4>, %i: index) {
  %x = memref.load %a[%i] : memref<4xi4>
  memref.store %x, %b[%i] : memref<4xi4>
  return
}

// An fp8 value is its byte: loads and stores move i8, with no conversion.
// CHECK-LABEL: func.func @bytes
// CHECK:         %[[G:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK:         %[[V:.*]] = llvm.load %[[G]] : !llvm.ptr -> i8
// CHECK-NOT:     llvm.trunc
// CHECK:         llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr
func.func @bytes(%a: memref<4xf8E4M3FN>, %b: memref<4xf8E4M3FN>, %i: index) {
  %x = memref.load %a[%i] : memref<4xf8E4M3FN>
  memref.store %x, %b[%i] : memref<4xf8E4M3FN>
  return
}

// Heap temporaries: 64-byte aligned_alloc (size rounded up) and free; dense
// copies are one memcpy.
// CHECK-LABEL: func.func @temporaries
// CHECK:         %[[A:.*]] = llvm.mlir.constant(64) : i64
// CHECK:         %[[N:.*]] = llvm.mlir.constant(64) : i64
// CHECK:         %[[P:.*]] = llvm.call @aligned_alloc(%[[A]], %[[N]]) : (i64, i64) -> !llvm.ptr
// CHECK:         llvm.call_intrinsic "llvm.memcpy.p0.p0.i64"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i1) -> ()
// CHECK:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
func.func @temporaries(%a: memref<3xf32>) {
  %t = memref.alloc() : memref<3xf32>
  "memref.copy"(%a, %t) : (memref<3xf32>, memref<3xf32>) -> ()
  memref.dealloc %t : memref<3xf32>
  return
}

// Constant globals are 64-byte aligned LLVM arrays of the element type.
// CHECK:       llvm.mlir.global private constant @table(dense<[1, 2, 3]> : tensor<3xi32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<3 x i32>
// CHECK-LABEL: func.func @lookup
// CHECK:         llvm.mlir.addressof @table : !llvm.ptr
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<3xi32>, initial_value = dense<[1, 2, 3]> : tensor<3xi32>, constant}> : () -> ()
func.func @lookup(%i: index) -> i32 {
  %g = memref.get_global @table : memref<3xi32>
  %x = memref.load %g[%i] : memref<3xi32>
  return %x : i32
}
// CHECK-DAG:   llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG:   llvm.func @free(!llvm.ptr)
