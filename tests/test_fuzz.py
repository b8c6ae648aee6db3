"""Fuzz the command line with generated and mutated inputs, and hold it to its contract.

Specs start from the files in specs/ and are mutated line by line (a key deleted or renamed, a
value swapped for a number, a unit string, a YAML 1.1 form, an anchor or a tag, junk inserted,
the text truncated); contracts, configurations, baselines and user rule files are generated or
mutated the same way; the command line is drawn from the options `check` takes. Every run must:
exit 0, 1 or 2; print no "internal error" and no traceback; give every finding a file and a line;
print the same thing twice; and, with --format json, print JSON.

Profiles: the default is fast and derandomized (a few dozen examples, seconds); set
CLUSTERLINT_FUZZ=long for 10,000 examples of the main property.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import SPECS, run_cli

LONG = os.environ.get("CLUSTERLINT_FUZZ") == "long"
PROFILE = settings(
    max_examples=10_000 if LONG else 100,
    derandomize=not LONG,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)

SPEC_TEXTS = {p.name: p.read_text(encoding="utf-8") for p in sorted(SPECS.glob("*.yaml"))}
CONTRACT_TEXTS = {p.name: p.read_text(encoding="utf-8") for p in sorted(SPECS.glob("*.txt")) + sorted(SPECS.glob("*.md")) if p.name != "README.md"}
WORKLOAD = SPEC_TEXTS["llama70b-pretrain.yaml"]

VALUES = st.sampled_from([
    "0", "-1", "010", "1:30", "0x20", "0o10", "1_000", "1e3", ".nan", ".inf", "yes", "null", "~", "''", "[]", "{}",
    "0GB", "0Gbps", "0h", "0 USD", "400Gbps", "50GB/s", "80GiB", "2T", "70B", "1e400GB", "12 USD/h", "99.9%", "2024-02-30",
    "!!int '0xZZ'", "!!binary aGk=", "!!python/object:os.system x", "&a [*a]", "*nope", "\"\\x\"", "|", ">", "- x", "a: b: c",
    "\ufeff", "\t", "\x00", "\x1b[31m", "é", "🙂", "\"" + "9" * 400 + "\"",
    "!!timestamp x", "!!bool maybe", "!!null x", "!!float x", "1.7e308EiB", "1.79e308Tbps", "1e300 USD", "9" * 5000,
])
JUNK = st.one_of(VALUES, st.text(max_size=40), st.sampled_from(["---", "...", "%YAML 1.1", "# clusterlint: ignore", "# clusterlint: ignore[NET003] why",
                                                                  "  - ", "{", "]", "\"", "'", "&x", "<<: *x"]))


@st.composite
def mutated(draw, text: str) -> str:
    """`text` with a few line-level mutations."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(0, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "rename", "value", "junk", "duplicate", "truncate", "indent"]))
        line = lines[i]
        if action == "delete":
            del lines[i]
        elif action == "rename" and ":" in line:
            key, _, rest = line.partition(":")
            lines[i] = key + draw(st.sampled_from(["x", "_", "", "-", " "])) + ":" + rest
        elif action == "value" and ":" in line:
            lines[i] = line.partition(":")[0] + ": " + draw(VALUES)
        elif action == "junk":
            lines.insert(i, draw(JUNK))
        elif action == "duplicate":
            lines.insert(i, line)
        elif action == "truncate":
            lines = lines[:i] + [line[: draw(st.integers(0, len(line)))]]
        elif action == "indent":
            lines[i] = draw(st.sampled_from(["  ", " ", "\t", ""])) + line.lstrip()
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n---\n", "\r\n"]))


def specs() -> st.SearchStrategy:
    return st.sampled_from(sorted(SPEC_TEXTS)).flatmap(lambda name: mutated(SPEC_TEXTS[name]))


def contracts() -> st.SearchStrategy:
    generated = st.lists(st.sampled_from([
        "The Provider will use commercially reasonable efforts to deliver.", "1.1 Service Credits", "Price: 2.10 USD per GPU-hour.",
        "Availability of at least 99.9% each month.", "1,2,3,4,5,6,7,8,9", "9" * 300, " " * 200, "sole and exclusive remedy",
        "\f", "# Heading", "**bold**", "subject to availability",
    ]), max_size=12).map("\n".join)
    return st.one_of(generated, st.sampled_from(sorted(CONTRACT_TEXTS)).flatmap(lambda name: mutated(CONTRACT_TEXTS[name])))


