"""Symbol SVGs checked against the allowlist before anything draws them: every real symbol passes and draws as it
did, and what a hostile host would send is refused, saying why."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.hosts.svg import MAX_DEPTH, MAX_ELEMENTS, SvgRefused, render_png, sanitise
from tests.data import CARD_SYMBOLS
from tests.support.hostile_svgs import OPEN, TURBULENCE, local_image, nested_groups

REAL = sorted(CARD_SYMBOLS.glob("*.svg"))


def largest_difference(first: bytes, second: bytes) -> int:
    a, b = (Image.open(io.BytesIO(png)).convert("RGBA") for png in (first, second))
    assert a.size == b.size
    return max(high for _, high in ImageChops.difference(a, b).getextrema())


@pytest.mark.parametrize("path", REAL, ids=[path.stem for path in REAL])
def test_every_real_symbol_passes_and_draws_the_same_pixels(path):
    original = path.read_bytes()
    clean = sanitise(original)
    assert largest_difference(render_png(original), render_png(clean)) <= 1


def test_the_real_symbols_are_75():
    assert len(REAL) == 75


@pytest.mark.parametrize(
    ("svg", "why"),
    [
        (TURBULENCE, "a <filter> element"),
        (nested_groups(), f"elements nested more than {MAX_DEPTH} deep"),
        (local_image("/etc/hostname"), "a <image> element"),
        (local_image("/dev/zero", "xlink:href"), "a <image> element"),
        (f'{OPEN}<use href="other.svg#x"/></svg>'.encode(), "a <use> element"),
        (f'{OPEN}<use href="#x"/></svg>'.encode(), "a <use> element"),
        (f"{OPEN}<script>alert(1)</script></svg>".encode(), "a <script> element"),
        (f"{OPEN}<foreignObject/></svg>".encode(), "a <foreignObject> element"),
        (f'{OPEN}<pattern id="p"/></svg>'.encode(), "a <pattern> element"),
        (f'{OPEN}<mask id="m"/></svg>'.encode(), "a <mask> element"),
        (f"{OPEN}<style>rect {{fill: url(/etc/x)}}</style></svg>".encode(), "a <style> element"),
        (f'{OPEN}<rect width="9" height="9" fill="url(file:///etc/passwd)"/></svg>'.encode(), "a reference to"),
        (f'{OPEN}<rect width="9" height="9" fill="url(https://evil.example/x#y)"/></svg>'.encode(), "a reference to"),
        (f'{OPEN}<rect width="9" height="9" style="fill: url(/dev/zero)"/></svg>'.encode(), "a reference to"),
        (f'{OPEN}<rect width="9" height="9" style="filter: url(#f)"/></svg>'.encode(), "the style property 'filter'"),
        (f'{OPEN}<rect width="9" height="9" filter="url(#f)"/></svg>'.encode(), "the attribute 'filter'"),
        (f'{OPEN}<rect width="9" height="9" onload="x()"/></svg>'.encode(), "the attribute 'onload'"),
        (f'{OPEN}<linearGradient id="a" href="/dev/zero"/></svg>'.encode(), "a link to '/dev/zero'"),
        (f'{OPEN}<path href="#a" d="M0 0"/></svg>'.encode(), "a link to '#a' on <path>"),
        (b'<html xmlns="http://www.w3.org/1999/xhtml"/>', "an element outside SVG"),
        (f"{OPEN}{'<rect/>' * MAX_ELEMENTS}</svg>".encode(), f"more than {MAX_ELEMENTS} elements"),
        (b"<svg", "not well-formed XML"),
        (
            b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg"><title>&b;</title></svg>',
            "not well-formed XML without entities",
        ),
        (
            b'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">'
            b"<title>&x;</title></svg>",
            "not well-formed XML without entities",
        ),
    ],
)
def test_what_a_symbol_has_no_need_for_is_refused_saying_why(svg, why):
    with pytest.raises(SvgRefused) as refused:
        sanitise(svg)
    assert str(refused.value).startswith(why), str(refused.value)


def test_a_gradient_and_its_local_references_are_kept_and_drawn():
    svg = (
        f'{OPEN}<defs><linearGradient id="a"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/>'
        '</linearGradient><linearGradient id="b" xlink:href="#a" x2="0" y2="1"/></defs><title>Blue &amp; red</title>'
        '<circle cx="50" cy="50" r="50" fill="url(#b)" style="stroke: url( \'#a\' ); stroke-width: 2"/></svg>'
    ).encode()
    clean = sanitise(svg)
    assert b'xlink:href="#a"' in clean and b"url(#b)" in clean and b"Blue &amp; red" in clean
    picture = Image.open(io.BytesIO(render_png(clean))).convert("RGBA")
    top, bottom = picture.getpixel((64, 10)), picture.getpixel((64, 118))
    assert top[0] > 200 and top[2] < 60 and bottom[2] > 200 and bottom[0] < 60  # red above, blue below


def test_what_is_drawn_is_only_what_was_checked():
    svg = (
        f'{OPEN}<!-- a comment --><?php echo 1 ?><g>stray text<circle cx="50" cy="50" r="9"/></g>'
        '<title>"Quoted" &lt;name&gt;</title></svg>'
    ).encode()
    clean = sanitise(svg)
    assert b"comment" not in clean and b"php" not in clean and b"stray" not in clean
    assert b"&lt;name&gt;" in clean
