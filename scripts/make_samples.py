"""Generate the sample PDFs in raw/samples/ from real treaty text.

Two PDFs, so that the main job exercises both ways of reading a PDF page:

* ``scan_protocol_brazil_japan_1978_en.pdf`` — an image-only "scan": seed 001 (the
  English protocol between Brazil and Japan, clean text) rendered at 300 dpi in a
  serif font, with paper noise and a 1.5° skew. Only OCR can read it.
* ``textlayer_protocol_brazil_sweden_pt_en.pdf`` — a born-digital PDF with a text
  layer: the title, preamble and first three articles of seed 002 (Brazil–Sweden
  protocol) in Portuguese, then in English.

Deterministic (fixed random seed), so re-running gives the same files. Run with
``make samples``; needs the dev extra (fpdf2) and fonts-dejavu-core.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "raw" / "samples"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SERIF = FONT_DIR / "DejaVuSerif.ttf"
SANS = FONT_DIR / "DejaVuSans.ttf"
SANS_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

#: Fixed metadata dates keep the files byte-identical from run to run.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
DPI = 300
PAGE = (2480, 3508)  # A4 at 300 dpi
MARGIN = 240


def wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap of one paragraph to ``width`` pixels."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if font.getlength(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


#: Makes a clean page look scanned: (page, random source, skew in degrees) -> page.
Aging = Callable[[Image.Image, random.Random, float], Image.Image]


def render_scan(paragraphs: list[str], seed: int, font_path: Path = SERIF,
                skew: float = 1.5, age: Aging | None = None) -> list[Image.Image]:
    """Render paragraphs onto noisy grayscale pages turned by ``skew`` degrees, aged by
    ``age`` (default: :func:`_age`).

    Also used by ``bench/ocr_bench.py`` for its benchmark pages.
    """
    rng = random.Random(seed)
    font = ImageFont.truetype(str(font_path), 42)  # about 10 pt at 300 dpi
    line_height = 62
    pages: list[Image.Image] = []
    page = draw = None
    y = PAGE[1]
    for paragraph in paragraphs:
        for line in [*wrap(paragraph, font, PAGE[0] - 2 * MARGIN), ""]:
            if y + line_height > PAGE[1] - MARGIN:
                page = Image.new("L", PAGE, 255)
                draw = ImageDraw.Draw(page)
                pages.append(page)
                y = MARGIN
            assert draw is not None
            draw.text((MARGIN, y), line, font=font, fill=20)
            y += line_height
    return [(age or _age)(page, rng, skew) for page in pages]


def _age(page: Image.Image, rng: random.Random, skew: float) -> Image.Image:
    """Make a clean rendering look scanned: blur, speckles, skew, gray paper."""
    page = page.filter(ImageFilter.GaussianBlur(0.8))
    pixels = page.load()
    assert pixels is not None
    for _ in range(page.width * page.height // 400):
        x, y = rng.randrange(page.width), rng.randrange(page.height)
        pixels[x, y] = rng.choice((40, 90, 200))
    page = page.rotate(skew, resample=Image.Resampling.BICUBIC, fillcolor=235)
    return page.point(lambda v: min(v, 235))


def seed_paragraphs(name: str) -> list[str]:
    text = (ROOT / "raw" / "samples" / name).read_text(encoding="utf-8")
    return [p.strip() for p in text.split("\n\n") if p.strip()]


def first_articles(text: str, word: str, count: int) -> str:
    """The text from its start up to the heading of article ``count + 1``."""
    end = re.search(rf"\b{word} {count + 1}\b", text)
    assert end, f"{word} {count + 1} not found"
    return text[:end.start()].strip()


def make_scan() -> Path:
    paragraphs = seed_paragraphs("001_92f44dad33fafe9c.txt")
    pages = render_scan(paragraphs, seed=1978)
    out = SAMPLES / "scan_protocol_brazil_japan_1978_en.pdf"
    pages[0].save(out, save_all=True, append_images=pages[1:], resolution=DPI, quality=45,
                  creationDate=FIXED_DATE.timetuple(), modDate=FIXED_DATE.timetuple())
    return out


def make_text_layer() -> Path:
    text = (ROOT / "raw" / "samples" / "002_9382d4ae2bbb4b06.txt").read_text(encoding="utf-8")
    english_start = text.index("PROTOCOL AMENDING THE CONVENTION")
    swedish_start = text.index("PROTOKOLL")
    portuguese = first_articles(text[text.index("PROTOCOLO DE EMENDA"):english_start],
                                "ARTIGO", 3)
    english = first_articles(text[english_start:swedish_start], "ARTICLE", 3)
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.add_font("DejaVu", "", str(SANS))
    pdf.add_font("DejaVu", "B", str(SANS_BOLD))
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_title("Protocolo Brasil-Suécia / Protocol Brazil-Sweden (sample)")
    for body in (portuguese, english):
        pdf.add_page()
        for paragraph in re.split(r"\s*\n\s*\n\s*|(?=\b(?:ARTIGO|ARTICLE) \d+\b)", body):
            if not paragraph or not paragraph.strip():
                continue
            heading = re.match(r"(ARTIGO|ARTICLE) \d+", paragraph)
            if heading:
                pdf.set_font("DejaVu", "B", 11)
                pdf.multi_cell(0, 6, heading.group(), new_x="LMARGIN", new_y="NEXT")
                paragraph = paragraph[heading.end():].strip()
            pdf.set_font("DejaVu", "", 10)
            pdf.multi_cell(0, 5, paragraph, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    out = SAMPLES / "textlayer_protocol_brazil_sweden_pt_en.pdf"
    pdf.output(str(out))
    return out


if __name__ == "__main__":
    for path in (make_scan(), make_text_layer()):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} KiB")
