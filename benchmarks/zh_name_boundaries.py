"""Chinese name boundaries in pre-labelling: exact-span precision / recall of the person names proposed on a
hand-written set (`tests/data/zh_names/sentences.jsonl`: names of 2–4 characters before verbs, titles and
particles, in lists, after role words and titles, names that are dictionary words (李娜, 马超, 高峰) in medical
notes, HR, court, school, chat and delivery addresses, and hard negatives such as 王府井, 高兴, 张开, 黄金, 周末),
and the cost per MB.

A proposal is right only with the gold offsets (`李娜确` for `李娜` is wrong twice: a false proposal and a
missed name). Every occurrence of a listed name is a true span. A second, generated check (`grid`):
53 names (2, 3 and 4 characters; one, 马超, is a word of jieba's dictionary) in 16 sentence frames (before
确诊, 说明天, 是经理, 先生, 的, 康复出院, in a list, after 由…), the frame's name the only true span.
Timing: the set's sentences repeated into
4 KB documents (about `--mb` MB of UTF-8), labelled by `Prelabeler(use_presidio=False)` after one warm-up
document, so one-off loading (reported on its own) is left out of the per-MB figure; CPU seconds as well as
wall, as a shared machine's wall clock moves with its load.
Run: `PYTHONPATH=$PWD .venv/bin/python benchmarks/zh_name_boundaries.py [--mb 1] [--errors]`
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

from ec2audit.annotate.prelabel import Prelabeler
from ec2audit.annotate.workspace import make_document

SET = Path(__file__).resolve().parent.parent / "tests" / "data" / "zh_names" / "sentences.jsonl"


def load(path: Path = SET) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def gold_spans(case: dict) -> set[tuple[int, int]]:
    spans = set()
    for name in case["names"]:
        at = case["text"].find(name)
        while at >= 0:
            spans.add((at, at + len(name)))
            at = case["text"].find(name, at + 1)
    return spans


def proposed(labeler: Prelabeler, cases: list[dict]) -> list[set[tuple[int, int]]]:
    docs = [make_document("zh-names", f"{i}.txt", c["text"]) for i, c in enumerate(cases)]
    return [{(s.start, s.end) for s in found if s.dimension == "person_name"} for found in labeler.label(docs)]


def score(cases: list[dict], found: list[set[tuple[int, int]]]) -> dict:
    tp = sum(len(gold_spans(c) & f) for c, f in zip(cases, found, strict=True))
    pred = sum(len(f) for f in found)
    gold = sum(len(gold_spans(c)) for c in cases)
    p, r = tp / pred if pred else 0.0, tp / gold if gold else 0.0
    return {"P": p, "R": r, "F1": 2 * p * r / (p + r) if p + r else 0.0, "tp": tp, "pred": pred, "gold": gold}


def errors(cases: list[dict], found: list[set[tuple[int, int]]]) -> list[str]:
    out = []
    for c, f in zip(cases, found, strict=True):
        gold, text = gold_spans(c), c["text"]
        wrong = sorted(text[b:e] for b, e in f - gold)
        missed = sorted(text[b:e] for b, e in gold - f)
        if wrong or missed:
            out.append(f"{text.strip()!r}: proposed {wrong} missed {missed}")
    return out


GRID_NAMES = ("王小明 李文华 张志强 刘晓东 陈思远 杨丽华 赵国栋 黄子涵 周建华 吴晓峰 徐明亮 孙志刚 马丽娟 "
              "朱海涛 胡春梅 郭新宇 何雨桐 林晓燕 罗振宇 郑明辉 宋佳怡 唐嫣然 许文强 韩梅梅 邓超然 曹文轩 袁立新 "
              "蔡明亮 王芳 李伟 张敏 刘洋 陈静 杨帆 赵磊 黄蕾 周杰 吴刚 徐静 孙丽 马超 朱琳 胡军 郭涛 何敏 林峰 "
              "罗刚 郑爽 欧阳静怡 司马云飞 欧阳娜 上官婉儿 诸葛明").split()
GRID_FRAMES = ("患者{}确诊糖尿病。", "客户{}说明天到。", "员工{}是经理。", "{}经理说好。", "请找{}先生。",
               "这是{}的病历。", "患者{}康复出院。", "客户{}确认订单。", "名单：{}、李雷。", "员工{}请假三天。",
               "客户{}投诉延误。", "患者{}住院两周。", "联系人是{}。", "由{}负责。", "{}说他不来了。",
               "患者{}复查血糖。")


def grid() -> list[dict]:
    """Each frame filled with each name; only that name is gold (李雷 in the list frame is not counted)."""
    return [{"text": frame.format(name), "names": [name]} for frame in GRID_FRAMES for name in GRID_NAMES]


def timing(labeler: Prelabeler, cases: list[dict], mb: float) -> dict:
    block = "\n".join(c["text"].strip() for c in cases) + "\n"
    per_doc = block * max(1, 4096 // len(block.encode()))
    n = max(1, round(mb * 1e6 / len(per_doc.encode())))
    docs = [make_document("zh-names", f"doc{i}.txt", per_doc) for i in range(n)]
    t0, c0 = time.perf_counter(), time.process_time()
    labeler.label(docs)
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    size = n * len(per_doc.encode()) / 1e6
    return {"mb": size, "seconds": secs, "s_per_mb": secs / size, "cpu_s_per_mb": cpu / size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0, help="UTF-8 megabytes of Chinese text to time")
    parser.add_argument("--errors", action="store_true", help="list each sentence with a wrong or missed name")
    args = parser.parse_args()
    cases = load()
    labeler = Prelabeler(use_presidio=False)
    rss0, c0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.process_time()
    found = proposed(labeler, cases[:1])  # one-off loading: jieba's dictionary, ICD-10-CM terms, census names
    load_s, rss = time.process_time() - c0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    found = proposed(labeler, cases)
    s = score(cases, found)
    print(f"{len(cases)} sentences, {s['gold']} names: exact spans P {s['P']:.3f} R {s['R']:.3f} F1 {s['F1']:.3f} "
          f"({s['tp']} right of {s['pred']} proposed)")
    if args.errors:
        print("\n".join(errors(cases, found)))
    cells = grid()
    found = proposed(labeler, cells)
    g = score(cells, found)
    overlap = sum(any(b < e2 and b2 < e for b, e in f for b2, e2 in gold_spans(c))
                  for c, f in zip(cells, found, strict=True))
    print(f"grid: {len(cells)} sentences: exact spans P {g['P']:.3f} R {g['R']:.3f}; "
          f"a proposal overlapping the name {overlap / len(cells):.3f}")
    t = timing(labeler, cases, args.mb)
    print(f"one-off loading {load_s:.2f} CPU s, peak RSS +{(rss - rss0) / 1024:.0f} MB; {t['mb']:.2f} MB labelled in "
          f"{t['seconds']:.2f} s: {t['s_per_mb']:.2f} s/MB wall, {t['cpu_s_per_mb']:.2f} CPU s/MB")


if __name__ == "__main__":
    main()
