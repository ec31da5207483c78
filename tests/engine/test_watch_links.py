"""The root watcher follows symlinks (SPEC section 6): an edit of a symlinked skill file's
target is an edit of the skill, and a root whose symlink is re-pointed (the
``current -> release-N`` deploy swap) is a changed root."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import pytest
from watch_harness import WAIT, Opens, Recorder

from skilldeck import SkilldeckConfig
from skilldeck.engine.filesystem._fs_provider import filesystem_provider_factory
from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.filesystem._watch import RootWatcher
from skilldeck.engine.filesystem._watch_links import resolve
from skilldeck.engine.model_view import catalog_entries
from skilldeck.engine.registry import SkillRegistry


def _root(path: Path) -> SkillRoot:
    return SkillRoot(400, "user-dsh", str(path), path.is_dir())


def _text(name: str, description: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\nbody\n"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _link(path: Path, target: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path


async def test_an_edit_of_a_symlinked_skill_files_target_is_an_edit_of_the_skill(
    tmp_path: Path,
) -> None:
    root_path = tmp_path / "skills"
    outside = tmp_path / "outside"
    flat = _write(outside / "flat.md", _text("lf", "v1"))
    skill_file = _write(outside / "skill.md", _text("lsk", "v1"))
    linked_flat = _link(root_path / "lf.md", flat)
    linked_skill = _link(root_path / "lsk" / "SKILL.md", skill_file)
    opens = Opens()
    rec = Recorder()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=50, step_ms=30, watch_impl=opens):
        await opens.live(1)
        start = len(rec.batches)
        flat.write_text(_text("lf", "v2"))
        await rec.seen({str(linked_flat)}, start)
        start = len(rec.batches)
        skill_file.write_text(_text("lsk", "v2"))
        await rec.seen({str(linked_skill)}, start)
        assert str(flat) not in rec.since(0)  # reported as the skill file, not the target


async def test_the_followed_targets_follow_the_deck(tmp_path: Path) -> None:
    """A symlink added, re-pointed or removed changes which targets are followed."""
    root_path = tmp_path / "skills"
    outside = tmp_path / "outside"
    other = tmp_path / "other"
    probe = _write(root_path / "probe" / "SKILL.md", _text("probe", "edit 0"))
    (root_path / "b").mkdir()
    new_target = _write(outside / "new.md", _text("new", "v1"))
    b_first = _write(outside / "b.md", _text("b", "v1"))
    b_second = _write(other / "b2.md", _text("b", "v2"))
    opens = Opens()
    rec = Recorder()
    probes = 0

    async def drained() -> int:
        """Edit the probe and wait for its report: whatever was reported before has
        been; the batch index after it."""
        nonlocal probes
        probes += 1
        start = len(rec.batches)
        probe.write_text(_text("probe", f"edit {probes}"))
        await rec.seen({str(probe)}, start)
        return len(rec.batches)

    async with RootWatcher([_root(root_path)], rec, debounce_ms=50, step_ms=30, watch_impl=opens):
        await opens.live(1)

        # A flat symlink added: its target is followed from then on.
        start, opened = len(rec.batches), len(opens.folders)
        linked_new = _link(root_path / "new.md", new_target)
        await rec.seen({str(linked_new)}, start)
        await opens.reopened(opened)
        start = await drained()
        new_target.write_text(_text("new", "v2"))
        await rec.seen({str(linked_new)}, start)

        # A bundle's SKILL.md added as a symlink.
        start, opened = await drained(), len(opens.folders)
        linked_b = _link(root_path / "b" / "SKILL.md", b_first)
        await rec.seen({str(linked_b)}, start)
        await opens.reopened(opened)
        start = await drained()
        b_first.write_text(_text("b", "v1 edited"))
        await rec.seen({str(linked_b)}, start)

        # Re-pointed: the new target is followed, the old one no longer.
        start, opened = await drained(), len(opens.folders)
        os.unlink(linked_b)
        os.symlink(b_second, linked_b)
        await rec.seen({str(linked_b)}, start)
        await opens.reopened(opened)
        start = await drained()
        b_second.write_text(_text("b", "v2 edited"))
        await rec.seen({str(linked_b)}, start)
        start = await drained()
        b_first.write_text(_text("b", "old target edited"))
        await drained()  # a later change: its report comes after the edit's would
        assert str(linked_b) not in rec.since(start)

        # Removed: its target no longer counts.
        start, opened = await drained(), len(opens.folders)
        os.unlink(linked_new)
        await rec.seen({str(linked_new)}, start)
        await opens.reopened(opened)
        start = await drained()
        new_target.write_text(_text("new", "v3"))
        await drained()
        assert str(linked_new) not in rec.since(start)


async def test_a_deck_without_symlinks_watches_nothing_more(tmp_path: Path) -> None:
    root_path = tmp_path.resolve() / "skills"  # no symlink on the way (macOS: /var)
    for name in ("alpha", "beta"):
        _write(root_path / name / "SKILL.md", _text(name, "d"))
    _write(root_path / "flat.md", _text("flat", "d"))
    opens = Opens()
    async with RootWatcher([_root(root_path)], Recorder(), watch_impl=opens):
        await opens.live(1)
    assert opens.folders == [(str(root_path), str(root_path / "alpha"), str(root_path / "beta"))]


async def test_a_folder_many_skill_files_link_into_is_watched_once(tmp_path: Path) -> None:
    """Many links into one folder cost one watch; a link to another skill of the root (an
    alias, also through a symlinked home) costs none and is reported with its target."""
    real_home = tmp_path / "real-home"
    home = _link(tmp_path / "home", real_home)
    real_home.mkdir()
    root_path = home / "skills"
    outside = tmp_path / "outside"
    targets = [_write(outside / f"t{k}.md", _text(f"t{k}", "d")) for k in range(5)]
    for k, target in enumerate(targets):
        _link(root_path / f"t{k}.md", target)
    _link(root_path / "u" / "SKILL.md", targets[0])  # a second link to one target
    real = _write(root_path / "real" / "SKILL.md", _text("real", "d"))
    alias = _link(root_path / "alias" / "SKILL.md", Path("..") / "real" / "SKILL.md")
    opens = Opens()
    rec = Recorder()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=50, step_ms=30, watch_impl=opens):
        await opens.live(1)
        (folders,) = opens.folders
        assert len(folders) == len(set(map(os.path.realpath, folders)))  # each folder once
        assert os.path.realpath(outside) in folders
        start = len(rec.batches)
        targets[0].write_text(_text("t0", "edited"))
        await rec.seen({str(root_path / "t0.md"), str(root_path / "u" / "SKILL.md")}, start)
        start = len(rec.batches)
        real.write_text(_text("real", "edited"))
        await rec.seen({str(real), str(alias)}, start)


async def test_a_change_while_the_watch_re_opens_is_reported(tmp_path: Path) -> None:
    """An edit between the last listing of one watch and the next watch's listing (no
    watch is live then) is found by comparing the two listings."""
    root_path = tmp_path / "skills"
    target = _write(root_path / "alpha" / "SKILL.md", _text("alpha", "d"))
    opens = Opens()

    def edit_on_close(*paths: str, **kwargs: Any) -> AsyncGenerator[set[tuple[Any, str]], None]:
        first = not opens.folders
        watch = opens(*paths, **kwargs)

        async def closing() -> AsyncGenerator[set[tuple[Any, str]], None]:
            try:
                async with contextlib.aclosing(watch) as batches:
                    async for batch in batches:
                        yield batch
            finally:
                if first:  # the first watch closes: the next one is not listed yet
                    target.write_text(_text("alpha", "edited meanwhile"))

        return closing()

    rec = Recorder()
    async with RootWatcher([_root(root_path)], rec, step_ms=30, watch_impl=edit_on_close):
        await opens.live(1)
        (root_path / "beta").mkdir()  # a new bundle folder re-opens the watch
        await rec.seen({str(root_path / "beta"), str(target)})


def test_resolve_names_each_link_on_the_way(tmp_path: Path) -> None:
    real = tmp_path / "real"
    (real / "release-2" / "skills").mkdir(parents=True)
    current = _link(real / "current", Path("release-2"))
    app = _link(tmp_path / "app", real)  # absolute
    links, resolved = resolve(str(app / "current" / "skills" / ".." / "skills" / "x" / "y"))
    assert links == (str(app), str(current))
    assert resolved == str(real / "release-2" / "skills" / "x" / "y")  # missing tail as written
    assert resolve(str(real / "release-2")) == ((), str(real / "release-2"))
    _link(tmp_path / "loop-a", Path("loop-b"))
    _link(tmp_path / "loop-b", Path("loop-a"))
    links, resolved = resolve(str(tmp_path / "loop-a" / "skills"))
    assert resolved is None
    assert set(links) == {str(tmp_path / "loop-a"), str(tmp_path / "loop-b")}


def _swap(link: Path, target: Path, how: str) -> None:
    if how == "unlink-and-link":
        os.unlink(link)
        os.symlink(target, link)
    else:  # "rename-over": ln -s target tmp && mv -T tmp link
        fresh = link.with_name(link.name + ".new")
        os.symlink(target, fresh)
        os.replace(fresh, link)


@pytest.mark.parametrize("how", ["unlink-and-link", "rename-over"])
async def test_a_root_symlink_re_pointed_elsewhere_is_a_changed_root(
    tmp_path: Path, how: str
) -> None:
    _write(tmp_path / "v1" / "a" / "SKILL.md", _text("a", "d"))
    b = _write(tmp_path / "v2" / "b" / "SKILL.md", _text("b", "d"))
    root_path = _link(tmp_path / "root", tmp_path / "v1")
    opens = Opens()
    rec = Recorder()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=50, step_ms=30, watch_impl=opens):
        await opens.live(1)
        opened = len(opens.folders)
        _swap(root_path, tmp_path / "v2", how)
        await rec.seen({str(root_path)})
        # ... and the new target is the one watched.
        await opens.reopened(opened)
        start = len(rec.batches)
        b.write_text(_text("b", "edited"))
        await rec.seen({str(root_path / "b" / "SKILL.md")}, start)


async def test_a_re_pointed_link_on_the_way_to_a_root_is_a_changed_root(tmp_path: Path) -> None:
    """``<app>/current -> release-N`` with the root at ``<app>/current/skills``."""
    app = tmp_path / "app"
    _write(app / "release-1" / "skills" / "a" / "SKILL.md", _text("a", "d"))
    b = _write(app / "release-2" / "skills" / "b" / "SKILL.md", _text("b", "d"))
    current = _link(app / "current", Path("release-1"))
    root_path = current / "skills"
    opens = Opens()
    rec = Recorder()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=50, step_ms=30, watch_impl=opens):
        await opens.live(1)
        opened = len(opens.folders)
        _swap(current, Path("release-2"), "rename-over")
        await rec.seen({str(root_path)})
        await opens.reopened(opened)
        start = len(rec.batches)
        b.write_text(_text("b", "edited"))
        await rec.seen({str(root_path / "b" / "SKILL.md")}, start)


async def test_the_registry_follows_an_edit_of_a_symlinked_skill_files_target(
    tmp_path: Path,
) -> None:
    """The tester's case: the target gains ``disable-model-invocation`` and the model is no
    longer offered the skill."""
    root_path = tmp_path / "skills"
    outside = tmp_path / "outside"
    flat = _write(outside / "flat.md", _text("lf", "linked flat v1"))
    skill_file = _write(outside / "skill.md", _text("lsk", "linked SKILL.md v1"))
    _link(root_path / "lf.md", flat)
    _link(root_path / "lsk" / "SKILL.md", skill_file)
    probe = _write(root_path / "probe" / "SKILL.md", _text("probe", "edit 0"))
    config = SkilldeckConfig(include_default_roots=False, custom_skill_dirs=(str(root_path),))
    registry = SkillRegistry()
    dispose = registry.register_provider(filesystem_provider_factory(config, watch=True))
    changed = asyncio.Event()
    registry.on_change(changed.set)
    cwd = str(tmp_path)
    try:
        await registry.snapshot(cwd=cwd)

        async def live() -> None:
            # The watch is live once an edit of a plain skill file is reported (an edit
            # made before that is found by the listing's comparison instead: keep editing).
            for attempt in range(1_000):
                changed.clear()
                probe.write_text(_text("probe", f"edit {attempt + 1}"))
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(changed.wait(), 1.0)
                if changed.is_set():
                    return

        await asyncio.wait_for(live(), WAIT)
        await registry.snapshot(cwd=cwd)
        changed.clear()  # a late report of the probe only makes both_read look once more

        flat.write_text(_text("lf", "linked flat v2", "disable-model-invocation: true\n"))
        skill_file.write_text(_text("lsk", "linked SKILL.md v2"))

        async def both_read() -> dict[str, str]:
            while True:
                await changed.wait()
                changed.clear()
                snapshot = await registry.snapshot(cwd=cwd)
                described = {s.name: s.description for s in snapshot.skills}
                if described.get("lsk") == "linked SKILL.md v2" and "v2" in described["lf"]:
                    return {
                        entry.name: entry.description for entry in catalog_entries(snapshot.skills)
                    }

        offered = await asyncio.wait_for(both_read(), WAIT)
        assert "lf" not in offered and "lsk" in offered
    finally:
        dispose()
        others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        if others:
            await asyncio.wait(others, timeout=WAIT)
