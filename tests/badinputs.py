"""The bad-input corpus: files a gazette archive really holds, generated on demand.

:func:`build` writes every case into an inbox and returns what each must give:
processed (possibly after a repair, with a warning saying so) or rejected with a
named reason. Nothing here is checked in as a binary blob.
"""

from __future__ import annotations

import io
import os
import random
from dataclasses import dataclass
from pathlib import Path

import pikepdf
from fpdf import FPDF

TEXT = ("ARTICLE 1\nScope\nThis Convention shall apply to persons who are residents of one or "
        "both of the Contracting States.\n")


@dataclass(frozen=True)
class Expect:
    """What a case must give: ``processed`` (with ``note`` in a page warning, if set)
    or ``rejected`` (with ``note`` in the reason)."""

    outcome: str
    note: str | None = None


def pdf_bytes(text: str = TEXT, width: float = 210, height: float = 297) -> bytes:
    """A small born-digital PDF (fpdf2) with ``text`` on one page of the given size in mm."""
    pdf = FPDF(unit="mm", format=(width, height))
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    pdf.multi_cell(w=min(width - 20, 180), text=text)
    return bytes(pdf.output())


def bomb_pdf() -> bytes:
    """A 5 m × 5 m page holding only an image: billions of pixels at 300 dpi."""
    from PIL import Image

    image = io.BytesIO()
    Image.new("L", (8, 8), 255).save(image, format="PNG")
    pdf = FPDF(unit="mm", format=(5000, 5000))
    pdf.add_page()
    pdf.image(io.BytesIO(image.getvalue()), x=0, y=0, w=5000, h=5000)
    return bytes(pdf.output())


def _pikepdf(data: bytes, path: Path, **save: object) -> None:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pdf.save(path, **save)


def build(raw: Path) -> dict[str, Expect]:
    """Write the corpus into ``raw`` (created); returns relative path → expectation."""
    raw.mkdir(parents=True, exist_ok=True)
    good = pdf_bytes()
    cases: dict[str, Expect] = {}

    def write(name: str, data: bytes, expect: Expect) -> None:
        (raw / name).write_bytes(data)
        cases[name] = expect

    write("empty.txt", b"", Expect("rejected", "empty file (0 bytes)"))
    write("empty.pdf", b"", Expect("rejected", "empty file (0 bytes)"))
    write("truncated.pdf", good[: len(good) * 2 // 3],
          Expect("processed", "damaged PDF repaired by qpdf"))
    xref = good.rfind(b"startxref")
    write("bad-xref.pdf", good[:xref] + b"startxref\n999999\n%%EOF\n",
          Expect("processed", "damaged PDF repaired by qpdf"))
    _pikepdf(good, raw / "encrypted-empty-password.pdf",
             encryption=pikepdf.Encryption(user="", owner="owner-secret"))
    cases["encrypted-empty-password.pdf"] = Expect("processed")
    _pikepdf(good, raw / "encrypted-password.pdf",
             encryption=pikepdf.Encryption(user="secret", owner="owner-secret"))
    cases["encrypted-password.pdf"] = Expect("rejected", "encrypted PDF: it needs a password")
    write("png.pdf", b"\x89PNG\r\n\x1a\n" + bytes(64), Expect("rejected", "is a PNG image"))
    write("page.pdf", b"<!DOCTYPE html><html><body>Not found</body></html>",
          Expect("rejected", "is an HTML page"))
    write("archive.pdf", b"PK\x03\x04" + bytes(64), Expect("rejected", "is a ZIP archive"))
    write("bomb.pdf", bomb_pdf(), Expect("processed", "megapixels"))
    with pikepdf.new() as empty:
        empty.save(raw / "zero-pages.pdf")
    cases["zero-pages.pdf"] = Expect("rejected", "the PDF has no pages")
    write("utf16.txt", TEXT.encode("utf-16"), Expect("processed"))
    write("utf16le-no-bom.txt", TEXT.encode("utf-16-le"), Expect("processed"))
    write("latin1.txt", "Convenção — Artigo 1º".encode("latin-1", errors="replace") + b"\n",
          Expect("processed"))
    write("bom.txt", b"\xef\xbb\xbf" + TEXT.encode(), Expect("processed"))
    write("nul-bytes.txt", TEXT.encode().replace(b" ", b" \x00", 3),
          Expect("processed", "removed 3 control character(s)"))
    write("random-bytes.txt", random.Random(2026).randbytes(4096),
          Expect("rejected", "binary data, not text"))
    write("blank.txt", b"  \n\t\r\n   \n", Expect("rejected", "no text: the file holds only "
                                                        "white space"))
    line = "This Convention shall apply to persons who are residents. "
    write("one-long-line.txt", (line * (5_000_000 // len(line))).encode(), Expect("processed"))
    write("name with spaces.txt", TEXT.encode(), Expect("processed"))
    write("Decreto nº 12.863 — Índia.txt", TEXT.encode(), Expect("processed"))
    write("a..b.txt", TEXT.encode(), Expect("processed"))
    write("-rf.txt", TEXT.encode(), Expect("processed"))
    # characters XML 1.0 forbids, a right-to-left override and markup in a file name
    write("ctl\x01\x1b[31m\u202e<tu>&amp;\ufffe.txt", TEXT.encode(), Expect("processed"))
    outside = raw.parent / "outside-secret.txt"
    outside.write_text(TEXT, encoding="utf-8")
    (raw / "link-outside.txt").symlink_to(outside)
    cases["link-outside.txt"] = Expect("rejected", "symbolic link")
    locked = raw / "no-permission.txt"
    locked.write_text(TEXT, encoding="utf-8")
    locked.chmod(0)
    # root reads any file: there the case is processed like any other
    cases["no-permission.txt"] = (Expect("processed") if os.geteuid() == 0
                                  else Expect("rejected", "cannot read the file"))
    return cases
