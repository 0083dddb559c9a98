"""calibration.imageio: image files checked from their header before any pixel is decoded."""

from __future__ import annotations

import struct
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.imageio import ImageFileError, decode_image, image_size, load_image


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_declaring(width: int, height: int, rows: int = 50) -> bytes:
    """A small, well-formed PNG whose IHDR declares width x height grey pixels (a
    decompression bomb when large: its zero rows compress a thousandfold)."""
    squeeze = zlib.compressobj(9)
    row = b"\x00" * (width + 1)
    body = b"".join(squeeze.compress(row) for _ in range(rows)) + squeeze.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunks = _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", body) + _chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def photo(fmt: str, size: tuple[int, int] = (320, 240)) -> bytes:
    noise = np.random.default_rng(3).integers(0, 255, (size[1], size[0], 3), dtype=np.uint8)
    ok, buf = cv2.imencode(fmt, noise)
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize("fmt", [".png", ".jpg", ".bmp", ".webp"])
def test_a_sound_image_decodes_as_opencv_reads_it(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"a{fmt}"
    path.write_bytes(photo(fmt))
    image = load_image(path)
    assert image.shape == (240, 320, 3) and image.dtype == np.uint8
    assert np.array_equal(image, cv2.imread(str(path), cv2.IMREAD_COLOR))
    assert load_image(path, grey=True).shape == (240, 320)


def test_a_decompression_bomb_is_refused_from_its_header_at_once(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_declaring(20000, 20000))
    assert bomb.stat().st_size < 200_000
    start = time.perf_counter()
    with pytest.raises(ImageFileError, match=r"bomb\.png: 20000x20000 pixels is too large"):
        load_image(bomb)
    assert time.perf_counter() - start < 1.0


def test_a_twelve_megapixel_photo_is_within_the_limit() -> None:
    assert image_size(png_declaring(4000, 3000, rows=1)) == (4000, 3000)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: b[: len(b) // 2], "JPEG ends before its end-of-image marker"),
        (lambda b: b[:-2], "JPEG ends before its end-of-image marker"),
        # Cut in the middle, the end marker put back: only the decoder can tell.
        (lambda b: b[: len(b) // 2] + b"\xff\xd9", "damaged image .*Corrupt JPEG data"),
        (lambda b: b[:2] + b"\xff\xd9", "JPEG ends before its image data"),
    ],
)
def test_a_cut_or_damaged_jpeg_is_refused(damage: object, message: str) -> None:
    with pytest.raises(ImageFileError, match=message):
        decode_image(damage(photo(".jpg")))  # type: ignore[operator]


def test_a_cut_png_or_one_failing_its_crc_is_refused() -> None:
    data = photo(".png")
    with pytest.raises(ImageFileError, match="PNG ends inside its 'IDAT' chunk"):
        decode_image(data[: len(data) // 2])
    with pytest.raises(ImageFileError, match="PNG ends before its IEND chunk"):
        decode_image(data[:-12])
    flipped = bytearray(data)
    flipped[100] ^= 0xFF
    with pytest.raises(ImageFileError, match="fails its CRC check"):
        decode_image(bytes(flipped))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not an image this program reads"),
        (b"GIF89a" + b"\x00" * 100, "not an image this program reads"),
        (png_declaring(0, 10, rows=0), "declares 0x10 pixels"),
    ],
)
def test_what_is_not_an_image_is_named(data: bytes, message: str) -> None:
    with pytest.raises(ImageFileError, match=message):
        decode_image(data)


def test_a_missing_file_or_a_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(ImageFileError, match="no such image file"):
        load_image(tmp_path / "missing.png")
    with pytest.raises(ImageFileError, match="a folder, not an image file"):
        load_image(tmp_path)
