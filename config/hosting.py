"""Where the site is reached: the link a relative's phone opens, and the hosts Django accepts.

A family plays on one Wi-Fi: the server listens on every interface, and the link it shows
names the machine's network address (`http://192.168.1.20:8000/`), never a loopback one a
phone cannot open. `PUBLIC_URL` (a domain, a tunnel) replaces that address in every link.
Allowed hosts and trusted origins are the addresses the site serves on, and `PUBLIC_URL`'s
host: never `*`, so a page of another site cannot reach this one by a rebound DNS name.

Standard library only: `tasks.py` imports this module to print the link before the
project's virtual environment exists.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

#: Binding any of these listens on every interface.
WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})
#: Always accepted: a health probe or the host's own browser on this computer.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 8000
#: A documentation address (TEST-NET-1): a UDP socket "connected" to it asks the kernel
#: which interface the default route leaves by. No packet is ever sent.
_ROUTE_PROBE = "192.0.2.1"


class HostingError(ValueError):
    """A hosting setting that cannot work; the message says which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Hosting:
    """What the settings and `serve` derive from HOST, PORT, PUBLIC_URL and ALLOWED_HOSTS."""

    bind: str
    port: int
    #: `PUBLIC_URL` without a trailing slash, or None.
    public_url: str | None
    #: The base of the link for other devices: `PUBLIC_URL`, else the network address.
    share_url: str
    #: The link for this computer only (loopback), or None when that is the share link.
    local_url: str | None
    #: True when the server listens on loopback only: then a loopback link is the only one.
    loopback_only: bool
    #: The machine's network addresses the site serves on (empty for loopback only).
    addresses: tuple[str, ...]
    allowed_hosts: tuple[str, ...]
    trusted_origins: tuple[str, ...]

    def link_base(self, scheme: str, host: str) -> str:
        """`scheme://host[:port]` of the links shown to a request that came by `host` (its
        Host header, already validated): `PUBLIC_URL`; else that host, but a loopback
        one becomes the machine's network address with the same port, since a phone
        cannot open `localhost`. Only a server on loopback alone shows a loopback link."""
        if self.public_url:
            return self.public_url
        bare, _, port = host.rpartition(":") if host.rpartition(":")[2].isdigit() else (host, "", "")
        if is_loopback(bare) and not self.loopback_only and self.addresses:
            number = int(port) if port else {"https": 443}.get(scheme, 80)
            return base_url(scheme, self.addresses[0], number)
        return f"{scheme}://{host}"


def is_loopback(host: str) -> bool:
    bare = host.strip("[]").lower()
    if bare == "localhost" or bare.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def url_host(host: str) -> str:
    """`host` as it stands in a URL: an IPv6 address in brackets."""
    bare = host.strip("[]")
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(bare).version == 6:
            return f"[{bare}]"
    return bare


def base_url(scheme: str, host: str, port: int) -> str:
    default = {"http": 80, "https": 443}.get(scheme)
    suffix = "" if port == default else f":{port}"
    return f"{scheme}://{url_host(host)}{suffix}"


def public_url_parse(raw: str) -> str | None:
    """PUBLIC_URL checked and normalised (no trailing slash); None when unset.

    HostingError for anything a browser could not open as the site's root: no scheme,
    another scheme than http or https, no host, a path, a query or a fragment."""
    text = raw.strip()
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise HostingError(
            f"PUBLIC_URL={text!r} needs a scheme and a host, like https://dominoes.example.org"
        )
    try:
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise HostingError(f"PUBLIC_URL={text!r} has a bad port: {exc}") from None
    if not host or parts.username or parts.password:
        raise HostingError(f"PUBLIC_URL={text!r} must name a host, with no user or password in it")
    if parts.path.strip("/") or parts.query or parts.fragment:
        raise HostingError(f"PUBLIC_URL={text!r} must be the site's root, with no path, query or fragment")
    default = 443 if parts.scheme == "https" else 80
    return base_url(parts.scheme, host, port or default)


def port_parse(raw: str | None) -> int:
    if raw is None or not raw.strip():
        return DEFAULT_PORT
    try:
        port = int(raw)
    except ValueError:
        raise HostingError(f"PORT={raw!r} is not a number: give one from 1 to 65535") from None
    if not 1 <= port <= 65535:
        raise HostingError(f"PORT={raw!r} is out of range: give one from 1 to 65535")
    return port


