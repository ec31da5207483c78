"""The host lab (scripts/host-lab): see __main__.py and docs/hosts.md, "Host lab"."""
