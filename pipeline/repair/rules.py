"""The repair rules: pure ``str -> str`` functions, each named for what it fixes.

Every rule shows a real before/after from the seed documents and says when it is
unsafe. Rules only act where their evidence is strong; the orchestration in
:mod:`pipeline.repair` records every change and stops a rule that would change too
much of a page.
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Sequence

import ftfy

from pipeline.repair._tables import (
    CYRILLIC_TO_LATIN,
    LATIN_PHRASES,
    VIETNAMESE_JUNK,
    WORD_CONFUSIONS,
)
from pipeline.repair.glyph_map import apply_glyph_map, infer_glyph_map
from pipeline.repair.hindi_layer import put_signs_in_place, rejoin_detached_signs
from pipeline.text.language import letters
from pipeline.text.legacy_hindi import convert_legacy_runs
from pipeline.text.lexicon import accented_words, broken_devanagari, is_known, without_marks, zipf
from pipeline.text.lines import in_capitals, is_lead_in, starts_next_item

__all__ = [
    "collapse_fake_bold",
    "convert_legacy_hindi",
    "fix_broken_devanagari",
    "fix_numbering_glyphs",
    "fix_ocr_accents",
    "fix_ocr_words",
    "fix_quote_junk",
    "fix_with_ftfy",
    "latinize_homoglyphs",
    "move_displaced_paragraph_numbers",
    "normalize_nfc",
    "read_broken_glyphs",
    "reflow_hard_wraps",
    "remove_repeated_lines",
    "remove_running_heads",
    "repeated_lines",
]

#: ftfy as gazettes need it: typographic quotes are kept (translators want them),
#: full-width characters are left alone, and Unicode normalization is left to
#: :func:`normalize_nfc`, so that the log tells the two apart.
#: The languages whose lexicons judge Latin-script words.
_LATIN = ("pt", "en", "sv")

_FTFY_CONFIG = ftfy.TextFixerConfig(uncurl_quotes=False, fix_character_width=False,
                                    normalization=None, explain=False)


def fix_with_ftfy(text: str) -> str:
    """Fix mojibake, HTML entities, control characters and line breaks with ftfy.

    >>> fix_with_ftfy("ConvenÃ§Ã£o destinada a evitar a dupla tributaÃ§Ã£o")
    'Convenção destinada a evitar a dupla tributação'
    >>> fix_with_ftfy("“a Convenção”")
    '“a Convenção”'

    Unsafe when a text really means the characters ftfy takes for mojibake; gazettes
    in Portuguese, English, Swedish and Hindi do not.
    """
    return ftfy.fix_text(text, _FTFY_CONFIG)


def convert_legacy_hindi(text: str) -> str:
    r"""Convert Hindi typed in the Kruti Dev legacy font to Unicode where a text mixes it in.

    >>> convert_legacy_hindi("jftLVªh laö Mhö vlk/kj.k EXTRAORDINARY Hkkx II—[k.M 3")
    'रजिस्ट्री सं॰ डी॰ असाधरण EXTRAORDINARY भाग II—खण्ड 3'

    Only stretches with Kruti Dev's tell-tales in several words are touched (see
    :func:`pipeline.text.legacy_hindi.convert_legacy_runs`); English capitals stay. And only
    on a page that shows Hindi: Devanagari elsewhere on it (a bilingual masthead above
    Hindi text), or stretches that, converted, are most of the page. Citations that
    happen to look like Kruti Dev in a page of other text stay as they are:

    >>> convert_legacy_hindi("jangadas não abrangidas\nCirc.809/MSC IMO\nCirc.1006/MSC IMO\n"
    ...                      "Circ.1328/MSC IMO\nJangada pneumática com " + "texto " * 40)[:50]
    'jangadas não abrangidas\nCirc.809/MSC IMO\nCirc.1006'
    """
    converted = convert_legacy_runs(text)
    if converted == text or _HAS_DEVANAGARI.search(text):
        return converted
    found = letters(converted)
    hindi = sum(1 for ch in found if _HAS_DEVANAGARI.match(ch))
    return converted if hindi >= 0.5 * len(found) else text


def normalize_nfc(text: str) -> str:
    """Put text in Unicode Normalization Form C, the form every later stage expects.

    >>> normalize_nfc("Conven\\u0063\\u0327\\u0061\\u0303o")  # c + cedilla, a + tilde
    'Convenção'

    In Devanagari NFC *decomposes* the nukta letters (U+095C ड़ becomes ड + ़), as
    Unicode excludes them from composition; the text reads the same.
    """
    return unicodedata.normalize("NFC", text)


_RUNNING_HEAD = re.compile(
    r"\s*\d{0,3}\s?THE GAZETTE OF INDIA\s*:\s*EXTRAORDINARY\s*"
    r"\[PART\s+[IVX]+\s*[—–-]\s*SEC\.\s*\d\s*\([ivx]+\)\]\s*"
    r"|\s*\d{3,5}\s+GI/\d{4}\s*\(\d+\)\s*"
)
# The DOU's heads, page numbers and the margin note on the digital signature, as
# pdfplumber leaves them when it reads a page column by column (the vertical margin
# note arrives cut in pieces), and as OCR reads them (``N?2 189``, ``enderego
# eletrönico``, ``http://www .in.gov.br/autenticidade. html``, ``pelo cédigo``).
_DOU_PIECE = (
    r"(?:ISSN 1677-7042"
    r"|N\S{0,2} \d+, (?:(?:segunda|terça|quarta|quinta|sexta)-feira|sábado|domingo), "
    r"\d{1,2} de \w+ de \d{4}"
    r"|Este documento pode ser verificado no ender\S* eletr\S* http:/?/www ?\.in\.g[^\n,]*"
    r"(?: ?, Documento assinado digitalmente conforme MP n[oº]-? 2\.200-2 de 24/08/2001, "
    r"que institui a)?"
    r"|pelo c\S{0,2}digo \d{17}"
    r"|\S*gov\.br/autenticidade\.html ?, Documento assinad\S*"
    r"|(?:do )?digitalmente conforme MP n[oº]-? 2\.200-2 de 24/08/2001, que institui a"
    r"|Infraestrutura de Chaves P\S{1,2}blicas Brasileira - ICP-Brasil\.)"
)
# Lines made of such pieces and page numbers (``1 ISSN 1677-7042 33``: the section's
# number before the head); page numbers alone on a line go only among them (elsewhere
# a number alone on its line may be a table's).
_DOU_LINE = rf"(?:\d{{1,3}} )?{_DOU_PIECE}(?: (?:{_DOU_PIECE}|\d{{1,3}}))*(?:\n|\Z)"
_DOU_HEADS = re.compile(rf"^(?:\d{{1,3}}\n)*(?:{_DOU_LINE}(?:\d{{1,3}}\n)*)+", re.MULTILINE)


def remove_running_heads(text: str) -> str:
    """Remove running heads, page numbers and sheet footers of the Gazette of India and
    the DOU.

    >>> remove_running_heads("If the12 THE GAZETTE OF INDIA : EXTRAORDINARY "
    ...                      "[PART II—SEC. 3(ii)] enterprise carries on business")
    'If the enterprise carries on business'
    >>> remove_running_heads("no prazo de 24 horas.\\nEste documento pode ser verificado no "
    ...     "endereço eletrônico http://www.in.g\\npelo código 00012014100100002\\n\\n1\\n"
    ...     "ISSN 1677-7042 3\\nNº 189, quarta-feira, 1 de outubro de 2014\\n§ 2º Em qualquer")
    'no prazo de 24 horas.\\n\\n§ 2º Em qualquer'
    >>> remove_running_heads("N?2 189, quarta-feira, 1 de outubro de 2014\\nEste documento pode "
    ...     "ser verificado no enderego eletrönico http://www .in.gov.br/autenticidade. html\\n"
    ...     "pelo cédigo 00012014100100003 Infraestrutura de Chaves Publicas Brasileira - "
    ...     "ICP-Brasil.\\nO texto")
    'O texto'
    >>> remove_running_heads("Chefe\\n\\n1 ISSN 1677-7042 33\\nSUPERINTENDÊNCIA REGIONAL")
    'Chefe\\n\\nSUPERINTENDÊNCIA REGIONAL'

    DOU lines go only when they stand alone on their line, as a page's heads do, and
    page numbers only among them.
    Unsafe when a text quotes the masthead itself (then the quote loses it).
    """
    return _DOU_HEADS.sub("", _RUNNING_HEAD.sub(" ", text))


def line_shape(line: str) -> str:
    """A line with its numbers masked and its spaces folded: what a running head keeps
    from page to page.

    >>> line_shape(" L 136/2   EN  Official Journal of the European Union 3.5.2019 ")
    'L #/# EN Official Journal of the European Union #.#.#'
    """
    return " ".join(re.sub(r"\d+", "#", unicodedata.normalize("NFC", line)).split())


#: How far from a page's top or bottom a running head or footer lies, in lines.
RUNNING_LINES = 2


def repeated_lines(pages: Sequence[str]) -> frozenset[str]:
    """The running heads and footers a document's pages repeat, whoever publishes it:
    the shapes (:func:`line_shape`) of the lines among the first or last
    :data:`RUNNING_LINES` of nearly every page (four in five, and two at least) that
    are a bare number or have three words or more. A heading such as ``Article 3`` that
    two pages happen to end with is no running line, nor is ``Decision of the Joint
    Committee No 197/2017`` that half the pages of a collection of decisions start with.

    >>> sorted(repeated_lines(["L 3/1 EN Official Journal\\nDecision No 1\\nArticle 1",
    ...                        "L 3/2 EN Official Journal\\nThe Chair\\nArticle 2"]))
    ['L #/# EN Official Journal']
    """
    counts: Counter[str] = Counter()
    for text in pages:
        lines = [line for line in text.split("\n") if line.strip()]
        counts.update({line_shape(line) for line in
                       lines[:RUNNING_LINES] + lines[-RUNNING_LINES:]})
    needed = max(2, math.ceil(0.8 * len([t for t in pages if t.strip()])))
    return frozenset(shape for shape, count in counts.items()
                     if count >= needed and len(shape) <= 150
                     and (shape == "#" or len(shape.split()) >= 3))


def remove_repeated_lines(text: str, repeated: frozenset[str] = frozenset()) -> str:
    """Remove the running heads and footers of any publisher: lines near the page's top
    or bottom whose shape the document's pages repeat (:func:`repeated_lines`, found
    once per document before the rules run; without them the rule changes nothing).

    >>> remove_repeated_lines("L 3/2 EN Official Journal\\nThe Chair\\nDone at Brussels.",
    ...                       frozenset({"L #/# EN Official Journal"}))
    'The Chair\\nDone at Brussels.'

    Unsafe for a line the text itself repeats at the top of most pages (a table's
    header row: it goes too, logged).
    """
    if not repeated:
        return text
    lines = text.split("\n")
    filled = [i for i, line in enumerate(lines) if line.strip()]
    edges = set(filled[:RUNNING_LINES] + filled[-RUNNING_LINES:])
    kept = [line for i, line in enumerate(lines)
            if i not in edges or line_shape(line) not in repeated]
    return "\n".join(kept).strip("\n") if len(kept) < len(lines) else text


_JUNK = re.escape(VIETNAMESE_JUNK)
_JUNK_CLOSING = re.compile(rf"(?<=[\w.)\]])i?([{_JUNK}][{_JUNK}i]*)(?=[\s)]|$)")
_JUNK_OPENING = re.compile(rf"(?:(?<=\s)|^)i?[{_JUNK}]+(?=\w)")


def fix_quote_junk(text: str) -> str:
    """Turn the letters a wrong OCR model made of quotes, colons and stops back into them.

    After a word, a run of these letters (with the stray ``i`` s around them) is a
    closing mark: ``ạ`` was a full stop, ``Ạ`` a colon, ``Ị``/``ị`` the quote.
    Before a word it is an opening quote.

    >>> fix_quote_junk('Acordaram o seguinteẠỊi ARTIGO 2 O seguinte')
    'Acordaram o seguinte:" ARTIGO 2 O seguinte'
    >>> fix_quote_junk('related to such profitsiại Paragraph 6; seguinte: ỊARTIGO 23')
    'related to such profits." Paragraph 6; seguinte: "ARTIGO 23'
    >>> fix_quote_junk('e 27.ịi ARTIGO 3')
    'e 27." ARTIGO 3'

    Unsafe in Vietnamese text, where these are letters; gazettes here hold none.
    """
    def closing(match: re.Match[str]) -> str:
        run = match.group(1)
        stop = ":" if "Ạ" in run else "." if "ạ" in run else ""
        return stop + '"'

    text = _JUNK_CLOSING.sub(closing, text)
    return _JUNK_OPENING.sub('"', text)


_NUMBERING = re.compile(r"(?<![\w])(\()?([iі¡ї]{1,3})([)>])(?=\s)")


def fix_numbering_glyphs(text: str) -> str:
    """Repair roman item numbers OCR spelled with look-alikes: ``(¡i)``, ``(її)``, ``(i>``.

    >>> fix_numbering_glyphs("representative; (¡i) in India: and (¡¡) any other; (її) os")
    'representative; (ii) in India: and (ii) any other; (ii) os'
    >>> fix_numbering_glyphs("thereof: (i> operating as a holding; c} designam")
    'thereof: (i) operating as a holding; c) designam'

    Only enumerators are touched: one to three of these glyphs in brackets (or before
    ``)``), followed by a space. Unsafe for Spanish text, where ``¡`` is punctuation.
    """
    def roman(match: re.Match[str]) -> str:
        opening, glyphs, _ = match.groups()
        return f"{opening or ''}{'i' * len(glyphs)})"

    text = _NUMBERING.sub(roman, text)
    return re.sub(r"(?<=\s)([a-h])\}(?=\s)", r"\1)", text)


_MIXED_WORD = re.compile(r"\b\w*[\u0400-\u04ff]\w*\b")


def latinize_homoglyphs(text: str) -> str:
    """Replace Cyrillic look-alike letters inside otherwise Latin words.

    >>> latinize_homoglyphs("the Соntracting State and Москва")
    'the Contracting State and Москва'

    A word that is all Cyrillic is left as it is. Unsafe for text mixing Latin and
    Cyrillic inside one word on purpose (none in these gazettes).
    """
    def fix(match: re.Match[str]) -> str:
        word = match.group()
        latin = sum("a" <= ch.lower() <= "z" for ch in word)
        return word.translate(CYRILLIC_TO_LATIN) if latin else word

    return _MIXED_WORD.sub(fix, text)


_FAKE_BOLD = re.compile(r"((?:[\u0900-\u097f])|\(cid:\d+\))\1{3}")


def _broken_hindi(text: str) -> bool:
    """Whether more than 5 % of the Devanagari words break the script's spelling.

    That is the sign of a broken text layer; clean Hindi has none.
    """
    total, broken = broken_devanagari(text)
    return total >= 10 and broken > 0.05 * total


def fix_broken_devanagari(text: str) -> str:
    """Put vowel signs a broken PDF text layer misplaced back where Hindi has them.

    >>> fix_broken_devanagari("संिवधान के अिधिनयम का उपबंध दशे के िलए लागू हो, " * 3)[:43]
    'संविधान के अधिनियम का उपबंध देश के लिए लागू'

    Only on broken Hindi (:func:`_broken_hindi`): signs cut off by a space or a comma
    go back to their consonant, the short i drawn before its consonant goes after it,
    signs drawn one cluster off move and words cut in two are joined where that makes
    a known Hindi word (see :mod:`pipeline.repair.hindi_layer`).
    """
    if not _broken_hindi(text):
        return text
    return put_signs_in_place(rejoin_detached_signs(text))


def read_broken_glyphs(text: str) -> str:
    """Read the glyphs a broken Hindi font gave as other characters, by a map of its own.

    >>> page = "गणरा’य रा’य वाणि’यिक -ोटोकॉल -ावधान -योग हुआ " * 2 + "दशे िलए " * 10
    >>> read_broken_glyphs(page)[:42]
    'गणराज्य राज्य वाणिज्यिक प्रोटोकॉल प्रावधान'

    Only on broken Hindi. The map (``’`` → ज्, ``-`` → प्र, ``(cid:4)`` → the short i
    drawn first, ...) is inferred from the page: each stand-in is read the way that
    turns most of its words into known Hindi words, by a clear lead over any other
    reading (:func:`~pipeline.repair.glyph_map.infer_glyph_map`, which logs the map
    and its evidence). Unsafe for a page too short to show the evidence: then
    nothing is read.
    """
    if not _broken_hindi(text):
        return text
    readings = infer_glyph_map(text)
    if not readings:
        return text
    return put_signs_in_place(apply_glyph_map(text, readings))


# One glyph drawn four times over, or a pair drawn as X X Y Y X X Y Y.
_BOLD_UNIT = re.compile(r"(\(cid:\d+\)|\S)\1{3}|(\(cid:\d+\)|\S)\2(\(cid:\d+\)|\S)\3\2\2\3\3")
_BOLD_TOKEN = re.compile(rf"(?:{_BOLD_UNIT.pattern})+")
_HAS_DEVANAGARI = re.compile("[\u0900-\u097f]")
#: The fewest words of Hindi drawn four times over that show a text's PDF draws its
#: bold that way (one could be a row of dandas drawn as an ornament).
MIN_BOLD_HINDI = 2
#: Figures and punctuation marks drawn four times over, one after another.
_BOLD_MARKS = re.compile(r"(?:(\d|[^\w\s])\1{3})+")


def collapse_fake_bold(text: str) -> str:
    """Collapse words a PDF drew four times over (fake bold) into one.

    >>> collapse_fake_bold("ििििवववव ममममंंंं ााााललललयययय")
    'िव मं ालय'
    >>> collapse_fake_bold("अअअअनननन$$ुु$$ुु छछछछ ेेददेेदद 1111 इस करार")
    'अन$ु छ ेद 1 इस करार'

    A word is collapsed when it is made wholly of such runs and has Devanagari in it,
    or stands next to such a word (the article number of a bold heading); inside
    other words only runs of Devanagari and glyph ids are. Unsafe for text that
    really repeats a letter four times (none does).

    A text with at least :data:`MIN_BOLD_HINDI` such Hindi words shows that its PDF
    draws bold that way. There, any word made wholly of runs of four is collapsed
    too, and so are runs of figures and punctuation inside words (a notification's
    number, the colon after a bold word), unless the figures before or after them
    show that they are part of a longer number (``20000`` stays).

    >>> collapse_fake_bold("ििििवववव ममममंंंं का.आ. 2222555566662222((((अ))))....————जबकि, "
    ...                    "अनुच्छेद 1111 को जाएगा:::: ((((aaaa)))) 20000")
    'िव मं का.आ. 2562(अ).—जबकि, अनुच्छेद 1 को जाएगा: (a) 20000'
    """
    if not (_BOLD_UNIT.search(text) or _FAKE_BOLD.search(text)):
        return text  # no run anywhere (neither pattern spans white space): most pages
    if not _HAS_DEVANAGARI.search(text):
        # no word is Hindi, so every word takes the second branch below, and that
        # pattern finds in the whole text what it finds word by word
        return _FAKE_BOLD.sub(r"\1", text)
    tokens = re.split(r"(\s+)", text)
    bold = [bool(_BOLD_TOKEN.fullmatch(t)) for t in tokens]
    hindi = [b and bool(_HAS_DEVANAGARI.search(t)) for b, t in zip(bold, tokens, strict=True)]
    drawn_bold = sum(hindi) >= MIN_BOLD_HINDI
    for i, token in enumerate(tokens):
        if bold[i] and (hindi[i] or drawn_bold
                        or any(hindi[j] for j in (i - 2, i + 2) if 0 <= j < len(tokens))):
            tokens[i] = _BOLD_UNIT.sub(lambda m: m.group(1) or m.group(2) + m.group(3), token)
        else:
            tokens[i] = _FAKE_BOLD.sub(r"\1", token)
            if drawn_bold:
                tokens[i] = _BOLD_MARKS.sub(_bold_marks, tokens[i])
    return "".join(tokens)


def _bold_marks(match: re.Match[str]) -> str:
    """A run of :data:`_BOLD_MARKS` collapsed, unless a figure next to it continues it:
    ``20000`` is a number, not a bold ``2`` and ``0``."""
    run, text = match.group(), match.string
    before = text[match.start() - 1:match.start()]
    after = text[match.end():match.end() + 1]
    if (run[0].isdigit() and before.isdigit()) or (run[-1].isdigit() and after.isdigit()):
        return run
    return run[::4]


_HEADING_LINE = re.compile(
    r"(?:ARTIGO|ARTICLE|ARTIKEL|Artigo|Article|Artikel|Art\.|CAPÍTULO|CHAPTER|"
    r"PROTOCOL|PROTOCOLO|DECRETO|अनुच्छेद)\b")
_UNIT_START = re.compile(r"(?:\d{1,2}\.|\(?[a-z]\)|\(?[ivx]+\)|[-–•])\s")
_HYPHENATED = re.compile(r"(\w+)-\n(\w+)")


#: Share of a page's lines that must run on into the next for it to look wrapped on
#: that evidence alone (a hard-wrapped decree, seed 004: 58 %; a DGT annex of titles
#: split over lines: 23 %).
MIN_RUN_ON_SHARE = 0.3
#: Lines are wrapped to a width; no one wraps wider than this many characters (a text
#: of one paragraph per line has longer lines).
MAX_WRAP_WIDTH = 150
#: A line this much shorter than the wrap width ends its paragraph (or is a heading,
#: a title, a signature line): the next line starts a new one.
SHORT_LINE = 0.6


def looks_wrapped(text: str) -> bool:
    """Whether a page's lines were wrapped to a width (and should be joined), rather
    than written one paragraph, heading or item a line.

    Wrapped text has a width its lines fill (the 90th percentile of their lengths,
    under :data:`MAX_WRAP_WIDTH`), and lines that run on into the next: the next
    starts in lower case, or the line ends in a hyphenated word. It is wrapped when
    three lines in ten run on (and its median line is under 110 characters), or when
    half its lines fill the width and three in twenty run on; a page of fewer than
    three lines is not judged.

    >>> looks_wrapped("A PRESIDENTA DA REPÚBLICA, no uso da atribuição\\nque lhe confere "
    ...               "o art. 84, caput, inciso IV, da\\nConstituição, e\\nConsiderando que "
    ...               "a Decisão do Comitê foi\\naprovada pelo Congresso Nacional.")
    True
    >>> looks_wrapped("THE JOINT COMMITTEE,\\nHaving regard to the Agreement on the "
    ...               "European Economic Area, and in particular Article 98 thereof,\\n"
    ...               "Whereas:\\nThe Regulation is to be incorporated into the Agreement.")
    False
    """
    filled = [line.strip() for line in text.split("\n") if line.strip()]
    if len(filled) < 3:
        return False
    lengths = sorted(map(len, filled))
    width = lengths[int(0.9 * (len(lengths) - 1))]
    if width > MAX_WRAP_WIDTH:
        return False
    runs_on = sum(1 for before, after in itertools.pairwise(filled) if _runs_on(before, after))
    if len(filled) >= 8 and statistics.median(lengths) < 110 and runs_on >= max(
            3, MIN_RUN_ON_SHARE * len(filled)):
        return True
    full = sum(1 for line in filled if len(line) >= 0.75 * width)
    return full >= 0.5 * len(filled) and runs_on >= max(1, 0.15 * len(filled))


def _runs_on(before: str, after: str) -> bool:
    """The line ``after`` continues the sentence of ``before``."""
    if _ends_clause(before):
        return False
    return after[0].islower() or (before[-1] == "-" and before[-2:-1].isalpha())


def reflow_hard_wraps(text: str) -> str:
    """Join the lines of paragraphs a PDF's text layer wrapped; keep headings and items.

    Applies only to pages that :func:`looks_wrapped`. A line is joined to the next
    unless it ends a sentence or clause (``.``, ``:``, ``;``: a paragraph break
    follows), it is short for the page's width and the next starts in capitals (the
    end of a paragraph, a title or signature line), the next starts the next item of a
    list (:func:`starts_next_item`) or is a lead-in (:func:`is_lead_in`), either line
    is a heading, a numbered paragraph or an item (a heading is short: ``Article 1(2)
    of the Convention`` filling its line opens a sentence), or one is in capitals and
    the other not (a title, an annex's or a signer's name); ``exem-`` + ``plo`` becomes
    ``exemplo`` where the lexicon knows the joined word and not the hyphenated one
    (``comunicar-se`` keeps its hyphen). Unsafe for verse or tables, whose line breaks
    mean something.

    >>> page = ("ARTIGO 3\\nO Artigo 1 da Convenção será excluído e substituído pelo\\n"
    ...         "seguinte:\\n1. Esta Convenção se aplicará às pessoas\\n"
    ...         "de ambos os Estados. Poderão comunicar-\\nse por exem-\\n"
    ...         "plo.\\na) no caso do Brasil\\nb) no caso do Chile\\nARTIGO 4")
    >>> print(reflow_hard_wraps(page))
    ARTIGO 3
    O Artigo 1 da Convenção será excluído e substituído pelo seguinte:
    <BLANKLINE>
    1. Esta Convenção se aplicará às pessoas de ambos os Estados. Poderão comunicar-se por exemplo.
    <BLANKLINE>
    a) no caso do Brasil
    b) no caso do Chile
    ARTIGO 4
    """
    if not looks_wrapped(text):
        return text
    filled = sorted(len(line.strip()) for line in text.split("\n") if line.strip())
    short = SHORT_LINE * filled[int(0.9 * (len(filled) - 1))]
    lines = _HYPHENATED.sub(_join_hyphenated, text).split("\n")
    out = [lines[0]]
    for above, line in itertools.pairwise(lines):
        kept = _kept_break(above, out[-1], line, short)
        if kept is None:
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
        else:
            out.append(kept + line)
    return "\n".join(out)


def _kept_break(above: str, previous: str, line: str, short: float) -> str | None:
    """How ``line`` follows ``previous`` (the text so far; ``above``: the line as it
    was) on a wrapped page: None to join them, ``"\\n"`` for a paragraph break before
    it, ``""`` to keep the line break (see :func:`reflow_hard_wraps`)."""
    before, current = previous.strip(), line.strip()
    if not before or not current:
        return ""
    if _is_unit(current) or (_HEADING_LINE.match(before) and len(before) < short):
        return "\n" if _ends_clause(before) else ""
    if _ends_clause(before):
        return "\n"
    if starts_next_item(previous, line) or is_lead_in(before, current, short) or (
            (len(above.strip()) < short or in_capitals(before) != in_capitals(current))
            and not current[0].islower()):
        return ""
    return None


def _is_unit(line: str) -> bool:
    return bool(_HEADING_LINE.match(line) or _UNIT_START.match(line))


def _ends_clause(line: str) -> bool:
    return line.endswith((".", ":", ";", '."', ':"', ".”"))


def _join_hyphenated(match: re.Match[str]) -> str:
    head, tail = match.groups()
    joined = head + tail
    hyphenated = f"{head}-{tail}"
    if is_known(joined, _LATIN) and not is_known(hyphenated, _LATIN):
        return joined
    return hyphenated


_DISPLACED = re.compile(r"(?<=[a-zà-üå-ö,]) (\d{1,2})\. (?=[\"“(]?[a-zà-üå-ö])")
_SENTENCE_START = re.compile(r'(?:^|(?<=[.:;]\s)|(?<=[.:;]["”]\s)|(?<=\n))(?=["“(]?[A-ZÀ-Ü])')
#: A paragraph number where a sentence starts (``2. Para efeitos``).
_NUMBERED_PARAGRAPH = re.compile(r'(?:^|(?<=[.:;]\s)|(?<=\n))["“(]?(\d{1,2})\.\s+["“(]?[A-ZÀ-Ü]')


def move_displaced_paragraph_numbers(text: str) -> str:
    """Put paragraph numbers that two-column OCR pushed mid-sentence back at its start.

    >>> print(move_displaced_paragraph_numbers("1. O imposto pago nos dois Estados. Para "
    ...     "efeitos desta Convenção, uma 2. entidade é"))
    1. O imposto pago nos dois Estados. 2. Para efeitos desta Convenção, uma entidade é

    Evidence: the number stands between a lower-case word (or a comma) and a lower-case
    word, the sentence it belongs to does not start with a number already, and the page
    numbers its paragraphs: the number before or after it starts a sentence on the page.
    So a number that ends a sentence (``aged 34. "I am``), or one in text with no
    numbered paragraphs, stays where it is:

    >>> move_displaced_paragraph_numbers("She was found in a home for people aged 34. "
    ...                                  "the family said later.")
    'She was found in a home for people aged 34. the family said later.'

    Unsafe when a sentence really ends in an abbreviation before a number
    (``pág. 2. segue``) on a page with numbered paragraphs.
    """
    while True:
        numbered = {int(m.group(1)) for m in _NUMBERED_PARAGRAPH.finditer(text)}
        for match in _DISPLACED.finditer(text):
            number = int(match.group(1))
            if not {number - 1, number + 1} & numbered:
                continue
            starts = [m.start() for m in _SENTENCE_START.finditer(text, 0, match.start())]
            if not starts:
                continue
            start = starts[-1]
            if re.match(r'["“(]?\d{1,2}\.\s', text[start:]):
                continue
            text = (text[:start] + f"{number}. " + text[start:match.start()] + " "
                    + text[match.end():])
            break
        else:
            return text


_LATIN_PHRASE = re.compile(
    r"\b(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in LATIN_PHRASES) + r")\b",
    re.IGNORECASE)

# a whole word between spaces or ordinary punctuation, not part of "vlk/kj.k"
_WORD = re.compile(r"(?<![^\s(\"“‘])[a-zà-öø-ÿăőű]{3,}(?=[\s.,;:!?)\"”’]|$)")


def fix_ocr_words(text: str) -> str:
    """Correct unknown lower-case words that one OCR confusion away are common words.

    >>> fix_ocr_words("no ano fiscai considerado; a quaiquer falta")
    'no ano fiscal considerado; a qualquer falta'
    >>> fix_ocr_words("utdelning frän bolag eller năgon kombination")
    'utdelning från bolag eller någon kombination'
    >>> fix_ocr_words("den statliga inkomstskatten; royalties; kupongskatten")
    'den statliga inkomstskatten; royalties; kupongskatten'

    Evidence: across Portuguese, English and Swedish the word is rare (Zipf < 3.5)
    and exactly one candidate made by one confusion (``i``→``l``, ``ä``/``ă``→``å``,
    ``rn``→``m``, ...) is at least 3 Zipf points more frequent. Capitalised words
    (names) and the words of Latin phrases (``LATIN_PHRASES``) are left alone:

    >>> fix_ocr_words("the States shall, inter alia, exchange information")
    'the States shall, inter alia, exchange information'

    Unsafe for rare words that a confusion turns into common ones (such a change is
    logged and can be undone).
    """
    latin = [m.span() for m in _LATIN_PHRASE.finditer(text)]

    def fix(match: re.Match[str]) -> str:
        word = match.group()
        if any(start <= match.start() < end for start, end in latin):
            return word
        current = _zipf(word)
        if current >= 3.5:
            return word
        candidates = {word[:i] + right + word[i + len(wrong):]
                      for wrong, right in WORD_CONFUSIONS
                      for i in _positions(word, wrong)}
        good = [c for c in candidates if _zipf(c) >= current + 3]
        return good[0] if len(good) == 1 else word

    return _WORD.sub(fix, text)


def fix_ocr_accents(text: str) -> str:
    """Give back the accents of words OCR read with another language's model.

    >>> fix_ocr_accents("avtalet om ômsesidigt erkânnande; bedômning av ôverensstâmmelse")
    'avtalet om ömsesidigt erkännande; bedömning av överensstämmelse'
    >>> fix_ocr_accents("a comissâo decidiu; the trèaty; a sábia decisão; ele troçou")
    'a comissão decidiu; the treaty; a sábia decisão; ele troçou'

    Evidence: the word is in no lexicon of Portuguese, English or Swedish, and a word
    they know (Zipf 2.5 or more) has the same letters but for the marks on its vowels
    (the most frequent such word is taken). Known words are left alone, however rare
    (``sábia`` stays, though ``sabia`` is commoner); so are consonants' marks
    (``troçou``, which the lexicon lacks, is no misread ``trocou``) and capitalised
    words (names).

    Unsafe for words of other languages written with accents these three lack (such a
    change is logged and can be undone).
    """
    known = accented_words(_LATIN)

    def fix(match: re.Match[str]) -> str:
        word = match.group()
        if _zipf(word) > 0:
            return word
        found = known.get(without_marks(word), word)
        same_consonants = len(found) == len(word) and all(
            a == b or without_marks(a) in _VOWELS for a, b in zip(word, found, strict=True))
        return found if same_consonants else word

    return _WORD.sub(fix, text)


_VOWELS = set("aeiouy")


def _positions(word: str, part: str) -> list[int]:
    return [i for i in range(len(word)) if word.startswith(part, i)]


def _zipf(word: str) -> float:
    return zipf(word, _LATIN)
