"""nDCG@5 in pytrec_eval's shape, with a planted bug: every rank is discounted as the next one.

``f(qrels, run) -> {topic: value}``, as ``workbench conformance`` calls it.
The discount is ``1 / log2(i + 2)`` at rank ``i`` (1-based) instead of
trec_eval's ``1 / log2(i + 1)``: an off-by-one a 0-based loop makes easily.
Ties are broken as trec_eval breaks them (score as a 32-bit float,
descending; docid descending), so only the discount is wrong.

    workbench conformance examples/conformance/offbyone_ndcg.py:ndcg5 --against nDCG@5 --depth 3
"""
import math
import struct


def _f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def ndcg5(qrels, run):
    out = {}
    for topic, scores in run.items():
        judged = qrels.get(topic, {})
        ranking = sorted(sorted(scores, reverse=True), key=lambda d: _f32(scores[d]), reverse=True)[:5]
        dcg = sum(max(judged.get(d, 0), 0) / math.log2(i + 2) for i, d in enumerate(ranking, start=1))
        ideal = sorted((g for g in judged.values() if g > 0), reverse=True)[:5]
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal, start=1))
        out[topic] = dcg / idcg if idcg > 0 else 0.0
    return out
