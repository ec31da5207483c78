"""One skill file in, one :class:`SkillFileAnalysis` out: reading and decoding (size cap,
no FIFOs or devices), the per-file checks run over its frontmatter (``engine/checks``),
what a host makes of the file (its observed reading: ``_host_read``; the host
profiles' findings, ``_host_reading``), and the analysis's validated JSON form (the
index cache's format).

Invariant: one bad file yields findings, never an exception, and never hides its siblings;
an analysis holds no body and no frontmatter tree once it is scanned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.files._analysis_json import finding_from_json as finding_from_json
    from skilldeck.engine.files._analysis_json import finding_to_json as finding_to_json
    from skilldeck.engine.files._analysis_json import json_bool as json_bool
    from skilldeck.engine.files._analysis_json import json_int as json_int
    from skilldeck.engine.files._analysis_json import json_str as json_str
    from skilldeck.engine.files._host_read import HostRead as HostRead
    from skilldeck.engine.files._host_read import read_skill as read_skill
    from skilldeck.engine.files._host_read import read_text as read_text
    from skilldeck.engine.files._skill_file import SkillFileAnalysis as SkillFileAnalysis
    from skilldeck.engine.files._skill_file import analyze_skill_bytes as analyze_skill_bytes
    from skilldeck.engine.files._skill_file import analyze_skill_file as analyze_skill_file
    from skilldeck.engine.files._skill_file import analyze_skill_text as analyze_skill_text
    from skilldeck.engine.files._skill_file import bundle_findings_of as bundle_findings_of
    from skilldeck.engine.files._skill_file import bundle_verdict as bundle_verdict
    from skilldeck.engine.files._skill_file import keep_bundle_findings as keep_bundle_findings
    from skilldeck.engine.files._skill_file import wide_lines as wide_lines
    from skilldeck.engine.files._skill_file import with_bundle_findings as with_bundle_findings
    from skilldeck.engine.files._skill_read import SkillReadError as SkillReadError
    from skilldeck.engine.files._skill_read import body_of as body_of
    from skilldeck.engine.files._skill_read import buffer_has_bom as buffer_has_bom
    from skilldeck.engine.files._skill_read import decode_skill_bytes as decode_skill_bytes
    from skilldeck.engine.files._skill_read import file_kind as file_kind
    from skilldeck.engine.files._skill_read import read_skill_body as read_skill_body
    from skilldeck.engine.files._skill_read import read_skill_bytes as read_skill_bytes
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_analysis_json": (
                "finding_from_json",
                "finding_to_json",
                "json_bool",
                "json_int",
                "json_str",
            ),
            "_host_read": ("HostRead", "read_skill", "read_text"),
            "_skill_file": (
                "SkillFileAnalysis",
                "analyze_skill_bytes",
                "analyze_skill_file",
                "analyze_skill_text",
                "bundle_findings_of",
                "bundle_verdict",
                "keep_bundle_findings",
                "wide_lines",
                "with_bundle_findings",
            ),
            "_skill_read": (
                "SkillReadError",
                "body_of",
                "buffer_has_bom",
                "decode_skill_bytes",
                "file_kind",
                "read_skill_body",
                "read_skill_bytes",
            ),
        },
    )
