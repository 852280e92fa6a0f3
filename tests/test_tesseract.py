"""Tesseract in process: orientation, the time limit, missing packs (real Tesseract)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from conftest import SAMPLES
from PIL import Image

from pipeline.errors import ToolMissingError
from pipeline.read import tesseract

SCAN = SAMPLES / "scan_protocol_brazil_japan_1978_en.pdf"


@pytest.fixture(scope="module")
def page_image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample scan's first page at 150 dpi, in gray."""
    path = tmp_path_factory.mktemp("tesseract") / "page.png"
    pypdfium2.PdfDocument(SCAN)[0].render(scale=150 / 72, grayscale=True).to_pil().save(path)
    return path


@pytest.mark.slow
@pytest.mark.parametrize(("turned", "back"), [(90, 90), (270, 270), (0, 0)])
def test_orientation_says_how_far_to_turn_a_page_clockwise(
        page_image: Path, tmp_path: Path, turned: int, back: int):
    """A page turned ``turned`` degrees counter-clockwise is upright again after
    ``back`` degrees clockwise (Tesseract itself reports the page's own turn)."""
    image = tmp_path / f"turned-{turned}.png"
    Image.open(page_image).rotate(turned, expand=True, fillcolor=255).save(image)
    osd = tesseract.detect_orientation(image)
    assert osd is not None
    assert (osd.rotate, osd.script) == (back, "Latin")


@pytest.mark.slow
def test_a_page_read_past_its_time_limit_raises(page_image: Path):
    with pytest.raises(TimeoutError, match=r"within 0\.001 s"):
        tesseract.ocr_image(page_image, "eng", timeout=0.001)
    # the engine is not spoilt by it: the next reading of the page is whole
    assert "Contracting State" in tesseract.ocr_image(page_image, "eng", timeout=60).text


def test_a_missing_pack_is_a_clear_error(page_image: Path):
    with pytest.raises(ToolMissingError, match=r"pack.*klingon not installed"):
        tesseract.ocr_image(page_image, "eng+klingon", timeout=60)
