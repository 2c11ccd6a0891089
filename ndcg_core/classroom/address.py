"""The address phones open: the lecturer's page on ``localhost`` is no address for a phone.

A lecturer who opens the address ``make run`` prints (``http://localhost:8501``) sees that address
in the join link and the QR code, and no phone can reach it. :func:`join_base` decides the address
students get, from what it is handed: the lecturer's own address, ``NDCG_PUBLIC_URL`` and the
machine's interface addresses (:func:`interface_addresses` reads them; it sends no traffic).
Everything here but :func:`interface_addresses` is pure, and tested by feeding it interface lists.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from ..errors import Message
from ..settings import Setting, web_address

#: The address students reach, when the deployment says it (the join link and QR carry it).
PUBLIC_URL = Setting("NDCG_PUBLIC_URL", None, Message("accepts_public_url"), web_address)

#: Host names that always mean "this machine" (besides any address in 127.0.0.0/8 and ::1).
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})

#: Interfaces that are virtual bridges or tunnels on the lecturer's machine (containers, virtual
#: machines): their addresses are offered last, since a phone on the hall's Wi-Fi rarely reaches them.
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "cni", "flannel", "podman")


@dataclass(frozen=True)
class JoinBase:
    """The base address (scheme, host, port, path) of the students' link, and where it came from.

    ``source`` is ``"public"`` (``NDCG_PUBLIC_URL``), ``"page"`` (the lecturer's own address, which
    is not a loopback one), ``"network"`` (the lecturer's page is on a loopback address: the
    machine's network address took its place) or ``"loopback"`` (loopback, and the machine has no
    network address: phones cannot reach the link) or ``"bound"`` (loopback, and the server listens
    on a loopback address only, Streamlit's ``server.address``). ``others`` are the further network
    addresses the machine has, as base addresses too.
    """

    url: str
    source: str
    others: tuple[str, ...] = ()

    @property
    def reachable(self) -> bool:
        return self.source not in {"loopback", "bound"}


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) means this machine only."""
    host = host.strip().strip("[]").lower().rstrip(".")
    if not host:
        return False
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def network_addresses(interfaces: Mapping[str, Iterable[str]]) -> list[str]:
    """The addresses phones on the same network may reach, best first, from ``{interface: [address]}``.

    Loopback, link-local (169.254.0.0/16, fe80::/10), unspecified and multicast addresses are
    skipped, and so is anything that is not an IP address. IPv4 comes before IPv6 (what hall Wi-Fi
    hands phones), physical interfaces before virtual bridges (:data:`VIRTUAL_PREFIXES`), private
    addresses before public ones; otherwise the order the interfaces came in.
    """
    found: list[tuple[tuple[int, int, int, int], str]] = []
    seen: set[str] = set()
    for position, (name, addresses) in enumerate(interfaces.items()):
        virtual = str(name).lower().startswith(VIRTUAL_PREFIXES)
        for text in addresses:
            try:
                address = ipaddress.ip_address(str(text).split("%")[0])
            except ValueError:
                continue
            if (
                address.is_loopback
                or address.is_link_local
                or address.is_unspecified
                or address.is_multicast
                or str(address) in seen
            ):
                continue
            seen.add(str(address))
            rank = (address.version, int(virtual), int(not address.is_private), position)
            found.append((rank, str(address)))
    return [address for _rank, address in sorted(found, key=lambda pair: pair[0])]


def _with_host(url: str, host: str) -> str:
    """``url`` with its host replaced by the address ``host`` (its port, scheme and path kept)."""
    parts = urlsplit(url)
    shown = f"[{host}]" if ":" in host else host
    netloc = shown if parts.port is None else f"{shown}:{parts.port}"
    return urlunsplit((parts.scheme or "http", netloc, parts.path, "", ""))


def join_base(
    page_url: str, public_url: str | None, addresses: Iterable[str], bound: str | None = None
) -> JoinBase:
    """Where students are sent: ``public_url`` if set; else the lecturer's ``page_url``, with its host
    replaced by the first of ``addresses`` (from :func:`network_addresses`) when it is a loopback one.

    ``bound`` is the address the server listens on (Streamlit's ``server.address``; empty or None:
    every interface). A loopback one leaves no address phones reach; another one is the only
    candidate. Query and fragment are dropped; the path is kept (the caller removes its own page's name).
    """
    if public_url and public_url.strip():
        return JoinBase(public_url.strip().rstrip("/"), "public")
    page_url = (page_url or "").strip()
    parts = urlsplit(page_url)
    base = urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")).rstrip("/")
    if not parts.hostname or not is_loopback(parts.hostname):
        return JoinBase(base, "page")
    bound = (bound or "").strip().strip("[]")
    if bound and bound not in {"0.0.0.0", "::"}:
        if is_loopback(bound):
            return JoinBase(base, "bound")
        addresses = [bound]
    candidates = [_with_host(page_url, a).rstrip("/") for a in addresses]
    if not candidates:
        return JoinBase(base, "loopback")
    return JoinBase(candidates[0], "network", tuple(candidates[1:]))


def interface_addresses() -> dict[str, list[str]]:
    """This machine's addresses by interface, read from the interfaces: nothing is sent anywhere.

    With psutil (the app's extra installs it): every interface's IPv4 and IPv6 addresses. Without
    it: the addresses the host's own name resolves to (``/etc/hosts`` or the resolver), under the
    interface name ``"hostname"``. An empty dict when neither can be read.
    """
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            return {
                name: [a.address for a in entries if a.family in (socket.AF_INET, socket.AF_INET6)]
                for name, entries in psutil.net_if_addrs().items()
            }
        except OSError:
            pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:
        return {}
    return {"hostname": [str(info[4][0]) for info in infos]}
