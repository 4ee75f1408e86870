"""The cluster of hosts under a short season (issue 29): the site built as network
namespaces (lb, web1, web2, db, redis, work1, work2, mail, ``deploy/cluster/``), two
minutes of play through the balancer while ``web1`` is SIGKILLed and started again and
Redis's link is cut for 20 s, then every invariant of ``deploy/cluster/verify.py``.

It needs root (network namespaces), HAProxy, PostgreSQL 15's binaries, redis-server and
gnubg: locally a missing one skips, under ``CI=true`` it fails. One cluster runs at a
time on a machine (``deploy.cluster.cluster.LOCK_FILE``). The full ten-minute season,
with every fault, is the benchmark: ``python -m deploy.cluster.season``.
"""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

import pytest

from deploy.cluster import hosts, season
from deploy.cluster.cluster import HAPROXY, PG_BIN

WORKDIR = Path("/tmp/bg-cluster-test")


def missing() -> str | None:
    """What this machine lacks to build the cluster, or None."""
    problem = hosts.capable()
    if problem:
        return problem
    for tool in (HAPROXY, str(PG_BIN / "postgres"), str(PG_BIN / "initdb")):
        if not os.access(tool, os.X_OK):
            return f"{tool} is not installed"
    for name in ("redis-server", "setpriv"):
        if shutil.which(name) is None:
            return f"{name} is not installed"
    if shutil.which("gnubg", path=f"{os.environ.get('PATH', '')}:/usr/games") is None:
        return "gnubg is not installed"
    return None


@pytest.fixture
def cluster_capable() -> None:
    problem = missing()
    if problem is None:
        return
    if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}:
        pytest.fail(f"the cluster: {problem} (CI=true: a missing capability is a failure)")
    pytest.skip(f"the cluster: {problem}")


@pytest.mark.xdist_group("cluster")
def test_a_short_season_with_a_web_host_killed_and_redis_cut_loses_nothing(
    cluster_capable: None, tmp_path: Path
) -> None:
    args = argparse.Namespace(
        minutes=2.0,
        players=60,
        clients=4,
        faults=["web1", "redis"],
        bench_seconds=0,
        workdir=WORKDIR,
        keep=tmp_path / "kept",
    )

    report = season.run(args, say=print)

    failed = [check for check in report["checks"] if not check["ok"]]
    assert not failed, "\n".join(f"{c['name']}: {c['detail']}" for c in failed)
    assert [f["fault"] for f in report["faults"]] == ["web1 SIGKILL", "redis link down 20 s"]
    assert not report["fault_errors"]
    assert report["server_errors"]["outside_faults"] == 0, report["server_errors"]
    assert report["actions"].get("move:ack", 0) > 50, report["actions"]
    assert report["actions"].get("challenge:ack", 0) > 0, report["actions"]
    assert report["websocket"]["pushes"] > 0, "no push reached a socket through lb"
    assert not WORKDIR.exists(), "the cluster's work directory outlived its tear-down"
    assert not hosts.namespaces(), "the cluster's hosts outlived its tear-down"
