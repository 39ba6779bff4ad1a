"""The app's icons: a domino tile (five over three) standing on the table's felt, drawn here
in plain Python and written as PNG, so that the pictures in `static/frontend/icons/` can be
made again from their source and checked against it (tests/e2e/test_app_shell.py).

Every shape is drawn from its distance to the pixel's centre, which smooths the edges without
drawing at a larger size first. The tile keeps inside the middle 80% of the square, the part
a launcher keeps when it crops an icon to a circle ("maskable").

    python -m frontend.icons      # writes icon-192.png and icon-512.png
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent / "static" / "frontend" / "icons"
SIZES = (192, 512)

FELT = (0x1D, 0x5C, 0x3A)
FACE = (0xFF, 0xFD, 0xF7)
EDGE = (0x33, 0x33, 0x33)
PIP = (0x22, 0x22, 0x22)
BAR = (0x77, 0x77, 0x77)

#: Pip centres of a half in units of the half's width (0..1 across, 0..1 down).
PIPS = {
    3: [(0.24, 0.24), (0.5, 0.5), (0.76, 0.76)],
    5: [(0.24, 0.24), (0.76, 0.24), (0.5, 0.5), (0.24, 0.76), (0.76, 0.76)],
}

Colour = tuple[int, int, int]


def _cover(distance: float) -> float:
    """How much of a pixel a shape covers, from the signed distance of its centre to the
    shape's edge (negative inside), over a one-pixel ramp."""
    return min(1.0, max(0.0, 0.5 - distance))


def _rounded_box(x: float, y: float, *, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance from (x, y) to a rectangle centred on (cx, cy) with rounded corners."""
    qx = abs(x - cx) - (hw - r)
    qy = abs(y - cy) - (hh - r)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def _mix(under: Colour, over: Colour, alpha: float) -> Colour:
    return (
        round(under[0] + (over[0] - under[0]) * alpha),
        round(under[1] + (over[1] - under[1]) * alpha),
        round(under[2] + (over[2] - under[2]) * alpha),
    )


def draw(size: int) -> list[list[Colour]]:
    """The icon as rows of RGB pixels."""
    s = size / 512
    cx, cy = size / 2, size / 2
    hw, hh = 96 * s, 184 * s  # the tile: 192 x 368 of 512, well inside the middle 80%
    radius, edge = 22 * s, 6 * s
    pip_r = 19 * s
    halves = [(5, cy - hh / 2), (3, cy + hh / 2)]
    pips = [
        (cx - hw + px * 2 * hw, hy - hh / 2 + py * hh)
        for n, hy in halves
        for px, py in PIPS[n]
    ]
    rows: list[list[Colour]] = []
    for j in range(size):
        y = j + 0.5
        row: list[Colour] = []
        for i in range(size):
            x = i + 0.5
            colour = FELT
            d = _rounded_box(x, y, cx=cx, cy=cy, hw=hw, hh=hh, r=radius)
            if d < 1.0:
                colour = _mix(colour, EDGE, _cover(d))
                colour = _mix(colour, FACE, _cover(d + edge))
                if abs(y - cy) < 4 * s + 1 and abs(x - cx) < hw - 24 * s:
                    bar = _rounded_box(x, y, cx=cx, cy=cy, hw=hw - 24 * s, hh=3 * s, r=3 * s)
                    colour = _mix(colour, BAR, _cover(bar))
                for px, py in pips:
                    if abs(x - px) < pip_r + 1 and abs(y - py) < pip_r + 1:
                        colour = _mix(colour, PIP, _cover(math.hypot(x - px, y - py) - pip_r))
            row.append(colour)
        rows.append(row)
    return rows


def png(rows: list[list[Colour]]) -> bytes:
    """An 8-bit RGB PNG of `rows` (no filter, one IDAT chunk)."""
    height, width = len(rows), len(rows[0])

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes(v for pixel in row for v in pixel) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def icon_path(size: int) -> Path:
    return ICONS / f"icon-{size}.png"


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        icon_path(size).write_bytes(png(draw(size)))
        print(f"wrote {icon_path(size).name}")


if __name__ == "__main__":
    main()
