"""Debian's nginx in front of local app processes, on the repository's own proxy config.

``deploy/nginx.conf`` is the file ``compose.yaml`` mounts into the proxy container. Here it runs
unchanged but for three things: its upstream servers (``app1:8501`` ...) become local ports, it
listens on a free loopback port, and its cache of static files is a folder of its own. It is
wrapped in a top-level config of its own (pid file, logs and temporary files in a temporary
folder), so nothing of the system's nginx is used or touched.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

from browser_support import ROOT, free_port, wait_until_healthy

SITE = ROOT / "deploy" / "nginx.conf"
NGINX = os.environ.get("NDCG_NGINX", "/usr/sbin/nginx")
_REPLICAS = re.compile(r"(# replicas: begin\n)(.*?)(\s*# replicas: end)", re.S)


def upstream_servers(site: str) -> list[str]:
    """The ``host:port`` of each ``server`` line between the config's replicas markers."""
    block = _REPLICAS.search(site)
    if block is None:
        raise RuntimeError(f"{SITE} has no '# replicas: begin' ... '# replicas: end' block")
    return re.findall(r"^\s*server\s+(\S+)", block.group(2), re.M)


def local_config(site: str, ports: list[int], listen: int, folder: pathlib.Path) -> str:
    """A whole nginx.conf: ``site`` with its replicas on ``127.0.0.1:ports`` and listening on
    ``127.0.0.1:listen``; every file nginx writes under ``folder``."""
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;\n" for p in ports)
    site = _REPLICAS.sub(lambda m: m.group(1) + servers + m.group(3).lstrip("\n"), site)
    site, n = re.subn(r"^(\s*)listen 80;", rf"\1listen 127.0.0.1:{listen};", site, flags=re.M)
    if n != 1:
        raise RuntimeError(f"{SITE} should have one 'listen 80;'")
    site = site.replace("/var/cache/nginx/ndcg-static", str(folder / "static-cache"))
    user = "user root;\n" if os.geteuid() == 0 else ""
    paths = "".join(
        f"    {name}_temp_path {folder / name};\n"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
        "events { worker_connections 4096; }\n"
        f"http {{\n    access_log off;\n{paths}{site}\n}}\n"
    )


def nginx_binary() -> str:
    """Debian's nginx, installed with apt-get when missing (as root, or with sudo); RuntimeError when
    that cannot be done."""
    if pathlib.Path(NGINX).exists():
        return NGINX
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    print("nginx is missing: installing Debian's nginx (apt-get install -y nginx)", flush=True)
    done = subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "nginx"], capture_output=True, text=True)
    if not pathlib.Path(NGINX).exists():
        raise RuntimeError(
            f"nginx is not at {NGINX} and could not be installed "
            f"(apt-get said: {done.stderr.strip()[-300:]}); "
            "install Debian's nginx (make nginx) or set NDCG_NGINX"
        )
    return NGINX


@contextlib.contextmanager
def nginx_proxy(ports: list[int], timeout: float = 20.0):
    """Run nginx on ``deploy/nginx.conf`` in front of ``127.0.0.1:ports``; yield its base URL; stop it
    by its PID."""
    binary = nginx_binary()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="ndcg-nginx-"))
    listen = free_port()
    conf = folder / "nginx.conf"
    conf.write_text(local_config(SITE.read_text(), ports, listen, folder))
    test = subprocess.run([binary, "-t", "-p", str(folder), "-c", str(conf)], capture_output=True, text=True)
    if test.returncode:
        raise RuntimeError(f"nginx refuses the config: {test.stderr.strip()}")
    proc = subprocess.Popen(
        [binary, "-p", str(folder), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{listen}"
    try:
        why = f"nginx did not start; see {folder / 'error.log'}"
        wait_until_healthy(url, proc, timeout, 0.1, why, path="/nginx-health")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(folder, ignore_errors=True)
