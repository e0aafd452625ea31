"""Every malformed file in corpus/ yields exactly its `expected-error`s, in our words."""

import re
from pathlib import Path

import pytest

from minixla.dialects.diagnostics import DiagnosticError, parse_and_verify, split_input
from minixla.tools.expected_diagnostics import check_chunk, expectations
from minixla.tools.opt import MinixlaOptMain

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.mlir"))
PY_EXCEPTION = re.compile(r"\b\w*(Error|Exception)\b:|Traceback|\bnumpy\b")
_CTX = MinixlaOptMain(args=[]).ctx


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 300


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_malformed_input(path):
    produced = []

    def produce(chunk):
        try:
            parse_and_verify(chunk.text, path.name, _CTX, chunk.line_offset)
        except DiagnosticError as err:
            produced.append(str(err))
            return err
        return None

    chunks = split_input(path.read_text())
    assert any(expectations(c) for c in chunks), "a corpus file must state what it expects"
    problems = [p for c in chunks for p in check_chunk(c, path.name, produce)]
    assert not problems, "\n".join(problems + produced)
    for report in produced:
        assert not PY_EXCEPTION.search(report), report
