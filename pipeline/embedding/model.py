"""The built model's sentence vectors, computed with torch alone.

The folder that :mod:`pipeline.embedding.build` writes is a standard
sentence-transformers folder: multilingual-e5-small as a ``BertModel``, mean pooling
over the tokens, L2 normalization, and the ``query: `` prompt. Loading it through
sentence-transformers imports transformers, scikit-learn and torch's distributed
package besides torch: about 7 s of CPU, against 2 s for torch, in every process that
embeds (a ``gazette run`` with an English text among hundreds of acts pays it while
its page workers read). :class:`SentenceModel` reads the same files and runs the same
operations in the same order, so its vectors are the ones sentence-transformers gives,
bit for bit (``tests/test_embedding.py`` compares them on NTREX sentences in four
languages, cut to 128 and to 32 tokens).

Inputs and outputs are plain: texts in, an ``(n, hidden)`` float32 array of unit rows
out, in the order of the texts. torch is imported when a model is loaded, not with
this module (a worker of the run's pool borrows the run's model and never loads it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.errors import GazetteError

if TYPE_CHECKING:
    import torch

__all__ = ["SentenceModel"]


@dataclass(frozen=True)
class _Shape:
    """What ``config.json`` says of the encoder's shape."""

    layers: int
    heads: int
    eps: float
    pad: int

    @classmethod
    def of(cls, config: dict[str, Any]) -> _Shape:
        if config.get("hidden_act") != "gelu" or config.get("model_type") != "bert":
            raise GazetteError(f"the embedding model is not a BERT encoder with GELU "
                               f"({config.get('model_type')}, {config.get('hidden_act')})",
                               "rebuild it: `gazette model build`")
        return cls(config["num_hidden_layers"], config["num_attention_heads"],
                   config["layer_norm_eps"], config["pad_token_id"])


class SentenceModel:
    """Sentence vectors from a built model folder (see the module's docstring).

    Not safe to share between threads while it encodes (its tokenizer's padding and
    truncation are set per call); :class:`~pipeline.embedding.encoder.Encoder` holds a
    lock around it.
    """

    def __init__(self, folder: Path) -> None:
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        self.shape = _Shape.of(json.loads((folder / "config.json").read_text("utf-8")))
        settings = json.loads(
            (folder / "config_sentence_transformers.json").read_text("utf-8"))
        self.prompts: dict[str, str] = settings.get("prompts", {})
        self.weights: dict[str, torch.Tensor] = load_file(str(folder / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_padding(pad_id=self.shape.pad,
                                      pad_token=self.tokenizer.id_to_token(self.shape.pad))

    def encode(self, texts: Sequence[str], prompt: str = "query", max_tokens: int = 128,
               batch_size: int = 16) -> np.ndarray:
        """Unit vectors of ``texts``, each prefixed with the folder's ``prompt`` and cut
        to ``max_tokens`` tokens. Texts are embedded ``batch_size`` at a time, longest
        first (the batches sentence-transformers makes: a batch's padding moves a
        vector by an ulp or so)."""
        import torch

        self.tokenizer.enable_truncation(max_length=max_tokens)
        prefix = self.prompts[prompt]
        # sentence-transformers' order: numpy's argsort of the negated lengths
        order = np.argsort([-len(text) for text in texts])
        vectors = np.zeros((len(texts), self.weights["embeddings.LayerNorm.weight"].numel()),
                           np.float32)
        for start in range(0, len(order), batch_size):
            batch = order[start:start + batch_size]
            encodings = self.tokenizer.encode_batch([prefix + texts[i] for i in batch])
            ids = torch.tensor([encoding.ids for encoding in encodings])
            mask = torch.tensor([encoding.attention_mask for encoding in encodings])
            with torch.inference_mode():
                vectors[batch] = self._embed(ids, mask).numpy()
        return vectors

    def _embed(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The encoder's last states, mean-pooled over the tokens ``mask`` keeps, then
        normalized (twice, as the folder's Normalize module and ``encode`` each do).
        Each step is the operation transformers' ``BertModel`` runs (sdpa attention,
        exact GELU), in its order."""
        import torch
        from torch.nn import functional as F

        w, heads, eps = self.weights, self.shape.heads, self.shape.eps

        def linear(name: str, x: torch.Tensor) -> torch.Tensor:
            return F.linear(x, w[f"{name}.weight"], w[f"{name}.bias"])

        def norm(name: str, x: torch.Tensor) -> torch.Tensor:
            return F.layer_norm(x, (x.shape[-1],), w[f"{name}.weight"], w[f"{name}.bias"],
                                eps)

        batch, tokens = ids.shape
        states = (F.embedding(ids, w["embeddings.word_embeddings.weight"])
                  + F.embedding(torch.zeros_like(ids),
                                w["embeddings.token_type_embeddings.weight"]))
        states = states + F.embedding(torch.arange(tokens).unsqueeze(0),
                                      w["embeddings.position_embeddings.weight"])
        states = norm("embeddings.LayerNorm", states)
        # sdpa's mask: none where no text of the batch is padded, else which keys count
        keys = None if bool(mask.all()) else (
            mask.bool()[:, None, None, :].expand(batch, 1, tokens, tokens).contiguous())
        for layer in range(self.shape.layers):
            name = f"encoder.layer.{layer}."
            query, key, value = (
                linear(f"{name}attention.self.{part}", states)
                .view(batch, tokens, heads, -1).transpose(1, 2)
                for part in ("query", "key", "value"))
            attended = F.scaled_dot_product_attention(
                query, key, value, attn_mask=keys, dropout_p=0.0,
                scale=query.shape[-1] ** -0.5, is_causal=False)
            attended = attended.transpose(1, 2).reshape(batch, tokens, -1).contiguous()
            states = norm(f"{name}attention.output.LayerNorm",
                          linear(f"{name}attention.output.dense", attended) + states)
            inner = F.gelu(linear(f"{name}intermediate.dense", states))
            states = norm(f"{name}output.LayerNorm",
                          linear(f"{name}output.dense", inner) + states)
        kept = mask.unsqueeze(-1).expand(states.size()).to(states.dtype)
        pooled = (states * kept).sum(1) / torch.clamp(kept.sum(1), min=1e-9)
        return F.normalize(F.normalize(pooled, p=2, dim=1), p=2, dim=1)
