"""Session 26, seventeenth walk: figures and messages a new user reads off the CLI on inputs written here as other
tools write theirs (AceBench's folder without its downloaded task data, …), each checked against a count made by
hand."""

import shutil

from test_new_user_walk_7 import _cli
from test_tasks_acebench import _acebench_replica


def test_an_acebench_tasks_missing_workspace_folder_is_named_as_missing(tmp_path):
    """AceBench's folder as cloned, three privacy-annotated tasks (101 and 102 with ground truth, 103 without): by
    hand, with task 103's workspace folder deleted, one line naming that folder and the task; with the whole
    `workspace/` never downloaded (AceBench's script/prepare.sh expects the task data there), one line for all three
    tasks naming `workspace/` as missing; with the task files copied away from AceBench's folder, the same and the
    `--root` hint. Before: `its Workspace Path is not under ROOT`, though it is, and a folder nobody named."""
    root = tmp_path / "AceBench"
    _acebench_replica(root)
    task = "ACE_Bench_task_103_scp_crawl"
    shutil.rmtree(root / "workspace" / "ACE_Bench" / "task_103_scp_crawl")
    code, said = _cli("tasks", "import-acebench", root)
    assert code == 1
    line, = [line for line in said.splitlines() if "privacy_note" in line]
    assert line.endswith(f"its workspace folder {root / 'workspace' / 'ACE_Bench' / 'task_103_scp_crawl'} is "
                         f"missing (task {task})"), line
    shutil.rmtree(root / "workspace")
    code, said = _cli("tasks", "import-acebench", root)
    line, = [line for line in said.splitlines() if "privacy_note" in line]
    assert line.startswith("not mapped: 3 files") and line.endswith(
        f"the folder {root / 'workspace'} that the tasks' workspaces are under is missing"), line
    shutil.copytree(root / "tasks", tmp_path / "copied")
    code, said = _cli("tasks", "import-acebench", tmp_path / "copied")
    line, = [line for line in said.splitlines() if "privacy_note" in line]
    assert "is missing; no AceBench folder (one holding tasks/) above the task file: give it with --root" in line
    assert "not under" not in said
