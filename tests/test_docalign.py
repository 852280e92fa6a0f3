"""Documents that translate each other found by what they say (pipeline.align.documents,
pipeline.run.crossdoc), and the structure that lets their units pair: real texts, the real
embedding model."""

from __future__ import annotations

import itertools
import json
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pairing_data import (
    decisions,
    english_lines,
    paragraph_texts,
    write_english,
)

from pipeline.align import align_sentences, pair_articles
from pipeline.align import documents as docalign
from pipeline.align.documents import MIN_SCORE, Digest, Match, Sentences, link, rescore
from pipeline.config import Settings
from pipeline.embedding.build import MANIFEST
from pipeline.embedding.encoder import encoder_for
from pipeline.run import stages
from pipeline.run.crossdoc import (
    embeds_at_pairing,
    kept_offsets,
    match_files,
    offsets_file,
    pair_documents,
)


def ntrex_documents(shared: Path, count: int) -> list[list[tuple[str, str]]]:
    """The first NTREX news documents, each its (English, Hindi) lines."""
    folder = shared / "corpora" / "ntrex-dev"
    ids = (folder / "ntrex-dev.doc_ids.txt").read_text(encoding="utf-8").splitlines()
    english = (folder / "ntrex-dev.eng.txt").read_text(encoding="utf-8").splitlines()
    hindi = (folder / "ntrex-dev.hin.txt").read_text(encoding="utf-8").splitlines()
    rows = zip(ids, english, hindi, strict=True)
    return [[(en, hi) for _, en, hi in group]
            for _, group in itertools.islice(itertools.groupby(rows, key=lambda r: r[0]), count)]


def test_a_bilingual_notification_pairs_paragraph_by_paragraph(shared: Path, tmp_path: Path):
    """A Gazette of India notification prints its Hindi text, then its English one, each in
    numbered paragraphs after the order's number (``का.आ. … (अ).—`` / ``S.O. … (E).—``);
    with no article headings, the paragraphs are the structure, and each English
    paragraph's sentences pair with its Hindi paragraph's (NTREX lines as paragraphs)."""
    (lines,) = ntrex_documents(shared, 1)
    paragraphs = [lines[k:k + 2] for k in range(1, 9, 2)]
    hindi = "\n".join(["भारत सरकार", "अधिसूचना", f"का.आ. 2562(अ).—{lines[0][1]}",
                       *(f"{n}. {' '.join(hi for _, hi in p)}"
                         for n, p in enumerate(paragraphs, 1))])
    english = "\n".join(["GOVERNMENT OF INDIA", "NOTIFICATION", f"S.O. 2562(E).—{lines[0][0]}",
                         *(f"{n}. {' '.join(en for en, _ in p)}"
                           for n, p in enumerate(paragraphs, 1))])
    (tmp_path / "notification.txt").write_text(f"{hindi}\n\n{english}\n", encoding="utf-8")
    settings = Settings.for_root(tmp_path)
    _, _, articles = stages.read_structure(tmp_path / "notification.txt", settings)
    keys = ["preamble", "p1", "p2", "p3", "p4"]
    assert [a.key for a in articles["hi"]] == [a.key for a in articles["en"]] == keys
    pairs = pair_articles(articles, "en")
    found = align_sentences(pairs, encoder_for(settings).encode,
                            stages.align_params(settings))["hi"]
    for number, paragraph in enumerate(paragraphs, 1):
        units = [(p.pivot_text, p.text) for p in found if p.article == f"p{number}" and p.matched]
        english_side, hindi_side = (unicodedata.normalize("NFC", " ".join(side))
                                    for side in zip(*paragraph, strict=True))
        assert units, number
        for en, hi in units:  # each unit holds sentences of this paragraph, on both sides
            assert en.removeprefix(f"{number}. ") in english_side, (number, en)
            assert hi.removeprefix(f"{number}. ") in hindi_side, (number, hi)


