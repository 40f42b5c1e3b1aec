"""`survive-us vision locate|calibrate` and `survive-us markers` end to end."""

from __future__ import annotations

import json
import re

import numpy as np
import pypdfium2 as pdfium
import pytest
import vision_scenes as scenes
from synth_frames import Effects, Figure, encode_jpeg, encode_png, render

from service.cli import main
from vision.layout import DEFAULT_LAYOUT, Layout
from vision.locate import colour_available
from vision.markers import corner_detector, detect, tag_detector

BLUE, RED, GREY = (220, 90, 20), (30, 30, 210), (60, 70, 80)


def run(capsys, *argv: str) -> tuple[int, dict]:
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, json.loads(out)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("vision_cli")
    (d / "small.json").write_text(json.dumps({"layout": scenes.SMALL_JSON}))
    (d / "frame.jpg").write_bytes(encode_jpeg(scenes.small_frame().image, 92))
    (d / "hidden.png").write_bytes(encode_png(scenes.small_frame(hidden=(1, 2)).image))
    (d / "4k.jpg").write_bytes(encode_jpeg(scenes.accuracy_frame().image, 92))
    return d


def test_locate_4k_json(capsys, files):
    code, out = run(capsys, "vision", "locate", str(files / "4k.jpg"), "--json")
    assert code == 0
    truth = scenes.accuracy_frame().truth
    assert out["table"]["found"] is True
    assert out["table"]["markers"] == [0, 1, 2, 3]
    assert out["table"]["reprojection_px"] < 1.0
    assert out["image"] == {"file": str(files / "4k.jpg"), "width": 3840, "height": 2160}
    assert sorted(f["tag"] for f in out["figures"]) == sorted(truth)
    for f in out["figures"]:
        assert set(f) >= {"tag", "x", "y", "uncertainty"}
        assert abs(f["x"] - truth[f["tag"]][0]) < 0.15 and abs(f["y"] - truth[f["tag"]][1]) < 0.15


def test_locate_base_height(capsys, files):
    """`--base-height-mm`: the bases' height is known, so only its tolerance is in the
    uncertainty; without it 3.2 mm is assumed and `height_in` (any base of 2-5 mm) added."""
    image = str(files / "frame.jpg")
    small = ("--calibration", str(files / "small.json"), "--json")
    code, assumed = run(capsys, "vision", "locate", image, *small)
    assert code == 0
    code, known = run(capsys, "vision", "locate", image, "--base-height-mm", "3.2", *small)
    assert code == 0
    code, taller = run(capsys, "vision", "locate", image, "--base-height-mm", "5", *small)
    assert code == 0
    for a, k, t in zip(assumed["figures"], known["figures"], taller["figures"], strict=True):
        assert a["base_height_mm"] == k["base_height_mm"] == 3.2 and t["base_height_mm"] == 5
        assert not a["height_known"] and k["height_known"] and t["height_known"]
        assert k["height_in"] == t["height_in"] == 0 < a["height_in"]
        assert (a["x"], a["y"]) == (k["x"], k["y"]) != (t["x"], t["y"])
        assert a["uncertainty"] == pytest.approx(k["uncertainty"] + a["height_in"], abs=2e-4)
        # a base 1.8 mm taller moves its tag toward the camera by at most height_in
        moved = float(np.hypot(t["x"] - k["x"], t["y"] - k["y"]))
        assert 0 < moved <= a["height_in"] + 1e-3


@pytest.mark.parametrize(("option", "value", "code"), [
    ("--px-per-in", "-5", "camera.cli.bad_px_per_in"),
    ("--px-per-in", "100000", "camera.cli.bad_px_per_in"),
    ("--px-per-in", "nan", "camera.cli.bad_px_per_in"),
    ("--px-per-in", "big", "camera.cli.bad_px_per_in"),
    ("--base-height-mm", "-1", "camera.cli.bad_base_height"),
    ("--base-height-mm", "inf", "camera.cli.bad_base_height"),
    ("--base-mm", "25,,32", "camera.cli.bad_base_mm"),
    ("--base-mm", "25,abc", "camera.cli.bad_base_mm"),
    ("--base-mm", "5", "camera.cli.bad_base_mm"),
    ("--base-mm", "", "camera.cli.bad_base_mm"),
])
def test_locate_bad_options_exit_2(capsys, files, option, value, code):
    """A bad option is refused before any image is read, naming the option and the value
    (these were tracebacks: --px-per-in -5 or 100000)."""
    status, out = run(capsys, "vision", "locate", str(files / "frame.jpg"), option, value,
                      "--json")
    assert status == 2
    error = out["error"]
    assert error["where"] == option and error["words"]["code"] == code
    assert error["message"].startswith(f"{option} {value}: give ")
    assert main(["--lang", "fr", "vision", "locate", str(files / "frame.jpg"), option,
                 value]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"survive-us: {option} {value} : donnez ") and "give" not in said


