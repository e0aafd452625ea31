"""Write tests/diagnostics/corpus/*.mlir: malformed IR, one defect per file.

Templates cross hlo ops with defect kinds (operand shape/type/count, undeclared
values, element types an op rejects) and literals/types with input-limit
defects (out-of-range values, nesting depth, dims above int64, tensors larger
than memory, unknown ops). Each file carries MLIR `expected-error`
annotations; tests/diagnostics/test_corpus.py checks them with
`--verify-diagnostics` semantics. Run: python tests/diagnostics/make_corpus.py
"""

from __future__ import annotations

from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"

FLOAT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "power",
                "maximum", "minimum", "atan2"]
INT_BINARY = ["and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical"]
FLOAT_ONLY_UNARY = ["exponential", "exponential_minus_one", "log", "log_plus_one", "sqrt",
                    "rsqrt", "tanh", "logistic", "sine", "cosine"]
ANY_UNARY = ["abs", "negate", "sign"] + FLOAT_ONLY_UNARY + ["floor", "ceil", "round_nearest_even"]


def _func(args: str, result: str, body: str, ret: str) -> str:
    return f"func.func @f({args}) -> {result} {{\n{body}  return {ret} : {result}\n}}\n"


def binary_cases():
    for op in FLOAT_BINARY + INT_BINARY:
        t = "f32" if op in FLOAT_BINARY else "i32"
        other = "i32" if t == "f32" else "i16"
        yield f"{op}_shape_mismatch", _func(
            f"%a: tensor<2x{t}>, %b: tensor<3x{t}>", f"tensor<2x{t}>",
            f"  // expected-error @+1 {{{{'hlo.{op}' op operand types tensor<2x{t}>, tensor<3x{t}> and result type tensor<2x{t}> must be equal}}}}\n"
            f"  %0 = hlo.{op} %a, %b : (tensor<2x{t}>, tensor<3x{t}>) -> tensor<2x{t}>\n", "%0")
        yield f"{op}_element_type_mismatch", _func(
            f"%a: tensor<2x{t}>, %b: tensor<2x{other}>", f"tensor<2x{t}>",
            f"  // expected-error @+1 {{{{'hlo.{op}' op operand types tensor<2x{t}>, tensor<2x{other}> and result type tensor<2x{t}> must be equal}}}}\n"
            f"  %0 = hlo.{op} %a, %b : (tensor<2x{t}>, tensor<2x{other}>) -> tensor<2x{t}>\n", "%0")
        yield f"{op}_one_operand", _func(
            f"%a: tensor<2x{t}>", f"tensor<2x{t}>",
            f"  // expected-error @+1 {{{{'hlo.{op}' op Expected 2 operands, but got 1}}}}\n"
            f"  %0 = hlo.{op} %a : (tensor<2x{t}>) -> tensor<2x{t}>\n", "%0")
        yield f"{op}_undeclared_operand", _func(
            f"%a: tensor<2x{t}>", f"tensor<2x{t}>",
            f"  // expected-error @+1 {{{{use of undeclared SSA value name '%missing'}}}}\n"
            f"  %0 = hlo.{op} %a, %missing : (tensor<2x{t}>, tensor<2x{t}>) -> tensor<2x{t}>\n", "%0")
    for op in INT_BINARY:
        kinds = "an integer" if op.startswith("shift") else "a boolean or integer"
        yield f"{op}_float_operands", _func(
            "%a: tensor<2xf32>", "tensor<2xf32>",
            f"  // expected-error @+1 {{{{'hlo.{op}' op operands must have {kinds} element type, got tensor<2xf32>}}}}\n"
            f"  %0 = hlo.{op} %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n", "%0")


def unary_cases():
    for op in ANY_UNARY:
        yield f"{op}_undeclared_operand", _func(
            "%a: tensor<2xf32>", "tensor<2xf32>",
            f"  // expected-error @+1 {{{{use of undeclared SSA value name '%missing'}}}}\n"
            f"  %0 = hlo.{op} %missing : (tensor<2xf32>) -> tensor<2xf32>\n", "%0")
        yield f"{op}_two_operands", _func(
            "%a: tensor<2xf32>", "tensor<2xf32>",
            f"  // expected-error @+1 {{{{'hlo.{op}' op Expected 1 operand, but got 2}}}}\n"
            f"  %0 = hlo.{op} %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n", "%0")
        yield f"{op}_unknown_variant", _func(
            "%a: tensor<2xf32>", "tensor<2xf32>",
            f"  // expected-error @+1 {{{{custom op 'hlo.{op}_v2' is unknown}}}}\n"
            f"  %0 = hlo.{op}_v2 %a : (tensor<2xf32>) -> tensor<2xf32>\n", "%0")
    for op in FLOAT_ONLY_UNARY:
        for t in ("i32", "i8", "i1", "i16", "i64"):
            yield f"{op}_{t}_operand", _func(
                f"%a: tensor<2x{t}>", f"tensor<2x{t}>",
                f"  // expected-error @+1 {{{{'hlo.{op}' op operand must have a floating-point or complex element type, got tensor<2x{t}>}}}}\n"
                f"  %0 = hlo.{op} %a : (tensor<2x{t}>) -> tensor<2x{t}>\n", "%0")


