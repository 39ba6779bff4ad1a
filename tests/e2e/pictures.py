"""Reading what a screenshot shows: its pixels, and the QR codes in it.

Playwright gives screenshots as PNG; `grey` decodes the 8-bit, non-interlaced PNGs that
Chromium writes (colour types 2 and 6, every scanline filter) to one byte of grey a pixel,
the picture zxing-cpp reads QR codes from.
"""

from __future__ import annotations

import struct
import zlib

import zxingcpp

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def grey(png: bytes) -> tuple[bytes, int, int]:
    """The picture as grey bytes (rows of `width`), with its width and height."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = depth = kind = interlace = 0
    while pos < len(png):
        length, name = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if name == b"IHDR":
            width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", data)
        elif name == b"IDAT":
            idat += data
        pos += 12 + length
    assert depth == 8 and interlace == 0 and kind in CHANNELS, (depth, kind, interlace)
    bpp = CHANNELS[kind]
    raw = zlib.decompress(idat)
    stride = width * bpp
    out = bytearray()
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind_of_filter = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = prev[i]
            corner = prev[i - bpp] if i >= bpp else 0
            if kind_of_filter == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind_of_filter == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind_of_filter == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind_of_filter == 4:
                line[i] = (line[i] + _paeth(left, up, corner)) & 0xFF
        if bpp >= 3:
            out += bytes((line[i] * 299 + line[i + 1] * 587 + line[i + 2] * 114) // 1000 for i in range(0, stride, bpp))
        else:
            out += bytes(line[0:stride:bpp])
        prev = line
    return bytes(out), width, height


def qr_texts(png: bytes) -> list[str]:
    """The text of every QR code in the picture."""
    pixels, width, height = grey(png)
    image = memoryview(pixels).cast("B", (height, width))
    return [b.text for b in zxingcpp.read_barcodes(image) if b.format == zxingcpp.BarcodeFormat.QRCode]
