"""Print how many CPUs this process may use: `make test` starts that many pytest-xdist workers.

The CPUs it may run on (its affinity: a container's cpuset, ``taskset``), lowered by a cgroup CPU
quota (``docker run --cpus=2``, a CI runner's limit), at least 1. Not the machine's core count,
which is what ``os.cpu_count()`` and pytest-xdist's ``-n auto`` read (through psutil): on a CI
runner given 2 cores of a 90-core host, ``-n auto`` would start dozens of workers on those 2.
Standard library only (it runs before anything is installed).
"""

from __future__ import annotations

import math
import os
import pathlib

CGROUP = pathlib.Path("/sys/fs/cgroup")
PROC_CGROUP = pathlib.Path("/proc/self/cgroup")


def _quota_v2(root: pathlib.Path, own: str) -> float | None:
    """The tightest ``cpu.max`` quota (in CPUs) from this process's cgroup up to the root."""
    tightest = None
    folder = root / own.lstrip("/")
    while True:
        try:
            quota, period = (folder / "cpu.max").read_text().split()[:2]
            if quota != "max":
                cpus = int(quota) / int(period)
                tightest = cpus if tightest is None else min(tightest, cpus)
        except (OSError, ValueError):
            pass
        if folder == root or root not in folder.parents:
            return tightest
        folder = folder.parent


def _quota_v1(root: pathlib.Path, own: str) -> float | None:
    """The ``cpu`` controller's CFS quota (in CPUs) of this process's cgroup, or of the root."""
    for folder in (root / "cpu" / own.lstrip("/"), root / "cpu"):
        try:
            quota = int((folder / "cpu.cfs_quota_us").read_text())
            period = int((folder / "cpu.cfs_period_us").read_text())
        except (OSError, ValueError):
            continue
        return quota / period if quota > 0 and period > 0 else None
    return None


def affinity() -> int:
    """The CPUs the scheduler may run this process on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def usable_cpus(
    cpus: int | None = None, root: pathlib.Path = CGROUP, proc_cgroup: pathlib.Path = PROC_CGROUP
) -> int:
    """The CPUs this process may use: ``cpus`` (its affinity unless given), lowered by a cgroup v2 or
    v1 quota read under ``root`` for the cgroups ``proc_cgroup`` names; at least 1."""
    cpus = affinity() if cpus is None else cpus
    unified, cpu = "", ""
    try:
        for line in proc_cgroup.read_text().splitlines():
            number, controllers, path = line.split(":", 2)
            if number == "0" and not controllers:  # the unified (v2) hierarchy
                unified = path
            elif "cpu" in controllers.split(","):  # v1's cpu controller
                cpu = path
    except (OSError, ValueError):
        pass
    v2 = (root / "cgroup.controllers").exists()
    quota = _quota_v2(root, unified) if v2 else _quota_v1(root, cpu)
    if quota is not None:
        cpus = min(cpus, math.ceil(quota))
    return max(1, cpus)


if __name__ == "__main__":
    print(usable_cpus())
