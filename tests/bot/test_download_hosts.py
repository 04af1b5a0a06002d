"""Downloads kept to the hosts the caller names: the link and every redirect hop are checked before anything is sent
there, whatever else the download's limits say."""

from __future__ import annotations

import pytest

from bot.hosts.download import MAX_REDIRECTS, Downloader, DownloadFailed, Limits, host_of
from tests.support.hostile_host import Body, HostileHost, Redirect
from tests.support.waits import CEILING

# No test here checks the deadline or the rate (the image, bulk and rules tests do, against hosts that hang or drip):
# out of their way on a busy machine.
LIMITS = Limits(deadline=CEILING, min_rate=1024, grace=CEILING, max_bytes=1 << 20)


@pytest.fixture
def hosts():
    with HostileHost() as first, HostileHost() as second:
        yield first, second


@pytest.fixture
def downloader():
    with Downloader({"User-Agent": "Cyclebot tests"}) as own:
        yield own


def test_a_redirect_hop_to_another_host_is_refused_before_it_is_asked(hosts, downloader):
    home, elsewhere = hosts
    elsewhere.routes["/x"] = Body(b"secret")
    home.routes["/a"] = Redirect("/b")
    home.routes["/b"] = Redirect(f"{elsewhere.base_url}/x")

    with pytest.raises(DownloadFailed) as refused:
        downloader.get(f"{home.base_url}/a", LIMITS, allowed_hosts={host_of(home.base_url)})

    assert str(refused.value) == f"refusing {host_of(elsewhere.base_url)}: not an allowed host"
    assert home.requested == ["/a", "/b"] and elsewhere.requested == []


def test_redirects_within_the_allowed_hosts_are_followed_and_where_the_body_came_from_is_told(hosts, downloader):
    home, mirror = hosts
    mirror.routes["/x"] = Body(b"the body", "text/plain; charset=utf-8")
    home.routes["/a"] = Redirect(f"{mirror.base_url}/x", status=307)
    heard = []

    body = downloader.get(
        f"{home.base_url}/a",
        LIMITS,
        allowed_hosts={host_of(home.base_url), host_of(mirror.base_url)},
        on_response=lambda url, headers: heard.append((url, headers["Content-Type"])),
    )

    assert body == b"the body" and heard == [(f"{mirror.base_url}/x", "text/plain; charset=utf-8")]


def test_a_link_to_a_file_or_another_scheme_is_refused(downloader):
    for url in ("file:///etc/passwd", "ftp://127.0.0.1/x", "/dev/zero"):
        with pytest.raises(DownloadFailed, match="not a web address"):
            downloader.get(url, LIMITS, allowed_hosts={"127.0.0.1"})


def test_a_redirect_loop_ends(hosts, downloader):
    home, _ = hosts
    home.routes["/a"] = Redirect("/a")

    with pytest.raises(DownloadFailed, match=f"more than {MAX_REDIRECTS} redirects"):
        downloader.get(f"{home.base_url}/a", LIMITS, allowed_hosts={host_of(home.base_url)})

    assert len(home.requested) == MAX_REDIRECTS + 1
