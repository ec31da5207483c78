"""The user's settings: every setting declared once (the settings schema), ``skilldeck.toml``
/ ``[tool.skilldeck]`` / flags / environment / editor merged into :class:`SkilldeckConfig`
(with where each value came from), the rule settings (profile, severities, overlap
thresholds, skills declared distinct) and the ``[[sources]]`` entries.

Invariant: a setting is declared and validated in one place; a bad value is a
:class:`ConfigError` naming the file and key, never a silent default.
"""

from skilldeck.engine.config._distinct import (
    DistinctGroups,
    DistinctMatcher,
    declare_distinct,
    validate_distinct,
)
from skilldeck.engine.config._rule_settings import (
    DEFAULT_NEAR_DUPLICATE_THRESHOLD,
    DEFAULT_OVERLAP_THRESHOLD,
    RuleSettings,
    validate_threshold,
)
from skilldeck.engine.config._settings_schema import EDITOR_KEYS, finite_number, setting_for_field
from skilldeck.engine.config._skilldeck_config import (
    CONFIG_FILE_NAMES,
    ConfigError,
    ConfigLayer,
    SkilldeckConfig,
    declares_project_root,
    find_config_file,
    load_config_file,
    load_config_file_keeping_valid,
    parse_host_names,
    parse_rule_overrides,
    path_problem,
)
from skilldeck.engine.config._source_spec import (
    GitSourceSpec,
    McpSourceSpec,
    SourceSpec,
    SourceSpecError,
    git_url,
    parse_sources,
    redacted,
)

__all__ = [
    "CONFIG_FILE_NAMES",
    "DEFAULT_NEAR_DUPLICATE_THRESHOLD",
    "DEFAULT_OVERLAP_THRESHOLD",
    "EDITOR_KEYS",
    "ConfigError",
    "ConfigLayer",
    "DistinctGroups",
    "DistinctMatcher",
    "GitSourceSpec",
    "McpSourceSpec",
    "RuleSettings",
    "SkilldeckConfig",
    "SourceSpec",
    "SourceSpecError",
    "declare_distinct",
    "declares_project_root",
    "find_config_file",
    "finite_number",
    "git_url",
    "load_config_file",
    "load_config_file_keeping_valid",
    "parse_host_names",
    "parse_rule_overrides",
    "parse_sources",
    "path_problem",
    "redacted",
    "setting_for_field",
    "validate_distinct",
    "validate_threshold",
]
