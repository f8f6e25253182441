"""What `ec2audit audit` shows for logs: per-session exposure; per session, the leaked units with the
call that first sent them, what carried them and their (masked) evidence, readable at 80 columns;
per-provider tokens and cost. The timeline of cloud calls is in `--json`."""

from __future__ import annotations

import polars as pl
from rich import box
from rich.console import Console
from rich.table import Table

from ec2audit.console import plural, tokens, unknown_cost, usd
from ec2audit.logs.audit import FORMAT_COUNTS, FOUND, NOTHING, LogAudit
from ec2audit.logs.base import instant
from ec2audit.logs.encoding import how_read
from ec2audit.report.summary import masked_evidence

MODES = {"units": "units: annotated units file", "discover": "discover: candidate units from the "
         "pre-labelling recognizers over each session's user inputs and tool results"}
#: What a session's exposure measures in each mode (the sessions table says it; docs/design.md §1).
EXPOSURE = {"units": "the weighted share of the units it is scored against that reached a cloud call",
            "discover": "the weighted share of the sensitive values on its local side (user inputs, tool results) "
                        "that reached a cloud call"}

#: What a call is called in a format whose calls are not requests: an OpenTelemetry span.
RECORDS = {"otel-genai": "span", "phoenix-spans": "span"}
#: Why a format's calls can carry no prompt text.
_CAPTURE_OFF = "content capture off? It is off by default in the OpenTelemetry GenAI conventions"
NO_CONTENT = {"otel-genai": _CAPTURE_OFF, "phoenix-spans": _CAPTURE_OFF}


#: The most rows `--json` gives a list (leaked units, timeline, sessions, files, …): its size stays
#: bounded however many findings an audit has; `left_out` counts the rest, which `--out` holds.
JSON_ROWS = 1_000


def log_summary(log: LogAudit, show_values: bool = False, rows: int = JSON_ROWS) -> dict:
    """Everything the terminal shows, as plain data (`--json`), each list cut at `rows` (its rows
    past that counted in `left_out`); evidence is masked unless `show_values`. Read from the audit's
    tables, so what it holds does not grow with the findings."""
    first_sent = log.leaked_lazy()
    leaked = [{"session": r["group"], "unit_id": r["unit_id"], "dimension": r["dimension"], "grade": r["grade"],
               "detector": r["detector"], "first_call": r["payload_id"], "step": r["step"],
               "timestamp": r["timestamp"], "provider": r["provider"], "model": r["model"], "origin": r["origin"],
               "message_index": r["message_index"], "entry": r["entry"], "kind": r["kind"], "tool": r["tool"],
               "file": r["file"], "command": r["command"],
               "evidence": r["matched_text"] if show_values else masked_evidence(r["matched_text"], r["detector"])}
              for r in first_sent.head(rows).collect(engine="streaming").iter_rows(named=True)]
    count, calls, cloud, _, cloud_empty = log.session_totals()
    exposure = log.exposure_rows(rows)  # the first sessions': enough for each list
    per_session = [{k: v for k, v in r.items() if k != "dimension"} for r in exposure if r["dimension"] is None]
    files = log.files_lazy()
    file_count, logs_read = files.select(pl.len(), pl.col("read_with").is_null().sum()).collect(
        engine="streaming").row(0)
    lists: dict[str, list] = {"exposure": per_session,
                              "by_dimension": [r for r in exposure if r["dimension"] is not None],
                              "files": files.head(rows).collect().to_dicts(),
                              "skipped_files": skipped_files(log, files),
                              "sessions": log.sessions(rows), "skipped": [str(e) for e in log.errors]}
    totals = {name: len(items) for name, items in lists.items()}
    totals["exposure"], totals["by_dimension"] = log.exposure_counts()
    totals |= {"sessions": count, "timeline": cloud, "files": file_count,
               "leaked": first_sent.select(pl.len()).collect(engine="streaming").item()}
    summary: dict = {"mode": log.mode, "mode_description": MODES[log.mode], "exposure_definition": EXPOSURE[log.mode],
                     "values_shown": show_values, "payloads": log.result.payload_count,
                     "logs_read": logs_read,
                     "characters": log.result.chars, "units": len(log.result.units), "findings": log.finding_count(),
                     **{name: items[:rows] for name, items in lists.items()},
                     "calls": calls, "cloud_calls": cloud, "edge_calls": calls - cloud, "leaked": leaked,
                     "providers": log.providers(), "timeline": log.timeline(rows),
                     "coverage": coverage(log.format_calls), "cloud_calls_without_content": cloud_empty,
                     "one_task_sessions": sorted(set(log.settled))}
    summary["left_out"] = {name: total - len(summary[name]) for name, total in totals.items()
                           if total > len(summary[name])}
    return summary


