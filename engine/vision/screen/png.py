"""A small PNG decoder for screenshots: 8-bit greyscale, RGB or RGBA, not interlaced, any of the five
row filters (PNG spec section 9). engine/emulator/png.py writes filter 0 only; other encoders pick a
filter per row, so all five are undone here."""

from __future__ import annotations

import struct
import zlib

import numpy as np

from engine.vision.errors import VisionError

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type -> samples a pixel (grey, RGB, grey+alpha, RGBA)
NONE, SUB, UP, AVERAGE, PAETH = range(5)


def decode_png(data: bytes) -> np.ndarray:
    """The image as an (height, width, 3) uint8 RGB array."""
    if not data.startswith(SIGNATURE):
        raise VisionError("not a PNG image (the signature is missing)")
    header, compressed = _chunks(data)
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour not in CHANNELS or interlace:
        raise VisionError(f"unsupported PNG: bit depth {depth}, colour type {colour}, interlace {interlace}")
    channels = CHANNELS[colour]
    try:
        raw = zlib.decompress(compressed)
    except zlib.error as exc:
        raise VisionError(f"PNG image data does not decompress: {exc}") from exc
    stride = width * channels
    if len(raw) != height * (stride + 1):
        raise VisionError(f"PNG image data is {len(raw)} bytes, expected {height * (stride + 1)}")
    pixels = _unfilter(np.frombuffer(raw, dtype=np.uint8).reshape(height, stride + 1), channels)
    return _to_rgb(pixels.reshape(height, width, channels))


def _chunks(data: bytes) -> tuple[bytes, bytes]:
    """IHDR's 13 bytes and the IDAT chunks joined; the other chunks (palette aside) are not needed."""
    at, header, parts = len(SIGNATURE), b"", []
    while at + 8 <= len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            parts.append(body)
        elif kind == b"IEND":
            break
        at += 12 + length
    if len(header) != 13 or not parts:
        raise VisionError("PNG without a header or image data")
    return header, b"".join(parts)


def _unfilter(rows: np.ndarray, bpp: int) -> np.ndarray:
    out = np.zeros((rows.shape[0], rows.shape[1] - 1), dtype=np.uint8)
    previous = np.zeros(rows.shape[1] - 1, dtype=np.uint8)
    for y, row in enumerate(rows):
        kind, line = int(row[0]), row[1:]
        if kind == NONE:
            out[y] = line
        elif kind == SUB:
            out[y] = _sub(line, bpp)
        elif kind == UP:
            out[y] = line + previous  # uint8 arithmetic wraps modulo 256, as the filter wants
        elif kind in (AVERAGE, PAETH):
            out[y] = _sequential(line, previous, bpp, kind)
        else:
            raise VisionError(f"PNG row {y} has an unknown filter type {kind}")
        previous = out[y]
    return out


def _sub(line: np.ndarray, bpp: int) -> np.ndarray:
    """Each byte adds the one bpp to its left: a running sum per channel, modulo 256."""
    channels = line.reshape(-1, bpp).astype(np.uint32)
    return (np.cumsum(channels, axis=0) % 256).astype(np.uint8).reshape(-1)


def _sequential(line: np.ndarray, above: np.ndarray, bpp: int, kind: int) -> np.ndarray:
    """Average and Paeth depend on the byte just decoded to the left, so they go byte by byte."""
    out = bytearray(len(line))
    raw, up = line.tolist(), above.tolist()
    for i, value in enumerate(raw):
        left = out[i - bpp] if i >= bpp else 0
        corner = up[i - bpp] if i >= bpp else 0
        predicted = (left + up[i]) // 2 if kind == AVERAGE else _paeth(left, up[i], corner)
        out[i] = (value + predicted) & 0xFF
    return np.frombuffer(bytes(out), dtype=np.uint8)


def _paeth(left: int, up: int, corner: int) -> int:
    estimate = left + up - corner
    to_left, to_up, to_corner = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
    if to_left <= to_up and to_left <= to_corner:
        return left
    return up if to_up <= to_corner else corner


def _to_rgb(pixels: np.ndarray) -> np.ndarray:
    """Grey repeated into three channels; alpha dropped (a screenshot is opaque)."""
    if pixels.shape[2] in (1, 2):
        return np.repeat(pixels[:, :, :1], 3, axis=2)
    return np.ascontiguousarray(pixels[:, :, :3])
