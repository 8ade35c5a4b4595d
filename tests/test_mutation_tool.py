"""tools/mutation.py, the kept mutation-testing tool (issue 51): what it reads of mutmut's words and
the reviewed equivalents it keeps. Running mutmut itself takes hours, so the suite checks the
parts that decide what the figures say."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools_module import load_tool

mutation = load_tool("mutation")
ROOT = Path(__file__).resolve().parents[1]


def test_a_mutants_name_gives_its_file():
    assert mutation.source_file("entropy3d.sweep.store.xǁResultStoreǁadd_rows__mutmut_14") == "entropy3d/sweep/store.py"
    assert mutation.source_file("entropy3d.sweep.report.x_wilson__mutmut_44") == "entropy3d/sweep/report.py"
    assert (mutation.source_file("entropy3d.systems.entropy_city.combat.x_attack_tn__mutmut_3")
            == "entropy3d/systems/entropy_city/combat.py")


def test_the_change_is_read_from_mutmuts_diff():
    diff = ("# entropy3d.sweep.store.xǁResultStoreǁfinished__mutmut_4: survived\n--- entropy3d/sweep/store.py\n"
            "+++ entropy3d/sweep/store.py\n@@ -1,3 +1,3 @@\n def finished(self):\n"
            '-    return run("SELECT scene FROM games")\n+    return run("select scene from games")\n')
    assert mutation.changed_lines(diff) == ('return run("SELECT scene FROM games")',
                                            'return run("select scene from games")')


def test_every_kept_equivalent_names_a_file_there_is_and_a_known_rule():
    entries = mutation.equivalents()
    assert entries
    for entry in entries:
        assert (ROOT / entry["file"]).is_file(), entry
        assert entry.get("rule", "sql-case") in mutation.RULES and entry["why"].strip()


def test_only_a_change_of_case_in_sql_is_equivalent_by_rule():
    known = [{"file": "a.py", "rule": "sql-case", "why": "SQL ignores case"}]
    sql = 'rows = db.execute("SELECT seed FROM games")'
    assert mutation.why_equivalent("a.py", sql, sql.replace("SELECT seed FROM", "select seed from"), known)
    assert mutation.why_equivalent("b.py", sql, sql.lower(), known) is None  # another file
    assert mutation.why_equivalent("a.py", sql, sql.replace("seed", "turns"), known) is None  # another column
    message = 'raise Error("no sweep here")'
    assert mutation.why_equivalent("a.py", message, message.upper(), known) is None  # no SQL: words a user reads


def test_the_report_scores_killed_over_killed_and_survived_and_says_a_run_stopped_part_way():
    counts = {"killed": 9, "survived": 3, "suspicious": 0, "unreached": 5, "unchecked": 2,
              "survivors": [{"mutant": "m1", "old": "a", "new": "b", "status": "survived", "equivalent": None}]}
    page = mutation.report({"sweep": {"files": {"entropy3d/sweep/store.py": counts}, "tests": ["tests/sweep"],
                                      "seconds": 0, "when": "2026-12-06 19:00", "commit": "abc123"}})
    assert "| `entropy3d/sweep/store.py` | 9 | 3 | 0 | 5 | 2 | 75.0% |" in page
    assert "stopped part way" in page and "`m1`: `a` -> `b`: **to kill**" in page


COMBAT = "entropy3d/systems/entropy_city/combat.py"


@pytest.mark.parametrize("files, message", [(["entropy3d/nowhere.py"], "no target mutates entropy3d/nowhere.py"),
                                            ([COMBAT], f"none of {COMBAT} belongs to target 'sweep'")])
def test_files_no_target_mutates_are_refused_before_anything_runs(files, message, capsys, monkeypatch):
    import sys
    import types

    monkeypatch.setitem(sys.modules, "mutmut", types.ModuleType("mutmut"))  # as if installed: nothing runs
    with pytest.raises(SystemExit):
        mutation.main(["sweep", "--files", *files] if "combat" in files[0] else ["--files", *files])
    assert message in capsys.readouterr().err


def test_a_file_mutmut_copied_unmutated_is_forgotten_so_its_mutants_are_made(tmp_path):
    """mutmut makes a file's mutants only when its source changed: a file an earlier run of other
    files copied plain (or whose verdicts are gone) would have none, and the run failed with
    "Unable to force test failures". The tool removes such copies, and always the map of which
    tests reach which function, so that tests written since are found."""
    sweep = tmp_path / "mutants" / "entropy3d" / "sweep"
    sweep.mkdir(parents=True)
    (sweep / "store.py").write_text("def add(): pass\n")  # plain: made by a run of other files
    (sweep / "store.py.meta").write_text("{}")
    (sweep / "summary.py").write_text("def x_summarize__mutmut_1(): pass\n")  # mutated, verdicts lost
    (sweep / "report.py").write_text("def x_wilson__mutmut_1(): pass\n")  # mutated, with its verdicts
    (sweep / "report.py.meta").write_text("{}")
    (sweep / "run.py").write_text("def run(): pass\n")  # not in this run's files: left alone
    (tmp_path / "mutants" / "mutmut-stats.json").write_text("{}")
    mutation.forget_unmutated(tmp_path, ["entropy3d/sweep/store.py", "entropy3d/sweep/summary.py",
                                         "entropy3d/sweep/report.py"])
    assert sorted(p.name for p in sweep.iterdir()) == ["report.py", "report.py.meta", "run.py"]
    assert not (tmp_path / "mutants" / "mutmut-stats.json").exists()
