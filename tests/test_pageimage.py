"""Page preparation for OCR: the skew, the paper levelled, specks, the probe's band."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from PIL import Image

from pipeline.config import Settings
from pipeline.read.pageimage import despeckle, level, skew_angle, unskew, whole_lines
from pipeline.read.scan import prepare_page, probe_pack

SCAN = Path(__file__).parent.parent / "raw" / "samples" / "scan_protocol_brazil_japan_1978_en.pdf"


@pytest.fixture(scope="module")
def scanned_page() -> np.ndarray:
    """The first page of the sample scan (seed 001 rendered with noise, turned 1.5°)."""
    pdf = pypdfium2.PdfDocument(SCAN)
    try:
        return np.asarray(pdf[0].render(scale=300 / 72, grayscale=True).to_pil().convert("L"))
    finally:
        pdf.close()


def test_the_sample_scans_skew_is_measured_and_undone(scanned_page: np.ndarray):
    angle = skew_angle(scanned_page)
    assert angle == -1.5
    assert skew_angle(unskew(scanned_page, angle)) == 0.0


def test_levelling_keeps_the_ink_of_a_real_page_and_whitens_its_paper(scanned_page: np.ndarray):
    levelled = level(scanned_page)
    ink_share = (levelled < 128).mean()
    assert 0.01 < ink_share < 0.2, ink_share
    assert np.median(levelled) > np.median(scanned_page)  # the gray paper is whiter
    # a stroke keeps its gray edge: levelled pixels between ink and paper remain
    assert ((levelled > 64) & (levelled < 192)).mean() > 0.2 * ink_share


def test_despeckling_removes_the_sample_scans_specks_and_keeps_its_text(scanned_page: np.ndarray):
    levelled = level(scanned_page)
    cleaned = despeckle(levelled)
    dark = levelled < 192
    padded = np.pad(dark, 1)
    alone = dark & (sum(padded[dy:dy + dark.shape[0], dx:dx + dark.shape[1]]
                        for dy in range(3) for dx in range(3)) == 1)
    assert alone.sum() > 1000  # the sample's specks, one pixel each
    removed = (cleaned[alone] == 255).mean()
    assert removed > 0.95, removed  # those beside a letter may stay
    kept = (cleaned < 128).sum() / (levelled < 128).sum()
    assert kept > 0.98, kept  # the letters stay whole


def test_levelling_lifts_a_shadow_but_not_the_ink_in_it():
    page = np.tile(np.linspace(140, 240, 400).astype(np.uint8), (200, 1))  # darker left
    page[90:100, 20:380] = 40
    levelled = level(page)
    paper = np.concatenate([levelled[:80], levelled[110:]])
    assert paper.min() > 200 and np.ptp(paper) < 40  # was 140 to 240
    assert (levelled[92:98, 30:370] < 90).all()


def test_the_probe_band_holds_whole_lines(scanned_page: np.ndarray):
    page = level(unskew(scanned_page, -1.5))
    band = whole_lines(page, 0.4, 0.5)
    assert 0.05 * len(page) < band.stop - band.start < 0.2 * len(page)
    inked = (page < 128).any(axis=1)
    assert not inked[band.start] and not inked[band.stop]  # cut between lines


def test_a_blank_page_is_prepared_and_tells_no_language(tmp_path: Path, settings: Settings):
    blank = prepare_page(np.full((3508, 2480), 250, np.uint8), tmp_path / "blank.pgm")
    assert blank.angle == 0.0 and np.asarray(Image.open(blank.path)).all()
    assert probe_pack(blank, settings) == (settings.ocr_languages,
                                           "no strip tells a language or script")
