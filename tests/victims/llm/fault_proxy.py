"""A fault-injecting HTTP proxy on loopback, in front of a real OpenAI-compatible server.

Every request is forwarded to the upstream server unchanged, unless a queued fault takes it:
answer with a status (429 with ``Retry-After``, 500, 400, ...) without forwarding, wait before
forwarding (a slow server), or close the connection without answering. Faults are taken in
order, one per request, by whichever requests come next. Threaded (one thread per connection),
bounded (every wait ends at :meth:`FaultProxy.stop`; upstream calls have a timeout), and
stoppable; a context manager.

Original to textattack-semparse (test support).

Example (with an upstream at ``http://127.0.0.1:8080``)::

    with FaultProxy("http://127.0.0.1:8080") as proxy:
        proxy.fail_next(2, status=429, retry_after=1)
        client = openai.OpenAI(base_url=proxy.url + "/v1", ...)
"""

from __future__ import annotations

import http.client
import json
import select
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
     "transfer-encoding", "upgrade", "content-length"}
)


@dataclass(frozen=True)
class Fault:
    """What happens to one request: ``kind`` is ``status`` (answer ``status`` at once, with
    ``retry_after`` as the ``Retry-After`` header when set), ``delay`` (wait ``seconds``, then
    forward; given up as soon as the client has gone) or ``drop`` (close the connection unanswered)."""

    kind: str
    status: int = 0
    retry_after: float | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class Handled:
    """One request the proxy saw: its method, path, and what was done (``forwarded``, or the
    fault's kind) with the status the client got (``None`` when it got none), and the body of a
    forwarded request (what the upstream server was asked)."""

    method: str
    path: str
    action: str
    status: int | None
    body: bytes = b""


class FaultProxy:
    """A loopback HTTP proxy to ``upstream`` that injects queued faults.

    Args:
        upstream (str): The server's origin, e.g. ``http://127.0.0.1:8080`` (a path is ignored).
        upstream_timeout (float, default 120.0): Seconds a forwarded request may take.
    """

    def __init__(self, upstream: str, *, upstream_timeout: float = 120.0) -> None:
        parts = urlsplit(upstream)
        if parts.scheme != "http" or not parts.hostname or not parts.port:
            raise ValueError(f"upstream must be http://HOST:PORT, got {upstream!r}")
        self.upstream_host, self.upstream_port = parts.hostname, parts.port
        self.upstream_timeout = upstream_timeout
        self.handled: list[Handled] = []
        self._faults: deque[Fault] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The proxy's origin, ``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def fail_next(self, count: int, *, status: int, retry_after: float | None = None) -> None:
        """Answer the next ``count`` requests with ``status`` (and ``Retry-After``) unforwarded."""
        self._queue(Fault("status", status=status, retry_after=retry_after), count)

    def delay_next(self, count: int, seconds: float) -> None:
        """Hold the next ``count`` requests ``seconds`` before forwarding them."""
        self._queue(Fault("delay", seconds=seconds), count)

    def drop_next(self, count: int) -> None:
        """Close the next ``count`` connections without an answer."""
        self._queue(Fault("drop"), count)

    def clear(self) -> None:
        """Forget the faults not yet taken."""
        with self._lock:
            self._faults.clear()

    def pending_faults(self) -> int:
        with self._lock:
            return len(self._faults)

    def actions(self, path_suffix: str = "") -> list[str]:
        """The actions taken on requests whose path ends with ``path_suffix``, in order."""
        with self._lock:
            return [h.action for h in self.handled if h.path.endswith(path_suffix)]

    def stop(self) -> None:
        """Stop serving; held requests are released and closed."""
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def __enter__(self) -> FaultProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _queue(self, fault: Fault, count: int) -> None:
        with self._lock:
            self._faults.extend([fault] * count)

    def _take(self) -> Fault | None:
        with self._lock:
            return self._faults.popleft() if self._faults else None

    def _record(self, handled: Handled) -> None:
        with self._lock:
            self.handled.append(handled)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            timeout = 30  # an idle keep-alive connection is closed after this many seconds

            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                self._handle()

            def do_POST(self) -> None:
                self._handle()

            def _handle(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                fault = proxy._take()
                if fault is not None and fault.kind == "drop":
                    proxy._record(Handled(self.command, self.path, "drop", None))
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if fault is not None and fault.kind == "status":
                    proxy._record(Handled(self.command, self.path, f"status {fault.status}", fault.status))
                    error = {"message": f"injected HTTP {fault.status}", "type": "fault_proxy", "code": fault.status}
                    payload = json.dumps({"error": error}).encode()
                    headers = {"Content-Type": "application/json"}
                    if fault.retry_after is not None:
                        headers["Retry-After"] = f"{fault.retry_after:g}"
                    self._reply(fault.status, headers, payload)
                    return
                if fault is not None and fault.kind == "delay":
                    deadline = time.monotonic() + fault.seconds
                    while time.monotonic() < deadline and not self._client_gone():
                        if proxy._stopping.wait(min(0.1, max(0.0, deadline - time.monotonic()))):
                            break
                    if self._client_gone() or proxy._stopping.is_set():
                        proxy._record(Handled(self.command, self.path, "delay (client gone)", None))
                        self.close_connection = True
                        return
                status, headers, payload = self._forward(body)
                action = "forwarded" if fault is None else "delay, forwarded"
                proxy._record(Handled(self.command, self.path, action, status, body))
                try:
                    self._reply(status, headers, payload)
                except OSError:  # the client gave up meanwhile
                    self.close_connection = True

            def _forward(self, body: bytes) -> tuple[int, dict[str, str], bytes]:
                connection = http.client.HTTPConnection(
                    proxy.upstream_host, proxy.upstream_port, timeout=proxy.upstream_timeout
                )
                try:
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP | {"host"}}
                    connection.request(self.command, self.path, body=body or None, headers=headers)
                    response = connection.getresponse()
                    payload = response.read()
                    kept = {k: v for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP}
                    return response.status, kept, payload
                except OSError as error:  # upstream down: what a gateway says
                    message = json.dumps({"error": {"message": f"fault proxy: upstream unreachable: {error}"}})
                    return 502, {"Content-Type": "application/json"}, message.encode()
                finally:
                    connection.close()

            def _reply(self, status: int, headers: dict[str, str], payload: bytes) -> None:
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                self.wfile.flush()

            def _client_gone(self) -> bool:
                try:
                    readable, _, _ = select.select([self.connection], [], [], 0)
                    return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
                except OSError:
                    return True

        return Handler
