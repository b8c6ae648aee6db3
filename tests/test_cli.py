"""The command line as a user meets it: exit codes, formats, bad input, no tracebacks."""

from __future__ import annotations

import json

from clusterlint.engine.registry import builtin_rules

from conftest import FIXTURES, SPECS, run_cli


def test_clean_spec_exits_zero_and_says_so():
    code, out, _ = run_cli("check", str(SPECS / "dgx-h100-superpod.yaml"), "--workload", str(SPECS / "llama70b-pretrain.yaml"))
    assert code == 0
    assert "Found 2 findings (0 errors, 0 warnings, 2 info) in 1 file." in out
    assert "dgx-h100-superpod.yaml: 100/100 A" in out


def test_findings_at_error_exit_one_and_fail_on_moves_the_bar():
    spec = str(FIXTURES / "NET005" / "bad.yaml")
    assert run_cli("check", spec)[0] == 0  # a warning does not fail at the default --fail-on error
    assert run_cli("check", spec, "--fail-on", "warning")[0] == 1
    assert run_cli("check", str(FIXTURES / "SPEC002" / "bad.yaml"), "--fail-on", "never")[0] == 0


def test_text_output_has_position_excerpt_and_caret():
    code, out, _ = run_cli("check", "--no-color", str(FIXTURES / "SPEC002" / "bad.yaml"))
    assert code == 1
    assert "bad.yaml:19:7: SPEC002 [error] spec.network.inter_node: unknown key 'nic_sped' (did you mean 'nic_speed'?)" in out
    assert "19 |       nic_sped: 400Gbps  # expect: SPEC002" in out
    assert "   |       ^^^^^^^^\n" in out
    assert "\x1b[" not in out


def test_json_is_stable_and_complete():
    report = json.loads(run_cli("check", "--format", "json", str(FIXTURES / "NET004" / "bad.yaml"))[1])
    assert set(report) == {"version", "files", "not_specs", "findings", "not_listed", "suppressed", "skipped", "summary", "score"}
    finding = next(f for f in report["findings"] if f["rule"] == "NET004")
    assert set(finding) == {"rule", "name", "severity", "score", "message", "file", "line", "column", "path", "evidence", "fingerprint"}
    assert (finding["name"], finding["severity"], finding["score"], finding["path"]) == ("no-rdma-fabric", "error", 15.0, "spec.network.inter_node.rdma")
    assert report["score"]["score"] == 85.0 and report["score"]["grade"] == "B"


def test_skipped_rules_are_reported_not_passed():
    code, out, _ = run_cli("check", str(SPECS / "gcp-a3-highgpu-8g.yaml"))
    assert "needs Workload document" not in out  # a count per file by default
    assert "specs/gcp-a3-highgpu-8g.yaml: 87.5/100 B  (NET 92.5 STO 95; not run: REL, CON, CST, DLV, SEC; 39 skipped)" in out and "--show-skipped lists them" in out
    code, out, _ = run_cli("check", str(SPECS / "gcp-a3-highgpu-8g.yaml"), "--show-skipped")
    assert "Skipped in specs/gcp-a3-highgpu-8g.yaml (39 rules, not run, so not passed):" in out
    assert "ACC001, ACC002, ACC004, ACC005, CST001, CST002, NET001, NET002, NET007, STO002, STO003, STO005, STO007, STO008: needs Workload document" in out
    assert "REL001: a rented cluster's spares depend on the contract's replacement SLA: needs a Contract document" in out
    assert "CST003, LCK005: needs Contract and Workload documents" in out


def test_stdin(tmp_path):
    text = (FIXTURES / "SW002" / "bad.yaml").read_text()
    report = json.loads(run_cli("check", "--format", "json", "-", input=text)[1])
    assert {(f["file"], f["rule"]) for f in report["findings"]} >= {("<stdin>", "SW002")}


def test_directory_recursion_reads_only_clusterlint_yaml(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "q.yaml").write_text((FIXTURES / "SW002" / "good.yaml").read_text())
    (tmp_path / "other.yaml").write_text("name: not ours\n")
    report = json.loads(run_cli("check", "--format", "json", str(tmp_path))[1])
    assert [f.replace("\\", "/").rsplit("/", 2)[-2:] for f in report["files"]] == [["sub", "q.yaml"]]


def test_usage_errors_exit_two_without_traceback(tmp_path):
    for args, message in [
        (["check", str(tmp_path / "missing.yaml")], "missing.yaml: no such file or directory"),
        (["check", str(tmp_path)], "no clusterlint documents found"),
        (["rule", "NET999"], "no rule 'NET999'"),
        (["check", str(FIXTURES / "NET001" / "bad.yaml"), "--workload", str(SPECS / "budget-pcie-nfs.yaml")], "holds no Workload document"),
    ]:
        code, out, err = run_cli(*args)
        assert code == 2, args
        assert message in err and "Traceback" not in err + out


def test_invalid_spec_is_a_finding_not_a_crash(tmp_path):
    for content in [b"\xff\xfe\x00bin", b"a: [1,\n", "a: 1\nb: caf\xe9\n".encode("latin-1"), b"- just\n- a list\n", b""]:
        path = tmp_path / "x.yaml"
        path.write_bytes(content)
        code, out, err = run_cli("check", str(path))
        assert code in (0, 1) and "Traceback" not in out + err


def test_internal_error_exits_two_with_a_clear_line(monkeypatch):
    import clusterlint.check

    def broken(options, sink=None):
        raise RuntimeError("boom")

    monkeypatch.setattr(clusterlint.check, "check", broken)
    code, out, err = run_cli("check", str(SPECS / "budget-pcie-nfs.yaml"))
    assert code == 2
    assert "internal error: RuntimeError: boom (run with --debug for the traceback" in err


def test_rule_and_rules_and_catalog_commands():
    code, out, _ = run_cli("rule", "NET003")
    assert code == 0 and out.startswith("# NET003 low-inter-node-bandwidth")
    assert "`warn_below` = `400Gbps`" in out
    assert run_cli("rule", "low-inter-node-bandwidth")[1] == out
    listing = run_cli("rules")[1].splitlines()
    assert len(listing) == len(builtin_rules()) == 95 and listing[0].startswith("ACC001")
    catalog = run_cli("catalog")[1]
    assert "TPU-v5p" in catalog and "Google Cloud" in catalog and "https://" in catalog
