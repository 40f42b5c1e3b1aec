"""Reading frames: every bad file gets a clear error naming it; bombs are refused unread."""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest
from synth_frames import encode_jpeg, encode_png

from vision.cv import cv2
from vision.errors import ImageError
from vision.imageio import decode_image, image_header, read_image

IMG = np.random.default_rng(0).integers(0, 255, (48, 64, 3), dtype=np.uint8)


def png_declaring(width: int, height: int) -> bytes:
    """A real small PNG whose IHDR is rewritten to declare width x height (CRC fixed)."""
    data = bytearray(encode_png(IMG))
    ihdr = bytes(data[12:16]) + struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(ihdr))
    return bytes(data)


def test_png_jpeg_bmp_headers():
    assert image_header(encode_png(IMG)) == ("PNG", 64, 48)
    assert image_header(encode_jpeg(IMG, 80)) == ("JPEG", 64, 48)
    ok, bmp = cv2.imencode(".bmp", IMG)
    assert image_header(bytes(bmp)) == ("BMP", 64, 48)
    assert decode_image(bytes(bmp)).shape == (48, 64, 3)


def test_read_round_trip(tmp_path):
    path = tmp_path / "a.png"
    path.write_bytes(encode_png(IMG))
    assert np.array_equal(read_image(path), IMG)


def test_decompression_bomb_refused_before_decoding(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(png_declaring(12000, 12000))
    with pytest.raises(ImageError, match=r"declares 12000 x 12000 pixels \(144 Mpx\)") as err:
        read_image(path)
    assert err.value.where == str(path)
    assert str(path) in err.value.message


def test_jpeg_bomb_refused():
    data = bytearray(encode_jpeg(IMG))
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)
    with pytest.raises(ImageError, match="declares 60000 x 60000"):
        decode_image(bytes(data), "big.jpg")


def test_header_lying_about_size_is_caught():
    with pytest.raises(ImageError, match="not a readable PNG|not the 100 x 100"):
        decode_image(png_declaring(100, 100), "liar.png")


@pytest.mark.parametrize(("content", "code", "message"), [
    (b"", "camera.image.empty", "is empty"),
    (b"hello, world", "camera.image.format", "not an image in a supported format"),
    (b"GIF89a\x01\x00\x01\x00", "camera.image.format", "not an image in a supported format"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "camera.image.truncated", "truncated or corrupt PNG"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "camera.image.truncated", "truncated or corrupt JPEG"),
    (b"\xff\xd8garbage", "camera.image.corrupt_jpeg", "corrupt JPEG"),
    (b"BM\x00", "camera.image.truncated", "truncated or corrupt BMP"),
])
def test_bad_files(tmp_path, content, code, message):
    path = tmp_path / "frame.png"
    path.write_bytes(content)
    with pytest.raises(ImageError, match=message) as err:
        read_image(path)
    assert str(path) in err.value.message
    assert err.value.words is not None and err.value.words.code == code
    assert err.value.words.params["file"] == str(path)


def test_an_image_error_is_said_in_french(tmp_path):
    path = tmp_path / "vide.png"
    path.write_bytes(b"")
    with pytest.raises(ImageError) as err:
        read_image(path)
    assert err.value.text("fr") == f"{path} est vide (0 octet)"
    body = err.value.to_json("fr")["error"]
    assert body == {"code": "invalid_image", "message": f"{path} est vide (0 octet)",
                    "where": str(path), "words": {"code": "camera.image.empty",
                                                  "params": {"file": str(path)}}}
    with pytest.raises(ImageError) as err:
        decode_image(png_declaring(12000, 12000), "bombe.png")
    assert err.value.text("fr").startswith(
        "bombe.png annonce 12000 x 12000 pixels (144 Mpx), plus que les 50 Mpx permis")


def test_truncated_body(tmp_path):
    data = encode_png(IMG)
    path = tmp_path / "cut.png"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImageError, match="not a readable PNG image"):
        read_image(path)


def test_missing_and_folder(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        read_image(tmp_path / "none.png")
    with pytest.raises(ImageError, match="is a folder"):
        read_image(tmp_path)


def test_opencv_limit_is_set_before_import():
    import os

    import vision

    assert os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] == str(vision.MAX_IMAGE_PIXELS)


def test_grey_decoding():
    grey = decode_image(encode_jpeg(IMG, 95), grey=True)
    assert grey.shape == (48, 64)
    expected = cv2.cvtColor(decode_image(encode_jpeg(IMG, 95)), cv2.COLOR_BGR2GRAY)
    assert np.abs(grey.astype(int) - expected.astype(int)).mean() < 3


def test_exif_rotation_is_ignored():
    """A phone photo tagged "rotate 90" keeps its stored pixels (markers work in any
    rotation), so the decoded size matches the header."""
    tiff = (b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
            + struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0) + struct.pack("<I", 0))
    payload = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    jpeg = encode_jpeg(IMG, 95)
    rotated = jpeg[:2] + app1 + jpeg[2:]
    assert image_header(rotated) == ("JPEG", 64, 48)
    assert decode_image(rotated, "phone.jpg").shape == (48, 64, 3)
