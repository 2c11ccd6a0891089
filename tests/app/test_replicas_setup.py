"""Issue 30, part 5: ``compose.yaml`` (app replicas on one PostgreSQL behind nginx) and its proxy
config ``deploy/nginx.conf``.

Docker's engine is not on this machine, so the compose file is read as YAML and checked for what
the deployment needs; the proxy config runs for real in Debian's nginx (``tests/nginx_support.py``,
the same wrapper ``make bench-class`` uses) in front of two small websocket servers standing in for
two replicas: session affinity by cookie, the websocket upgraded through, the client's address
appended to ``X-Forwarded-For``.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
from collections import Counter
from pathlib import Path

import pytest
import yaml
from browser_support import free_port
from nginx_support import SITE, nginx_proxy, upstream_servers
from websockets.datastructures import Headers
from websockets.http11 import Response
from websockets.sync.client import connect
from websockets.sync.server import serve

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())
APPS = ("app1", "app2")


def app_env(name: str) -> dict[str, str]:
    return COMPOSE["services"][name]["environment"]


def read_by_the_app() -> set[str]:
    """Every NDCG_ / STREAMLIT_ variable named in the app's code (what it can read)."""
    names: set[str] = set()
    for folder in ("ndcg_core", "views", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            names |= set(re.findall(r"\"(NDCG_[A-Z_]+)\"", path.read_text()))
    return names


def test_compose_runs_two_app_replicas_one_postgresql_and_a_proxy():
    services = COMPOSE["services"]
    assert set(services) == {"db", "app1", "app2", "proxy"}
    assert services["db"]["image"].startswith("postgres:15")
    assert "pgdata:/var/lib/postgresql/data" in services["db"]["volumes"]
    assert "pgdata" in COMPOSE["volumes"]
    for name in APPS:
        app = services[name]
        assert app["build"] == "." and app["depends_on"]["db"]["condition"] == "service_healthy"
        assert "/_stcore/health" in " ".join(app["healthcheck"]["test"])
    assert services["proxy"]["image"].startswith("nginx:")
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in services["proxy"]["volumes"]
    assert services["proxy"]["depends_on"] == {name: {"condition": "service_healthy"} for name in APPS}
    assert all("healthcheck" in services[name] for name in services)
    assert "/nginx-health" in " ".join(services["proxy"]["healthcheck"]["test"])


def test_every_replica_reads_the_one_database_the_public_address_and_one_trusted_proxy():
    for name in APPS:
        env = app_env(name)
        assert re.fullmatch(
            r"postgresql\+psycopg://ndcg:\$\{POSTGRES_PASSWORD:\?[^}]+\}@db:5432/ndcg",
            env["NDCG_DATABASE_URL"],
        )
        assert env["NDCG_PUBLIC_URL"].startswith("${NDCG_PUBLIC_URL:-http")
        assert env["NDCG_TRUSTED_PROXIES"] == "1"  # nginx appends one entry to X-Forwarded-For
        # One cookie secret for all: Streamlit's XSRF cookie stays valid on another replica.
        assert env["STREAMLIT_SERVER_COOKIE_SECRET"].startswith("${NDCG_COOKIE_SECRET:?")
    assert app_env("app1") == app_env("app2")
    assert {k for k in app_env("app1") if k.startswith("NDCG_")} <= read_by_the_app()
    db = COMPOSE["services"]["db"]["environment"]
    assert (db["POSTGRES_USER"], db["POSTGRES_DB"]) == ("ndcg", "ndcg")


def test_the_proxy_config_names_each_replica_and_upgrades_websockets():
    site = SITE.read_text()
    assert upstream_servers(site) == [f"{name}:8501" for name in APPS]
    site = re.sub(r"#.*", "", site)  # the directives, not the comments
    assert re.search(r"hash \$ndcg_route consistent;", site)
    assert "ip_hash" not in site  # a lecture hall behind one NAT would all land on one replica
    assert re.search(r"proxy_set_header Upgrade \$http_upgrade;", site)
    assert re.search(r"proxy_set_header Connection \$connection_upgrade;", site)
    assert re.search(r"proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;", site)


class Replica:
    """A stand-in replica: plain HTTP answers its name and the headers it got; a websocket echoes
    its name and the upgrade request's headers."""

    def __init__(self, name: str) -> None:
        self.name, self.port = name, free_port()

        def answer(connection, request):
            if request.headers.get("Upgrade", "").lower() == "websocket":
                return None  # go on with the websocket handshake
            body = json.dumps({"replica": self.name, "headers": dict(request.headers.raw_items())}).encode()
            return Response(
                200,
                "OK",
                Headers({"Content-Type": "application/json", "Content-Length": str(len(body))}),
                body,
            )

        def echo(ws):
            ws.send(json.dumps({"replica": self.name, "headers": dict(ws.request.headers.raw_items())}))

        self.server = serve(echo, "127.0.0.1", self.port, process_request=answer)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def proxy():
    replicas = [Replica("one"), Replica("two")]
    try:
        with nginx_proxy([r.port for r in replicas]) as url:
            yield url
    finally:
        for r in replicas:
            r.server.shutdown()


def get(url: str, path: str = "/class", headers: dict[str, str] | None = None):
    host = url.removeprefix("http://")
    conn = http.client.HTTPConnection(host, timeout=10)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    return json.loads(response.read()), response.headers.get_all("Set-Cookie") or []


def test_a_browser_stays_on_the_replica_its_first_page_came_from(proxy):
    landed = Counter()
    for _ in range(40):  # 40 new browsers
        first, cookies = get(proxy)
        (cookie,) = cookies
        route = re.fullmatch(r"ndcg_route=([0-9a-f]{32}); Path=/; HttpOnly; SameSite=Lax", cookie)
        assert route, cookie
        again = [get(proxy, "/_stcore/health", {"Cookie": f"ndcg_route={route.group(1)}"}) for _ in range(5)]
        assert {body["replica"] for body, _ in again} == {first["replica"]}
        assert all(not set_cookie for _, set_cookie in again)  # handed out once
        landed[first["replica"]] += 1
    # Spread over both replicas (40 fair coin flips all one way: probability 2 * 2**-40).
    assert set(landed) == {"one", "two"}


def test_the_websocket_is_upgraded_through_to_the_same_replica(proxy):
    for phone in range(10):
        cookie = {"Cookie": f"ndcg_route=phone-{phone}"}
        page, _ = get(proxy, headers=cookie)
        with connect(proxy.replace("http", "ws") + "/_stcore/stream", additional_headers=cookie) as ws:
            hello = json.loads(ws.recv(timeout=10))
        assert hello["replica"] == page["replica"]
        assert hello["headers"]["Upgrade"].lower() == "websocket"
        assert hello["headers"]["Connection"].lower() == "upgrade"


def test_the_client_address_is_appended_for_one_trusted_proxy(proxy):
    body, _ = get(proxy, headers={"X-Forwarded-For": "6.6.6.6"})  # what a client writes itself
    assert body["headers"]["X-Forwarded-For"] == "6.6.6.6, 127.0.0.1"  # the last entry is nginx's
    plain, _ = get(proxy)
    assert plain["headers"]["X-Forwarded-For"] == "127.0.0.1"
    assert plain["headers"]["Connection"] == "close"  # no upgrade asked: none passed on


def test_the_proxy_keeps_static_files_so_new_phones_do_not_cost_the_replicas(proxy):
    host = proxy.removeprefix("http://")
    seen = []
    for phone in range(6):  # new phones, on either replica
        conn = http.client.HTTPConnection(host, timeout=10)
        conn.request("GET", "/static/js/index.abc123.js", headers={"Cookie": f"ndcg_route=static-{phone}"})
        response = conn.getresponse()
        seen.append((json.loads(response.read())["replica"], response.headers["X-Cache-Status"]))
    # The first phone's copy came from a replica; every later phone got that same copy from the proxy.
    assert seen[0][1] == "MISS"
    assert seen[1:] == [(seen[0][0], "HIT")] * 5
