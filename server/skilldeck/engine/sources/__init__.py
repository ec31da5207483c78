"""Remote skill sources (``[[sources]]`` in ``skilldeck.toml``): a team's deck from git or
from another skills server, each one a provider of the deck (see ``docs/sources.md``)."""
