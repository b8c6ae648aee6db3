"""`clusterlint check` writes text, github and jsonl file by file and keeps no file's result once
written; the streamed output is the output of the whole report, byte for byte."""

from __future__ import annotations

import gc
import json
import weakref

import pytest

from clusterlint.reporters import open_stream, render
from clusterlint.check import Options, check

from conftest import FIXTURES, SPECS, run_cli

QUOTES = {  # name -> source: a tree whose walk order (a folder's files before its subfolders) is not name order
    "q/a-b.yaml": SPECS / "budget-pcie-nfs.yaml",
    "q/a/x.yaml": SPECS / "gcp-a3-highgpu-8g.yaml",
    "q/a/b/c.yaml": FIXTURES / "ACC002" / "good.yaml",
    "q/z.yaml": SPECS / "aws-p5-48xlarge.yaml",
    "q/bad.yaml": FIXTURES / "SPEC002" / "bad.yaml",
    "q/c/con.yaml": FIXTURES / "CON001" / "bad.yaml",  # CON001 twice
}
# its assumed MFU of 0.75 is ACC004's, a finding about the workload alone, reported once in its own file
WORKLOAD = (SPECS / "llama70b-pretrain.yaml").read_text(encoding="utf-8").replace("assumed_mfu: 0.45", "assumed_mfu: 0.75")


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    for name, source in QUOTES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = source.read_text(encoding="utf-8")
        if name == "q/a-b.yaml":  # one finding silenced in the source
            text = text.replace("\nspec:\n", "\nspec:  # clusterlint: ignore[SPEC006] asked the vendor\n", 1)
        path.write_text(text, encoding="utf-8")
    for name in ("m.yaml", "w.yaml", "q/m.yaml"):
        (tmp_path / name).write_text(WORKLOAD, encoding="utf-8")
    assert run_cli("check", "q/z.yaml", "--write-baseline", "base.json")[0] == 0
    return tmp_path


def _whole(fmt, paths, cli=None, show_suppressed=False, show_skipped=False) -> str:
    """The output rendered at once from the whole report (what several formats at once, or --output, write)."""
    report = check(Options(paths=tuple(paths), cli=cli or {}, keep_reviews=False))
    report.show_suppressed, report.show_skipped = show_suppressed, show_skipped
    return render(fmt, report)


# the workload sorts before every quote (all wait for its findings), after them, or is itself a checked path
RUNS = [
    (["q", "--workload", "m.yaml"], ["q"], {"workload": "m.yaml"}),
    (["q", "--workload", "w.yaml", "--show-suppressed", "--show-skipped"], ["q"], {"workload": "w.yaml"}),
    (["q", "--workload", "q/m.yaml", "--max-findings-per-rule", "1"], ["q"], {"workload": "q/m.yaml", "max-findings-per-rule": 1}),
    (["q/z.yaml", "q/a-b.yaml", "q/z.yaml", "--show-suppressed"], ["q/z.yaml", "q/a-b.yaml", "q/z.yaml"], {}),
    (["q", "--baseline", "base.json", "--show-suppressed"], ["q"], {"baseline": "base.json"}),
]


@pytest.mark.parametrize("fmt", ["text", "github", "jsonl"])
@pytest.mark.parametrize("args, paths, cli", RUNS)
def test_the_streamed_output_is_the_whole_reports(tree, fmt, args, paths, cli):
    code, out, err = run_cli("check", "--format", fmt, *args)
    assert (code, err) == (1, "")
    flags = {"show_suppressed": "--show-suppressed" in args, "show_skipped": "--show-skipped" in args}
    assert out == _whole(fmt, paths, cli, **flags)


@pytest.mark.parametrize("fmt", ["text", "github", "jsonl"])
def test_one_output_file_is_streamed_too(tree, monkeypatch, fmt):
    """--output FILE with one format writes the file part by part (the results let go as on standard
    output) and holds what the whole report's rendering holds."""
    from clusterlint import reporters

    held = []
    open_stream = reporters.open_stream

    def recording(*args, **kwargs):
        stream = Recording(open_stream(*args, **kwargs))
        held.append(stream)
        return stream

    monkeypatch.setattr(reporters, "open_stream", recording)
    code, out, err = run_cli("check", "--format", fmt, "q", "--workload", "m.yaml", "-o", "out.txt")
    assert (code, out, err) == (1, "", "")
    assert len(held) == 1 and len(held[0].seen) == len(QUOTES) + 2  # each let go before the next arrived
    assert (tree / "out.txt").read_text(encoding="utf-8") == _whole(fmt, ["q"], {"workload": "m.yaml"})


def test_an_output_file_is_left_as_it_was_when_the_run_stops_before_the_first_file(tree):
    (tree / "out.txt").write_text("the last report\n")
    code, _, err = run_cli("check", "q", "--workload", "missing.yaml", "-o", "out.txt")
    assert code == 2 and "missing.yaml" in err
    assert (tree / "out.txt").read_text() == "the last report\n"