def test_locate_small_table_with_layout_file(capsys, files):
    code, out = run(capsys, "vision", "locate", str(files / "frame.jpg"), "--calibration",
                    str(files / "small.json"), "--json")
    assert code == 0
    assert [f["tag"] for f in out["figures"]] == [4, 5, 6, 7]


def test_locate_text_output(capsys, files):
    assert main(["--lang", "en", "vision", "locate", str(files / "frame.jpg"), "--calibration",
                 str(files / "small.json")]) == 0
    out = capsys.readouterr().out
    assert ("Table found from the bottom-left, bottom-right, top-right, and top-left corner "
            "markers") in out and "tag 7: x" in out


def test_locate_speaks_french(capsys, files):
    """`--lang fr`: every line in French, numbers the French way, nothing in English."""
    assert main(["--lang", "fr", "vision", "locate", str(files / "frame.jpg"), "--calibration",
                 str(files / "small.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "Table trouvée grâce aux marqueurs des coins en bas à gauche, en bas à droite, "
        "en haut à droite et en haut à gauche (écart ")
    assert re.search(r"\n  étiquette 7 : x \d+,\d\d ps, y \d+,\d\d ps \(± \d+,\d\d ps\)\n", out)
    assert "Table found" not in out and "tag 7" not in out and " in," not in out
    assert main(["--lang", "fr", "vision", "locate", str(files / "hidden.png"),
                 "--calibration", str(files / "small.json")]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Table introuvable : la caméra ne voit que les marqueurs des coins "
                          "en bas à gauche et en haut à gauche ; ceux des coins en bas à droite "
                          "et en haut à droite sont cachés : dégagez-en un")


def test_locate_json_keeps_the_message_beside_its_words(capsys, files):
    code, out = run(capsys, "--lang", "fr", "vision", "locate", str(files / "hidden.png"),
                    "--calibration", str(files / "small.json"), "--json")
    assert code == 1
    table = out["table"]
    assert table["reason_words"]["code"] == "camera.corners.two_seen"
    assert table["reason"].startswith("la caméra ne voit que les marqueurs des coins")
    code, out = run(capsys, "--lang", "fr", "vision", "locate", str(tmp_bad := files / "x.png"),
                    "--json")
    assert code == 2 and out["error"]["words"] == {"code": "camera.image.missing",
                                                   "params": {"file": str(tmp_bad)}}
    assert out["error"]["message"] == f"{tmp_bad} : fichier introuvable"


def test_two_markers_not_found_then_saved_calibration(capsys, files, tmp_path):
    code, out = run(capsys, "vision", "locate", str(files / "hidden.png"), "--calibration",
                    str(files / "small.json"), "--json")
    assert code == 1
    assert out["table"]["found"] is False
    assert out["table"]["markers"] == [0, 3]
    assert out["table"]["reason_words"]["code"] == "camera.corners.two_seen"
    assert "the bottom-right and top-right ones are hidden" in out["table"]["reason"]
    # where the two seen put the others: in the photo, covered
    assert out["table"]["hidden_markers"] == [1, 2] and out["table"]["outside_markers"] == []
    assert out["figures"] == []
    # calibrate the fixed camera on a clear frame, then the hidden frame works
    saved = tmp_path / "saved.json"
    code, cal = run(capsys, "vision", "calibrate", str(files / "frame.jpg"), "--calibration",
                    str(files / "small.json"), "--out", str(saved), "--json")
    assert code == 0 and cal["table"]["markers"] == [0, 1, 2, 3]
    code, out = run(capsys, "vision", "locate", str(files / "hidden.png"), "--calibration",
                    str(saved), "--json")
    assert code == 0
    assert out["table"]["source"] == "saved" and out["table"]["markers"] == [0, 3]
    assert [f["tag"] for f in out["figures"]] == [4, 5, 6, 7]


@pytest.mark.parametrize(("content", "message"), [
    (b"", "is empty"),
    (b"not an image at all", "not an image in a supported format"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x2e\xe0\x00\x00\x2e\xe0\x08\x02\x00\x00\x00",
     "declares 12000 x 12000"),
])
def test_locate_bad_images_exit_2(capsys, tmp_path, content, message):
    path = tmp_path / "x.png"
    path.write_bytes(content)
    code, out = run(capsys, "vision", "locate", str(path), "--json")
    assert code == 2
    assert out["error"]["code"] == "invalid_image"
    assert message in out["error"]["message"] and str(path) in out["error"]["message"]
    assert out["error"]["where"] == str(path)


def test_locate_bad_calibration_exit_2(capsys, files, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"layout": {"tag_size": "big"}}')
    code, out = run(capsys, "vision", "locate", str(files / "frame.jpg"), "--calibration",
                    str(bad), "--json")
    assert code == 2
    assert out["error"]["code"] == "invalid_layout"
    assert str(bad) in out["error"]["where"]


def test_colour_mode(capsys, files, tmp_path):
    """Colour mode through the same CLI (vision.colour's `colour_figures`), or a clear
    refusal in a build without it."""
    figures = [Figure(3, 3, rim_bgr=BLUE, body_bgr=GREY), Figure(6, 7, rim_bgr=BLUE,
                                                                 body_bgr=GREY),
               Figure(9, 4, rim_bgr=RED, body_bgr=GREY)]
    frame = render(figures, (), scenes.SMALL_CAMERA, Effects(noise_sigma=2.0),
                   layout=scenes.SMALL, seed=9)
    path = tmp_path / "colour.png"
    path.write_bytes(encode_png(frame.image))
    code, out = run(capsys, "vision", "locate", str(path), "--mode", "colour",
                    "--calibration", str(files / "small.json"), "--json")
    if not colour_available():
        assert code == 2 and "colour mode is unavailable" in out["error"]["message"]
        return
    assert code == 0 and out["mode"] == "colour" and out["table"]["found"]
    got = sorted((f["side"], round(f["x"]), round(f["y"])) for f in out["figures"])
    assert got == [("survivors", 3, 3), ("survivors", 6, 7), ("zombies", 9, 4)]
    assert out["rejected"] == []  # marks refused would be listed, each with its reason
    # in words: each base with the size it was found at, then the count
    assert main(["--lang", "en", "vision", "locate", str(path), "--mode", "colour",
                 "--calibration", str(files / "small.json")]) == 0
    text = capsys.readouterr().out
    assert "zombie base, 25 mm: x 9." in text and text.rstrip().endswith("Figures found: 3.")
    # the same photo read for tags (the default mode) says why nothing was seen
    assert main(["--lang", "fr", "vision", "locate", str(path), "--calibration",
                 str(files / "small.json")]) == 0
    assert "essayez --mode colour" in capsys.readouterr().out
    # American spelling: the same mode
    code, spelled = run(capsys, "vision", "locate", str(path), "--mode", "color",
                        "--calibration", str(files / "small.json"), "--json")
    assert code == 0 and spelled["mode"] == "colour" and len(spelled["figures"]) == 3


# -- markers PDF ----------------------------------------------------------------------------
def render_pages(path, dpi: float) -> list[np.ndarray]:
    doc = pdfium.PdfDocument(str(path))
    pages = []
    for i in range(len(doc)):
        bitmap = doc[i].render(scale=dpi / 72.0, grayscale=True)
        pages.append(np.array(bitmap.to_numpy()).reshape(bitmap.height, bitmap.width, -1)[..., 0])
    doc.close()
    return pages


def side_px(corners: np.ndarray) -> float:
    return float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]))


