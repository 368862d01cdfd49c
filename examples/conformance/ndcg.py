"""nDCG@5 in pytrec_eval's shape, written as trec_eval computes ``ndcg_cut_5`` (a correct one).

Gains are the grades, the discount ``1 / log2(i + 1)`` at rank ``i``
(1-based), the ideal run sorts every judged relevant document; the run is
ranked by score as a 32-bit float, descending, ties by docid descending.

    workbench conformance examples/conformance/ndcg.py:ndcg5 --against nDCG@5 --depth 3
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
        dcg = sum(max(judged.get(d, 0), 0) / math.log2(i + 1) for i, d in enumerate(ranking, start=1))
        ideal = sorted((g for g in judged.values() if g > 0), reverse=True)[:5]
        idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))
        out[topic] = dcg / idcg if idcg > 0 else 0.0
    return out
