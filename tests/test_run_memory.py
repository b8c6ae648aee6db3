"""`clusterlint check` keeps of each reviewed file only what its report prints (memory flat in files)."""

from __future__ import annotations

from pathlib import Path

from clusterlint.check import Options, check

ROOT = Path(__file__).resolve().parents[1]
QUOTE = ROOT / "specs" / "gcp-a3-highgpu-8g.yaml"
GOOD = ROOT / "tests" / "fixtures" / "ACC002" / "good.yaml"  # no finding at all


def test_check_sheds_typed_documents_and_unquoted_text():
    report = check(Options(paths=(str(QUOTE), str(GOOD)), isolated=True, keep_reviews=False))
    by_file = {Path(r.file).name: r for r in report.results}
    quote = by_file[QUOTE.name]
    assert quote.findings and quote.reviews == []
    assert quote.lines == QUOTE.read_text().splitlines()  # its findings quote their lines
    clean = by_file[GOOD.name]
    assert clean.findings == [] and clean.suppressed == []
    assert clean.reviews == [] and clean.lines == []  # nothing of it is printed but its score
    assert report.scorecards()[clean.file]["score"] == 100


def test_estimates_keep_the_reviews_they_size():
    report = check(Options(paths=(str(QUOTE),), isolated=True))
    assert report.results[0].reviews and report.results[0].reviews[0].cluster is not None