def test_text_lists_findings_in_name_order_and_scorecards_in_the_order_given(tree):
    code, out, _ = run_cli("check", "q/z.yaml", "q/bad.yaml", "q/a/b/c.yaml", "--workload", "m.yaml")
    heads = [line.split(":")[0] for line in out.splitlines() if line.startswith(("q/", "m.yaml")) and ": " in line]
    assert heads == sorted(heads) and heads[0] == "m.yaml" and heads[-1] == "q/z.yaml" and "q/bad.yaml" in heads
    cards = out[out.index("Scorecard:"):].splitlines()[1:4]
    assert [line.split(":")[0].strip() for line in cards] == ["q/z.yaml", "q/bad.yaml", "q/a/b/c.yaml"]
    assert out.splitlines()[-2] == "  m.yaml: 97.5/100 A  (ACC 97.5; not run: DLV)"  # the shared workload's card comes last: its ACC004 warning


class Recording:
    """A stream that checks, as each result arrives, that every earlier one is gone."""

    def __init__(self, inner):
        self.inner, self.seen = inner, []

    def start(self, report, late=()):
        self.inner.start(report, late)

    def add(self, result, index, last=False):
        gc.collect()
        assert [ref() for ref in self.seen] == [None] * len(self.seen), "a streamed result is still held"
        self.seen.append(weakref.ref(result))
        self.inner.add(result, index, last)

    def finish(self):
        self.inner.finish()

    @property
    def failed(self):
        return self.inner.failed


@pytest.mark.parametrize("fmt", ["text", "github", "jsonl"])
def test_check_keeps_no_result_once_streamed(tree, fmt):
    out = []
    sink = Recording(open_stream(fmt, out.append, show_suppressed=True, show_skipped=True))
    report = check(Options(paths=("q",), cli={"workload": "m.yaml"}, keep_reviews=False), sink)
    gc.collect()
    assert len(sink.seen) == len(QUOTES) + 2  # the quotes and q/m.yaml, then the workload m.yaml with its finding
    assert [ref() for ref in sink.seen] == [None] * len(sink.seen)
    assert report.results == []
    assert sink.inner.failed and "ACC004" in "".join(out)


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_each_files_part_is_written_before_the_next_file_is_reviewed(tree, fmt):
    out, before = [], []

    class Probe(Recording):
        def add(self, result, index, last=False):
            before.append(("".join(out), result.file))
            self.inner.add(result, index, last)

    check(Options(paths=("q",), keep_reviews=False), Probe(open_stream(fmt, out.append, False, False)))
    names = [name for _, name in before]
    assert names == sorted(names) == ["q/a-b.yaml", "q/a/b/c.yaml", "q/a/x.yaml", "q/bad.yaml", "q/c/con.yaml", "q/m.yaml", "q/z.yaml"]
    for (written, _), previous in zip(before[1:], names):
        if fmt == "jsonl":
            assert f'"type": "file", "file": "{previous}"' in written
        elif previous != "q/a/b/c.yaml":  # the clean file prints nothing before the summary
            assert f"\n{previous}:" in "\n" + written
    # a shared workload whose name sorts first has its findings at the end: every part waits for it
    out.clear(), before.clear()
    check(Options(paths=("q",), cli={"workload": "m.yaml"}, keep_reviews=False), Probe(open_stream(fmt, out.append, False, False)))
    assert [written for written, _ in before] == [""] * len(before) and before[-1][1] == "m.yaml"
    assert "".join(out).index("m.yaml") < "".join(out).index("q/a-b.yaml")


def _jsonl(*args):
    code, out, err = run_cli("check", "--isolated", "--format", "jsonl", *args)
    assert out.endswith("\n") and err == ""
    return code, [json.loads(line) for line in out.splitlines()]


