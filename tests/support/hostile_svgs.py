"""SVGs a hostile or compromised symbology host could serve, each as found against the bot: one that froze it, one
that crashed it, ones that drew a file of its machine into a symbol, and one that passes the allowlist and still
costs minutes of CPU."""

from __future__ import annotations

OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100">'

# 243 bytes: resvg computed every octave, holding the GIL, for as long as anyone watched.
TURBULENCE = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="2048" height="2048" viewBox="0 0 100 100">'
    b'<filter id="f"><feTurbulence baseFrequency="0.9" numOctaves="2000000000"/></filter>'
    b'<rect width="100" height="100" filter="url(#f)"/></svg>'
)
NESTING = 8800  # about 62 KB: under the size cap, and deep enough that resvg's parser overflowed its stack


# 171 bytes that pass the allowlist (a circle, a stroke, a dash pattern: all a symbol may use): a stroke cut into
# half a million dashes takes resvg minutes of CPU.
DASHES = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="40" fill="none" '
    b'stroke="black" stroke-width="80" stroke-dasharray="0.0005"/></svg>'
)


def nested_groups(depth: int = NESTING) -> bytes:
    return (OPEN + "<g>" * depth + '<circle cx="50" cy="50" r="40"/>' + "</g>" * depth + "</svg>").encode()


def local_image(path: str, attribute: str = "href") -> bytes:
    """An ``<image>`` of a file of the bot's own machine (``/dev/zero`` reads 2 GB before resvg gives up)."""
    return f'{OPEN}<image {attribute}="{path}" x="0" y="0" width="100" height="100"/></svg>'.encode()


HOSTILE = {
    "turbulence": TURBULENCE,
    "nested": nested_groups(),
    "dev-zero": local_image("/dev/zero"),
}
