"""R79: scenario runs write JUnit XML a CI reads, one self-contained HTML report, a filter
(``-k``, ``--rules``) and a trace of each step of a failing scenario.

Every run here goes through ``python -m app scenario run``'s own entry point on the real
window offscreen; the JUnit file is read back with junitparser (the parser CI plugins
use) and with xml.etree against the attributes the JUnit schema requires.
"""

from __future__ import annotations

import base64
import json
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from junitparser import Error, Failure, JUnitXml, Skipped, TestSuite
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.scenario import cli
from app.scenario.junit import write_junit
from app.scenario.model import load_all
from app.scenario.report import Mismatch, ScenarioResult, StepResult
from app.scenario.runner import WINDOW_SIZE
from app.scenario.selection import rule_names, select

REPO = Path(__file__).resolve().parents[2]
WORKSPACE = """\
workspace:
  notes/a.md: "# A\\nalpha\\n"
  notes/b.md: "# B\\nbeta\\n"
"""

# Fails at step 5: inbox-1 was activated last, so the pointer names it, not inbox-2 (R2, R4).
FAILING = f"""\
name: the wrong frame expected
rules: [R2, R4]
{WORKSPACE}steps:
  - mount: {{frame: inbox-1, path: notes/a.md}}
  - mount: {{frame: inbox-2, path: notes/b.md}}
  - activate: inbox-1
  - send: {{message: summarise this, duringFlush: [{{type: {{frame: inbox-1, text: " more"}}}}]}}
  - expect: {{pointer: {{frameId: inbox-2}}, tools: [read_active_note]}}
  - activate: assistant
"""

PASSING = f"""\
name: a popped-out note is not this note
rules: [R29]
{WORKSPACE}steps:
  - mount: {{frame: inbox-1, path: notes/a.md}}
  - send: summarise this
  - expect: {{pointer: {{frameId: inbox-1, path: notes/a.md}}, replyContains: alpha}}
"""

# The JUnit schema (Ant's junit.xsd, which Jenkins and GitLab follow): required attributes.
SUITE_REQUIRED = {"name", "tests", "failures", "errors", "time", "timestamp", "hostname"}
CASE_REQUIRED = {"name", "classname", "time"}
PROBLEM_REQUIRED = {"message", "type"}


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


