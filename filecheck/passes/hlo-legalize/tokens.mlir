// RUN: minixla-opt %s -p hlo-legalize-structural | filecheck %s

// An after_all chain whose token orders nothing is erased (compiled backends have no tokens);
// a token that leaves the function stays.
func.func @dead_tokens() {
  %a = hlo.after_all : !hlo.token
  %b = hlo.after_all : !hlo.token
  %c = hlo.after_all %a, %b : !hlo.token
  func.return
}
// CHECK-LABEL: func.func @dead_tokens() {
// CHECK-NEXT:    func.return

func.func @returned_token() -> !hlo.token {
  %a = hlo.after_all : !hlo.token
  func.return %a : !hlo.token
}
// CHECK-LABEL: func.func @returned_token() -> !hlo.token {
// CHECK-NEXT:    %a = hlo.after_all : !hlo.token
// CHECK-NEXT:    func.return %a : !hlo.token
