"""A one-line progress indicator on stderr, shown only on a TTY and only when slow."""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import TextIO

_FRAMES = "|/-\\"
#: Nothing is drawn for work that finishes sooner than this (seconds).
_DELAY = 0.4
_INTERVAL = 0.1


class Progress:
    """Context manager: a spinner with a label and elapsed time, erased on exit.

    Disabled (a no-op) unless ``stream`` is a TTY; ``update()`` changes the label.
    """

    def __init__(self, stream: TextIO, label: str) -> None:
        isatty = getattr(stream, "isatty", None)
        self._enabled = bool(isatty and isatty())
        self._stream = stream
        self._label = label
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._drawn = False
        self._lock = threading.Lock()

    def update(self, label: str) -> None:
        """Show ``label`` from the next frame on."""
        with self._lock:
            self._label = label

    def __enter__(self) -> Progress:
        if self._enabled:
            self._thread = threading.Thread(
                target=self._spin, name="skilldeck-progress", daemon=True
            )
            self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join()
        if self._drawn:
            self._stream.write("\r\x1b[2K")
            self._stream.flush()

    def _spin(self) -> None:
        started = time.monotonic()
        if self._stop.wait(_DELAY):
            return
        frame = 0
        while not self._stop.is_set():
            with self._lock:
                label = self._label
            elapsed = time.monotonic() - started
            self._stream.write(
                f"\r\x1b[2K{_FRAMES[frame % len(_FRAMES)]} {label} ({elapsed:.1f} s)"
            )
            self._stream.flush()
            self._drawn = True
            frame += 1
            self._stop.wait(_INTERVAL)
