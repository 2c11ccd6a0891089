"""A throwaway PostgreSQL server for the tests: Debian's binaries, a cluster in a temporary folder.

PostgreSQL refuses to run as root, so as root the cluster belongs to, and runs as, the
``postgres`` user of Debian's ``postgresql`` package (``make test`` installs it).
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import pwd
import shutil
import subprocess
import tempfile

from browser_support import free_port

PG_BIN = pathlib.Path(os.environ.get("NDCG_PG_BIN", "/usr/lib/postgresql/15/bin"))


def _as_postgres(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


@contextlib.contextmanager
def postgres_server():
    """Start a cluster on a free loopback port; yield its SQLAlchemy URL; stop and delete it."""
    initdb, pg_ctl = PG_BIN / "initdb", PG_BIN / "pg_ctl"
    if not (initdb.exists() and pg_ctl.exists()):
        raise RuntimeError(
            f"PostgreSQL binaries not found in {PG_BIN}: install Debian's 'postgresql' "
            "(make test does: make postgresql) or set NDCG_PG_BIN"
        )
    root = pathlib.Path(tempfile.mkdtemp(prefix="ndcg-pg-"))
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError as err:
            raise RuntimeError("running as root needs the 'postgres' user of Debian's postgresql") from err
        os.chown(root, user.pw_uid, user.pw_gid)
    data, port = root / "data", free_port()
    log = root / "server.log"
    run = {"check": True, "capture_output": True, "text": True}
    subprocess.run(
        _as_postgres(
            [str(initdb), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]
        ),
        **run,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    try:
        subprocess.run(
            _as_postgres([str(pg_ctl), "-D", str(data), "-l", str(log), "-o", options, "-w", "start"]), **run
        )
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([str(pg_ctl), "-D", str(data), "-m", "immediate", "-w", "stop"]), capture_output=True
        )
        shutil.rmtree(root, ignore_errors=True)