@pytest.mark.parametrize(("paper", "size_pt"), [("A4", (595.28, 841.89)), ("Letter", (612, 792))])
def test_markers_pdf_true_size(capsys, tmp_path, paper, size_pt):
    out = tmp_path / "m.pdf"
    code, answer = run(capsys, "markers", "--out", str(out), "--paper", paper, "--json")
    assert code == 0 and answer["pages"] >= 2
    doc = pdfium.PdfDocument(str(out))
    assert np.allclose(doc[0].get_size(), size_pt, atol=0.5)
    doc.close()
    dpi = 100.0
    pages = render_pages(out, dpi)
    corners = detect(corner_detector(DEFAULT_LAYOUT), pages[0])
    assert sorted(d.id for d in corners) == [0, 1, 2, 3]
    for d in corners:
        assert abs(side_px(d.corners) - 2.0 * dpi) < 0.02 * 2.0 * dpi
    tags = []
    for page in pages[1:]:
        found = detect(tag_detector(DEFAULT_LAYOUT, dpi, max(page.shape)), page)
        tags += [d.id for d in found]
        for d in found:
            assert abs(side_px(d.corners) - 0.6 * dpi) < 0.04 * 0.6 * dpi
    assert sorted(tags) == list(range(4, 50))


def test_markers_table_size_and_charuco(capsys, tmp_path):
    out = tmp_path / "m.pdf"
    code, answer = run(capsys, "markers", "--out", str(out), "--table-width", "48",
                       "--table-depth", "36", "--charuco", "--json")
    assert code == 0 and answer["table"] == [48.0, 36.0]
    doc = pdfium.PdfDocument(str(out))
    text = doc[0].get_textpage().get_text_range()
    assert "x = 46.5 in, y = 34.5 in" in text
    w, h = doc[len(doc) - 1].get_size()
    assert w > h  # the ChArUco board is on a landscape page
    doc.close()


