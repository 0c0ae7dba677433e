"""What the server allows a client: message sizes and nesting, a rate (a token bucket), names.

>>> bucket = TokenBucket(rate=10.0, burst=2, now=lambda: 0.0)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
>>> check_name("Ada Lovelace")
'Ada Lovelace'
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from ordonnance.core.checks import text
from ordonnance.errors import InvalidArgumentError

__all__ = [
    "MAX_MESSAGE_BYTES", "MAX_MESSAGE_DEPTH", "MAX_FRAME_BYTES", "MAX_BODY_BYTES", "MAX_NAME_LENGTH",
    "MESSAGE_RATE", "MESSAGE_BURST", "TokenBucket", "check_name",
]  # fmt: skip

#: The longest WebSocket message the server reads (bytes of UTF-8); a longer one is answered
#: with an error before it is parsed. A move is about a hundred bytes.
MAX_MESSAGE_BYTES = 4096
#: The deepest nesting of arrays and objects in a client's message.
MAX_MESSAGE_DEPTH = 6
#: The longest WebSocket frame the server's protocol layer accepts at all: a longer one
#: closes the connection (code 1009) without being buffered.
MAX_FRAME_BYTES = 65_536
#: The longest HTTP request body (a table's creation with its rules is about 1 KiB).
MAX_BODY_BYTES = 16_384
#: The longest name of a seat.
MAX_NAME_LENGTH = 32
#: Messages a connection may send a second, on average ...
MESSAGE_RATE = 20.0
#: ... and at once.
MESSAGE_BURST = 40

# Letters and digits of any script, spaces and a few marks: no markup, quotes or control characters.
_NAME = re.compile(r"[^\W_]([\w .\-]*[\w.])?")


class TokenBucket:
    """A token bucket: ``burst`` tokens at most, refilled at ``rate`` a second; each message takes one."""

    __slots__ = ("rate", "burst", "_tokens", "_stamp", "_now")

    def __init__(self, rate: float = MESSAGE_RATE, burst: int = MESSAGE_BURST, now: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        """Tokens added a second."""
        self.burst = burst
        """The most tokens the bucket holds."""
        self._now = now
        self._tokens = float(burst)
        self._stamp = now()

    def take(self) -> bool:
        """Take a token: True when there was one (the message is served), else False."""
        now = self._now()
        self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


def check_name(value: object) -> str:
    """A seat's name, checked: 1 to :data:`MAX_NAME_LENGTH` characters, letters and digits of any
    script, spaces and ``.-_`` inside (so no markup, quote or control character can reach a page
    or a log); else :class:`~ordonnance.errors.InvalidArgumentError` showing it."""
    name = text(value, "name", most=MAX_NAME_LENGTH).strip()
    if not _NAME.fullmatch(name):
        raise InvalidArgumentError(
            f"a name is 1 to {MAX_NAME_LENGTH} letters, digits, spaces and .-_ (starting with a letter or digit), "
            f"got {value!r:.80}"
        )
    return name
