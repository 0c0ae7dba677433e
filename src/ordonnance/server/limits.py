"""What the server allows a client: message sizes and nesting, rates (token buckets), WebSockets
at once per address, names.

>>> bucket = TokenBucket(rate=10.0, burst=2, now=lambda: 0.0)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
>>> bucket.wait()
0.1
>>> requests = AddressBuckets(rate=10.0, burst=1, now=lambda: 0.0)
>>> requests.take("192.0.2.1"), requests.take("192.0.2.1"), requests.take("192.0.2.7")
(0.0, 0.1, 0.0)
>>> connections = ConnectionCounts(most=1)
>>> connections.enter("192.0.2.1"), connections.enter("192.0.2.1")
(True, False)
>>> connections.leave("192.0.2.1"); connections.total
0
>>> check_name("Ada Lovelace")
'Ada Lovelace'
"""

from __future__ import annotations

import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable

from ordonnance.core.checks import integer, real, text
from ordonnance.errors import InvalidArgumentError

__all__ = [
    "MAX_MESSAGE_BYTES", "MAX_MESSAGE_DEPTH", "MAX_FRAME_BYTES", "MAX_BODY_BYTES", "MAX_NAME_LENGTH",
    "MESSAGE_RATE", "MESSAGE_BURST", "CONNECTIONS_PER_ADDRESS", "REQUEST_RATE", "REQUEST_BURST", "MAX_ADDRESSES",
    "TokenBucket", "AddressBuckets", "ConnectionCounts", "check_name",
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
#: WebSockets one client address may hold open at once (0: no limit).
CONNECTIONS_PER_ADDRESS = 64
#: HTTP requests (API calls, pages, their files) one client address may make a second, on
#: average (0: no limit) ...
REQUEST_RATE = 50.0
#: ... and at once.
REQUEST_BURST = 200
#: The most client addresses whose request buckets are remembered: past it the least recently
#: seen address's bucket is dropped (that address starts again with a full bucket).
MAX_ADDRESSES = 65_536

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

    def wait(self) -> float:
        """Seconds until the bucket holds a token again (0.0 when it holds one now)."""
        missing = 1.0 - min(float(self.burst), self._tokens + (self._now() - self._stamp) * self.rate)
        return 0.0 if missing <= 0.0 else (math.inf if self.rate == 0.0 else missing / self.rate)

    def full(self) -> bool:
        """Whether the bucket is full again: it then acts as a new one would."""
        return self._tokens + (self._now() - self._stamp) * self.rate >= self.burst


class AddressBuckets:
    """A :class:`TokenBucket` per client address, for the HTTP requests of each; ``rate`` 0 lets
    every request through. Memory stays bounded: a bucket full again is dropped (it acts as a new
    one would), and at most ``most`` addresses are remembered (past it the least recently seen is
    dropped), so a flood of addresses costs at most ``most`` buckets."""

    __slots__ = ("rate", "burst", "most", "_buckets", "_now")

    def __init__(self, rate: float = REQUEST_RATE, burst: int = REQUEST_BURST, *, most: int = MAX_ADDRESSES,
                 now: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.rate = real(rate, "rate", low=0.0, high=1e9)
        """Requests an address may make a second, on average (0: no limit)."""
        self.burst = integer(burst, "burst", low=1, high=10**9)
        """Requests an address may make at once."""
        self.most = integer(most, "most", low=1, high=10**9)
        """The most addresses remembered at once."""
        self._now = now
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()  # the least recently seen first

    def __len__(self) -> int:
        """The addresses remembered now."""
        return len(self._buckets)

    def take(self, address: str) -> float:
        """Count a request of ``address``: 0.0 when it is let through, else the seconds until it
        would be (the request is refused)."""
        if self.rate == 0.0:
            return 0.0
        buckets = self._buckets
        while buckets and next(iter(buckets.values())).full():  # those seen longest ago first
            buckets.popitem(last=False)
        bucket = buckets.get(address)
        if bucket is None:
            if len(buckets) >= self.most:
                buckets.popitem(last=False)
            bucket = buckets[address] = TokenBucket(self.rate, self.burst, self._now)
        else:
            buckets.move_to_end(address)
        return 0.0 if bucket.take() else max(bucket.wait(), 1e-3)


class ConnectionCounts:
    """The WebSockets open now per client address, at most ``most`` each (0: no limit); an
    address is forgotten when its last connection ends."""

    __slots__ = ("most", "_counts")

    def __init__(self, most: int = CONNECTIONS_PER_ADDRESS) -> None:
        self.most = integer(most, "most", low=0, high=10**9)
        """The most connections an address may hold at once (0: no limit)."""
        self._counts: dict[str, int] = {}

    @property
    def total(self) -> int:
        """The connections open now, over every address."""
        return sum(self._counts.values())

    def __len__(self) -> int:
        """The addresses holding a connection now."""
        return len(self._counts)

    def enter(self, address: str) -> bool:
        """Count a new connection of ``address``: False (and nothing counted) when it already
        holds :attr:`most`. Each True must be matched by one :meth:`leave`."""
        count = self._counts.get(address, 0)
        if self.most and count >= self.most:
            return False
        self._counts[address] = count + 1
        return True

    def leave(self, address: str) -> None:
        """A connection of ``address`` counted by :meth:`enter` has ended."""
        count = self._counts[address] - 1
        if count:
            self._counts[address] = count
        else:
            del self._counts[address]


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
