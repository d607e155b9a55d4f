#!/usr/bin/python3
"""convert.py turns a SentencePiece Unigram model (.model, a ModelProto) into a tokenizer.json
the way HuggingFace transformers' convert_slow_tokenizer.py does, without transformers (which
is not installable here): Debian's python3-sentencepiece reads the proto.

    /usr/bin/python3 convert.py --style xlmr|generic MODEL OUT.json

--style xlmr     XLMRobertaConverter (XLM-R, bge-m3, multilingual-e5): the fairseq vocabulary
                 layout <s> <pad> </s> <unk>, then the model's pieces from id 3 on, then <mask>;
                 unk_id 3; no byte fallback (SpmConverter.handle_byte_fallback is False);
                 SpmConverter's normalizer Sequence[Precompiled(charsmap), Strip(right),
                 Replace(" {2,}" -> "▁")], Metaspace(prepend_scheme "always"), the
                 "<s> $A </s>" template, and the special tokens XLMRobertaTokenizerFast adds.
--style generic  SpmConverter.build_tokenizer_from_spm_proto (a model with no converter of its
                 own): the pieces as they are, the model's unk_id and byte_fallback, normalizer
                 Sequence[Precompiled(charsmap), Replace(" " -> "▁")], no pre-tokenizer; its
                 control and user-defined pieces become added tokens (control ones special).

The JSON written here is then loaded and saved by HF tokenizers itself (resave.mjs), so the
committed file is in HF's own serialization.
"""

import argparse
import base64
import json
import sys

from sentencepiece import sentencepiece_model_pb2

UNIGRAM, CONTROL, USER_DEFINED = 1, 3, 4


def added(id_, content, lstrip=False, special=True):
    return {"id": id_, "content": content, "single_word": False, "lstrip": lstrip,
            "rstrip": False, "normalized": False, "special": special}


def template(special):
    """TemplateProcessing "<s> $A </s>" / "<s> $A </s> </s> $B </s>" in HF's serialization."""
    tok = lambda t, type_id=0: {"SpecialToken": {"id": t, "type_id": type_id}}
    seq = lambda s, type_id=0: {"Sequence": {"id": s, "type_id": type_id}}
    return {
        "type": "TemplateProcessing",
        "single": [tok("<s>"), seq("A"), tok("</s>")],
        "pair": [tok("<s>"), seq("A"), tok("</s>"), tok("</s>"), seq("B"), tok("</s>")],
        "special_tokens": {t: {"id": t, "ids": [special[t]], "tokens": [t]} for t in ("<s>", "</s>")},
    }


def precompiled(proto):
    charsmap = proto.normalizer_spec.precompiled_charsmap
    if not charsmap:
        return []
    return [{"type": "Precompiled", "precompiled_charsmap": base64.b64encode(charsmap).decode("ascii")}]


def xlmr(proto):
    vocab = [["<s>", 0.0], ["<pad>", 0.0], ["</s>", 0.0], ["<unk>", 0.0]]
    vocab += [[p.piece, p.score] for p in proto.pieces[3:]]
    vocab += [["<mask>", 0.0]]
    ids = {piece: i for i, (piece, _) in enumerate(vocab)}
    normalizer = {"type": "Sequence", "normalizers": precompiled(proto) + [
        {"type": "Strip", "strip_left": False, "strip_right": True},
        {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": "\u2581"},
    ]}
    metaspace = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}
    tokens = [added(ids[t], t) for t in ("<s>", "<pad>", "</s>", "<unk>")]
    tokens.append(added(ids["<mask>"], "<mask>", lstrip=True))
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": tokens,
        "normalizer": normalizer, "pre_tokenizer": metaspace, "post_processor": template(ids),
        "decoder": metaspace,
        "model": {"type": "Unigram", "unk_id": 3, "vocab": vocab, "byte_fallback": False},
    }


def generic(proto):
    vocab = [[p.piece, p.score] for p in proto.pieces]
    normalizer = {"type": "Sequence", "normalizers": precompiled(proto) + [
        {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"},
    ]}
    decoders = [{"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "}]
    if proto.trainer_spec.byte_fallback:
        decoders += [{"type": "ByteFallback"}, {"type": "Fuse"}]
    unk = proto.trainer_spec.unk_id
    tokens = [added(unk, proto.pieces[unk].piece)]
    tokens += [added(i, p.piece, special=p.type == CONTROL)
               for i, p in enumerate(proto.pieces) if p.type in (CONTROL, USER_DEFINED)]
    tokens.sort(key=lambda t: t["id"])
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": tokens,
        "normalizer": normalizer, "pre_tokenizer": None, "post_processor": None,
        "decoder": {"type": "Sequence", "decoders": decoders},
        "model": {"type": "Unigram", "unk_id": unk, "vocab": vocab,
                  "byte_fallback": proto.trainer_spec.byte_fallback},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--style", choices=("xlmr", "generic"), required=True)
    ap.add_argument("model")
    ap.add_argument("out")
    args = ap.parse_args()
    proto = sentencepiece_model_pb2.ModelProto()
    with open(args.model, "rb") as f:
        proto.ParseFromString(f.read())
    if proto.trainer_spec.model_type != UNIGRAM:
        sys.exit(f"{args.model}: model_type {proto.trainer_spec.model_type}, not Unigram (1)")
    doc = xlmr(proto) if args.style == "xlmr" else generic(proto)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
