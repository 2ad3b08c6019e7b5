"""Where a webhook may go: public addresses over HTTPS, checked after DNS resolution, at send time.

Refused: loopback, private, link-local (cloud metadata at 169.254.169.254 among them), shared,
multicast, reserved and unspecified addresses, and the metadata names of the big clouds; the
request then goes to the very address that was checked (no second lookup to rebind).
WEBHOOK_ALLOWED_NETWORKS lets an operator allow named networks, plain HTTP included."""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

METADATA_ADDRESSES = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"))
METADATA_NAMES = frozenset({"metadata.google.internal", "metadata", "instance-data"})


class Refused(ValueError):
    """The URL may not be called."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str            # the checked IP to connect to


def _allowed_networks():
    return [ipaddress.ip_network(n.strip(), strict=False) for n in settings.WEBHOOK_ALLOWED_NETWORKS if n.strip()]


def _public(ip) -> bool:
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_loopback or ip.is_link_local
                                 or ip.is_private or ip in METADATA_ADDRESSES)


def parse(url: str) -> tuple[str, str, int, str]:
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise Refused("the URL must be https://host/...")
    if parts.username or parts.password:
        raise Refused("the URL may not carry a user name or password")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise Refused(f"bad port: {exc}") from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname.lower().rstrip("."), port, path


def check(url: str) -> Target:
    """The target to connect to, or Refused naming why."""
    scheme, host, port, path = parse(url)
    if host in METADATA_NAMES:
        raise Refused(f"{host} is a cloud metadata service")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise Refused(f"{host} does not resolve: {exc}") from None
    addresses = list(dict.fromkeys(ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos))
    allowed = _allowed_networks()
    for ip in addresses:
        in_allowed = any(ip in net for net in allowed)
        if not in_allowed and not _public(ip):
            raise Refused(f"{host} resolves to {ip}, which is not a public address")
        if scheme == "http" and not in_allowed:
            raise Refused("plain http is allowed only to the operator's allowed networks: use https")
    return Target(scheme, host, port, path, str(addresses[0]))
