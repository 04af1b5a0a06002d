"""all-MiniLM-L6-v2 in numpy, for measuring whether a sentence encoder earns a place in the rules ranking.

Reads the model's published files (``model.safetensors``, ``vocab.txt``) from a folder, checks the weights
against the published hash, and encodes texts as sentence-transformers does: BERT's uncased WordPiece, six
layers, mean pooling over the tokens, unit length. No torch, no onnxruntime: numpy's matrix products only.
"""

from __future__ import annotations

import hashlib
import json
import struct
import unicodedata
from pathlib import Path

import numpy as np

# sentence-transformers/all-MiniLM-L6-v2 at revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41 (Apache-2.0).
MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
LAYERS, HEADS, HIDDEN = 6, 12, 384
EPS = 1e-12
MAX_TOKENS = 128
DTYPES = {"F32": np.float32, "I64": np.int64}


def load_safetensors(path: Path) -> dict[str, np.ndarray]:
    data = path.read_bytes()
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + size])
    base = 8 + size
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        out[name] = np.frombuffer(data[base + start : base + end], dtype=DTYPES[info["dtype"]]).reshape(info["shape"])
    return out


class WordPiece:
    """BERT's uncased tokenizer: lower case, accents stripped, split at spaces and punctuation, then the longest
    vocabulary pieces first."""

    def __init__(self, vocab: Path) -> None:
        self.ids = {token: n for n, token in enumerate(vocab.read_text(encoding="utf-8").split("\n")) if token}
        self.unk, self.cls, self.sep = self.ids["[UNK]"], self.ids["[CLS]"], self.ids["[SEP]"]

    def words(self, text: str) -> list[str]:
        text = unicodedata.normalize("NFD", text.lower())
        text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        out, word = [], []
        for c in text:
            if c.isspace():
                if word:
                    out.append("".join(word))
                    word = []
            elif unicodedata.category(c).startswith("P") or (33 <= ord(c) <= 47 or 58 <= ord(c) <= 64):
                if word:
                    out.append("".join(word))
                    word = []
                out.append(c)
            else:
                word.append(c)
        if word:
            out.append("".join(word))
        return out

    def encode(self, text: str, limit: int = MAX_TOKENS) -> list[int]:
        ids = [self.cls]
        for word in self.words(text):
            start, pieces = 0, []
            while start < len(word):
                end = len(word)
                while end > start:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    if piece in self.ids:
                        pieces.append(self.ids[piece])
                        break
                    end -= 1
                if end == start:
                    pieces = [self.unk]
                    break
                start = end
            ids += pieces
            if len(ids) >= limit - 1:
                break
        return ids[: limit - 1] + [self.sep]


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    # erf by Abramowitz and Stegun 7.1.26 (error under 1.5e-7).
    z = x / np.sqrt(2.0)
    sign = np.sign(z)
    a = np.abs(z)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = sign * (1.0 - poly * np.exp(-a * a))
    return 0.5 * x * (1.0 + erf)


class MiniLM:
    def __init__(self, folder: Path) -> None:
        weights = folder / "model.safetensors"
        digest = hashlib.sha256(weights.read_bytes()).hexdigest()
        if digest != MODEL_SHA256:
            raise ValueError(f"{weights} is not the published all-MiniLM-L6-v2 (sha256 {digest})")
        self.w = {name: value.astype(np.float32) for name, value in load_safetensors(weights).items()}
        self.tokenizer = WordPiece(folder / "vocab.txt")

    def encode(self, texts: list[str], batch: int = 32) -> np.ndarray:
        tokens = [self.tokenizer.encode(text) for text in texts]
        order = sorted(range(len(texts)), key=lambda n: len(tokens[n]))
        out = np.zeros((len(texts), HIDDEN), dtype=np.float32)
        for start in range(0, len(order), batch):
            chosen = order[start : start + batch]
            width = max(len(tokens[n]) for n in chosen)
            ids = np.zeros((len(chosen), width), dtype=np.int64)
            mask = np.zeros((len(chosen), width), dtype=np.float32)
            for row, n in enumerate(chosen):
                ids[row, : len(tokens[n])] = tokens[n]
                mask[row, : len(tokens[n])] = 1.0
            out[chosen] = self._forward(ids, mask)
        return out

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self.w
        batch, width = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:width]
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        bias = (1.0 - mask)[:, None, None, :] * -1e9
        size = HIDDEN // HEADS
        for layer in range(LAYERS):
            p = f"encoder.layer.{layer}."

            def dense(h, name, p=p):
                return h @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            def heads(h):
                return h.reshape(batch, width, HEADS, size).transpose(0, 2, 1, 3)

            q = heads(dense(x, "attention.self.query"))
            k = heads(dense(x, "attention.self.key"))
            v = heads(dense(x, "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(size) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, width, HIDDEN)
            x = _layer_norm(
                dense(context, "attention.output.dense") + x,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            inner = _gelu(dense(x, "intermediate.dense"))
            x = _layer_norm(
                dense(inner, "output.dense") + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]
            )
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
