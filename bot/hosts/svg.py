"""Symbol SVGs from another host, made safe to draw: parsed without entities, checked against an allowlist, written
out again, and drawn as a PNG.

An SVG is a program for its renderer. ``<image href="/etc/…">`` draws a file of this machine, ``/dev/zero`` reads
without end, a filter's ``numOctaves`` runs for minutes, thousands of nested groups overflow a stack, and an entity
can expand a kilobyte into gigabytes. :func:`sanitise` lets through only what a symbol needs: shapes, paths, groups,
gradients and a title, with their presentation attributes, and references to nothing but an ``#id`` of the same
file. It refuses the whole SVG (:class:`SvgRefused`, saying why) at the first thing outside that, deeper than
:data:`MAX_DEPTH`, or past :data:`MAX_ELEMENTS`; what it returns is written from the checked tree, so the renderer
never sees a byte the check did not. :func:`render_png` draws it; the caller runs it in :mod:`bot.runtime.sandbox`,
since a renderer's bug is not ours to trust.
"""

from __future__ import annotations

import io
import re
from xml.etree.ElementTree import ParseError
from xml.sax.saxutils import escape, quoteattr

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
MAX_DEPTH = 32
MAX_ELEMENTS = 2000
PNG_SIZE = 128

SHAPES = {"path", "circle", "ellipse", "rect", "line", "polyline", "polygon"}
GRADIENTS = {"linearGradient", "radialGradient"}
ELEMENTS = {"svg", "g", "defs", "title", "desc", "stop", *SHAPES, *GRADIENTS}
# Presentation and geometry: what Scryfall's symbols use, and what a redrawn one plausibly would.
PRESENTATION = {
    *("fill", "fill-rule", "fill-opacity", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin"),
    *("stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "opacity", "color"),
    *("clip-rule", "display", "visibility", "stop-color", "stop-opacity", "shape-rendering"),
}
ATTRIBUTES = {
    *PRESENTATION,
    *("id", "class", "style", "transform", "viewBox", "preserveAspectRatio", "version", "width", "height"),
    *("d", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "fr", "points", "pathLength"),
    *("offset", "gradientUnits", "gradientTransform", "spreadMethod"),
}
HREFS = {"href", f"{{{XLINK}}}href"}  # only on a gradient, and only to an #id (a gradient reusing another's stops)
KEPT_FOREIGN = {"{http://www.w3.org/XML/1998/namespace}space"}
LOCAL = re.compile(r"#[A-Za-z_][\w.-]{0,99}")
URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
TEXT_ELEMENTS = {"title", "desc"}


class SvgRefused(ValueError):
    """The SVG holds something a symbol has no need for; ``str(e)`` says what, in a few words."""


def _local_name(tag: str) -> str:
    namespace, _, name = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
    if namespace != SVG:
        raise SvgRefused(f"an element outside SVG ({tag[:60]})")
    return name


def _check_references(name: str, value: str) -> None:
    """Every ``url(…)`` points into this file (``url(#id)``): no other file, host or scheme."""
    for match in URL.finditer(value):
        if not LOCAL.fullmatch(match[2].strip()):
            raise SvgRefused(f"a reference to {match[2][:60]!r} in {name}")
    if "url(" in value.lower().replace(" ", "") and not URL.search(value):
        raise SvgRefused(f"a malformed reference in {name}")


def _check_style(value: str) -> None:
    for declaration in value.split(";"):
        prop, colon, content = declaration.partition(":")
        prop = prop.strip().lower()
        if not prop and not content.strip():
            continue
        if not colon or prop not in PRESENTATION:
            raise SvgRefused(f"the style property {prop[:40]!r}")
        _check_references(f"style {prop}", content)
    if "@" in value or "\\" in value or "expression" in value.lower():
        raise SvgRefused("an at-rule or escape in a style")


def _check_attributes(name: str, attributes: dict[str, str]) -> dict[str, str]:
    kept = {}
    for key, value in attributes.items():
        if key in HREFS:
            if name not in GRADIENTS or not LOCAL.fullmatch(value.strip()):
                raise SvgRefused(f"a link to {value[:60]!r} on <{name}>")
            kept[f"{{{XLINK}}}href"] = value.strip()
            continue
        if key not in ATTRIBUTES and key not in KEPT_FOREIGN:
            raise SvgRefused(f"the attribute {key[:60]!r} on <{name}>")
        if key == "style":
            _check_style(value)
        _check_references(key, value)
        kept[key] = value
    return kept


def sanitise(svg: bytes) -> bytes:
    """The SVG written again from what the allowlist keeps; raises SvgRefused, naming the first thing refused."""
    depth = count = 0
    stack: list[tuple[str, dict[str, str], list]] = []
    root: tuple[str, dict[str, str], list] | None = None
    try:
        for event, element in iterparse(io.BytesIO(svg), events=("start", "end"), forbid_dtd=True):
            if event == "end":
                depth -= 1
                name, _, children = stack.pop()
                if name in TEXT_ELEMENTS and element.text and element.text.strip():
                    children.append(element.text.strip()[:200])
                element.clear()  # what is kept is in ``stack``; the parser's own tree is let go as it goes
                continue
            depth += 1
            count += 1
            if depth > MAX_DEPTH:
                raise SvgRefused(f"elements nested more than {MAX_DEPTH} deep")
            if count > MAX_ELEMENTS:
                raise SvgRefused(f"more than {MAX_ELEMENTS} elements")
            name = _local_name(element.tag)
            if name not in ELEMENTS or (name == "svg") != (depth == 1):
                raise SvgRefused(f"a <{name[:40]}> element")
            node = (name, _check_attributes(name, dict(element.attrib)), [])
            if stack:
                stack[-1][2].append(node)
            else:
                root = node
            stack.append(node)
    except (ParseError, DefusedXmlException) as error:
        raise SvgRefused(f"not well-formed XML without entities ({type(error).__name__})") from None
    if root is None:
        raise SvgRefused("no <svg> element")
    out: list[str] = []
    _write(root, out, top=True)
    return "".join(out).encode("utf-8")


def _write(node: tuple[str, dict[str, str], list], out: list[str], *, top: bool = False) -> None:
    name, attributes, children = node
    out.append(f"<{name}")
    if top:
        out.append(f' xmlns="{SVG}" xmlns:xlink="{XLINK}"')
    for key, value in attributes.items():
        shown = key.replace(f"{{{XLINK}}}", "xlink:").replace("{http://www.w3.org/XML/1998/namespace}", "xml:")
        out.append(f" {shown}={quoteattr(value)}")
    if not children:
        out.append("/>")
        return
    out.append(">")
    for child in children:
        if isinstance(child, str):
            out.append(escape(child))
        else:
            _write(child, out)
    out.append(f"</{name}>")


def render_png(svg: bytes, size: int = PNG_SIZE) -> bytes:
    """An SVG drawn as a ``size``×``size`` PNG with a transparent background (a symbol drawn a pixel short of square
    is centred on a square, as emoji are). Raises ValueError when resvg can't draw it."""
    import resvg_py
    from PIL import Image

    text = svg.decode("utf-8")
    drawn = bytes(resvg_py.svg_to_bytes(svg_string=text, width=size, height=size, skip_system_fonts=True))
    with Image.open(io.BytesIO(drawn)) as image:
        if image.size == (size, size):
            return drawn
        square = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        square.paste(image.convert("RGBA"), ((size - image.width) // 2, (size - image.height) // 2))
    out = io.BytesIO()
    square.save(out, "PNG", optimize=True)
    return out.getvalue()


def render_many(svgs: list[bytes], size: int = PNG_SIZE) -> list[bytes | str]:
    """Each SVG drawn (see :func:`render_png`), or why it could not be, in order: one child draws a batch."""
    drawn: list[bytes | str] = []
    for svg in svgs:
        try:
            drawn.append(render_png(svg, size))
        except (ValueError, OSError) as error:
            drawn.append(" ".join(str(error).split())[:200] or type(error).__name__)
    return drawn
