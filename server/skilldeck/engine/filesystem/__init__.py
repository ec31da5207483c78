"""The filesystem provider (SPEC §3, §6): the roots for a cwd in rank order, where a skill
file sits in a root (the one layout), the scan (one path, ``scan_deck``; forked helpers and
the identity-keyed index cache only short-cut it), watching with watchfiles and the gate that
holds watches until a front end is ready, the bundled provider and the safety gate of a root.

Invariant: the engine never waits on a FIFO, follows a symlink loop or loses a sibling to
one bad file; skill bodies are reread by ``get()``, never held.
"""

from skilldeck.engine.filesystem._bundled import bundled_provider_factory, skill_body
from skilldeck.engine.filesystem._fs_provider import (
    PROVIDER_NAME,
    DeckScan,
    FilesystemProvider,
    SkillFileEntry,
    classify_path,
    entry_name_and_rank,
    filesystem_provider_factory,
    name_span,
    refusal_of,
    scan_deck,
    scan_root,
    to_candidate,
)
from skilldeck.engine.filesystem._index_cache import (
    RACY_WINDOW_NS,
    FileIdentity,
    IndexCache,
    default_cache_dir,
    identity_of_file,
    version_key,
    write_atomically,
    write_chunks_atomically,
)
from skilldeck.engine.filesystem._layout import (
    BUNDLE_FILE,
    FLAT_SUFFIX,
    Layout,
    NotASkill,
    listed_child_layout,
    place_in_root,
    place_of,
    relative_parts,
    skill_place,
    stray_files,
)
from skilldeck.engine.filesystem._roots import SkillRoot, find_project_root, resolve_roots
from skilldeck.engine.filesystem._safety_gate import folder_refusal
from skilldeck.engine.filesystem._scan_helpers import usable_cpus
from skilldeck.engine.filesystem._watch import RootWatcher
from skilldeck.engine.filesystem._watch_gate import QuietCall, QuietWindow, WatchGate

__all__ = [
    "BUNDLE_FILE",
    "FLAT_SUFFIX",
    "PROVIDER_NAME",
    "RACY_WINDOW_NS",
    "DeckScan",
    "FileIdentity",
    "FilesystemProvider",
    "IndexCache",
    "Layout",
    "NotASkill",
    "QuietCall",
    "QuietWindow",
    "RootWatcher",
    "SkillFileEntry",
    "SkillRoot",
    "WatchGate",
    "bundled_provider_factory",
    "classify_path",
    "default_cache_dir",
    "entry_name_and_rank",
    "filesystem_provider_factory",
    "find_project_root",
    "folder_refusal",
    "identity_of_file",
    "listed_child_layout",
    "name_span",
    "place_in_root",
    "place_of",
    "refusal_of",
    "relative_parts",
    "resolve_roots",
    "scan_deck",
    "scan_root",
    "skill_body",
    "skill_place",
    "stray_files",
    "to_candidate",
    "usable_cpus",
    "version_key",
    "write_atomically",
    "write_chunks_atomically",
]