def host_parse(raw: str | None) -> str:
    host = DEFAULT_HOST if raw is None else raw.strip()
    if host in WILDCARDS or is_loopback(host):
        return host or DEFAULT_HOST
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        raise HostingError(
            f"HOST={raw!r} is not an address to listen on: use 0.0.0.0 (every interface, the "
            "default), 127.0.0.1 (this computer only) or one of this machine's addresses"
        ) from None
    return host


def _route_address() -> str | None:
    """The address of the interface the default route leaves by: the one a phone on the
    same network reaches."""
    try:
        with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_DGRAM)) as sock:
            sock.connect((_ROUTE_PROBE, 9))
            address = str(sock.getsockname()[0])
    except OSError:
        return None
    return None if address == "0.0.0.0" else address


def _interface_addresses() -> list[str]:
    """Every interface's IPv4 address (Linux; elsewhere the host name's addresses)."""
    found: list[str] = []
    if sys.platform.startswith("linux"):
        import fcntl

        siocgifaddr = 0x8915
        with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_DGRAM)) as sock:
            for _index, name in socket.if_nameindex():
                request = struct.pack("256s", name.encode()[:15])
                try:
                    answer = fcntl.ioctl(sock.fileno(), siocgifaddr, request)
                except OSError:
                    continue
                found.append(socket.inet_ntoa(answer[20:24]))
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    return found


def network_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses, the default route's first."""
    ordered: list[str] = []
    for address in [_route_address(), *_interface_addresses()]:
        if address and not is_loopback(address) and address not in ordered:
            ordered.append(address)
    link_local = [a for a in ordered if ipaddress.ip_address(a).is_link_local]
    return [a for a in ordered if a not in link_local] + link_local


def _machine_names() -> list[str]:
    name = socket.gethostname().strip().lower()
    if not name or is_loopback(name):
        return []
    short = name.split(".")[0]
    return list(dict.fromkeys([name, short, f"{short}.local"]))


def hosting(env: Mapping[str, str], addresses: list[str] | None = None) -> Hosting:
    """Everything derived from the environment; `addresses` stands in for the machine's own
    (tests pass them). HostingError when a setting cannot work."""
    bind = host_parse(env.get("HOST"))
    port = port_parse(env.get("PORT"))
    public = public_url_parse(env.get("PUBLIC_URL", ""))
    extra = [h.strip().lower() for h in env.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    if "*" in extra:
        raise HostingError("ALLOWED_HOSTS='*' would accept any host name: list the names instead")
    loopback_only = is_loopback(bind)
    local = base_url("http", "127.0.0.1" if bind in WILDCARDS or loopback_only else bind, port)
    if bind in WILDCARDS:
        served = network_addresses() if addresses is None else list(addresses)
        names = _machine_names() if addresses is None else []
    elif loopback_only:
        served, names = [], []
    else:
        served, names = [bind.strip("[]")], []
    site = base_url("http", served[0], port) if served else local
    share = public or site
    hosts = [*LOOPBACK_HOSTS, *(url_host(a) for a in served), *names]
    origins = [base_url("http", h, port) for h in hosts]
    if public is not None:
        public_host = urlsplit(public).hostname or ""
        hosts.append(url_host(public_host))
        origins.insert(0, public)
    hosts.extend(extra)
    return Hosting(
        bind=bind,
        port=port,
        public_url=public,
        share_url=share,
        local_url=None if share == local else local,
        loopback_only=loopback_only,
        addresses=tuple(served),
        allowed_hosts=tuple(dict.fromkeys(hosts)),
        trusted_origins=tuple(dict.fromkeys(origins)),
    )


def serve_message(site: Hosting) -> str:
    """What `serve` prints: the link to share first, then the one for this computer only."""
    lines = []
    if site.public_url:
        lines.append(f"Share this link: {site.public_url}/  (PUBLIC_URL)")
    elif site.loopback_only:
        lines.append(f"Serving on {site.share_url}/ for this computer only (HOST={site.bind}).")
    elif site.addresses:
        lines.append(f"Open this link on the phones and computers of your network: {site.share_url}/")
    else:
        lines.append("This machine has no network address: other devices cannot reach it.")
    if site.local_url:
        lines.append(f"On this computer only: {site.local_url}/")
    return "\n".join(lines)
