"""The filesystem provider (SPEC §3, §6): the roots for a cwd in rank order, where a skill
file sits in a root (the one layout), the scan (one path, ``scan_deck``; forked helpers and
the identity-keyed index cache only short-cut it), watching with watchfiles and the gate that
holds watches until a front end is ready, the bundled provider and the safety gate of a root.

Invariant: the engine never waits on a FIFO, follows a symlink loop or loses a sibling to
one bad file; skill bodies are reread by ``get()``, never held.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.filesystem._bundled import (
        bundled_provider_factory as bundled_provider_factory,
    )
    from skilldeck.engine.filesystem._bundled import skill_body as skill_body
    from skilldeck.engine.filesystem._cache_key import cache_key as cache_key
    from skilldeck.engine.filesystem._cache_key import code_digest as code_digest
    from skilldeck.engine.filesystem._fs_provider import PROVIDER_NAME as PROVIDER_NAME
    from skilldeck.engine.filesystem._fs_provider import SKIPPED_LOGGER as SKIPPED_LOGGER
    from skilldeck.engine.filesystem._fs_provider import DeckScan as DeckScan
    from skilldeck.engine.filesystem._fs_provider import FilesystemProvider as FilesystemProvider
    from skilldeck.engine.filesystem._fs_provider import JudgedSkill as JudgedSkill
    from skilldeck.engine.filesystem._fs_provider import SkillFileEntry as SkillFileEntry
    from skilldeck.engine.filesystem._fs_provider import SkippedFile as SkippedFile
    from skilldeck.engine.filesystem._fs_provider import classify_path as classify_path
    from skilldeck.engine.filesystem._fs_provider import entry_name_and_rank as entry_name_and_rank
    from skilldeck.engine.filesystem._fs_provider import (
        filesystem_provider_factory as filesystem_provider_factory,
    )
    from skilldeck.engine.filesystem._fs_provider import is_file_skill as is_file_skill
    from skilldeck.engine.filesystem._fs_provider import judge_files as judge_files
    from skilldeck.engine.filesystem._fs_provider import load_judged as load_judged
    from skilldeck.engine.filesystem._fs_provider import name_span as name_span
    from skilldeck.engine.filesystem._fs_provider import refusal_now as refusal_now
    from skilldeck.engine.filesystem._fs_provider import refusal_of as refusal_of
    from skilldeck.engine.filesystem._fs_provider import root_state as root_state
    from skilldeck.engine.filesystem._fs_provider import scan_deck as scan_deck
    from skilldeck.engine.filesystem._fs_provider import scan_root as scan_root
    from skilldeck.engine.filesystem._fs_provider import (
        served_scanned_only as served_scanned_only,
    )
    from skilldeck.engine.filesystem._fs_provider import skipped_file as skipped_file
    from skilldeck.engine.filesystem._fs_provider import to_candidate as to_candidate
    from skilldeck.engine.filesystem._index_cache import RACY_WINDOW_NS as RACY_WINDOW_NS
    from skilldeck.engine.filesystem._index_cache import FileIdentity as FileIdentity
    from skilldeck.engine.filesystem._index_cache import IndexCache as IndexCache
    from skilldeck.engine.filesystem._index_cache import default_cache_dir as default_cache_dir
    from skilldeck.engine.filesystem._index_cache import identity_of_file as identity_of_file
    from skilldeck.engine.filesystem._index_cache import write_atomically as write_atomically
    from skilldeck.engine.filesystem._index_cache import (
        write_chunks_atomically as write_chunks_atomically,
    )
    from skilldeck.engine.filesystem._layout import BUNDLE_FILE as BUNDLE_FILE
    from skilldeck.engine.filesystem._layout import FLAT_SUFFIX as FLAT_SUFFIX
    from skilldeck.engine.filesystem._layout import Layout as Layout
    from skilldeck.engine.filesystem._layout import NotASkill as NotASkill
    from skilldeck.engine.filesystem._layout import SkillPlace as SkillPlace
    from skilldeck.engine.filesystem._layout import listed_child_layout as listed_child_layout
    from skilldeck.engine.filesystem._layout import place_in_root as place_in_root
    from skilldeck.engine.filesystem._layout import place_of as place_of
    from skilldeck.engine.filesystem._layout import relative_parts as relative_parts
    from skilldeck.engine.filesystem._layout import skill_place as skill_place
    from skilldeck.engine.filesystem._layout import stray_files as stray_files
    from skilldeck.engine.filesystem._roots import SkillRoot as SkillRoot
    from skilldeck.engine.filesystem._roots import find_project_root as find_project_root
    from skilldeck.engine.filesystem._roots import resolve_roots as resolve_roots
    from skilldeck.engine.filesystem._safety_gate import Refusal as Refusal
    from skilldeck.engine.filesystem._safety_gate import analysis_refusal as analysis_refusal
    from skilldeck.engine.filesystem._safety_gate import folder_refusal as folder_refusal
    from skilldeck.engine.filesystem._safety_gate import judge_served as judge_served
    from skilldeck.engine.filesystem._scan_helpers import usable_cpus as usable_cpus
    from skilldeck.engine.filesystem._watch import RootWatcher as RootWatcher
    from skilldeck.engine.filesystem._watch_gate import QuietCall as QuietCall
    from skilldeck.engine.filesystem._watch_gate import QuietWindow as QuietWindow
    from skilldeck.engine.filesystem._watch_gate import WatchGate as WatchGate
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_bundled": ("bundled_provider_factory", "skill_body"),
            "_fs_provider": (
                "DeckScan",
                "FilesystemProvider",
                "JudgedSkill",
                "PROVIDER_NAME",
                "SKIPPED_LOGGER",
                "SkillFileEntry",
                "SkippedFile",
                "classify_path",
                "entry_name_and_rank",
                "filesystem_provider_factory",
                "is_file_skill",
                "judge_files",
                "load_judged",
                "name_span",
                "refusal_now",
                "refusal_of",
                "root_state",
                "scan_deck",
                "scan_root",
                "served_scanned_only",
                "skipped_file",
                "to_candidate",
            ),
            "_cache_key": ("cache_key", "code_digest"),
            "_index_cache": (
                "FileIdentity",
                "IndexCache",
                "RACY_WINDOW_NS",
                "default_cache_dir",
                "identity_of_file",
                "write_atomically",
                "write_chunks_atomically",
            ),
            "_layout": (
                "BUNDLE_FILE",
                "FLAT_SUFFIX",
                "Layout",
                "NotASkill",
                "SkillPlace",
                "listed_child_layout",
                "place_in_root",
                "place_of",
                "relative_parts",
                "skill_place",
                "stray_files",
            ),
            "_roots": ("SkillRoot", "find_project_root", "resolve_roots"),
            "_safety_gate": ("Refusal", "analysis_refusal", "folder_refusal", "judge_served"),
            "_scan_helpers": ("usable_cpus",),
            "_watch": ("RootWatcher",),
            "_watch_gate": ("QuietCall", "QuietWindow", "WatchGate"),
        },
    )
