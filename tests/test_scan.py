"""The scan-reading decisions (probe, retries, packs) with a scripted OCR engine; the
real engine's tests are in test_ingest (a real scan, a turned page)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.config import Settings
from pipeline.read.scan import PreparedPage, probe_pack, read_scan
from pipeline.read.tesseract import OcrResult, Orientation

ENGLISH = ("The Contracting States shall consult each other on the application of this "
           "Convention and on any difficulty which may arise in its interpretation.")
PORTUGUESE = ("Os Estados Contratantes consultar-se-ão sobre a aplicação desta Convenção e "
              "sobre qualquer dificuldade que possa surgir na sua interpretação.")


def reading(text: str, confidence: float) -> OcrResult:
    return OcrResult(text=text, confidence=confidence, words=len(text.split()))


@dataclass
class ScriptedEngine:
    """An OCR engine that answers from a script: a reading per pack (the same for every
    image) and one orientation; it records each call."""

    readings: dict[str, OcrResult]
    osd: Orientation | None = None
    calls: list[str] = field(default_factory=list)

    def read(self, image: Path, languages: str, settings: Settings) -> OcrResult:
        self.calls.append(f"read {languages}")
        return self.readings[languages]

    def orientation(self, image: Path) -> Orientation | None:
        self.calls.append("orientation")
        return self.osd


def page_with_lines(path: Path, lines: int = 30) -> PreparedPage:
    """A bilevel page of ``lines`` black bars, as text lines look to the probe."""
    pixels = np.full((1200, 800), 255, np.uint8)
    for line in range(lines):
        top = 100 + line * 32
        pixels[top:top + 16, 80:720] = 0
    Image.fromarray(pixels).convert("1").save(path)
    return PreparedPage(path, 0.0)


def test_the_probe_tells_the_language_from_a_strip(tmp_path: Path, settings: Settings):
    engine = ScriptedEngine({"eng": reading(PORTUGUESE, 91)})
    pack, why = probe_pack(page_with_lines(tmp_path / "p.pbm"), settings, engine)
    assert (pack, why) == ("por", "a strip reads as pt")
    assert engine.calls == ["read eng"]  # one strip was enough
    assert list(tmp_path.iterdir()) == [tmp_path / "p.pbm"]  # the strip's file is gone


def test_the_probe_passes_over_strips_that_tell_nothing(tmp_path: Path, settings: Settings):
    engine = ScriptedEngine({"eng": reading("1 2", 95)})
    pack, why = probe_pack(page_with_lines(tmp_path / "p.pbm"), settings, engine)
    assert (pack, why) == (settings.ocr_languages, "no strip tells a language or script")
    assert engine.calls == ["read eng"] * 3  # every strip tried


def test_a_strip_of_names_tells_no_language(tmp_path: Path, settings: Settings):
    # a column of beer brands on a Portuguese page (DOUS1a page 19, read with eng): its
    # letters and its words both look Swedish, and it has no running text
    brands = ("BADEN BADEN PILSEN CRISTAL\nBADEN BADEN WEISS\nBAMBERG ALT\nBAMBERG HELLES\n"
              "Kromus Bier\nBAMBERG MUNCHEN\nBAMBERG RAUCHBIER\nBAVARIA PREMIUM\nLA TRAPE\n"
              "Leffe\nLOKAL PIL")
    engine = ScriptedEngine({"eng": reading(brands, 90)})
    pack, why = probe_pack(page_with_lines(tmp_path / "p.pbm"), settings, engine)
    assert (pack, why) == (settings.ocr_languages, "no strip tells a language or script")
    assert engine.calls == ["read eng"] * 3


def test_the_probe_detects_the_script_of_unreadable_text(tmp_path: Path, settings: Settings):
    engine = ScriptedEngine({"eng": reading("ii 1I Il ll .. ~~ ,,", 20)},
                            Orientation(rotate=0, script="Devanagari", script_confidence=3.0))
    pack, why = probe_pack(page_with_lines(tmp_path / "p.pbm"), settings, engine)
    assert (pack, why) == ("Devanagari", "a strip's script is Devanagari")
    assert engine.calls == ["read eng", "orientation"]


def test_a_blank_page_tells_nothing_and_reads_nothing(tmp_path: Path, settings: Settings):
    engine = ScriptedEngine({})
    pack, _ = probe_pack(page_with_lines(tmp_path / "p.pbm", lines=0), settings, engine)
    assert pack == settings.ocr_languages and engine.calls == []


def test_a_confident_reading_is_kept(tmp_path: Path, settings: Settings):
    engine = ScriptedEngine({"eng": reading(ENGLISH, 92)})
    result = read_scan(page_with_lines(tmp_path / "p.pbm"), settings, start_pack="eng",
                       why="a strip reads as en", engine=engine)
    assert engine.calls == ["read eng"]
    assert (result.text, result.languages) == (ENGLISH, "eng")
    assert result.steps == ("document pack (a strip reads as en), read with eng",)


def test_a_doubtful_page_is_turned_and_read_again(tmp_path: Path, settings: Settings):
    page = page_with_lines(tmp_path / "p.pbm")
    before = np.asarray(Image.open(page.path))
    engine = ScriptedEngine({"eng": reading(ENGLISH, 30)},
                            Orientation(rotate=180, script="Latin", script_confidence=9.0))
    result = read_scan(page, settings, start_pack="eng", engine=engine)
    # the same script, only turned: read again with the same pack, and only once
    assert engine.calls == ["read eng", "orientation", "read eng"]
    assert result.steps[-1].endswith("turned 180°, read again with eng")
    turned = np.asarray(Image.open(page.path))
    assert np.array_equal(turned, before[::-1, ::-1])  # the file itself was turned


def test_a_worse_second_reading_is_not_kept(tmp_path: Path, settings: Settings):
    engine = ScriptedEngine({"eng": reading(ENGLISH, 40),
                             "Devanagari": reading("कर", 10)},
                            Orientation(rotate=0, script="Devanagari", script_confidence=2.0))
    result = read_scan(page_with_lines(tmp_path / "p.pbm"), settings, start_pack="eng",
                       engine=engine)
    assert engine.calls == ["read eng", "orientation", "read Devanagari"]
    assert (result.text, result.languages, result.confidence) == (ENGLISH, "eng", 40)


def test_a_page_in_another_language_is_read_with_its_own_pack(tmp_path: Path,
                                                              settings: Settings):
    engine = ScriptedEngine({"por": reading(ENGLISH, 88), "eng": reading(ENGLISH, 93)})
    result = read_scan(page_with_lines(tmp_path / "p.pbm"), settings, start_pack="por",
                       engine=engine)
    assert engine.calls == ["read por", "read eng"]
    assert result.languages == "eng" and result.confidence == 93
    assert result.steps[-1] == "text is en: read again with eng"


def test_a_page_read_with_its_language_among_the_packs_is_not_read_again(
        tmp_path: Path, settings: Settings):
    """The probe told nothing (a page of tables): the default packs hold Portuguese."""
    engine = ScriptedEngine({"eng+por": reading(PORTUGUESE, 80), "por": reading(PORTUGUESE, 81)})
    result = read_scan(page_with_lines(tmp_path / "p.pbm"), settings,
                       start_pack=settings.ocr_languages, engine=engine)
    assert engine.calls == ["read eng+por"]
    assert result.languages == "eng+por"


def test_a_devanagari_hint_reads_with_the_script_pack_and_asks_nothing_more(
        tmp_path: Path, settings: Settings):
    engine = ScriptedEngine({"Devanagari": reading("कर संधि", 35)})
    result = read_scan(page_with_lines(tmp_path / "p.pbm"), settings, script_hint="Devanagari",
                       start_pack="por", engine=engine)
    assert engine.calls == ["read Devanagari"]  # doubtful, but the text layer told the script
    assert result.steps == ("script from the text layer: Devanagari, read with Devanagari",)
