"""The skill system, one package per part (``ARCHITECTURE.md`` is the map): ``registry``,
``filesystem``, ``files``, ``frontmatter``, ``model_view``, ``rules``, ``config``, ``deck``,
``overlap``, ``hosts``, ``host_views``, ``safety``, ``sources``, and beneath them ``text``
and ``disk``. Import a package, never its ``_private`` modules."""
