"""Language split: restricted, seeded labels; sections found on real seeds."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLES
from hypothesis import given
from hypothesis import strategies as st
from langdetect.detector import Detector
from langdetect.lang_detect_exception import LangDetectException
from langsplit_seeds import accuracy, gold_spans, mixture, mixture_accuracy

from pipeline.config import Settings
from pipeline.read.ingest import ingest, source_for
from pipeline.records import Block, CleanedDocument, Page
from pipeline.repair import repair
from pipeline.split.languages import label_blocks, sections_of
from pipeline.text.language import _capitals_lowered, _factory, detect_language
from pipeline.text.quick_langdetect import QuickDetector


@pytest.mark.parametrize(("text", "expected"), [
    ("O presente Protocolo entrará em vigor na data da última notificação.", "pt"),
    ("This Protocol shall enter into force on the date of the later notification.", "en"),
    ("Detta protokoll träder i kraft den dag då den senare underrättelsen mottas.", "sv"),
    ("यह प्रोटोकॉल बाद वाली अधिसूचना की तारीख को प्रवृत्त होगा।", "hi"),
])
def test_detects_the_four_languages(settings: Settings, text: str, expected: str):
    assert detect_language(text, settings)[0] == expected


def test_only_configured_languages_come_back(settings: Settings):
    # Unrestricted, langdetect calls this German.
    assert detect_language("DIÁRIO OFICIAL DA UNIÃO REPÚBLICA FEDERATIVA DO BRASIL IMPRENSA "
                           "NACIONAL", settings)[0] in settings.languages
    assert detect_language("1988 2013 26 39", settings) == ("other", "no-letters")


def test_labels_are_deterministic(settings: Settings):
    ambiguous = "Konvention convenção convention artikel artigo article imposto skatt tax"
    labels = set()
    for _ in range(5):
        _factory.cache_clear()
        labels.add(detect_language(ambiguous * 3, settings))
    assert len(labels) == 1


def test_islands_and_short_blocks_take_neighbours_language():
    def block(language: str, evidence: str = "langdetect") -> Block:
        return Block(page=1, start=0, end=1, text="x", language=language, evidence=evidence)

    sections = sections_of([block("pt"), block("sv"), block("pt"), block("en"), block("en")])
    assert [(s.language, len(s.blocks)) for s in sections] == [("pt", 3), ("en", 2)]
    assert sections[0].blocks[1].evidence == "island"


def sections(name: str, settings: Settings) -> list[tuple[str, int]]:
    cleaned = repair(ingest(source_for(SAMPLES / name), settings))
    return [(s.language, s.end - s.start) for s in sections_of(label_blocks(cleaned, settings))]


def test_seed_002_is_portuguese_english_swedish(settings: Settings):
    found = sections("002_9382d4ae2bbb4b06.txt", settings)
    assert [language for language, _ in found] == ["pt", "en", "sv"]


def test_seed_003_hindi_then_english(settings: Settings):
    found = [lang for lang, size in sections("003_0e74b7595024bb83.txt", settings)
             if size > 5000]
    assert found == ["hi", "en"]


@pytest.mark.slow
def test_bench_figures_hold(shared: Path):
    """The language-split benchmark's figures (BENCHMARKS.md) do not regress."""
    gold = gold_spans(shared / "gold" / "seed-languages.tsv", shared / "seeds")
    for name, floor in {"000_2a61d363becf8d44.txt": 0.995, "001_92f44dad33fafe9c.txt": 0.995,
                        "002_9382d4ae2bbb4b06.txt": 0.995, "004_5572047d3d386aa9.txt": 0.995,
                        "003_0e74b7595024bb83.txt": 0.995}.items():
        share, _ = accuracy(shared / "seeds" / name, gold[name])
        assert share >= floor, f"{name}: {share:.2%}"


def test_ntrex_mixtures(shared: Path):
    right = total = 0
    for seed in range(5):
        r, t = mixture_accuracy(*mixture(shared / "corpora" / "ntrex-dev", seed))
        right, total = right + r, total + t
    assert right / total >= 0.99