def configs() -> st.SearchStrategy:
    keys = st.sampled_from([
        "select: [ALL]", "ignore: [NET003]", "ignore: [SPEC001]", "extend-select: [NOPE]", "severity: {NET: info}", "fail-on: warning",
        "fail-on: bogus", "min-score: 70", "min-score: .nan", "contract: null", "workload: null", "workload: work.yaml",
        "workload: missing.yaml", "contract: contract.txt", "baseline: baseline.json", "rules: [rules]", "rules: null",
        "per-file-ignores: {'[z-a]': [NET001]}", "per-file-ignores: {'./*.yaml': [NET003]}", "params: {STO002: {min_ratio: 0}}",
        "params: {CON001: {phrases: ['(?i)x', 'y']}}", "params: {CON001: {phrases: ['(a+)+']}}", "params: {NET003: 5}", "tool: 3",
    ])
    return st.lists(keys, max_size=4).map("\n".join).flatmap(mutated)


def baselines() -> st.SearchStrategy:
    entry = st.fixed_dictionaries({"rule": st.sampled_from(["NET003", "CON003", 1]), "file": st.sampled_from(["quote.yaml", None]),
                                   "fingerprint": st.text(max_size=8)})
    document = st.fixed_dictionaries({"clusterlint_baseline": st.sampled_from([1, True, 2, "1"]), "findings": st.lists(entry, max_size=3)})
    return st.one_of(document.map(json.dumps), st.sampled_from(["", "[]", "{", "[" * 5000, "null", '{"clusterlint_baseline": 1}',
                                                                   '{"clusterlint_baseline": 1, "findings": [], "n": ' + "9" * 5000 + "}"]))


def rule_files() -> st.SearchStrategy:
    base = ("id: ORG001\nname: org-rule\nseverity: warning\ncheck: {check}\nneeds: [{needs}]\nsummary: x\nparams:\n"
            "  path: {path}\n  {extra}\n")
    return st.builds(
        lambda check, needs, path, extra: base.format(check=check, needs=needs, path=path, extra=extra),
        st.sampled_from(["required", "threshold", "pattern", "one-of", "none-of", "ratio", "nope", "mod:fn"]),
        st.sampled_from(["Cluster", "Contract", "Workload", "Nothing"]),
        st.sampled_from(["spec.node_pools[*].count", "spec.clauses[*].text", "spec..x", "spec.network.inter_node.nic_speed"]),
        st.sampled_from(["min: 2", "max: 400Gbps", "regex: 'remedy'", "regex: '(a+)+$'", "regex: '('", "values: [a]", "values: []",
                         "numerator: spec.x", "min: 0GB", "", "ignore_case: 3"]),
    ).flatmap(mutated)


ARGS = st.lists(st.sampled_from([
    ["--format", "json"], ["--format", "text"], ["--format", "sarif"], ["--format", "junit"], ["--format", "github"],
    ["--fail-on", "info"], ["--fail-on", "never"], ["--min-score", "50"], ["--min-score", "nan"], ["--min-score", "-1"],
    ["--workload", "work.yaml"], ["--contract", "contract.txt"], ["--contract", "contract.md"], ["--baseline", "baseline.json"],
    ["--rules", "rules"], ["--select", "NET"], ["--ignore", "SPEC001"], ["--isolated"], ["--skip-non-specs"], ["--show-suppressed"],
    ["--param", "STO002.min_ratio=2"], ["--param", "NET003=x"], ["--param", "NET003.efficiency=!!float x"],
    ["--param", "STO002.min_ratio=!!bool maybe"], ["-o", "quote.yaml"], ["--write-baseline", "work.yaml"],
    ["--severity", "NET003=info"], ["."],
]), max_size=4).map(lambda parts: [a for part in parts for a in part])


def _run(folder: Path, args: list[str]) -> tuple[int, str, str]:
    here = os.getcwd()
    os.chdir(folder)
    try:
        return run_cli(*args)
    finally:
        os.chdir(here)


