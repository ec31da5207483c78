"""Observing a real agent host: run its released binary offline, in a sandbox with only a
loopback network and an isolated home, against a fake model endpoint that records every
request and answers 400, and read the skills listing the host sent.

Used by the host lab (``scripts/host-lab``, ``tools/host_lab/``), which records what the
pinned releases list for a matrix of fixture trees, and by ``skilldeck hosts observe``,
which runs the user's own installed host on the user's own skill folders.

- :mod:`skilldeck.observe.listing`: the listing found in a request, per host format;
- :mod:`skilldeck.observe.wiring`: how each host is pointed at the fake endpoint;
- :mod:`skilldeck.observe.sandbox`: the sandbox (``unshare``) and its result;
- ``sandbox_child.py``: the script that runs inside the sandbox (standard library only).

Invariant: nothing here reads the user's credentials or writes outside the folders it is
given; the host runs with an environment built from scratch; every process it starts ends
with the sandbox. The engine never imports this package.
"""