def _constant(name: str, literal: str, type_: str, message: str):
    return name, _func("", type_, f"  // expected-error @+1 {{{{{message}}}}}\n"
                       f"  %0 = hlo.constant dense<{literal}> : {type_}\n", "%0")


SHAPES = ["2", "3x2", "1x1x4", ""]


def literal_cases():
    ints = {"i8": (-128, 256), "i16": (-32768, 65536), "i32": (-2**31, 2**32)}
    for t, (low, high) in ints.items():
        for value in (high, low - 1, high * 4, low * 4 - 7):
            for s in SHAPES:
                type_ = f"tensor<{s + 'x' if s else ''}{t}>"
                yield _constant(f"literal_{t}_{str(value).replace('-', 'minus')}_{s or 'scalar'}",
                                str(value), type_,
                                f"integer value {value} is out of range for element type {t} "
                                f"(valid range [{low}, {high - 1}])")
    floats = {"f16": ["70000.0", "-1.0e5", "1.0e10"], "f32": ["1.0e39", "-3.5e38", "1.0e300"]}
    for t, values in floats.items():
        for value in values:
            for s in SHAPES:
                type_ = f"tensor<{s + 'x' if s else ''}{t}>"
                yield _constant(f"literal_{t}_{value.replace('-', 'minus').replace('.', 'p')}_{s or 'scalar'}",
                                value, type_, f"float literal is out of range for element type {t}")


def limit_cases():
    for depth in range(65, 81):
        nested = "[" * depth + "1.0" + "]" * depth
        yield _constant(f"nesting_{depth}", nested, "tensor<1xf32>", "dense literal nested deeper than 64 levels")
    for dim in (2**63, 2**63 + 1, 2**64, 10**20, 10**30):
        for t in ("f32", "i32"):
            big = f"tensor<{dim}x{t}>"
            yield f"dim_arg_{dim}_{t}", (
                f"// expected-error @+1 {{{{dimension {dim} is larger than the int64 maximum}}}}\n"
                f"func.func @f(%a: {big}) -> tensor<1x{t}> {{\n}}\n")
            yield f"dim_result_{dim}_{t}", (
                f"// expected-error @+1 {{{{dimension {dim} is larger than the int64 maximum}}}}\n"
                f"func.func @f() -> tensor<2x{dim}x{t}> {{\n}}\n")
            yield f"dim_literal_{dim}_{t}", (
                "func.func @f() {\n"
                f"  // expected-error @+1 {{{{dimension {dim} is larger than the int64 maximum}}}}\n"
                f"  %0 = hlo.constant dense<1> : tensor<3x{dim}x{t}>\n  return\n}}\n")
    for shape in ("100000x100000x100", "1000000x1000000", "4294967296x4294967296", "65536x65536x65536"):
        for t in ("f32", "f64", "i8", "i32"):
            yield _constant(f"huge_{shape}_{t}", "1", f"tensor<{shape}x{t}>", "bytes of memory available")
    for name in ("frobnicate", "addd", "matmul", "conv", "softmax", "relu", "gather_nd", "einsum"):
        yield f"unknown_op_{name}", _func(
            "%a: tensor<2xf32>", "tensor<2xf32>",
            f"  // expected-error @+1 {{{{custom op 'hlo.{name}' is unknown}}}}\n"
            f"  %0 = hlo.{name} %a : (tensor<2xf32>) -> tensor<2xf32>\n", "%0")


def all_cases():
    for group in (binary_cases, unary_cases, literal_cases, limit_cases):
        yield from group()


def main() -> None:
    CORPUS.mkdir(exist_ok=True)
    for old in CORPUS.glob("*.mlir"):
        old.unlink()
    names = set()
    for name, text in all_cases():
        assert name not in names, name
        names.add(name)
        (CORPUS / f"{name}.mlir").write_text(text)
    print(f"wrote {len(names)} files to {CORPUS}")


if __name__ == "__main__":
    main()