@pytest.mark.slow
def test_content_pairs_a_decision_that_identity_would_miss_among_its_siblings(
        shared: Path, tmp_path: Path):
    """Three decisions of one EU joint committee, alike sentence for sentence but for
    their numbers: the English text of one pairs with its own Portuguese text, not with
    its siblings'; its parties name no country (identity agrees on nothing). An English
    text whose translation is not there stays unpaired among decisions of other joint
    committees on similar matters (its own committee's siblings, differing only in
    their number and date, would take it: BENCHMARKS.md says so)."""
    by_name = {d.name: d for d in decisions(shared)}
    # the same committee; then two EEA decisions
    for name in ("22019D0556", "22019D0557", "22019D0559", "22019D1366", "22019D1368"):
        (tmp_path / f"{name}-pt.txt").write_text("\n".join(paragraph_texts(
            by_name[name], "pt")) + "\n", encoding="utf-8")
    for name in ("22019D0557", "22019D1357"):  # 1357's Portuguese is not there
        (tmp_path / f"{name}-en.txt").write_text(english_lines(by_name[name]),
                                                 encoding="utf-8")
    files = sorted(tmp_path.glob("*.txt"))
    pairs, scored, left_out = match_files(files, Settings.for_root(tmp_path))
    assert left_out == []
    assert [(Path(p.english).name, Path(p.other).name, p.identity.agrees) for p in pairs] == [
        ("22019D0557-en.txt", "22019D0557-pt.txt", ())]
    # a sibling scores under the translation, if its numbers leave it a score to have
    siblings = [m for m in scored if m.english.endswith("22019D0557-en.txt")
                and not m.other.endswith("22019D0557-pt.txt")]
    assert max((m.score for m in siblings), default=0.0) < pairs[0].confidence


@pytest.mark.slow
@pytest.mark.parametrize("form", ["html", "docx", "odt", "scan"])
def test_an_english_text_as_a_web_page_an_office_file_or_a_scan_pairs_as_its_text_does(
        shared: Path, tmp_path: Path, form: str):
    """The English text of a decision saved as its EUR-Lex page (site, scripts and all),
    as the Word or OpenDocument file it was drafted in (its articles numbered by the
    file's lists), or its Official Journal PDF photocopied (read by OCR) pairs with its
    Portuguese text, not with a sibling decision's, with the evidence the same text
    copied off the page gives."""
    by_name = {d.name: d for d in decisions(shared)}
    for name in ("22019D0557", "22019D0556"):
        (tmp_path / f"{name}-pt.txt").write_text("\n".join(paragraph_texts(
            by_name[name], "pt")) + "\n", encoding="utf-8")
    decision = by_name["22019D0557"]
    english = write_english(decision, form, tmp_path)
    (tmp_path / "lines").mkdir()
    lines = write_english(decision, "lines", tmp_path / "lines")
    settings = Settings.for_root(tmp_path)
    found = []
    for file in (english, lines):
        pairs, _, left_out = match_files([file, *sorted(tmp_path.glob("*-pt.txt"))], settings)
        assert left_out == [] and [Path(p.other).name for p in pairs] == ["22019D0557-pt.txt"]
        found.append(pairs[0])
    assert found[0].confidence >= 0.5
    assert abs(found[0].confidence - found[1].confidence) <= 0.05, [p.describe() for p in found]


@pytest.mark.slow
def test_an_english_text_printed_among_news_pairs_as_a_part_and_aligns_alone(
        shared: Path, tmp_path: Path):
    """A decision's English text as one item of a bulletin of news, a sixth of it: it
    pairs with its Portuguese text, not a sibling decision's, as the part of the
    bulletin its sentences are, and the part alone is aligned: every unit's English
    is the decision's, and most of its sentences are in a unit."""
    by_name = {d.name: d for d in decisions(shared)}
    for name in ("22019D0557", "22019D0556"):
        (tmp_path / f"{name}-pt.txt").write_text("\n".join(paragraph_texts(
            by_name[name], "pt")) + "\n", encoding="utf-8")
    decision = by_name["22019D0557"]
    bulletin = write_english(decision, "bulletin", tmp_path, shared)
    settings = Settings.for_root(tmp_path)
    pairs, _, left_out = match_files([bulletin, *sorted(tmp_path.glob("*-pt.txt"))], settings)
    assert left_out == [] and [Path(p.other).name for p in pairs] == ["22019D0557-pt.txt"]
    assert pairs[0].part is not None and pairs[0].confidence >= 0.5, pairs[0].describe()
    units, languages = pair_documents(bulletin, Path(pairs[0].other), settings, pairs[0].part)
    english = " ".join(paragraph_texts(decision, "en"))
    paired = [u.pivot_text for u in units]
    assert languages == ["pt"]
    assert all(text in english for text in paired), [t for t in paired if t not in english]
    assert sum(map(len, paired)) >= 0.8 * len(english)


