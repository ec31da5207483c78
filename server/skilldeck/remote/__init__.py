"""Clients of remote skill servers (the protocol libraries live here, never in the engine)."""
