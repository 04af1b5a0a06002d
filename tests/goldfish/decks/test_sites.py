"""Decks read from Archidekt and TappedOut, over fakes on 127.0.0.1 with every fault: links matched by their exact
host (nothing sent for any other), a 404, a web page, a body over 2 MB, no answer in time, redirects kept on the
site, one read a second to each site; and uploaded files read within their caps."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.goldfish.decks import COMMANDER, MAIN, SIDEBOARD, DeckLink, DeckProblem, DeckSites, read_link
from bot.goldfish.decks import sites as sites_module
from tests.support.fake_deck_sites import MAYBEBOARD, PAGE, FakeArchidekt, FakeTappedOut
from tests.support.hostile_host import Body, Drip, HostileHost, Huge, Redirect
from tests.support.waits import HANG, SLACK

WRAITHS = [(1, "Gavi, Nest Warden", "Commander"), (4, "Street Wraith", "Creature"), (55, "Swamp", "Land")]
WRAITHS += [(2, "Flame Jet", "Sideboard"), (1, "Bloated Toad", MAYBEBOARD)]


@pytest.fixture
def archidekt():
    with FakeArchidekt() as fake:
        fake.add_deck(7, "Wraiths <@everyone>", WRAITHS)
        yield fake


@pytest.fixture
def tappedout():
    with FakeTappedOut() as fake:
        fake.add_deck("wraiths", "1x Gavi, Nest Warden *CMDR*\n4x Street Wraith\n55x Swamp\n\nSideboard:\n2x Flame Jet")
        yield fake


@pytest.fixture
async def sites(archidekt, tappedout):
    reader = DeckSites(archidekt.base_url, tappedout.base_url)
    yield reader
    await asyncio.to_thread(reader.close)


def sections(text) -> dict[str, list[tuple[int, str]]]:
    found: dict[str, list[tuple[int, str]]] = {}
    for line in text.lines:
        found.setdefault(line.section, []).append((line.count, line.name))
    return found


EXPECTED = {COMMANDER: [(1, "Gavi, Nest Warden")], MAIN: [(4, "Street Wraith"), (55, "Swamp")]}
EXPECTED |= {SIDEBOARD: [(2, "Flame Jet")]}


async def test_an_archidekt_deck_keeps_its_commander_and_sideboard_and_drops_its_maybeboard(sites, archidekt):
    text = await sites.read(read_link("https://archidekt.com/decks/7/wraiths-and-more"))
    assert sections(text) == EXPECTED
    assert text.title == "Wraiths <@everyone>"
    assert text.lines[1].card_set == "xyz" and text.lines[1].number == "2"  # the printing, kept
    assert archidekt.requested == ["/api/decks/7/"]


async def test_a_tappedout_deck_is_read_from_its_text_export(sites, tappedout):
    text = await sites.read(read_link("<https://www.tappedout.net/mtg-decks/wraiths/?cb=1>"))
    assert sections(text) == EXPECTED
    assert tappedout.requested == ["/mtg-decks/wraiths/?fmt=txt"]


@pytest.mark.parametrize(
    "link",
    [
        "https://archidekt.com.evil.example/decks/7/",
        "https://evilarchidekt.com/decks/7/",
        "https://archidekt.com@evil.example/decks/7/",
        "https://notappedout.net/mtg-decks/wraiths/",
        "https://tappedout.net.example/mtg-decks/wraiths/",
        "https://archidekt.com:8443/decks/7/",
        "ftp://archidekt.com/decks/7/",
        "javascript:alert(1)//archidekt.com/decks/7",
        "https://127.0.0.1/decks/7/",
        "https://www.scryfall.com/decks/7",
    ],
)
async def test_any_other_host_is_refused_in_one_line_with_no_request(link, sites, archidekt, tappedout):
    with pytest.raises(DeckProblem) as refused:
        read_link(link)
    assert "\n" not in str(refused.value)
    assert archidekt.requested == [] and tappedout.requested == []


async def test_the_settings_own_host_is_refused_like_any_other(archidekt):
    with pytest.raises(DeckProblem, match="other sites"):
        read_link(f"{archidekt.base_url}/decks/7/")
    assert archidekt.requested == []


@pytest.mark.parametrize(
    ("link", "site"),
    [("https://moxfield.com/decks/AbCdEf", "Moxfield"), ("https://www.mtggoldfish.com/deck/123#paper", "MTGGoldfish")],
)
def test_sites_that_refuse_programs_are_answered_with_how_to_export(link, site):
    with pytest.raises(DeckProblem) as refused:
        read_link(link)
    assert str(refused.value).startswith(f"{site} doesn't let programs read its decks: export the list")


@pytest.mark.parametrize(
    "link",
    ["https://archidekt.com/search/decks", "https://archidekt.com/decks/notanumber", "https://tappedout.net/users/x"],
)
def test_a_sites_page_that_is_not_a_deck_says_so(link):
    with pytest.raises(DeckProblem, match="doesn't name a deck"):
        read_link(link)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (Body(b'{"detail":"Not found."}', "application/json", 404), "no public deck at that link"),
        (Body(b"{}", "application/json", 403), "no public deck at that link"),
        (Body(b"busy", "text/plain", 503), "HTTP 503"),
        (Body(PAGE, "text/html"), "web page"),
        (Body(PAGE, "application/json"), "web page"),
        (Body(b'{"cards": "no"}', "application/json"), "isn't a deck I can read"),
        (Huge(3 * 1024 * 1024, declared=True), "more than 2 MB"),
        (Huge(3 * 1024 * 1024, declared=False), "more than 2 MB"),
    ],
    ids=["404", "403", "503", "html", "html as json", "not a deck", "huge declared", "huge"],
)
async def test_a_site_fault_is_said_in_one_line(answer, said, sites, archidekt):
    archidekt.fail("/api/decks/7/", answer)
    with pytest.raises(DeckProblem, match=said) as refused:
        await sites.read(DeckLink("Archidekt", "7"))
    assert "\n" not in str(refused.value)


async def test_a_site_that_does_not_answer_in_time_is_let_go(monkeypatch, sites, tappedout):
    monkeypatch.setattr(sites_module, "READ_SECONDS", 1.0)
    tappedout.fail("/mtg-decks/wraiths/?fmt=txt", Drip(b"4 Swamp\n" * 10, seconds=HANG))
    started = time.monotonic()
    with pytest.raises(DeckProblem, match="didn't answer within 1 s"):
        await sites.read(DeckLink("TappedOut", "wraiths"))
    assert time.monotonic() - started < 1.0 + SLACK


async def test_a_redirect_is_followed_on_the_same_site_and_refused_off_it(sites, archidekt, tappedout):
    archidekt.fail("/api/decks/8/", Redirect("/api/decks/7/"))
    assert sections(await sites.read(DeckLink("Archidekt", "8"))) == EXPECTED

    archidekt.fail("/api/decks/9/", Redirect(f"{tappedout.base_url}/mtg-decks/wraiths/?fmt=txt"))
    with pytest.raises(DeckProblem, match="sent that link elsewhere"):
        await sites.read(DeckLink("Archidekt", "9"))
    assert tappedout.requested == []


async def test_each_site_is_asked_at_most_once_a_second_whoever_asks(sites, archidekt, tappedout):
    reads = [DeckLink("Archidekt", "7"), DeckLink("Archidekt", "7"), DeckLink("TappedOut", "wraiths")]
    await asyncio.gather(*(sites.read(link) for link in reads))
    first, second = sorted(archidekt.times)
    assert second - first >= 0.9  # the second Archidekt read waited its turn
    assert tappedout.times[0] - first < 0.9  # another site's read did not


async def test_an_uploaded_file_is_read_from_its_host_within_its_caps(sites):
    with HostileHost() as cdn:
        data = "4 Street Wraith\n56 Swamp".encode("utf-16")
        cdn.routes["/deck.txt"] = Body(data)
        cdn.routes["/big.txt"] = Huge(300 * 1024)
        hosts = frozenset({cdn.base_url.removeprefix("http://")})

        text = await sites.read_upload(f"{cdn.base_url}/deck.txt", "deck.txt", len(data), hosts)
        assert sections(text) == {MAIN: [(4, "Street Wraith"), (56, "Swamp")]}

        with pytest.raises(DeckProblem, match="at most 256 KB"):
            await sites.read_upload(f"{cdn.base_url}/big.txt", "big.txt", 300 * 1024, hosts)
        with pytest.raises(DeckProblem, match=".txt, .dek, .csv and .dec"):
            await sites.read_upload(f"{cdn.base_url}/deck.txt", "deck.exe", 40, hosts)
        with pytest.raises(DeckProblem, match="couldn't download"):
            await sites.read_upload(f"{cdn.base_url}/big.txt", "big.txt", 40, hosts)  # a size that lied
        with pytest.raises(DeckProblem, match="couldn't download"):
            elsewhere = frozenset({"cdn.discordapp.com"})
            await sites.read_upload(f"{cdn.base_url}/deck.txt", "deck.txt", len(data), elsewhere)
        assert cdn.requested == ["/deck.txt", "/big.txt"]  # nothing asked for what was refused first