def test_linking_takes_the_best_pair_first_and_one_partner_each():
    def match(english: str, other: str, language: str, score: float) -> Match:
        return Match(english, other, language, score, 0, 0, 0.0, 0.0, 0.0, 0.0, None)

    taken = link([match("en1", "pt1", "pt", 0.9), match("en2", "pt1", "pt", 0.95),
                  match("en1", "pt2", "pt", 0.6), match("en1", "sv1", "sv", 0.7),
                  match("en2", "sv1", "sv", 0.3)])
    # en2 takes pt1 (best); en1 then takes pt2 and, in Swedish, sv1; 0.3 is too low
    assert [(m.english, m.other) for m in taken] == [
        ("en2", "pt1"), ("en1", "sv1"), ("en1", "pt2")]


@pytest.mark.parametrize("length_rule", [True, False], ids=["lengths", "no-lengths"])
def test_short_headings_close_to_everything_do_not_hide_a_translation(
        length_rule: bool, monkeypatch: pytest.MonkeyPatch):
    """As the model sees a scanned translation: each sampled sentence is a little closer
    to its own English sentence (0.86) than to the others (0.83), and the article
    headings are nearly as close to every sentence (0.855), crowding out the margin. A
    heading is no counterpart of a sentence three times its length, so the translation
    is found all through; without that rule, it is not."""
    if not length_rule:
        monkeypatch.setattr(docalign, "LENGTH_RATIO", 0.0)
    english_texts = [text for k in range(8) for text in (
        "Article", f"The Joint Council shall adopt its decision on matter {'abcdefgh'[k]} "
                   "by consensus of the Parties.")]
    samples = tuple((k, f"O Conselho Conjunto adota a sua decisão sobre a matéria "
                        f"{'abcdefgh'[k]} por consenso das Partes.") for k in range(8))
    similarity = np.full((8, 16), 0.83)
    similarity[:, 0::2] = 0.855  # the headings
    similarity[np.arange(8), 2 * np.arange(8) + 1] = 0.86  # each translation
    english = Sentences(np.eye(16), tuple(docalign.numbers_of(t) for t in english_texts),
                        np.array([len(t) for t in english_texts], dtype=np.float32))
    unit = np.ones(16) / 4
    profile = Digest("en", "en", 16, (), unit, Counter())
    other = Digest("pt", "pt", 8, samples, unit, Counter())
    match = rescore(profile, english, other, similarity)
    assert (match.matched, match.score >= MIN_SCORE) == ((8, True) if length_rule
                                                         else (0, False))


@pytest.mark.parametrize("numbers", ["its own", "elsewhere"])
def test_a_translation_of_a_part_of_a_larger_english_text_is_found_by_its_numbers(
        numbers: str):
    """A decision of 20 sentences printed as the sentences 100-119 of a bulletin of 400:
    found all through, in order, it covers 5 % of the English text, which a whole
    translation could not. It is a part if the part holds the decision's numbers;
    where they are printed elsewhere in the bulletin only, it is not."""
    size, first = 400, 100
    texts = [f"Sentence {k} of a long text, with enough words." for k in range(size)]
    held = [Counter() for _ in range(size)]
    own = Counter({"2019": 1, "557": 1, "44": 1, "13": 1})
    held[first + 3 if numbers == "its own" else 350] = own
    english = Sentences(np.eye(size), tuple(held), np.array([len(t) for t in texts],
                                                            dtype=np.float32))
    positions = docalign.digest_sample([texts[0]] * 20)
    other = Digest("pt", "pt", 20, tuple((i, texts[0]) for i in positions), None, own)
    profile = Digest("en", "en", size, (), None, sum(held, Counter()))
    similarity = np.full((len(positions), size), 0.5)
    similarity[np.arange(len(positions)), [first + i for i in positions]] = 0.9
    match = rescore(profile, english, other, similarity)
    assert match.english_share == 0.05 and match.other_share == 1.0
    assert docalign.may_pair(profile, other)
    if numbers == "its own":
        assert (match.part, match.score, match.numbers) == ((first, first + 19), 1.0, 1.0)
        assert match.evidence().endswith("the English text's sentences 101-120")
    else:
        assert match.part is None and match.score < MIN_SCORE