def test_markers_sheets_speak_french(capsys, tmp_path):
    out = tmp_path / "m.pdf"
    assert main(["--lang", "fr", "markers", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"{out} écrit : 2 pages A4. Imprimez en taille")
    doc = pdfium.PdfDocument(str(out))
    text = doc[0].get_textpage().get_text_range()
    doc.close()
    assert "marqueur 0 : coin en bas à gauche" in text and "x = 1,5 ps, y = 1,5 ps" in text
    assert "cette barre doit mesurer 1 pouce (25,4 mm)" in text and "corner" not in text


@pytest.mark.parametrize("value", ["-3", "3", "1e6", "nan", "wide"])
def test_markers_bad_table_size(capsys, tmp_path, value):
    """A side the sheet cannot serve (two corner markers with their paper overlap below 6 in)
    is refused naming the option, as the user typed it."""
    code, out = run(capsys, "markers", "--out", str(tmp_path / "m.pdf"), "--table-width", value,
                    "--json")
    assert code == 2 and out["error"]["where"] == "--table-width"
    assert out["error"]["message"].startswith(f"--table-width {value}: give the table's side")
    assert not (tmp_path / "m.pdf").exists()


def test_markers_custom_layout_is_printed(capsys, tmp_path):
    cal = tmp_path / "cal.json"
    cal.write_text(json.dumps({"layout": {"tag_first": 10, "tag_last": 12, "tag_size": 0.5}}))
    out = tmp_path / "m.pdf"
    code, answer = run(capsys, "markers", "--out", str(out), "--calibration", str(cal), "--json")
    assert code == 0 and answer["tags"] == [10, 12]
    lay = Layout.from_json({"tag_first": 10, "tag_last": 12, "tag_size": 0.5})
    page = render_pages(out, 100.0)[1]
    found = detect(tag_detector(lay, 100.0, max(page.shape)), page)
    assert sorted(d.id for d in found) == [10, 11, 12]
    assert all(abs(side_px(d.corners) - 50.0) < 2.0 for d in found)


def test_cli_start_does_not_load_opencv():
    """OpenCV and fpdf load only for the vision commands (the others start as before)."""
    import subprocess
    import sys

    code = ("import sys, service.cli; service.cli.build_parser(); "
            "assert 'cv2' not in sys.modules and 'fpdf' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_locate_draw(capsys, files, tmp_path):
    from vision.imageio import read_image

    out = tmp_path / "seen.png"
    code, answer = run(capsys, "vision", "locate", str(files / "frame.jpg"), "--calibration",
                       str(files / "small.json"), "--draw", str(out), "--json")
    assert code == 0
    drawn = read_image(out)
    assert drawn.shape == (720, 1280, 3)
    original = read_image(files / "frame.jpg")
    assert (np.abs(drawn.astype(int) - original.astype(int)).sum(axis=2) > 60).mean() > 0.005
    code, answer = run(capsys, "vision", "locate", str(files / "frame.jpg"), "--calibration",
                       str(files / "small.json"), "--draw", str(tmp_path / "x.gif"), "--json")
    assert code == 2 and "write .png, .jpg or .bmp" in answer["error"]["message"]
