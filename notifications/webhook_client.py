"""One webhook POST: to the checked address (netguard), no redirects followed, a short timeout,
and at most WEBHOOK_MAX_RESPONSE_BYTES of the answer read. Signed with HMAC-SHA256 over
`<timestamp>.<body>` with the webhook's secret (docs/notifications.md §5)."""
from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import socket
import ssl
import time
from dataclasses import dataclass

from django.conf import settings

from . import netguard

USER_AGENT = "Pearlsite-Webhook/1"


@dataclass
class Answer:
    status: int | None
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def post(url: str, secret: str, delivery_id: str, payload: dict) -> Answer:
    try:
        target = netguard.check(url)
    except netguard.Refused as exc:
        return Answer(None, f"refused: {exc}")
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    timestamp = int(time.time())
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, "Host": _host_header(target),
               "X-Pearlsite-Delivery": delivery_id, "X-Pearlsite-Timestamp": str(timestamp),
               "X-Pearlsite-Signature": signature(secret, timestamp, body)}
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS
    try:
        connection = _connect(target, timeout)
        try:
            connection.request("POST", target.path, body=body, headers=headers)
            response = connection.getresponse()
            response.read(settings.WEBHOOK_MAX_RESPONSE_BYTES)
            status = response.status
        finally:
            connection.close()
    except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
        return Answer(None, f"{type(exc).__name__}: {exc}"[:300])
    return Answer(status, "" if 200 <= status < 300 else f"answered {status}")


def _host_header(target: netguard.Target) -> str:
    default = 443 if target.scheme == "https" else 80
    return target.host if target.port == default else f"{target.host}:{target.port}"


def _connect(target: netguard.Target, timeout: float) -> http.client.HTTPConnection:
    """A connection to the checked address (the name is used only for TLS and the Host header)."""
    sock = socket.create_connection((target.address, target.port), timeout=timeout)
    if target.scheme == "https":
        sock = ssl.create_default_context().wrap_socket(sock, server_hostname=target.host)
    connection = http.client.HTTPConnection(target.host, target.port, timeout=timeout)
    connection.sock = sock
    return connection
