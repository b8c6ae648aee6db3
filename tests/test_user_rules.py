"""User rules: the generic YAML checks, local Python checks, an installed plugin, and their errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from clusterlint.model.paths import PathError, parse

from conftest import FIXTURES, ROOT, SPECS, run_cli

QUOTE = FIXTURES / "NET003" / "bad.yaml"  # nic_speed 400Gbps x 4 NICs at line 19, storage lustre at line 26


@pytest.fixture
def repo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(QUOTE, tmp_path / "q.yaml")
    (tmp_path / "rules").mkdir()
    return tmp_path


def rule(repo, name: str, text: str):
    (repo / "rules" / f"{name}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")


def org_findings(*args, target="q.yaml") -> list[tuple]:
    code, out, err = run_cli("check", "--isolated", "--rules", "rules", "--format", "json", target, *args)
    assert code in (0, 1), err
    data = json.loads(out)
    return [(f["rule"], f["line"], f["column"], f["message"]) for f in data["findings"] if f["rule"].startswith("ORG")]


def error_of(*args) -> str:
    code, out, err = run_cli("check", "--isolated", "--rules", "rules", "q.yaml", *args)
    assert code == 2, out
    return err


def test_threshold_is_units_aware(repo):
    rule(repo, "speed", """\
        id: ORG001
        name: nic-speed
        severity: error
        check: threshold
        needs: [Cluster]
        summary: NICs of at least 50 GB/s.
        params: {path: spec.network.inter_node.nic_speed, min: 60GB/s}
    """)
    assert org_findings() == [("ORG001", 19, 18, "spec.network.inter_node.nic_speed is 400Gbps, below the minimum 60GB/s")]
    assert org_findings("--param", "ORG001.min=50GB/s") == []  # 50 GB/s is 400 Gbps


def test_threshold_bound_in_the_wrong_unit_names_the_rule_file_line(repo):
    rule(repo, "speed", """\
        id: ORG001
        name: nic-speed
        severity: error
        check: threshold
        needs: [Cluster]
        summary: NICs.
        params:
          path: spec.network.inter_node.nic_speed
          min: 400GB
    """)
    assert error_of() == ("clusterlint: error: rules/speed.yaml:9:8: ORG001 params.min: '400GB' is a size; a rate needs a time unit "
                          "(GB/s, or bits as Gbps) (the value it is compared with is a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second))\n")


def test_required_points_at_the_nearest_written_parent(repo):
    rule(repo, "orchestrator", """\
        id: ORG002
        name: os-named
        severity: warning
        check: required
        needs: [Cluster]
        summary: The quote names the OS image.
        params: {path: spec.software.os}
    """)
    assert org_findings() == [("ORG002", 30, 3, "spec.software.os is missing")]


def test_required_with_a_wildcard_checks_every_item(repo):
    rule(repo, "memory", """\
        id: ORG003
        name: read-bandwidth-stated
        severity: warning
        check: required
        needs: [Cluster]
        summary: Every storage system states its read bandwidth.
        params: {path: "spec.storage[*].read_bandwidth"}
    """)
    assert org_findings() == []
    text = QUOTE.read_text().replace("      read_bandwidth: 400GB/s\n", "")
    (repo / "q.yaml").write_text(text)
    assert org_findings() == [("ORG003", 24, 7, "spec.storage[0].read_bandwidth is missing")]


def test_one_of_and_none_of(repo):
    rule(repo, "fabric", """\
        id: ORG004
        name: fabric-allowed
        severity: error
        check: one-of
        needs: [Cluster]
        summary: Only InfiniBand or RoCE between nodes.
        params: {path: spec.network.inter_node.fabric, values: [roce, ethernet]}
    """)
    rule(repo, "storage", """\
        id: ORG005
        name: no-lustre
        severity: error
        check: none-of
        needs: [Cluster]
        summary: No Lustre.
        params: {path: "spec.storage[*].type", values: [LUSTRE]}
    """)
    assert org_findings() == [
        ("ORG004", 17, 15, "spec.network.inter_node.fabric is 'infiniband', not one of 'roce', 'ethernet'"),
        ("ORG005", 25, 13, "spec.storage[0].type is 'lustre', which is banned ('LUSTRE')"),
    ]


def test_pattern_points_at_the_matched_words_in_a_prose_contract(repo):
    rule(repo, "phrases", """\
        id: ORG006
        name: banned-phrases
        severity: error
        check: pattern
        needs: [Contract]
        summary: No sole-remedy clauses.
        params: {path: "spec.clauses[*].text", regex: "sole and exclusive remedy", ignore_case: true}
    """)
    shutil.copy(SPECS / "nimbus-gpu-cloud-sla.md", repo / "sla.md")
    assert org_findings(target="sla.md") == [("ORG006", 29, 36, "spec.clauses[7].text contains 'sole and exclusive remedy'")]
    line = (repo / "sla.md").read_text().splitlines()[28]
    assert line[35:].lower().startswith("sole and exclusive remedy")


def test_ratio_pairs_wildcards_and_keeps_the_unit(repo):
    rule(repo, "cores", """\
        id: ORG007
        name: cores-per-accelerator
        severity: warning
        check: ratio
        needs: [Cluster]
        summary: 16 cores per accelerator.
        params:
          numerator: ["spec.node_pools[*].cpu.sockets", "spec.node_pools[*].cpu.cores_per_socket"]
          denominator: "spec.node_pools[*].accelerator.count"
          min: 16
    """)
    rule(repo, "per-node", """\
        id: ORG008
        name: inter-node-per-node
        severity: error
        check: ratio
        needs: [Cluster]
        summary: 3.2 Tbps per node.
        params:
          numerator: [spec.network.inter_node.nics_per_node, spec.network.inter_node.nic_speed]
          min: 3.2Tbps
          message: "{value} per node, ACME wants {limit}"
    """)
    assert org_findings() == [
        ("ORG007", 10, 22, "spec.node_pools[0].cpu.sockets x spec.node_pools[0].cpu.cores_per_socket / spec.node_pools[0].accelerator.count is 14, below the minimum 16"),
        ("ORG008", 18, 22, "1.6 Tbps per node, ACME wants 3.2Tbps"),
    ]


def test_a_path_that_reaches_nothing_skips_the_rule_with_the_reason(repo):
    rule(repo, "absent", """\
        id: ORG009
        name: location
        severity: error
        check: threshold
        needs: [Cluster]
        summary: x
        params: {path: spec.location.region, max: 3}
    """)
    code, out, _ = run_cli("check", "--isolated", "--rules", "rules", "--format", "json", "q.yaml")
    assert {"rule": "ORG009", "reason": "spec.location.region is not in the Cluster", "file": "q.yaml"} in json.loads(out)["skipped"]


def test_local_python_check_beside_its_rule_file(repo):
    (repo / "rules" / "acme_checks.py").write_text(textwrap.dedent("""\
        from clusterlint.api import check, Params

        class Spares(Params):
            minimum: int = 2

        @check(Spares)
        def enough_spares(review, params):
            for i, pool in enumerate(review.cluster.spec.node_pools):
                if pool.spares < params.minimum:
                    yield review.hit("Cluster", ("spec", "node_pools", i, "spares"), f"{pool.spares} spare nodes, ACME wants {params.minimum}")
    """))
    rule(repo, "spares", """\
        id: ORG010
        name: spares
        severity: warning
        check: acme_checks:enough_spares
        needs: [Cluster]
        summary: Two spare nodes per pool.
    """)
    assert org_findings() == [("ORG010", 8, 15, "1 spare nodes, ACME wants 2")]
    assert org_findings("--param", "ORG010.minimum=1") == []


@pytest.mark.parametrize("text, message", [
    ("id: NET100\nname: x\nseverity: error\ncheck: required\nneeds: [Cluster]\nsummary: x\nparams: {path: spec}\n",
     "rules/bad.yaml:1:5: id: NET100 uses the built-in prefix NET; give your rules a prefix of your own, such as ORG"),
    ("id: ORG100\nname: x\nseverity: fatal\ncheck: required\nneeds: [Cluster]\nsummary: x\n",
     "rules/bad.yaml:3:11: severity: expected error, warning or info, found 'fatal'"),
    ("id: ORG100\nname: x\nseverity: error\ncheck: required\nneeds: [Cluster]\nsummary: x\nparams:\n  path: spec..os\n",
     "rules/bad.yaml:8:9: ORG100 params.path: Value error, expected a key after '.' at column 6 of 'spec..os'"),
    ("id: ORG100\nname: x\nseverity: error\ncheck: pattern\nneeds: [Contract]\nsummary: x\nparams:\n  path: spec.clauses\n  regex: '(unclosed'\n",
     "rules/bad.yaml:9:10: ORG100 params.regex: Value error, not a valid regular expression: missing ), unterminated subpattern at position 0"),
    ("id: ORG100\nname: x\nseverity: error\ncheck: thresold\nneeds: [Cluster]\nsummary: x\n",
     "rules/bad.yaml:4:8: check: expected module:function or one of threshold, required, one-of, none-of, pattern, ratio, found 'thresold'"),
    ("id: ORG100\nnmae: x\n", "rules/bad.yaml:2:1: nmae: unknown field (did you mean 'name'?); expected one of id, name, area, severity, weight, check, needs, summary, why, fix, sources, examples, params"),
])
def test_broken_user_rules_name_file_and_line(repo, text, message):
    (repo / "rules" / "bad.yaml").write_text(text)
    assert error_of() == f"clusterlint: error: {message}\n"


def test_duplicate_user_rule_ids_name_both_files(repo):
    body = "name: x\nseverity: error\ncheck: required\nneeds: [Cluster]\nsummary: x\nparams: {path: spec}\n"
    (repo / "rules" / "a.yaml").write_text("id: ORG001\n" + body)
    (repo / "rules" / "b.yaml").write_text("id: ORG001\n" + body)
    assert error_of() == "clusterlint: error: rules/b.yaml:1:5: id: ORG001 is already defined in rules/a.yaml:1:5\n"


def test_user_rules_are_selectable_and_documented(repo):
    rule(repo, "os", "id: ORG002\nname: os-named\nseverity: warning\ncheck: required\nneeds: [Cluster]\nsummary: The quote names the OS.\nparams: {path: spec.software.os}\n")
    assert org_findings("--ignore", "ORG") == []
    (repo / ".clusterlint.yaml").write_text("rules: [rules]\nseverity: {ORG002: error}\n")
    code, out, _ = run_cli("rule", "ORG002")
    assert code == 0 and "From: user rule file rules/os.yaml" in out and "Severity: error" in out
    code, out, _ = run_cli("check", "--format", "sarif", "q.yaml")
    driver = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    assert any(r["id"] == "ORG002" and "helpUri" not in r for r in driver)


def test_example_policy_in_specs(monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run_cli("check", "--config", "specs/policies/acme-gpu-policy.yaml", "--format", "json", "specs/budget-pcie-nfs.yaml")
    assert code == 1, err
    found = {(f["rule"], f["line"]) for f in json.loads(out)["findings"] if f["rule"].startswith("ACME")}
    assert found == {("ACME001", 19), ("ACME002", 21), ("ACME004", 16)}
    code, out, err = run_cli("check", "--config", "specs/policies/acme-gpu-policy.yaml", "--format", "json", "specs/nimbus-gpu-cloud-sla.md")
    found = {(f["rule"], f["line"], f["column"]) for f in json.loads(out)["findings"] if f["rule"].startswith("ACME")}
    assert found == {("ACME005", 29, 36)}  # ACME003 is ignored for prose contracts by the policy's per-file-ignores


@pytest.mark.parametrize("text", ["", ".spec", "spec.", "spec[*", "spec[x]", "spec.a b", "[0]"])
def test_path_syntax_rejects_what_it_does_not_define(text):
    with pytest.raises(PathError):
        parse(text)


def test_path_syntax_reads_keys_indexes_and_wildcards():
    assert parse("spec.node_pools[*].cpu").parts == ("spec", "node_pools", "*", "cpu")
    assert parse("spec.storage[0].read_bandwidth").parts == ("spec", "storage", 0, "read_bandwidth")


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    """The example plugin in tests/plugin, installed with pip into a folder on PYTHONPATH."""
    target = tmp_path_factory.mktemp("plugin")
    build = tmp_path_factory.mktemp("plugin-src") / "plugin"
    shutil.copytree(ROOT / "tests" / "plugin", build)
    install = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
                              "--target", str(target), str(build)], capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stdout + install.stderr
    return target


def test_installed_plugin_rule_produces_findings_with_lines(plugin, tmp_path):
    text = QUOTE.read_text().replace("accelerator: {model: H100-SXM, count: 8}", "accelerator: {model: H100-SXM, count: 6}")
    (tmp_path / "q.yaml").write_text(text)
    (tmp_path / ".clusterlint.yaml").write_text("plugins: [example]\n")
    env = {**os.environ, "PYTHONPATH": str(plugin), "NO_COLOR": "1"}
    run = subprocess.run([sys.executable, "-m", "clusterlint", "check", "q.yaml"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert "q.yaml:9:45: EXA001 [warning] pool 'gpu' has 6 accelerators per node; tensor parallelism wants a power of two up to 8" in run.stdout, run.stderr
    listing = subprocess.run([sys.executable, "-m", "clusterlint", "rules"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert "EXA001   power-of-two-per-node" in listing.stdout
    # installed but not configured: never imported
    unconfigured = subprocess.run([sys.executable, "-m", "clusterlint", "check", "--isolated", "q.yaml"], cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=120)
    assert "EXA001" not in unconfigured.stdout
    (tmp_path / ".clusterlint.yaml").write_text("plugins: [nosuch]\n")
    missing = subprocess.run([sys.executable, "-m", "clusterlint", "check", "q.yaml"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2
    assert "no installed plugin 'nosuch'" in missing.stderr


@pytest.mark.parametrize("body, message", [
    ("def broken(review, params):\n    return 1 / 0\n",
     "rules/broken.yaml:4:8: check: acme_broken:broken failed at rules/acme_broken.py:2 (ZeroDivisionError: division by zero); fix the check or remove the rule"),
    ("def broken(review):\n    return []\n",
     "rules/broken.yaml:4:8: check: acme_broken:broken failed (TypeError: broken() takes 1 positional argument but 2 were given); fix the check or remove the rule"),
])
def test_a_user_check_that_fails_blames_its_rule_file(repo, body, message):
    (repo / "rules" / "acme_broken.py").write_text(body)
    rule(repo, "broken", "id: ORG030\nname: broken\nseverity: warning\ncheck: acme_broken:broken\nneeds: [Cluster]\nsummary: x\n")
    sys.modules.pop("acme_broken", None)
    assert error_of() == f"clusterlint: error: {message}\n"


@pytest.mark.parametrize("regex, reason", [
    ("(a+)+$", "a repeated group can end in a part that also matches its start, as (a+)+ and (a|aa)* do"),
    ("(\\\\w+\\\\s?)*x", "a repeated group can end in a part that also matches its start, as (a+)+ and (a|aa)* do"),
    ("\\\\d+\\\\d+x", "two repeats in a row can match the same characters, as \\d+\\d+ does"),
])
def test_a_user_regex_that_backtracks_is_refused_at_its_position(repo, regex, reason):
    rule(repo, "slow", f'id: ORG031\nname: slow\nseverity: warning\ncheck: pattern\nneeds: [Contract]\nsummary: x\nparams:\n  path: spec.clauses\n  regex: "{regex}"\n')
    shown = regex.replace("\\\\", "\\")
    assert error_of() == (f"clusterlint: error: rules/slow.yaml:9:10: ORG031 params.regex: Value error, {shown!r} can take exponential "
                          f"or polynomial time on long text ({reason}); rewrite it\n")


def test_safe_user_regexes_are_accepted():
    from clusterlint.engine.backtracking import problem

    for regex in (r"\d+(?:[.,]\d+)*", r"\d{1,3}(?:,\d{3})*", r"(?:cat|dog)+s", r"sole (and exclusive )?remedy", r"foo.*bar", r"(a|ab)*c"):
        assert problem(regex) is None, regex


def test_user_phrases_that_compile_alone_but_not_together_are_refused(repo, monkeypatch):
    (repo / ".clusterlint.yaml").write_text("params:\n  CON001:\n    phrases: ['(?i)best efforts', 'reasonable']\n")
    code, _, err = run_cli("check", "q.yaml")
    assert code == 2 and "internal error" not in err
    assert err == ("clusterlint: error: .clusterlint.yaml:2:3: CON001 params.phrases: Value error, phrase '(?i)best efforts' sets flags "
                   "for the whole pattern; the phrases are joined into one and matched ignoring case already: write (?i:...) to scope a "
                   "flag to the phrase\n")