def test_seed_000_hindi_junk_is_unreadable(settings: Settings):
    found = sections("000_2a61d363becf8d44.txt", settings)
    assert [language for language, _ in found] == ["pt", "en", "unreadable"]


def test_quoted_foreign_terms_do_not_decide(settings: Settings):
    text = ("a) no caso da Suécia: o imposto nacional sobre a renda (den statliga "
            "inkomstskatten); i) o imposto retido na fonte sobre dividendos (kupongskatten)")
    assert detect_language(text, settings)[0] == "pt"


#: The end of a decree promulgating a decision printed in Swedish, as a scanned DOU
#: edition reads it: no blank line around ``ANEXO``, and the Swedish read with the
#: edition's Portuguese model (``å`` as ``â``, ``ö`` as ``ó``, ``Å`` as ``A``).
DECREE_THEN_SWEDISH = """\
Art. 2º Este Decreto entra em vigor na data de sua publicação.

Brasília, 30 de setembro de 2014; 193º da Independência e 126º da República.

DILMA ROUSSEFF
Luiz Alberto Figueiredo Machado
ANEXO
Beslut nr 1/2019 i AVS-EU-ministerrâdet

av den 23 maj 2019

om delegering av befogenheter till AVS-EU-ambassadôrskommittén vad gäller beslutet att \
anta óvergângsátgârder i enlighet med artikel 95.4 i AVS-EU-partnerskapsavtalet [2019/920]

AVS-EU-MINISTERRADET HAR ANTAGIT FÓL-

JANDE BESLUT

med beaktande av partnerskapsavtalet mellan medlemmarna i gruppen av stater i Afrika, \
Vástindien och Stillahavsomrâdet, à ena sidan, och Europeiska gemenskapen och dess \
medlemsstater, à andra sidan, särskilt artikel 15.4, och

av följande skäl:
"""


def test_an_annex_in_another_language_starts_after_the_annex_line(settings: Settings):
    text = DECREE_THEN_SWEDISH
    cleaned = CleanedDocument("decree", (Page(1, "ocr", "", text),))
    found = sections_of(label_blocks(cleaned, settings))
    assert [s.language for s in found] == ["pt", "sv"]  # misread accents are not junk
    assert text[found[0].start:found[0].end].endswith("Machado\nANEXO")
    assert text[found[1].start:].startswith("Beslut nr 1/2019")


def _both_detectors(text: str, languages: tuple[str, ...]) -> list[object]:
    """langdetect's probabilities for ``text`` from its own detector and from ours."""
    found: list[object] = []
    for kind in (Detector, QuickDetector):
        detector = kind(_factory(languages, 0))
        detector.append(text)
        try:
            found.append(([(language.lang, language.prob) for language in
                           detector.get_probabilities()], detector.langprob))
        except LangDetectException as exc:
            found.append(str(exc))
    return found


def test_the_quick_detector_gives_langdetects_probabilities_on_real_text(shared: Path):
    corpus = shared / "corpora" / "ntrex-dev"
    texts = [line for name in ("eng", "por", "swe", "hin")
             for line in (corpus / f"ntrex-dev.{name}.txt").read_text(
                 encoding="utf-8").splitlines()[:150]]
    texts += [path.read_text(encoding="utf-8")[:3000] for path in sorted(SAMPLES.glob("*.txt"))]
    texts += [_capitals_lowered(text) for text in texts[::7]]
    for languages in (("en", "pt", "sv"), ("en", "pt", "sv", "hi")):
        for text in texts:
            stock, quick = _both_detectors(text, languages)
            assert quick == stock, text


@given(st.text(alphabet=st.sampled_from("aeioustnrAEÉÇçãõöäâ  .,-1\n\u0915\u093eगक http://x.org @"),
               max_size=120))
def test_the_quick_detector_gives_langdetects_probabilities_on_any_text(text: str):
    stock, quick = _both_detectors(text, ("en", "pt", "sv"))
    assert quick == stock
