"""The cluster's hosts: Linux network namespaces joined by veth pairs to one bridge.

Each host is a namespace ``bgc-<name>`` with one interface ``eth0`` on the private
network 10.77.29.0/24; the bridge ``bgc0`` holds 10.77.29.1, so this machine (the load
script, the tests) reaches the load balancer, and an operator any host. Cutting a host
off is setting its veth's bridge end down: its processes live on, unreachable, as behind
a pulled cable. Everything here runs ``ip`` (iproute2) as root.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass

NETWORK = "10.77.29"
PREFIX_LENGTH = 24
BRIDGE = "bgc0"
BRIDGE_ADDRESS = f"{NETWORK}.1"
NAMESPACE_PREFIX = "bgc-"

#: Host name -> last byte of its address.
ADDRESSES = {
    "lb": 10,
    "web1": 11,
    "web2": 12,
    "db": 20,
    "redis": 30,
    "work1": 41,
    "work2": 42,
    "mail": 50,
}


@dataclass(frozen=True)
class Host:
    """One host of the cluster: its namespace, address and the bridge end of its link."""

    name: str

    @property
    def address(self) -> str:
        return f"{NETWORK}.{ADDRESSES[self.name]}"

    @property
    def namespace(self) -> str:
        return f"{NAMESPACE_PREFIX}{self.name}"

    @property
    def link(self) -> str:
        """The veth end on the bridge (this machine's side): at most 15 characters."""
        return f"vbgc-{self.name}"

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` run inside this host."""
        return ["ip", "netns", "exec", self.namespace, *argv]


HOSTS = {name: Host(name) for name in ADDRESSES}


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


def capable() -> str | None:
    """Why the cluster cannot be built here, or None: root and network namespaces."""
    if os.geteuid() != 0:
        return "the cluster needs root (network namespaces)"
    probe = f"{NAMESPACE_PREFIX}probe{os.getpid()}"
    made = ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    ip("netns", "del", probe, check=False)
    return None


def namespaces() -> list[str]:
    """The cluster's namespaces that exist now (a crashed run's too)."""
    listed = ip("netns", "list", check=False).stdout.split("\n")
    names = [line.split()[0] for line in listed if line.strip()]
    return [name for name in names if name.startswith(NAMESPACE_PREFIX)]


def kill_namespace_processes(namespace: str) -> None:
    """SIGKILL every process left in ``namespace``: only the cluster's own run there."""
    for _ in range(50):
        pids = [int(p) for p in ip("netns", "pids", namespace, check=False).stdout.split()]
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.1)


def destroy_network() -> None:
    """Remove every namespace of the cluster, its processes and the bridge; idempotent."""
    for namespace in namespaces():
        kill_namespace_processes(namespace)
        ip("netns", "del", namespace, check=False)
    for host in HOSTS.values():
        ip("link", "del", host.link, check=False)
    ip("link", "del", BRIDGE, check=False)


def create_network() -> None:
    """The bridge and every host on it, each with its loopback and ``eth0`` up."""
    ip("link", "add", BRIDGE, "type", "bridge")
    ip("addr", "add", f"{BRIDGE_ADDRESS}/{PREFIX_LENGTH}", "dev", BRIDGE)
    ip("link", "set", BRIDGE, "up")
    for host in HOSTS.values():
        ns = host.namespace
        ip("netns", "add", ns)
        ip("link", "add", host.link, "type", "veth", "peer", "name", "eth0", "netns", ns)
        ip("link", "set", host.link, "master", BRIDGE)
        ip("link", "set", host.link, "up")
        ip("-n", ns, "addr", "add", f"{host.address}/{PREFIX_LENGTH}", "dev", "eth0")
        ip("-n", ns, "link", "set", "eth0", "up")
        ip("-n", ns, "link", "set", "lo", "up")
        ip("-n", ns, "route", "add", "default", "via", BRIDGE_ADDRESS)


def set_link(host: Host, up: bool) -> None:
    """Plug or pull ``host``'s cable (its veth's bridge end)."""
    ip("link", "set", host.link, "up" if up else "down")
