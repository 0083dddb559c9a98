"""Image files from outside the program, checked before they are decoded.

OpenCV's `imread` believes a file's header: a 1 MB PNG declaring 20000x20000
pixels is decoded into gigabytes, a JPEG cut short is filled with grey and
read as a board, and libpng/libjpeg print their own warnings on stderr. Every
command that reads an image file goes through `load_image`, which

- reads the pixel size from the header (PNG IHDR, JPEG SOFn, BMP, WebP) and
  refuses more than MAX_PIXELS before any pixel is decoded;
- refuses an incomplete or damaged file: a PNG without IEND or with a chunk
  whose CRC fails, a JPEG without its end-of-image marker, and any image the
  decoder warns about (libjpeg's "Corrupt JPEG data", libpng errors);
- decodes the bytes itself (`cv2.imdecode`) with the decoder's stderr caught,
  so that a refused image gets exactly one line from us and none from the library.

It lives in `calibration`, the lowest package, so that `vision` and `companion`
can use it too (ARCHITECTURE.md: dependencies point down).
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # NumPy and OpenCV are imported when an image is decoded: the commands
    import numpy as np  # that read no image start faster without them
    from numpy.typing import NDArray

MAX_PIXELS = 50_000_000  # a 12-megapixel phone photo is 4000x3000; a 50 MP camera 8192x6144
MAX_SIDE = 16_384  # pixels along either side
MAX_FILE_BYTES = 256 * 1024 * 1024  # a 50 MP image stored raw (BMP) is 150 MB

_PNG = b"\x89PNG\r\n\x1a\n"
# Start-of-frame markers (baseline, extended, progressive, lossless; Huffman or arithmetic).
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_SOS, _EOI = 0xDA, 0xD9
_STANDALONE = {0x01, *range(0xD0, 0xD8)}  # TEM and RST0-7 carry no length


class ImageFileError(ValueError):
    """An image file that cannot or should not be decoded; the message is one line."""


def _be(data: bytes | memoryview, at: int, n: int) -> int:
    return int.from_bytes(data[at : at + n], "big")


def _le(data: bytes | memoryview, at: int, n: int, signed: bool = False) -> int:
    return int.from_bytes(data[at : at + n], "little", signed=signed)


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from IHDR, after walking every chunk to IEND with its CRC."""
    view = memoryview(data)
    pos, size = len(_PNG), None
    while True:
        if pos + 12 > len(data):
            raise ImageFileError("PNG ends before its IEND chunk (truncated)")
        length, kind = _be(view, pos, 4), bytes(view[pos + 4 : pos + 8]).decode("latin-1")
        end = pos + 12 + length
        if length > 0x7FFFFFFF or end > len(data):
            raise ImageFileError(f"PNG ends inside its {kind!r} chunk (truncated)")
        if zlib.crc32(view[pos + 4 : end - 4]) != _be(view, end - 4, 4):
            raise ImageFileError(f"PNG chunk {kind!r} fails its CRC check (damaged)")
        if size is None:
            if kind != "IHDR" or length != 13:
                raise ImageFileError("PNG does not start with its IHDR header")
            size = (_be(view, pos + 8, 4), _be(view, pos + 12, 4))
        if kind == "IEND":
            return size
        pos = end


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """Width and height from the frame header; the file must end the image with EOI."""
    pos, size = 2, None
    while True:
        if pos >= len(data):
            raise ImageFileError("JPEG ends before its image data (truncated)")
        if data[pos] != 0xFF:
            raise ImageFileError(f"JPEG has no marker where one belongs (byte {pos}; damaged)")
        while pos < len(data) and data[pos] == 0xFF:
            pos += 1  # fill bytes
        if pos >= len(data):
            raise ImageFileError("JPEG ends before its image data (truncated)")
        marker = data[pos]
        pos += 1
        if marker in _STANDALONE:
            continue
        if marker == _EOI:
            raise ImageFileError("JPEG ends before its image data (no scan)")
        if pos + 2 > len(data) or pos + _be(data, pos, 2) > len(data):
            raise ImageFileError("JPEG ends inside a header segment (truncated)")
        length = _be(data, pos, 2)
        if length < 2:
            raise ImageFileError(f"JPEG segment of length {length} (damaged)")
        if marker in _SOF:
            if length < 8:
                raise ImageFileError("JPEG frame header too short (damaged)")
            size = (_be(data, pos + 5, 2), _be(data, pos + 3, 2))
        if marker == _SOS:
            if size is None:
                raise ImageFileError("JPEG image data before its frame header (damaged)")
            # In the entropy-coded data an 0xFF byte is always followed by 0x00 or a
            # restart marker, so an FF D9 after the first scan is the end-of-image marker.
            if data.find(b"\xff\xd9", pos + length) < 0:
                raise ImageFileError("JPEG ends before its end-of-image marker (truncated)")
            return size
        pos += length


