"""The students' join address (issue 26, part 3): localhost is replaced by the machine's network address.

The pure functions of ``ndcg_core.classroom.address`` are fed interface lists as psutil or the
resolver would give them; the launcher's text (``scripts/serve.py``) is checked the same way.
"""

from __future__ import annotations

import pathlib
import sys

import pytest

from ndcg_core.classroom.address import is_loopback, join_base, network_addresses

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import serve

#: A laptop in a lecture hall: loopback, Wi-Fi (with a link-local IPv6), a Docker bridge.
LAPTOP = {
    "lo": ["127.0.0.1", "::1"],
    "docker0": ["172.17.0.1"],
    "wlan0": ["192.168.1.23", "fe80::1c2d:3eff:fe4f:5a6b%wlan0", "2001:db8::23"],
}


@pytest.mark.parametrize(
    "host",
    ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "app.localhost", "localhost."],
)
def test_loopback_hosts(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["192.168.1.23", "ndcg.example.org", "2001:db8::1", "", "10.0.0.1"])
def test_other_hosts_are_not_loopback(host):
    assert not is_loopback(host)


def test_network_addresses_skip_loopback_and_link_local_and_put_wifi_before_bridges_and_ipv6():
    assert network_addresses(LAPTOP) == ["192.168.1.23", "172.17.0.1", "2001:db8::23"]


def test_link_local_and_loopback_only_leave_nothing():
    only_local = {"lo": ["127.0.0.1", "::1"], "eth0": ["169.254.10.20", "fe80::1%eth0"], "x": ["not-an-ip"]}
    assert network_addresses(only_local) == []


def test_a_public_ipv4_comes_after_a_private_one_and_duplicates_once():
    # (203.0.113.0/24 and the other documentation ranges count as private for Python: a real public one)
    interfaces = {"eth0": ["81.2.69.160"], "eth1": ["10.1.2.3", "81.2.69.160"]}
    assert network_addresses(interfaces) == ["10.1.2.3", "81.2.69.160"]


def test_localhost_page_gets_the_network_address_with_its_port_and_path():
    base = join_base("http://localhost:8501/class", None, network_addresses(LAPTOP))
    assert base.source == "network" and base.reachable
    assert base.url == "http://192.168.1.23:8501/class"
    assert base.others == ("http://172.17.0.1:8501/class", "http://[2001:db8::23]:8501/class")


def test_ipv6_loopback_page_and_an_ipv6_only_network():
    base = join_base("http://[::1]:8600/", None, ["2001:db8::5"])
    assert base.url == "http://[2001:db8::5]:8600" and base.source == "network"


def test_public_url_wins_over_everything():
    base = join_base("http://localhost:8501/class", "https://ndcg.example.org/app/", ["192.168.1.23"])
    assert base.url == "https://ndcg.example.org/app" and base.source == "public"


def test_a_page_opened_on_a_reachable_address_keeps_it():
    base = join_base("http://192.168.1.23:8501/class?room=ABC", None, ["10.0.0.9"])
    assert base.url == "http://192.168.1.23:8501/class" and base.source == "page"


def test_localhost_and_no_network_address_is_flagged_unreachable():
    base = join_base("http://127.0.0.1:8501/class", None, [])
    assert base.url == "http://127.0.0.1:8501/class" and base.source == "loopback"
    assert not base.reachable


def test_a_server_listening_on_loopback_only_leaves_no_address_for_phones():
    base = join_base("http://localhost:8501/class", None, ["192.168.1.23"], bound="127.0.0.1")
    assert base.source == "bound" and not base.reachable and base.url == "http://localhost:8501/class"


def test_a_server_listening_on_one_address_offers_that_one():
    base = join_base("http://localhost:8501/class", None, ["192.168.1.23", "10.0.0.2"], bound="10.0.0.2")
    assert base.url == "http://10.0.0.2:8501/class" and base.others == ()
    everywhere = join_base("http://localhost:8501/class", None, ["192.168.1.23"], bound="0.0.0.0")
    assert everywhere.url == "http://192.168.1.23:8501/class"


def test_the_launcher_prints_the_network_address_beside_the_local_one():
    text = serve.addresses_text(["--server.port", "8600"], LAPTOP, None)
    assert "http://localhost:8600" in text
    network = next(line for line in text.splitlines() if line.startswith("Network:"))
    assert "http://192.168.1.23:8600" in network


def test_the_launcher_says_when_there_is_no_network_address():
    text = serve.addresses_text(["--server.port=8600"], {"lo": ["127.0.0.1"]}, None)
    assert "none found" in text and "NDCG_PUBLIC_URL" in text


def test_the_launcher_prints_the_public_url_when_set():
    text = serve.addresses_text([], LAPTOP, "https://ndcg.example.org")
    assert "http://localhost:8501" in text and "https://ndcg.example.org" in text
    assert "192.168.1.23" not in text


def test_the_launcher_bound_to_loopback_offers_no_network_address():
    text = serve.addresses_text(["--server.address", "127.0.0.1"], LAPTOP, None)
    assert "192.168.1.23" not in text and "127.0.0.1 only" in text
