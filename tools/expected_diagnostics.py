"""MLIR's `--verify-diagnostics`: compare produced diagnostics with annotations.

A test file states what must be reported, on which line:

    // expected-error @+1 {{'hlo.add' op requires the same element type}}
    %0 = hlo.add %a, %b : ...

`@+N`/`@-N` are relative lines, `@above`/`@below` the previous/next line, and
no `@` means the annotation's own line. Every expected error/warning/note must
be produced (its text a substring of the message) and every produced error
must be expected; unexpected notes are tolerated (our notes only add context).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from minixla.dialects.diagnostics import Chunk, DiagnosticError

_EXPECTATION = re.compile(
    r"//\s*expected-(error|warning|note)\s*(?:@(above|below|[+-]\d+))?\s*\{\{(.*?)\}\}")


@dataclass
class Expectation:
    kind: str
    line: int
    text: str
    annotation_line: int
    matched: bool = False


def has_expectations(text: str) -> bool:
    """Whether `text` uses MLIR-style `expected-*` annotations."""
    return _EXPECTATION.search(text) is not None


def expectations(chunk: Chunk) -> list[Expectation]:
    """The annotations of one chunk, with absolute target lines."""
    found = []
    for index, line in enumerate(chunk.text.splitlines()):
        here = index + 1 + chunk.line_offset
        for kind, where, text in _EXPECTATION.findall(line):
            offset = {"": 0, "above": -1, "below": 1}.get(where)
            target = here + (int(where) if offset is None else offset)
            found.append(Expectation(kind, target, text.strip(), here))
    return found


def _produced(err: DiagnosticError) -> list[tuple[str, int, str]]:
    return [("error", err.line, err.message)] + [("note", ln, msg) for ln, _col, msg in err.notes]


def check_chunk(chunk: Chunk, filename: str,
                produce: Callable[[Chunk], DiagnosticError | None]) -> list[str]:
    """Run `produce` on the chunk; return one message per mismatch (empty: all match)."""
    wanted = expectations(chunk)
    err = produce(chunk)
    problems = []
    for kind, line, message in _produced(err) if err is not None else []:
        hit = next((e for e in wanted if not e.matched and e.kind == kind and e.line == line
                    and e.text in message), None)
        if hit is not None:
            hit.matched = True
        elif kind != "note":
            problems.append(f"{filename}:{line}: error: unexpected {kind}: {message}")
    for e in wanted:
        if not e.matched:
            problems.append(f"{filename}:{e.annotation_line}: error: expected {e.kind} "
                            f"\"{e.text}\" was not produced on line {e.line}")
    return problems