def test_jsonl_is_a_finding_per_line_then_a_file_object_per_file_then_a_summary(tree):
    bad, good = str(FIXTURES / "ACC002" / "bad.yaml"), str(FIXTURES / "ACC002" / "good.yaml")
    code, lines = _jsonl(good, bad)
    assert code == 1
    assert [line["type"] for line in lines] == ["finding", "file", "file", "summary"]
    areas = {a: 100.0 for a in ("SPEC", "ACC", "NET", "STO", "CPU", "REL", "SW", "LCK", "CON", "CST", "UNI", "SEC")} | {"DLV": None}  # no evidence: DLV did not run
    assert lines[0] == {
        "type": "finding", "rule": "ACC002", "name": "too-few-accelerators-for-inference", "severity": "error", "score": 15.0,
        "message": "serving 405B parameters in bf16 needs 1.012 TB (405B x 2 bytes x 1.25) = 13 accelerators of 80 GB; the cluster has 8",
        "file": bad, "line": 7, "column": 14, "path": "spec.node_pools[0].count",
        "evidence": ["80 GB per accelerator: catalog H100-SXM, https://www.nvidia.com/en-us/data-center/h100/"],
        "fingerprint": lines[0]["fingerprint"],
    }
    json_findings = json.loads(run_cli("check", "--isolated", "--format", "json", bad)[1])["findings"]
    assert [{k: v for k, v in lines[0].items() if k != "type"}] == json_findings  # the fields of json's findings
    assert lines[1] == {
        "type": "file", "file": bad, "findings": 1, "listed": 1, "error": 1, "warning": 0, "info": 0, "suppressed": 0,
        "not_listed": [], "skipped": [{"rule": "STO003", "reason": "the workload states no checkpoints"},
                                      {"rule": "STO007", "reason": "the workload states no checkpoints"},
                                      {"rule": "SW003", "reason": "the quote does not state its service nodes (login, controller): ask"},
                                      {"rule": "SW004", "reason": "the quote does not state the monitoring offered to the customer: ask"}],
        "score": {"score": 85.0, "grade": "B", "points": 15.0, "areas": {**areas, "ACC": 85.0}},
    }
    assert lines[2]["file"] == good and lines[2]["findings"] == 0 and lines[2]["score"]["score"] == 100.0
    assert lines[3] == {
        "type": "summary", "version": lines[3]["version"], "files": 2, "not_specs": [], "findings": 1, "listed": 1,
        "error": 1, "warning": 0, "info": 0, "suppressed": 0, "score": lines[1]["score"], "failed": True,
    }


def test_jsonl_counts_what_it_does_not_list_and_says_when_the_run_passes(tree):
    code, lines = _jsonl("q/c/con.yaml", "q/a-b.yaml", "--max-findings-per-rule", "1", "--fail-on", "never")
    assert code == 0 and lines[-1]["failed"] is False
    files = [i for i, line in enumerate(lines) if line["type"] == "file"]
    quote, contract = lines[files[0]], lines[files[1]]
    assert (quote["file"], contract["file"]) == ("q/a-b.yaml", "q/c/con.yaml")
    assert {line["file"] for line in lines[: files[0]]} == {"q/a-b.yaml"}  # each file's lines, then its file object
    assert {line["file"] for line in lines[files[0] + 1 : files[1]]} == {"q/c/con.yaml"}
    assert (contract["findings"], contract["listed"], contract["not_listed"]) == (3, 2, [{"rule": "CON001", "count": 1}])
    assert [line["rule"] for line in lines[files[0] + 1 : files[1]]].count("CON001") == 1
    silenced = [line for line in lines if line["type"] == "suppressed"]
    assert [(s["rule"], s["line"], s["suppression"]["kind"], s["suppression"]["justification"]) for s in silenced] == [
        ("SPEC006", 11, "inSource", "asked the vendor")]
    assert quote["suppressed"] == 1 and quote["findings"] == quote["listed"] == 4  # NET004 asks (the ethernet states no rdma)
    summary = lines[-1]
    assert (summary["files"], summary["findings"], summary["listed"], summary["suppressed"]) == (2, 7, 6, 1)
    assert summary["error"] + summary["warning"] + summary["info"] == 7


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_a_broken_workload_or_baseline_stops_the_run_before_any_output(tree, fmt):
    (tree / "baseline.json").write_text("{", encoding="utf-8")
    for extra in (["--workload", "missing.yaml"], ["--baseline", "baseline.json"]):
        code, out, err = run_cli("check", "--format", fmt, "q", *extra)
        assert (code, out) == (2, "") and err.startswith("clusterlint: error: "), extra


def test_github_writes_the_annotations_file_by_file_each_files_errors_first(tree):
    code, out, _ = run_cli("check", "--format", "github", "q/z.yaml", "q/a-b.yaml")
    commands = [(line.split()[0], line.split("file=")[1].split(",")[0]) for line in out.splitlines() if line.startswith("::")]
    assert commands == ([("::error", "q/a-b.yaml")] * 2 + [("::warning", "q/a-b.yaml")] * 2
                        + [("::error", "q/z.yaml")] * 2 + [("::warning", "q/z.yaml")] * 9 + [("::notice", "q/z.yaml")] * 3)
    # GitHub shows 10 annotations of each kind per step: the 12th warning (a-b.yaml's NET002) is in the log only
    assert out.splitlines()[-2] == "clusterlint: 18 findings (4 errors, 11 warnings, 3 info)" and code == 1
    assert out.splitlines()[-1].startswith("clusterlint: GitHub shows 10 annotations of each kind per step: 1 warning were not shown")


def test_a_streamed_output_file_never_overwrites_an_input(tree):
    before = (tree / "q" / "z.yaml").read_bytes()
    code, _, err = run_cli("check", "q/z.yaml", "--format", "jsonl", "-o", "q/z.yaml")
    assert code == 2
    assert "clusterlint: error: q/z.yaml: refusing to overwrite a file being linted with the output; choose another file" in err
    assert (tree / "q" / "z.yaml").read_bytes() == before
