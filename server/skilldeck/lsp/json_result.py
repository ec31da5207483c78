"""Results that are already plain JSON, sent without cattrs walking them.

pygls turns every response into JSON through a cattrs converter, which unstructures a
``result`` typed ``Any`` value by value: for the 10,000-skill answer of
``skilldeck/skills`` (about a million values) that walk cost 0.25 s of the event loop,
more than building the answer. A :class:`JsonObject` is a ``dict`` the converter hands
to ``json.dumps`` as it is; whoever builds one promises it holds only JSON types (dict,
list, str, int, float, bool, None).
"""

from __future__ import annotations

from typing import Any

import cattrs
from pygls.protocol import default_converter


class JsonObject(dict[str, Any]):
    """A response made of JSON types only (see the module doc)."""


def converter_factory() -> cattrs.Converter:
    """pygls' converter, plus: a :class:`JsonObject` is unstructured as itself."""
    converter: cattrs.Converter = default_converter()  # type: ignore[no-untyped-call]
    converter.register_unstructure_hook(JsonObject, lambda value: value)
    return converter
