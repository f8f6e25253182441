"""Seeded synthetic units and agent-like payloads (Faker en_US and zh_CN) with known leaks.

Used by `make demo`, the throughput benchmark and the tests: the generator records, for every
value it put into a payload, the form it used, so detection can be measured against the truth.
No real person's data: Faker makes every name, number and address.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass

from faker import Faker

from ec2audit.units import Unit, make_unit

DIAGNOSES = {
    "en": ["type 2 diabetes", "chronic kidney disease", "major depressive disorder", "hypertension stage 2",
           "rheumatoid arthritis", "generalized anxiety disorder", "asthma with allergic rhinitis"],
    "zh": ["2型糖尿病", "慢性肾病", "重度抑郁症", "二级高血压", "类风湿关节炎", "广泛性焦虑症", "过敏性哮喘"],
}
SYSTEM_PROMPT = (
    "You are a workspace agent. Use the tools read, write, edit and exec to complete the user's task. "
    "Read files before editing them, keep answers short, and never invent data. " * 8
)
FILLER = {
    "en": "Status update: the quarterly review is scheduled, the team lead asked for the summary table. ",
    "zh": "状态更新：季度复盘已安排，负责人要求整理汇总表格并在周五前提交给部门。",
}


@dataclass(frozen=True)
class Leak:
    """Ground truth: `unit_id` was put into `payload_id` in this `form` (expected grade)."""

    payload_id: str
    unit_id: str
    form: str
    grade: float


def _person(fake: Faker, lang: str, rng: random.Random) -> dict[str, tuple[str, str]]:
    phone = fake.phone_number() if lang == "zh" else fake.numerify("###-###-####")
    salary = rng.randrange(60, 900) * 1000
    money = f"¥{salary:,}" if lang == "zh" else f"${salary:,}"
    return {
        "name": (fake.name(), "person_name"),
        "phone": (phone, "contact"),
        "email": (fake.email(), "contact"),
        "national_id": (fake.ssn(), "government_id"),
        "bank_card": (fake.credit_card_number(), "financial"),
        "salary": (money, "financial"),
        "address": (fake.address().replace("\n", ", "), "location"),
        "diagnosis": (rng.choice(DIAGNOSES[lang]), "health"),
        "api_key": ("sk-" + fake.pystr(min_chars=32, max_chars=32), "credential"),
        "host": (fake.ipv4_private(), "network"),
    }


def make_units(n_units: int, n_tasks: int, seed: int = 0) -> list[Unit]:
    """About `n_units` units over `n_tasks` tasks; odd-numbered tasks are in Chinese."""
    rng = random.Random(seed)
    fakers = {"en": Faker("en_US"), "zh": Faker("zh_CN")}
    for lang, fake in fakers.items():
        fake.seed_instance(seed + (lang == "zh"))
    units: list[Unit] = []
    for t in range(n_tasks):
        per_task = n_units // n_tasks + (t < n_units % n_tasks)
        lang = "zh" if t % 2 else "en"
        task_id = f"synth-{lang}-{t:03d}"
        task_units: list[Unit] = []
        e = 0
        while len(task_units) < per_task:
            fields = _person(fakers[lang], lang, rng)
            name = fields["name"][0]
            for field, (value, dimension) in fields.items():
                if len(task_units) >= per_task:
                    break
                task_units.append(make_unit({"task_id": task_id, "entity_id": f"P{e:03d}", "entity_name": name,
                                             "field": field, "value": value, "dimension": dimension}))
            e += 1
        units += task_units
    return units


def _variant(unit: Unit, rng: random.Random) -> tuple[str, str, float]:
    """A surface form of the value as an agent might send it: (text, form, expected grade)."""
    value, digits = unit.value, "".join(c for c in unit.value if c.isalnum())  # keeps an ID's final X
    roll = rng.random()
    if unit.field in ("phone", "bank_card", "national_id") and len(digits) >= 9:
        if roll < 0.25:
            groups = [digits[i:i + 4] for i in range(0, len(digits), 4)]
            return " ".join(groups), "reformatted", 1.0
        if roll < 0.45:
            keep = (len(digits) + 1) // 4
            masked = digits[:keep] + "*" * (len(digits) - 2 * keep) + digits[-keep:]
            return masked, "masked", 0.7 if 2 * keep / len(digits) >= 0.5 else 0.3
    if unit.field == "salary" and roll < 0.3:
        amount = int("".join(c for c in value if c.isdigit()))
        text = f"{amount / 10000:g}万元" if unit.task_id.startswith("synth-zh") else f"{amount / 1000:g}k USD"
        if not unit.task_id.startswith("synth-zh"):
            text = f"${amount / 1_000_000:g} million"
        return text, "reformatted", 1.0
    if unit.field == "name" and unit.value.isascii() and roll < 0.2:
        return value.upper(), "reformatted", 1.0
    return value, "verbatim", 1.0


def _tool_result(units: list[Unit], rng: random.Random, lang: str, leaks: list[tuple[Unit, str, str, float]],
                 leak_rate: float, filler_chars: int) -> str:
    """A CSV, JSON or e-mail shaped tool result; some unit values are in it, each in some form."""
    shape = rng.choice(("csv", "json", "mail"))
    chosen = [u for u in units if rng.random() < leak_rate]
    cells = []
    for u in chosen:
        text, form, grade = _variant(u, rng)
        leaks.append((u, text, form, grade))
        cells.append((u.field, text))
    filler = (FILLER[lang] * (filler_chars // len(FILLER[lang]) + 1))[:filler_chars]
    if shape == "csv":
        body = "field,value\n" + "\n".join(f"{f},{v}" for f, v in cells)
    elif shape == "json":
        body = json.dumps({"records": [{f: v} for f, v in cells]}, ensure_ascii=False, indent=2)
    else:
        body = "Subject: follow-up\n\n" + "\n".join(f"{f}: {v}" for f, v in cells)
    return f"{filler}\n{body}\n{filler}"


def make_payloads(units: list[Unit], target_bytes: int, seed: int = 0, leak_rate: float = 0.15,
                  filler_chars: int = 1500) -> tuple[list[dict], list[Leak]]:
    """OpenAI chat request records `{id, task_id, episode, request}` totalling ≈ `target_bytes`.

    Like real agent traffic, an episode's context is cumulative: request k resends the system
    prompt, the instruction and every earlier tool call and result, plus one new step.
    """
    rng = random.Random(seed)
    by_task: dict[str, list[Unit]] = {}
    for u in units:
        by_task.setdefault(u.task_id, []).append(u)
    tasks = sorted(by_task)
    records, truth, size, n = [], [], 0, 0
    while size < target_bytes:
        task_id = tasks[n % len(tasks)]
        episode = f"{task_id}#{n // len(tasks) + 1}"
        lang = "zh" if task_id.startswith("synth-zh") else "en"
        messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT},
                    {"role": "user", "content": f"Task {task_id}: tidy the records and notify the manager."}]
        leaks: list[tuple[Unit, str, str, float]] = []
        for step in range(rng.randint(2, 6)):
            call_id = f"call_{n}_{step}"
            messages.append({"role": "assistant", "content": None, "tool_calls": [{
                "id": call_id, "type": "function",
                "function": {"name": "read", "arguments": json.dumps({"path": f"data/records_{step}.csv"})}}]})
            messages.append({"role": "tool", "tool_call_id": call_id,
                             "content": _tool_result(by_task[task_id], rng, lang, leaks, leak_rate, filler_chars)})
            pid = f"{episode}/req-{step}"
            record = {"id": pid, "task_id": task_id, "episode": episode,
                      "request": {"model": "cloud-model", "messages": list(messages)}}
            records.append(record)
            truth += [Leak(pid, u.id, form, grade) for u, _, form, grade in leaks]
            size += len(json.dumps(record, ensure_ascii=False).encode())
        n += 1
    return records, truth


def write_jsonl(records: list[dict], path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


def iter_leaks_by_payload(truth: list[Leak]) -> Iterator[tuple[str, dict[str, float]]]:
    by_payload: dict[str, dict[str, float]] = {}
    for leak in truth:
        grades = by_payload.setdefault(leak.payload_id, {})
        grades[leak.unit_id] = max(grades.get(leak.unit_id, 0.0), leak.grade)
    yield from by_payload.items()