class _Links(HTMLParser):
    """Every src and href of a page, and every <details> with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.details: list[dict[str, str | None]] = []
        self.images: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.links += [value or "" for key, value in attrs if key in ("src", "href")]
        if tag == "details":
            self.details.append(values)
        if tag == "img":
            self.images.append(values.get("src") or "")


def read_links(page: str) -> _Links:
    parser = _Links()
    parser.feed(page)
    return parser


@pytest.fixture(scope="module")
def failing_run(tmp_path_factory: pytest.TempPathFactory, qapp: QApplication) -> Path:
    """One run of a failing and a passing scenario with both reports (shared: each run costs)."""
    folder = tmp_path_factory.mktemp("reports")
    failing = write(folder / "cases", "r02-wrong-frame.yaml", FAILING)
    passing = write(folder / "cases", "r29-popped.yaml", PASSING)
    junit, page = folder / "out" / "junit.xml", folder / "out" / "report.html"
    code = cli.main(["run", str(failing), str(passing), "--junit", str(junit), "--html", str(page)])
    assert code == cli.EXIT_FAILED  # contract section 1: any failed is 1, reports or not
    return folder


def test_r79_junit_is_read_by_a_ci_parser_and_names_the_failing_step(failing_run: Path) -> None:
    xml = JUnitXml.fromfile(str(failing_run / "out" / "junit.xml"))
    suites = list(xml) if isinstance(xml, JUnitXml) else [xml]
    assert len(suites) == 1
    suite = suites[0]
    assert isinstance(suite, TestSuite)
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (2, 1, 0, 0)
    cases = {case.name: case for case in suite}
    assert set(cases) == {"the wrong frame expected", "a popped-out note is not this note"}
    bad, good = cases["the wrong frame expected"], cases["a popped-out note is not this note"]
    assert bad.classname == str(failing_run / "cases" / "r02-wrong-frame.yaml")
    assert good.classname == str(failing_run / "cases" / "r29-popped.yaml")
    assert bad.time > 0 and good.time > 0
    assert good.is_passed
    [failure] = bad.result
    assert isinstance(failure, Failure)
    assert failure.message == (
        'step 5 (expect): pointer.frameId: expected "inbox-2", actual "inbox-1"'
    )
    assert suite.time == pytest.approx(bad.time + good.time, abs=0.002)


def test_r79_junit_has_every_attribute_the_schema_requires(failing_run: Path) -> None:
    root = ET.parse(failing_run / "out" / "junit.xml").getroot()
    assert root.tag == "testsuites"
    [suite] = root.findall("testsuite")
    assert set(suite.attrib) >= SUITE_REQUIRED
    for case in suite.findall("testcase"):
        assert set(case.attrib) >= CASE_REQUIRED
        float(case.attrib["time"])
        for problem in [*case.findall("failure"), *case.findall("error")]:
            assert set(problem.attrib) >= PROBLEM_REQUIRED


def test_r89_junit_failure_gives_one_mismatch_a_line_and_the_trace_around_it(
    failing_run: Path,
) -> None:
    root = ET.parse(failing_run / "out" / "junit.xml").getroot()
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and failure.text is not None
    text = failure.text
    head, trace = text.split("Trace of each step (after it ran):")
    lines = head.strip().splitlines()
    assert "r02-wrong-frame.yaml: step 5 (expect) failed: expect pointer" in lines[0]
    assert lines[1:] == ['  pointer.frameId: expected "inbox-2", actual "inbox-1"']
    # Only the steps around the failure: two before it (4 and 4.1), it, and one after.
    assert "step 3 (activate)" not in trace and "step 1 (mount)" not in trace
    step4 = trace.split("step 4 (send)")[1].split("step 4.1 (type)")[0]
    assert "MRU (most recent first): inbox-1\n" in step4
    during = trace.split("step 4.1 (type)")[1].split("step 5 (expect)")[0]
    assert (
        "send in preparation: step 4 ('summarise this'), resolved at its start to "
        "inbox-1 notes/a.md (edit)"
    ) in during
    last = trace.split("step 6 (activate)")[1]
    assert "MRU (most recent first): assistant, inbox-1" in last
    assert "active frame: assistant" in last


def test_r89_junit_attaches_the_failing_picture_beside_the_xml(failing_run: Path) -> None:
    root = ET.parse(failing_run / "out" / "junit.xml").getroot()
    outputs = {
        case.attrib["name"]: case.findtext("system-out") or "" for case in root.iter("testcase")
    }
    picture = failing_run / "out" / "r02-wrong-frame-step-5.png"
    assert f"[[ATTACHMENT|{picture.as_posix()}]]" in outputs["the wrong frame expected"]
    assert "ATTACHMENT" not in outputs["a popped-out note is not this note"]
    image = QImage(str(picture))
    assert (image.width(), image.height()) == WINDOW_SIZE


def test_r79_html_is_self_contained_and_opens_the_failing_step(failing_run: Path) -> None:
    page = (failing_run / "out" / "report.html").read_text(encoding="utf-8")
    found = read_links(page)
    outside = [link for link in found.links if not link.startswith(("data:", "#"))]
    assert outside == []
    assert "http://" not in page and "https://" not in page
    assert "Content-Security-Policy" in page  # the browser itself refuses to fetch anything
    opened = [item for item in found.details if "open" in item]
    assert [item.get("class") for item in opened] == ["step failed"]
    # The failed step's expected and actual values, as a table.
    assert "<td><code>pointer.frameId</code></td>" in page
    assert "<pre>&quot;inbox-2&quot;</pre></td><td><pre>&quot;inbox-1&quot;</pre>" in page
    # Each send: the decoded pointer, what the backend stored, the tools, the reply.
    assert page.count("X-Ambient-Note sent</dt>") == 2
    assert "&quot;frameId&quot;: &quot;inbox-1&quot;" in page
    assert "&quot;ambient_path&quot;: &quot;notes/a.md&quot;" in page
    assert "<code>read_active_note</code>" in page
    assert "The reply</dt><dd><pre>" in page
    # The summary table comes first, then the failing scenario's trace of each step.
    assert page.index('<table class="summary">') < page.index('<section class="scenario')
    # R89: first of all a red banner linking to the failed step, and the failing scenario leads.
    banner = page.split('<div class="banner bad" role="alert">')[1].split("</div>")[0]
    assert page.index('class="banner bad"') < page.index('<table class="summary">')
    assert "1 of 2 scenarios failed." in banner
    [link] = read_links(banner).links
    assert link == "#scenario-1-step-5"
    assert 'id="scenario-1-step-5"' in page
    assert "pointer.frameId: expected &quot;inbox-2&quot;, actual &quot;inbox-1&quot;" in banner
    assert page.index("the wrong frame expected") < page.index("a popped-out note is not")
    assert "<h3>Trace of each step</h3>" in page
    assert page.count("<h3>Trace of each step</h3>") == 1  # the passing one has none


def test_r79_html_embeds_the_window_picture_at_each_send(failing_run: Path) -> None:
    page = (failing_run / "out" / "report.html").read_text(encoding="utf-8")
    images = read_links(page).images
    assert len(images) == 3  # two sends and the failed expect
    for source in images:
        prefix = "data:image/png;base64,"
        assert source.startswith(prefix)
        picture = QImage.fromData(base64.b64decode(source[len(prefix) :]), "PNG")
        assert (picture.width(), picture.height()) == WINDOW_SIZE


def test_r79_an_invalid_file_is_a_junit_error_and_nothing_runs(tmp_path: Path) -> None:
    good = write(tmp_path, "good.yaml", PASSING)
    bad = write(tmp_path, "bad.yaml", f"name: bad\n{WORKSPACE}steps:\n  - jump: inbox-1\n")
    junit, page = tmp_path / "junit.xml", tmp_path / "report.html"
    arguments = ["run", str(good), str(bad), "--junit", str(junit), "--html", str(page)]
    assert cli.main(arguments) == cli.EXIT_INVALID
    suite = next(iter(JUnitXml.fromfile(str(junit))))
    assert (suite.tests, suite.errors, suite.skipped, suite.failures) == (2, 1, 1, 0)
    cases = {case.classname: case for case in suite}
    [error] = cases[str(bad)].result
    assert isinstance(error, Error)
    assert error.message is not None and "step 1" in error.message
    assert "jump" in error.message
    [skipped] = cases[str(good)].result
    assert isinstance(skipped, Skipped)
    text = page.read_text(encoding="utf-8")
    assert "invalid file" in text and "not run" in text


def test_r79_junit_holds_text_xml_cannot(tmp_path: Path) -> None:
    step = StepResult("1", "expect", "expect replyContains \x00", status="failed")
    step.mismatches = [Mismatch("replyContains", "a\x01b", "lone \ud800 surrogate")]
    result = ScenarioResult(file="x.yaml", name="odd \x1b text", steps=[step])
    path = tmp_path / "junit.xml"
    write_junit([result], path)
    [case] = next(iter(JUnitXml.fromfile(str(path))))
    assert case.name == "odd \\x1b text"
    [failure] = case.result
    assert failure.message is not None
    assert 'expected "a\\u0001b"' in failure.message  # JSON already escaped it
    assert "lone \\xd800 surrogate" in failure.message


def scenarios_for_selection(folder: Path) -> list[Path]:
    return [
        write(folder, "r02-first.yaml", PASSING.replace("a popped-out", "Alpha, a popped-out")),
        write(folder, "r29-beta-file.yaml", PASSING.replace("[R29]", "[R29, R38]")),
        write(folder, "plain.yaml", PASSING.replace("rules: [R29]\n", "rules: [R5]\n")),
    ]


def test_r79_k_and_rules_select_by_name_file_and_rule(tmp_path: Path) -> None:
    loaded = load_all(scenarios_for_selection(tmp_path))

    def chosen(keywords: list[str], rules: list[str]) -> list[str]:
        return [Path(scenario.label).name for scenario in select(loaded, keywords, rules)]

    assert chosen(["ALPHA"], []) == ["r02-first.yaml"]  # the name, any case
    assert chosen(["beta-file"], []) == ["r29-beta-file.yaml"]  # the file
    assert chosen(["popped-out"], []) == ["r02-first.yaml", "r29-beta-file.yaml", "plain.yaml"]
    assert chosen(["alpha", "plain"], []) == ["r02-first.yaml", "plain.yaml"]  # any -k
    assert chosen([], rule_names("r29")) == ["r02-first.yaml", "r29-beta-file.yaml"]
    assert chosen([], rule_names("R38,R5")) == ["r29-beta-file.yaml", "plain.yaml"]
    assert chosen(["alpha"], ["R38"]) == []  # both given: both must hold
    assert chosen(["nothing"], []) == []
    with pytest.raises(Exception, match="not a rule"):
        rule_names("R2x")


def test_r79_k_through_the_cli_runs_only_what_it_selects(
    qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [str(path) for path in scenarios_for_selection(tmp_path / "cases")]
    report = tmp_path / "report.json"
    assert cli.main(["run", *files, "-k", "beta", "--report", str(report)]) == cli.EXIT_PASSED
    ran = [Path(item["file"]).name for item in json.loads(report.read_text())["scenarios"]]
    assert ran == ["r29-beta-file.yaml"]
    assert "-k 'beta': 1 of 3 scenarios selected." in capsys.readouterr().out
    assert cli.main(["run", *files, "--rules", "R99"]) == cli.EXIT_INVALID
    assert "No scenario matches --rules R99 (of 3)." in capsys.readouterr().err


def test_r79_a_failed_action_step_is_named_and_the_rest_marked_skipped(
    qapp: QApplication, tmp_path: Path
) -> None:
    case = write(
        tmp_path,
        "stops.yaml",
        f"name: stops at a frame that is not there\n{WORKSPACE}steps:\n"
        "  - mount: {frame: inbox-1, path: notes/a.md}\n"
        "  - activate: inbox-9\n"
        "  - send: summarise this\n",
    )
    junit, page = tmp_path / "junit.xml", tmp_path / "report.html"
    arguments = ["run", str(case), "--junit", str(junit), "--html", str(page)]
    assert cli.main(arguments) == cli.EXIT_FAILED
    [result] = next(iter(JUnitXml.fromfile(str(junit))))
    [failure] = result.result
    assert isinstance(failure, Failure)
    assert failure.message is not None
    assert failure.message.startswith("step 2 (activate): ")
    assert "inbox-9" in failure.message
    assert failure.text is not None and "step 3 (send) skipped" in failure.text
    text = page.read_text(encoding="utf-8")
    opened = [item for item in read_links(text).details if "open" in item]
    assert [item.get("class") for item in opened] == ["step failed"]
    assert '<details class="step skipped" id="scenario-1-step-3">' in text
    assert len(read_links(text).images) == 1  # the failed step's picture; nothing was sent


def test_r79_make_qa_runs_the_shipped_scenarios_into_both_reports(tmp_path: Path) -> None:
    # The real target, narrowed to one shipped file; -o bytecode: the venv is already built.
    out = tmp_path / "qa"
    target = ["make", "--no-print-directory", "-o", "bytecode", "qa", f"QA_OUT={out}"]
    completed = subprocess.run(
        [*target, "QA_ARGS=-k r29-popped-out --rules R29"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    [suite] = list(JUnitXml.fromfile(str(out / "junit.xml")))
    assert [case.classname for case in suite] == [
        "scenarios/r29-popped-out-note-is-not-ambient.yaml"
    ]
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "1 of 1 scenarios passed" in page
    assert (out / "report.json").is_file()


def test_r89_make_qa_takes_folders_and_keeps_the_run_exit_code(tmp_path: Path) -> None:
    """QA_FILES runs any folder; the run's own code (1 failed, 2 invalid) is said and kept."""
    out = tmp_path / "qa"
    failing = write(tmp_path / "failing", "wrong.yaml", FAILING)
    invalid = write(tmp_path / "invalid", "bad.yaml", f"name: bad\n{WORKSPACE}steps: []\n")
    target = ["make", "--no-print-directory", "-o", "bytecode", "qa", f"QA_OUT={out}"]
    codes = {}
    for folder in (failing.parent, invalid.parent):
        completed = subprocess.run(
            [*target, f"QA_FILES={folder}"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert completed.returncode != 0  # make itself ends with 2 whenever a recipe fails
        codes[folder.name] = (out / "exit-code").read_text().strip()
        assert f"make qa: exit {codes[folder.name]}, " in completed.stdout
    assert codes == {"failing": "1", "invalid": "2"}
    [suite] = list(JUnitXml.fromfile(str(out / "junit.xml")))
    assert [case.classname for case in suite] == [str(invalid)]
