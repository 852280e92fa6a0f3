"""Page preparation for OCR: the median filter, the skew, binarization, the probe's band."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image, ImageFilter

from pipeline.config import Settings
from pipeline.read.pageimage import binarize, median3, skew_angle, unskew, whole_lines
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


# Pages of at most 12 x 12 pixels: a thousand examples cover the edges and corners well
# (CI's ten thousand took 2.5 minutes, mostly Hypothesis drawing arrays).
@settings(max_examples=min(settings.default.max_examples, 1000))
@given(arrays(np.uint8, st.tuples(st.integers(1, 12), st.integers(1, 12))))
def test_median3_is_the_median_of_each_pixels_nine_neighbours(page: np.ndarray):
    padded = np.pad(page, 1, mode="edge")
    rows, columns = page.shape
    nine = np.stack([padded[dy:dy + rows, dx:dx + columns]
                     for dy in range(3) for dx in range(3)])
    assert np.array_equal(median3(page), np.median(nine, axis=0).astype(np.uint8))


def test_median3_matches_pillow_inside_a_real_page(scanned_page: np.ndarray):
    crop = scanned_page[1000:1400, 300:900]
    pillow = np.asarray(Image.fromarray(crop).filter(ImageFilter.MedianFilter(3)))
    assert np.array_equal(median3(crop)[1:-1, 1:-1], pillow[1:-1, 1:-1])


def test_the_sample_scans_skew_is_measured_and_undone(scanned_page: np.ndarray):
    angle = skew_angle(scanned_page)
    assert angle == -1.5
    assert skew_angle(unskew(scanned_page, angle)) == 0.0


def test_binarize_keeps_the_ink_of_a_real_page(scanned_page: np.ndarray):
    paper = binarize(median3(scanned_page))
    ink_share = 1 - paper.mean()
    assert 0.01 < ink_share < 0.2, ink_share
    # the speckles are gone: ink pixels with no ink around them are rare
    ink = ~paper
    padded = np.pad(ink, 1)
    neighbours = sum(padded[dy:dy + ink.shape[0], dx:dx + ink.shape[1]]
                     for dy in range(3) for dx in range(3)) - ink
    assert (ink & (neighbours == 0)).sum() < 0.001 * ink.sum()


def test_the_probe_band_holds_whole_lines(scanned_page: np.ndarray):
    page = np.where(binarize(median3(unskew(scanned_page, -1.5))), 255, 0).astype(np.uint8)
    band = whole_lines(page, 0.4, 0.5)
    assert 0.05 * len(page) < band.stop - band.start < 0.2 * len(page)
    inked = (page < 128).any(axis=1)
    assert not inked[band.start] and not inked[band.stop]  # cut between lines


def test_a_blank_page_is_prepared_and_tells_no_language(tmp_path: Path, settings: Settings):
    blank = prepare_page(np.full((3508, 2480), 250, np.uint8), tmp_path / "blank.pbm")
    assert blank.angle == 0.0 and np.asarray(Image.open(blank.path)).all()
    assert probe_pack(blank, settings) == (settings.ocr_languages,
                                           "no strip tells a language or script")