@given(st.integers(1, 100), st.integers(1, 100), st.data())
def test_documents_that_may_not_pair_score_under_the_bar(english_size: int, other_size: int,
                                                         data: st.DataObject):
    """`may_pair` rules a pair out by sizes and numbers only where no content could pair
    it: every sampled sentence found with cosine 1 at English sentences drawn in order
    anywhere in the text, a pair it rules out still scores under MIN_SCORE (and one of
    the two documents scores it so, whichever is the English text)."""
    shared = data.draw(st.integers(0, 20))  # of the other's 20 numbers, the English text's
    numbers = Counter(map(str, range(20))), Counter(map(str, range(20 - shared, 40 - shared)))
    positions = docalign.digest_sample(["four words in it"] * other_size)
    # the samples' counterparts: in order, spanning any stretch of the English text
    first = data.draw(st.integers(0, english_size - 1))
    last = data.draw(st.integers(first, english_size - 1))
    found = sorted([first, last, *data.draw(st.lists(st.integers(first, last), min_size=max(
        0, len(positions) - 2), max_size=max(0, len(positions) - 2)))])[:len(positions)]
    english = Sentences(np.eye(english_size), (Counter(),) * english_size,
                        np.full(english_size, 16, np.float32))
    profile = Digest("en", "en", english_size, (), None, numbers[0])
    other = Digest("pt", "pt", other_size, tuple((i, "four words in it") for i in positions),
                   None, numbers[1])
    match = rescore(profile, english, other, np.eye(english_size)[found])
    assert docalign.may_pair(profile, other) == docalign.may_pair(other, profile)
    if not docalign.may_pair(profile, other):
        assert match.score < MIN_SCORE


def test_sizes_and_numbers_that_each_leave_room_may_rule_a_pair_out_together():
    """A document a little shorter than the English text, whose numbers agree a little
    over NUMBERS_FLOOR, passes either bound alone, but the score they leave together is
    under MIN_SCORE: it is ruled out, and one of the same size whose numbers agree fully
    is not."""
    english = Digest("en", "en", 100, (), None, Counter(map(str, range(20))))
    shorter = replace(english, doc_id="pt", language="pt", size=40)
    assert docalign.may_pair(english, replace(shorter, numbers=english.numbers))
    # 16 of 20: 0.8 agree, which keeps 0.29 of the score; the sizes keep 0.4 / 0.3 = 1
    near = replace(shorter, numbers=Counter(map(str, range(4, 24))))
    assert round(docalign.numbers_factor(0.8), 2) == 0.29
    assert not docalign.may_pair(english, near)


def test_numbers_that_disagree_rule_a_pair_out_before_any_embedding():
    """Two documents whose numbers agree no more than NUMBERS_FLOOR score 0, so they
    are not embedded to find out: `pairable` keeps a translation's act and leaves a
    sibling act of the same size whose numbers are its own."""
    texts = [f"Artigo {n}. O Acordo de {1990 + n} aplica-se." for n in range(1, 13)]
    english = docalign.digest("en", "en", [t.replace("Artigo", "Article") for t in texts])
    act = docalign.digest("act", "pt", texts)
    sibling = docalign.digest("sibling", "pt", [t.replace("19", "18") for t in texts])
    weights = docalign.number_weights([act, sibling])
    assert [d.doc_id for d in docalign.pairable([english], [act, sibling], weights)] == ["act"]


#: The sizes of the calls `_embed_by_length` was given.
calls: list[int] = []


def _embed_by_length(texts: list[str]) -> np.ndarray:
    """A stand-in model: each text's vector says its length, and which call made it."""
    calls.append(len(texts))
    return np.array([[len(text), 1.0] for text in texts], np.float32)