def coverage(format_calls: dict[str, list[int]]) -> list[dict]:
    """Per format read: its calls (model-call spans, for OpenTelemetry), those that carried prompt
    text and those that carried none, in which no leak can be seen; the lines that logged a call
    again and the calls a gateway answered from its own cache (no call of their own), and the calls that
    reused an earlier call's id (calls of their own)."""
    return [{"format": fmt, "record": RECORDS.get(fmt, "call"), **dict(zip(FORMAT_COUNTS, counts, strict=True)),
             "with_content": counts[0] - counts[1]} for fmt, counts in format_calls.items()]


def skipped_files(log: LogAudit, files: pl.LazyFrame) -> list[dict]:
    """Files not read at all (not in `files`, the files read), each with why (a line-level problem in
    a read file is not one)."""
    named = [e.file for e in log.errors if e.file and e.line is None]
    read = set(files.filter(pl.col("file").is_in(named)).collect(engine="streaming")["file"].to_list())
    return [{"file": e.file, "reason": e.reason} for e in log.errors
            if e.file and e.line is None and e.file not in read]


def provider_model(provider: str | None, model: str | None) -> str:
    """`provider/model`, the provider said once ('openai/gpt-oss-20b' served by openai is not
    'openai/openai/gpt-oss-20b') and '?' only where neither is known."""
    if not model:
        return f"{provider or '?'}/?"
    if not provider or model.lower().startswith(f"{provider.lower()}/"):
        return model
    return f"{provider}/{model}"


def _short(unit_id: str) -> str:
    """`entity/field` of a unit id: the task is the same for every row of one audit, mostly."""
    return unit_id.split("/", 1)[-1]


def _table(title: str, columns: list[str]) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    for name in columns:
        table.add_column(name)
    return table


def _clip(text: str, width: int) -> str:
    """`text` in `width` characters, its end kept (a path's file name, a command's argument)."""
    return text if len(text) <= width else "…" + text[-(width - 1):]


def _scope(scored_against: str | None) -> str:
    if scored_against and scored_against.startswith(FOUND):  # with `found_scope`'s mark where there is one
        return "units in its calls" + scored_against.removeprefix(FOUND)
    return scored_against or "-"


def _carrier(row: dict) -> str:
    what = row["file"] or row["command"]
    return " ".join(x for x in (row["tool"] or row["kind"] or row["origin"], what and _clip(what, 18)) if x)


def _first_call(row: dict) -> str:
    """The call's number in its session and its time of day in UTC (`Z`): a log may write each call at its own
    offset (`10:30:00+02:00` is 08:30 UTC, before a call logged at `09:00:00Z`), and times of day shown as written
    would put calls of one table out of order."""
    moment = instant(row["timestamp"])
    return f"#{row['step']}" + (moment.strftime(" %H:%M:%SZ") if moment else "")


