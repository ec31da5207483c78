"""One skill file in, one :class:`SkillFileAnalysis` out: reading and decoding (size cap,
no FIFOs or devices), names, placeholders, the key or name an author meant, every per-file
rule, and the analysis's validated JSON form (the index cache's format).

Invariant: one bad file yields findings, never an exception, and never hides its siblings;
an analysis holds no body and no frontmatter tree once it is scanned.
"""

from skilldeck.engine.files._analysis_json import (
    finding_from_json,
    finding_to_json,
    json_bool,
    json_int,
    json_str,
)
from skilldeck.engine.files._near_misses import NameSuggestions, could_mean, nearest_names
from skilldeck.engine.files._placeholders import DESCRIPTION_PLACEHOLDER
from skilldeck.engine.files._skill_file import (
    SkillFileAnalysis,
    analyze_skill_bytes,
    analyze_skill_file,
    analyze_skill_text,
    bundle_findings_of,
    keep_bundle_findings,
    wide_lines,
    with_bundle_findings,
)
from skilldeck.engine.files._skill_names import name_problem
from skilldeck.engine.files._skill_read import (
    SkillReadError,
    decode_skill_bytes,
    file_kind,
    read_skill_body,
    read_skill_bytes,
)

__all__ = [
    "DESCRIPTION_PLACEHOLDER",
    "NameSuggestions",
    "SkillFileAnalysis",
    "SkillReadError",
    "analyze_skill_bytes",
    "analyze_skill_file",
    "analyze_skill_text",
    "bundle_findings_of",
    "could_mean",
    "decode_skill_bytes",
    "file_kind",
    "finding_from_json",
    "finding_to_json",
    "json_bool",
    "json_int",
    "json_str",
    "keep_bundle_findings",
    "name_problem",
    "nearest_names",
    "read_skill_body",
    "read_skill_bytes",
    "wide_lines",
    "with_bundle_findings",
]
