"""``check --fix`` never replaces a save made while it writes (issue #32.7).

The fix is written to a temporary file beside the skill, flushed to disk, then renamed
over it. A save that lands while that temporary file is being written must survive: the
comparison with what was read has to come after the slow part, immediately before the
rename. (It compared before creating the temporary file: a save in that window was
replaced by the fix of the older text.)

The save lands at a file-system event of the real ``skilldeck check --fix`` process: the
moment it creates a file in the skill's folder (its temporary file). The process runs
with a Python audit hook (``sys.addaudithook``, the interpreter's interface for
observing ``open``) that reports the creation on a pipe and waits for the test's go:
nothing of skilldeck is replaced or mocked, and the interleaving is the same on every
run, however loaded the machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cli_helpers import cli_environment, write

#: Runs ``skilldeck`` (argv) and, the first time it creates a file in $HOLD_FOLDER other
#: than the skill file itself, says so on $HOLD_READY_FD and waits for a byte on
#: $HOLD_GO_FD before going on.
LAUNCHER = r"""
import os
import sys

folder = os.environ["HOLD_FOLDER"]
ready_fd = int(os.environ["HOLD_READY_FD"])
go_fd = int(os.environ["HOLD_GO_FD"])
held = []


def hold(event, args):
    if held or event != "open" or len(args) != 3:
        return
    path, _mode, flags = args
    if not isinstance(path, str) or not isinstance(flags, int) or not flags & os.O_CREAT:
        return
    if os.path.dirname(os.path.abspath(path)) != folder or os.path.basename(path) == "SKILL.md":
        return
    held.append(path)
    os.write(ready_fd, b"created\n")
    os.read(go_fd, 1)


sys.addaudithook(hold)
from skilldeck.cli.main import main

sys.exit(main(sys.argv[1:]))
"""

CHECKED = "---\nname: a\ndescription: Alpha.\ndisable-model-invocation: yes\n---\nBody.\n"
#: The user's save while the fix is being written (still with a fixable value).
SAVED = "---\nname: a\ndescription: Alpha, saved meanwhile.\ndisable-model-invocation: yes\n---\n"


def test_a_save_while_the_fix_is_written_is_kept(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    skill = write(project / ".dsh/skills/a/SKILL.md", CHECKED)
    ready_read, ready_write = os.pipe()
    go_read, go_write = os.pipe()
    home = tmp_path / "home"
    home.mkdir()
    env = cli_environment(tmp_path, home)
    env.update(
        {
            "HOLD_FOLDER": str(skill.parent),
            "HOLD_READY_FD": str(ready_write),
            "HOLD_GO_FD": str(go_read),
        }
    )
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, "check", "--fix", "--no-cache"],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        pass_fds=(ready_write, go_read),
    )
    os.close(ready_write)
    os.close(go_read)
    try:
        with os.fdopen(ready_read, "rb") as ready:
            # The fix's temporary file exists (or the run ended without writing: b"").
            assert ready.readline() == b"created\n"
        skill.write_text(SAVED, encoding="utf-8")  # the editor saves, in place
        os.write(go_write, b"g")
        stdout, stderr = process.communicate(timeout=60)
    finally:
        os.close(go_write)
        if process.poll() is None:
            process.kill()
            process.wait()

    assert skill.read_text(encoding="utf-8") == SAVED, "the save was replaced by the fix"
    assert (
        "skilldeck: .dsh/skills/a/SKILL.md: it changed on disk since it was read; left alone"
        in stderr
    )
    assert "Fixed 0 problems." in stdout
    assert sorted(os.listdir(skill.parent)) == ["SKILL.md"]  # the temporary file is gone