def _leaks(summary: dict, console: Console, limit: int) -> None:
    """One table per session, most exposed first: unit, dimension, grade, first call, carrier, evidence."""
    by_session: dict[str, list[dict]] = {}
    for row in summary["leaked"]:
        by_session.setdefault(row["session"], []).append(row)
    sessions = {s["session"]: s for s in summary["sessions"]}
    ranked = sorted(by_session, key=lambda s: -(sessions.get(s, {}).get("exposure") or 0.0))
    shown = 0
    for session in ranked:
        if shown >= limit:
            break
        info = sessions.get(session, {})
        exposure = "-" if info.get("exposure") is None else f"{info['exposure']:.3f}"
        table = _table(f"[bold]{session}[/]: exposure {exposure} ({info.get('leaked', 0)} of "
                       f"{plural(info.get('units', 0), 'unit')} ≥0.7, over {_scope(info.get('scored_against'))})",
                       ["unit", "dimension", "grade", "first call", "carrier", "evidence"])
        table.columns[0].overflow = table.columns[4].overflow = table.columns[5].overflow = "fold"
        table.columns[1].no_wrap = table.columns[2].no_wrap = table.columns[3].no_wrap = True
        table.columns[2].justify = "right"
        for row in by_session[session][: limit - shown]:
            table.add_row(_short(row["unit_id"]), row["dimension"], f"{row['grade']:.1f}", _first_call(row),
                          _carrier(row), row["evidence"])
            shown += 1
        console.print(table)
    more = len(summary["leaked"]) + summary["left_out"].get("leaked", 0) - shown
    if more:
        console.print(f"… {more} more leaked units (see --json or --out)")


def _clean(summary: dict) -> str:
    """What an audit of cloud calls that found no leak says: how many calls were looked at for what;
    never "no leak" over calls that carried no prompt text."""
    cloud, scanned = summary["cloud_calls"], summary["payloads"]
    if not summary["units"] and summary["mode"] == "units":  # an empty units file: nothing was looked for
        return (f"[bold red]no leak was looked for[/]: the units file holds no unit (its "
                f"{plural(cloud, 'cloud call')} not audited)")
    if not summary["units"]:
        return (f"no sensitive value found on the local side (user inputs, tool results) of the sessions: "
                f"nothing to look for in their {plural(cloud, 'cloud call')}")
    empty = summary["cloud_calls_without_content"]
    if empty:
        record = "span" if {c["record"] for c in summary["coverage"]} == {"span"} else "call"
        why = " (content capture off?)" if record == "span" else ""  # an OpenTelemetry setting; a call is an image
        if empty == cloud:
            return (f"[bold red]no leak can be looked for[/]: none of the {plural(cloud, f'cloud {record}')} "
                    f"carried prompt content{why}")
        return (f"no leak found in the {plural(cloud - empty, f'cloud {record}')} with content; "
                f"[bold red]{plural(empty, record)} carried no content[/]{why}")
    if scanned < cloud:
        return (f"no sensitive unit reached a cloud call ({scanned} of {cloud} cloud calls audited: the others are "
                "in sessions where no sensitive value was found)")
    return f"no sensitive unit reached a cloud call ({plural(cloud, 'cloud call')} audited)"


def _usd(row: dict) -> str:
    """A provider row's cost, or why there is none (`unknown_cost`). A bare dash read as nothing to pay."""
    if row["cost_usd"] is not None:
        return usd(row["cost_usd"], sign="")
    unpriced = row.get("unpriced_calls") or 0
    if not unpriced or unpriced == row["calls"] and row["side"] != "cloud":
        return "-"
    bare = row.get("calls_without_usage") or 0
    if unpriced == row["calls"] and not (row["input_tokens"] or row["output_tokens"]):
        bare = unpriced
    from ec2audit.intercept.pricing import Pricing  # the price map is read only where a cost is missing

    # a priced model left unpriced by the proxy that recorded it: its streamed answer was cut off
    tier = row.get("unpriced_tier")
    no_price = unpriced > bare and not Pricing().priced(row["model"], tier)
    return unknown_cost(row["calls"], unpriced, bare, unpriced - bare if no_price else 0, tier)