def _holds_the_contract(files: dict, args: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, text in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", errors="surrogateescape")
        before = {name: (folder / name).read_bytes() for name in files}
        first = _run(folder, args)
        # a run that wrote a baseline or an output changed the folder: run the second time on the same inputs
        for name, data in before.items():
            (folder / name).write_bytes(data)
        second = _run(folder, args)
    code, out, err = first
    assert code in (0, 1, 2), (args, code, out[-2000:], err[-2000:])
    for stream in (out, err):
        assert "internal error" not in stream, (args, files, stream[-3000:])
        assert "Traceback (most recent call last)" not in stream, (args, stream[-3000:])
    assert first == second, args
    formats = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--format"]
    if code in (0, 1) and formats[-1:] == ["json"] and "-o" not in args and "--write-baseline" not in args and len(formats) == 1:
        report = json.loads(out)
        for finding in report["findings"]:
            assert finding["file"] and isinstance(finding["line"], int) and finding["line"] >= 1, finding


@PROFILE
@given(spec=specs(), workload=mutated(WORKLOAD), contract=contracts(), config=st.one_of(st.none(), configs()),
       baseline=baselines(), rule=rule_files(), args=ARGS, target=st.sampled_from(["quote.yaml", "contract.txt", "contract.md", "."]))
def test_the_cli_holds_its_contract_on_generated_inputs(spec, workload, contract, config, baseline, rule, args, target):
    files = {"quote.yaml": spec, "work.yaml": workload, "contract.txt": contract, "contract.md": contract,
             "baseline.json": baseline, "rules/org.yaml": rule}
    if config is not None:
        files[".clusterlint.yaml"] = config
    _holds_the_contract(files, ["check", target, *args])


@settings(PROFILE, max_examples=2_000 if LONG else 60)
@given(spec=specs(), fmt=st.sampled_from(["json", "text"]))
def test_a_mutated_spec_alone_gives_findings_with_positions(spec, fmt):
    _holds_the_contract({"quote.yaml": spec}, ["check", "quote.yaml", "--format", fmt])


FRAME_JUNK = st.one_of(
    st.binary(max_size=64),
    st.builds(lambda n, tail: b"Content-Length: %s\r\n\r\n" % n + tail,
              st.one_of(st.integers(0, 10**30).map(lambda n: str(n).encode()), st.sampled_from([b"", b"-1", b"abc", b"1e3", b" 5 ", b"\xff"])),
              st.binary(max_size=32)),
    st.sampled_from([b"\r\n\r\n", b"Content-Length:", b"Content-Type: x\r\n", b"Content-Length: 5", b"\n\n", b"{}"]),
)


def _frame(msg_id: int) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover",  # a never-opened URI: answered null
                       "params": {"textDocument": {"uri": "file:///nowhere.yaml"}, "position": {"line": 0, "character": 0}}}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _frames_read(data: bytes) -> tuple[list, list]:
    import io

    from clusterlint.server.framing import MAX_BODY, Frames

    answers: list = []
    frames = Frames(io.BufferedReader(io.BytesIO(data), buffer_size=7), answers.append)
    bodies = []
    while True:
        header = frames.readline()
        if not header:
            return bodies, answers
        assert frames.readline() == b"\r\n"
        body = frames.read(int(header.split(b":")[1]))
        assert 0 < len(body) <= MAX_BODY
        bodies.append(body)


@settings(PROFILE, max_examples=300)
@given(junk=st.lists(FRAME_JUNK, max_size=4))
def test_the_servers_framing_recovers_from_any_junk(junk):
    """Whatever comes before them, the last of three well-formed frames reaches pygls whole (junk
    can cost the first, and the second when the first's header is eaten), and what was answered
    was said in words."""
    bodies, answers = _frames_read(b"".join(junk) + _frame(1) + _frame(2) + _frame(3))
    assert bodies[-1] == _frame(3).split(b"\r\n\r\n", 1)[1]
    assert all(isinstance(a, str) and a for a in answers)


@settings(PROFILE, max_examples=100)
@given(ids=st.lists(st.integers(0, 10**6), min_size=1, max_size=5))
def test_the_servers_framing_passes_well_formed_frames_unchanged(ids):
    bodies, answers = _frames_read(b"".join(_frame(i) for i in ids))
    assert bodies == [_frame(i).split(b"\r\n\r\n", 1)[1] for i in ids] and answers == []


@settings(PROFILE, max_examples=3)
@given(junk=st.lists(FRAME_JUNK, min_size=1, max_size=3))
def test_the_server_answers_after_generated_junk_frames(junk):
    """The real server process: junk frames, then a request, which is answered."""
    import subprocess
    import sys

    init = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"processId": None, "capabilities": {}}}).encode()
    data = b"Content-Length: %d\r\n\r\n" % len(init) + init + b"".join(junk) + _frame(1) + _frame(2)
    done = subprocess.run([sys.executable, "-m", "clusterlint", "server"], input=data, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert b'{"id": 2, "jsonrpc": "2.0", "result": null}' in done.stdout