def test_digests_are_embedded_together_when_pairing_asks():
    """A digest is made without embedding anything; `with_vectors` embeds the samples of
    all digests lacking a vector in one call (a batch at a time), each vector the unit
    mean of its own sample's, as `digest` with a model gives it; a digest that has one
    keeps it."""
    sentences = {"a": ["One sentence of five words.", "Another, a little longer one."],
                 "b": ["Short one.", "Two.", "A third sentence here."]}
    plain = [docalign.digest(doc, "pt", texts) for doc, texts in sentences.items()]
    assert all(d.vector is None for d in plain) and "vector" not in plain[0].to_json()
    calls.clear()
    done = docalign.with_vectors([*plain, profile := docalign.digest(
        "d", "pt", ["Already embedded text."], _embed_by_length)], _embed_by_length)
    assert calls == [1, 5]  # "d" as it was made; then a and b in one call
    for one, (doc, texts) in zip(done, sentences.items(), strict=False):
        alone = docalign.digest(doc, "pt", texts, _embed_by_length)
        assert one.vector is not None and alone.vector is not None
        np.testing.assert_allclose(one.vector, alone.vector)
        assert float(np.linalg.norm(one.vector)) == pytest.approx(1.0)
    assert done[-1] is profile
    calls.clear()
    assert len(docalign.with_vectors(plain, _embed_by_length, batch=1)) == 2
    assert calls == [2, 3]  # a batch of one digest at a time


def test_a_digest_reads_back_from_its_json_with_or_without_a_vector():
    made = docalign.digest("a", "pt", ["Artigo 1", "O Acordo entra em vigor em 2014."])
    again = Digest.from_json("a", made.to_json())
    assert (again.sample, again.numbers, again.vector) == (made.sample, made.numbers, None)
    older = Digest.from_json("a", {**made.to_json(), "vector": [0.6, 0.8]})
    assert older.vector is not None and older.vector.tolist() == pytest.approx([0.6, 0.8])
    with pytest.raises(ValueError, match="no vector"):
        docalign.DocumentIndex([made], {})


def test_language_offsets_are_kept_beside_the_model_once_per_machine(settings: Settings,
                                                                     tmp_path: Path):
    """The offsets depend only on the model: a machine computes each language's once
    (`gazette model build` at set-up, or the first run that needs it) and every project
    reads the same vectors back; a model of another build has them computed again."""
    model = tmp_path / "model"
    model.mkdir()
    (model / MANIFEST).write_text('{"build_version": 2}', encoding="utf-8")
    settings = replace(settings, model_dir=model)
    asked: list[str] = []

    def embed(texts: list[str]) -> np.ndarray:
        asked.extend(texts)
        rng = np.random.default_rng(len(asked))
        return rng.normal(size=(len(texts), 8)).astype(np.float32)

    first = kept_offsets(["pt", "en"], settings, embed)
    assert len(asked) == 128 and offsets_file(settings).is_file()
    asked.clear()
    again = kept_offsets(["en", "pt", "sv"], settings, embed)
    assert len(asked) == 64  # Swedish only
    for language in ("pt", "en"):
        np.testing.assert_array_equal(again[language], first[language])
    asked.clear()
    (model / MANIFEST).write_text('{"build_version": 3}', encoding="utf-8")
    kept_offsets(["pt"], settings, embed)
    assert len(asked) == 64


def test_an_english_texts_digest_tells_the_run_that_pairing_will_embed(tmp_path: Path):
    """An English text's digest says pairing will embed its sentences (the run loads the
    model while it reads the rest); a digest in another language, none, or a broken one
    says nothing of the kind."""
    settings = Settings.for_root(tmp_path)
    texts = [f"Article {n} of the Convention applies from 2014." for n in range(1, 9)]
    for doc, language in (("en", "en"), ("pt", "pt")):
        (settings.cleaned / doc).mkdir(parents=True)
        (settings.cleaned / doc / "digest.json").write_text(
            json.dumps(docalign.digest(doc, language, texts).to_json()), encoding="utf-8")
    (settings.cleaned / "broken").mkdir()
    (settings.cleaned / "broken" / "digest.json").write_text("[", encoding="utf-8")
    assert [embeds_at_pairing(settings, doc) for doc in ("en", "pt", "broken", "none")] == [
        True, False, False, False]