def print_log_audit(summary: dict, console: Console, limit: int = 40) -> None:
    def total(name: str) -> int:
        return len(summary[name]) + summary["left_out"].get(name, 0)

    skipped = total("skipped_files")
    converted = [f for f in summary["files"] if f["encoding"]]
    # a log's companions (a SQLite store's -wal and -shm) are listed in `files`, not counted as logs
    console.print(f"[bold]mode[/] {summary['mode_description']}; {plural(summary['logs_read'], 'file')} read"
                  f"{f', [bold red]{skipped} skipped[/] (listed above)' if skipped else ''}, "
                  f"{plural(summary['calls'], 'model call')} ({summary['cloud_calls']} cloud, "
                  f"{summary['edge_calls']} edge), {plural(summary['units'], 'unit')}", highlight=False)
    for f in converted:
        console.print(f"read {f['file']} {how_read(f['encoding'])}", highlight=False)
    for c in summary["coverage"]:
        if c["without_content"] or c["format"] in RECORDS:
            why = NO_CONTENT.get(c["format"]) if c["without_content"] else None
            kind = "model call" if c["record"] == "call" else f"model-call {c['record']}"  # not "model-call calls"
            console.print(f"{c['format']}: {plural(c['read'], kind)} read, "
                          f"{c['with_content']} carried prompt content, {c['without_content']} carried none"
                          + (f" ({why})" if why else ""), highlight=False)
        if c["logged_again"]:
            console.print(f"{c['format']}: {plural(c['logged_again'], 'record')} repeated a call read before (its "
                          "response id, or its id, request and answer): read as that one call", highlight=False)
        if c["cache_hits"]:
            console.print(f"{c['format']}: {plural(c['cache_hits'], 'call')} answered from the gateway's own cache "
                          "(cache_hit): no provider saw them, so no cloud call and no cost; what they asked was sent "
                          "by the call that filled the cache", highlight=False)
        if c["reused_ids"]:
            console.print(f"{c['format']}: {plural(c['reused_ids'], 'call')} reused an earlier call's id with another "
                          "request or answer: each counted as a call", highlight=False)
        if c["blocked"]:
            console.print(f"{c['format']}: {plural(c['blocked'], 'request')} blocked by the proxy, never sent to the "
                          "cloud: no call; its session is scored all the same (0.0 where nothing of it was sent)",
                          highlight=False)
    # with a units file, a session scored against nothing is one that matched no task and sent none of its units
    found = [s for s in summary["sessions"] if (s["scored_against"] or "").startswith(FOUND)]
    unmatched = len(found) + sum(s["scored_against"] == NOTHING for s in summary["sessions"]
                                 if summary["mode"] == "units")
    if unmatched:
        none = unmatched - len(found)
        console.print(f"{plural(unmatched, 'session')} matched no task of the units file (by --task-map, its calls' "
                      "task ids or its name): each is scored against the units found in its own calls"
                      + (f" ({none} with none: nothing to score against)" if none else ""), highlight=False)
    if settled := summary["one_task_sessions"]:
        console.print(f"{plural(len(settled), 'session')} named its task in some calls and none in others "
                      f"({', '.join(settled[:5])}{', …' if len(settled) > 5 else ''}): a session is one task's, scored "
                      "against its units in all its calls", highlight=False)
    sessions = _table(f"Exposure per session, most exposed first: {summary['exposure_definition']}",
                      ["session", "cloud/calls", "leaked/units", "exposure", "scored against"])
    sessions.columns[0].overflow = "fold"
    ranked = sorted(summary["sessions"], key=lambda s: -(s["exposure"] or 0.0))
    for s in ranked[:limit]:
        exposure = s["exposure"]
        sessions.add_row(s["session"], f"{s['cloud_calls']}/{s['calls']}", f"{s['leaked']}/{s['units']}",
                         "-" if exposure is None else f"{exposure:.3f}", _scope(s["scored_against"]))
    console.print(sessions)
    if total("sessions") > limit:
        console.print(f"… {total('sessions') - limit} more sessions (see --json or --out)")
    if summary["leaked"]:
        if summary["values_shown"]:
            console.print("[bold red]values shown in clear text (--show-values)[/]")
        _leaks(summary, console, limit)
    elif summary["cloud_calls"]:
        console.print(_clean(summary), highlight=False)
    elif summary["calls"]:
        console.print("no cloud call in what was read: nothing reached the cloud, each session scored has exposure 0")
    else:
        console.print("[bold red]nothing was read[/]: no model call found in the given paths")
    providers = _table("Calls per provider", ["side", "provider/model", "calls", "input tok", "output tok", "USD"])
    providers.columns[1].overflow = "fold"
    for p in summary["providers"]:
        providers.add_row(p["side"], provider_model(p["provider"], p["model"]), str(p["calls"]),
                          tokens(p["input_tokens"]), tokens(p["output_tokens"]),
                          _usd(p))
    console.print(providers)
