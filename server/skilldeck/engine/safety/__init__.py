"""Supply-chain safety (SD10xx, ``docs/safety.md``): invisible and tag characters, confusable
names, hidden Markdown and instructions to the model, routing hijacks, dangerous commands
and secrets, in a skill's text and in its bundle's other files.

Invariant: a pattern runs only where its gate's words occur (one Aho-Corasick pass), so a
clean file costs one scan; findings carry the exact span of what is hidden.
"""

from skilldeck.engine.safety._bundle import bundle_findings, is_bundle_finding
from skilldeck.engine.safety._chars import code_point_name, hidden_tag_text, run_at
from skilldeck.engine.safety._file import safety_findings

__all__ = [
    "bundle_findings",
    "code_point_name",
    "hidden_tag_text",
    "is_bundle_finding",
    "run_at",
    "safety_findings",
]
