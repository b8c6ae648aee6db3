"""The per-document cache the contract readings share."""

from __future__ import annotations

from clusterlint.contracts.memo import last_document


def test_a_reading_is_made_once_per_document_and_arguments():
    calls = []

    @last_document
    def read(document, extra=None):
        calls.append((id(document), extra))
        return len(calls)

    first, second = ["a contract"], ["a contract"]  # equal, but two documents
    assert [read(first), read(first)] == [1, 1]
    assert read(second) == 2  # another document is read again, however equal
    assert read(second, {"vendor": ["Acme"]}) == 3 and read(second, {"vendor": ["Acme"]}) == 3
    assert read(first) == 4  # only the last document is kept
    assert read.__name__ == "read"


def test_a_document_of_none_is_read_too():
    @last_document
    def read(document):
        return "read"

    assert read(None) == "read"
