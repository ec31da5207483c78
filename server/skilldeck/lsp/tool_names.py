"""The tool names completion offers for ``allowed-tools`` and ``disallowed-tools``.

The keys come from Claude Code, and the Agent Skills standard took them over with Claude
Code's syntax (``Bash(git:*) Read``); no other agent documents tool names for them. So the
names offered are the tools Claude Code itself declares to the model, observed, not
transcribed: Claude Code 2.1.332 (npm ``@anthropic-ai/claude-code``), run offline on
2026-12-06 with ``claude -p hi`` against a recording HTTP endpoint on 127.0.0.1
(``ANTHROPIC_BASE_URL``, the host lab's recipe in ``/work/shared/notes/TOOLCHAIN.md``): the
``tools`` array of its requests plus the deferred tools its system prompt names for
``ToolSearch``. Its built-in placeholder ``DeferredToolPlaceholder`` is not a tool a skill
can name and is left out.
"""

from __future__ import annotations

#: Which agent the names are from, and which release (completion shows it as ``detail``).
TOOLS_SOURCE = "Claude Code 2.1.332"

#: Claude Code 2.1.332's tools, in its own order (alphabetical).
CLAUDE_CODE_TOOLS: tuple[str, ...] = (
    "Agent",
    "Bash",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EnterWorktree",
    "ExitWorktree",
    "ListAgents",
    "Monitor",
    "NotebookEdit",
    "Read",
    "ReportFindings",
    "ScheduleWakeup",
    "SendMessage",
    "Skill",
    "TaskStop",
    "ToolSearch",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
)

#: The keys whose value is a list of tool names (space- or comma-separated, or a YAML list).
TOOL_LIST_KEYS = frozenset({"allowed-tools", "disallowed-tools"})