def _bmp_size(data: bytes) -> tuple[int, int]:
    if len(data) < 26:
        raise ImageFileError("BMP ends inside its header (truncated)")
    declared, header = _le(data, 2, 4), _le(data, 14, 4)
    if header == 12:
        size = (_le(data, 18, 2), _le(data, 20, 2))
    elif header >= 40:
        size = (_le(data, 18, 4, signed=True), abs(_le(data, 22, 4, signed=True)))
    else:
        raise ImageFileError(f"BMP header of {header} bytes is not one OpenCV reads")
    if declared > len(data):
        raise ImageFileError(f"BMP is {len(data)} bytes but declares {declared} (truncated)")
    return size


def _webp_size(data: bytes) -> tuple[int, int]:
    if len(data) < 30:
        raise ImageFileError("WebP ends inside its header (truncated)")
    if _le(data, 4, 4) + 8 > len(data):
        raise ImageFileError("WebP ends before the size its header declares (truncated)")
    kind = data[12:16]
    if kind == b"VP8 ":
        return _le(data, 26, 2) & 0x3FFF, _le(data, 28, 2) & 0x3FFF
    if kind == b"VP8L":
        bits = _le(data, 21, 4)
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8X":
        return _le(data, 24, 3) + 1, _le(data, 27, 3) + 1
    raise ImageFileError(f"WebP with an unknown first chunk {kind!r}")


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) as the file's header declares it, checked against the limits;
    ImageFileError for an unknown format, a damaged or truncated file, or too many pixels."""
    if data.startswith(_PNG):
        width, height = _png_size(data)
    elif data.startswith(b"\xff\xd8"):
        width, height = _jpeg_size(data)
    elif data.startswith(b"BM"):
        width, height = _bmp_size(data)
    elif data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        width, height = _webp_size(data)
    else:
        raise ImageFileError("not an image this program reads (PNG, JPEG, BMP or WebP)")
    if width <= 0 or height <= 0:
        raise ImageFileError(f"the header declares {width}x{height} pixels (damaged)")
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise ImageFileError(
            f"{width}x{height} pixels is too large (at most {MAX_PIXELS // 1_000_000} "
            f"megapixels, {MAX_SIDE} a side)"
        )
    return width, height


def _decode(data: bytes, flags: int) -> tuple[NDArray[Any] | None, str]:
    """cv2.imdecode with file descriptor 2 sent to a temporary file: the decoded image (or
    None) and what libpng/libjpeg wrote there. File descriptor 2 is the process's: this
    is for commands that decode while no other thread writes to stderr."""
    import cv2
    import numpy as np

    buffer = np.frombuffer(data, np.uint8)
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to guard
        return cv2.imdecode(buffer, flags), ""
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            image = cv2.imdecode(buffer, flags)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        said = caught.read(4096).decode("utf-8", "replace")
    return image, said


def decode_image(data: bytes, grey: bool = False) -> NDArray[np.uint8]:
    """The image in `data` (BGR, or one channel with `grey`), checked as described above;
    ImageFileError (one line, without the file's name) otherwise."""
    import cv2
    import numpy as np

    width, height = image_size(data)
    image, said = _decode(data, cv2.IMREAD_GRAYSCALE if grey else cv2.IMREAD_COLOR)
    first = next((line.strip() for line in said.splitlines() if line.strip()), "")
    if image is None:
        raise ImageFileError("cannot decode the image" + (f" ({first})" if first else ""))
    # libjpeg warns and goes on ("Corrupt JPEG data: premature end of data segment"): its
    # grey fill would be read as a board. libpng's warnings (an odd colour profile) are
    # harmless; anything else it says is not.
    damage = [
        line.strip()
        for line in said.splitlines()
        if line.strip() and not line.lstrip().startswith("libpng warning")
    ]
    if damage:
        raise ImageFileError(f"damaged image ({damage[0]})")
    if (image.shape[1], image.shape[0]) not in ((width, height), (height, width)):  # EXIF turn
        raise ImageFileError(
            f"decoded {image.shape[1]}x{image.shape[0]} but the header says {width}x{height}"
        )
    return np.asarray(image, dtype=np.uint8)


def load_image(path: str | Path, grey: bool = False) -> NDArray[np.uint8]:
    """The image file at `path`, checked before and after decoding (see the module's
    docstring); ImageFileError naming the file and the problem in one line."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ImageFileError(
                f"{path}: a folder, not an image file"
                if stat.S_ISDIR(info.st_mode)
                else f"{path}: not a regular file"
            )
        size = info.st_size
        if size > MAX_FILE_BYTES:
            raise ImageFileError(
                f"{path}: {size / 2**20:.0f} MB is too large for an image file "
                f"(at most {MAX_FILE_BYTES // 2**20} MB)"
            )
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise ImageFileError(f"{path}: no such image file") from None
    except IsADirectoryError:
        raise ImageFileError(f"{path}: a folder, not an image file") from None
    except OSError as e:
        raise ImageFileError(f"{path}: cannot read ({e.strerror or e})") from None
    try:
        return decode_image(data, grey)
    except ImageFileError as e:
        raise ImageFileError(f"{path}: {e}") from None
