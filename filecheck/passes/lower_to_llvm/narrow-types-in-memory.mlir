// RUN: minixla-opt %s -p convert-memref-to-llvm | filecheck %s

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
