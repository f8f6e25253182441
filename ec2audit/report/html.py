"""The HTML report: one self-contained file (inline SVG plots, inline CSS, a few lines of script).

Plots are drawn here as SVG so the report opens offline and needs no plotting library: completion
against cloud cost and against exposure with the Pareto front marked, and exposure per dimension ×
strategy as a heat map. Below them the strategy table and the per-task drill-down with evidence.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, datetime
from html import escape
from pathlib import Path

from ec2audit import __version__, metrics
from ec2audit.console import plural, usd
from ec2audit.files import open_private
from ec2audit.report.summary import EpisodeView, Evidence, StrategyRow, Summary

W, H, PAD_L, PAD_R, PAD_T, PAD_B = 460, 320, 58, 30, 18, 46
MAX_LABELLED = 8  # plots with more points than this rely on the legend and tooltips
HEAT_ROWS = 40  # an audit's heat map shows at most this many episodes
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#393b79", "#637939"]

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:18px 28px}header h1{margin:0 0 4px;font-size:22px}
header p{margin:0;color:#c9d1e0;font-size:13px}main{padding:18px 28px;max-width:1400px}
section{background:#fff;border:1px solid #dde2ea;border-radius:8px;padding:14px 18px;margin:0 0 18px}
h2{font-size:17px;margin:0 0 10px}.plots{display:flex;flex-wrap:wrap;gap:18px}
figure{margin:0}figcaption{font-size:12px;color:#5a6375;max-width:460px}
table{border-collapse:collapse;font-size:13px}th,td{padding:4px 9px;border-bottom:1px solid #e6e9ef;
text-align:right;white-space:nowrap}th{background:#eef1f6;cursor:pointer;position:sticky;top:0}
td.l,th.l{text-align:left}.notes{color:#8a5a00;font-size:13px}.masked{color:#5a6375;font-size:12px}
details{border-top:1px solid #e6e9ef;padding:6px 0}summary{cursor:pointer;font-weight:600}
.ep{margin:4px 0 4px 16px}.ep summary{font-weight:600;font-size:13px}
.facts{font-weight:400;color:#5a6375;margin-left:8px}
pre.ev{white-space:pre-wrap;word-break:break-word;background:#f3f4f7;border-radius:4px;padding:6px 8px;
margin:4px 0;font-size:12px;max-width:1100px}mark.hit{background:#ffb3b3;font-weight:700}
mark.other{background:#ffe3a3}.scroll{overflow-x:auto}
td.ev{max-width:280px;overflow:hidden;text-overflow:ellipsis}.scroll+h2{margin-top:18px}
.legend{display:flex;flex-wrap:wrap;gap:4px 16px;margin:0 0 10px;font-size:12px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:5px}
"""

SCRIPT = """
document.querySelectorAll('table.sortable th').forEach(function (th, col) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var dir = th.dataset.dir === 'asc' ? -1 : 1;
    th.dataset.dir = dir === 1 ? 'asc' : 'desc';
    rows.sort(function (a, b) {
      var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
      var nx = parseFloat(x), ny = parseFloat(y);
      if (!isNaN(nx) && !isNaN(ny)) { return dir * (nx - ny); }
      return dir * String(x).localeCompare(String(y));
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""


# ---------------------------------------------------------------- number formats


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def _int(v: int | None, none: str = "–") -> str:
    """A count; `none` where it is unknown (`unknown` for calls and tokens: not a dash read as none)."""
    return none if v is None else f"{v:,}"


def _usd(v: float | None, why: str | None = None) -> str:
    """A USD figure, or `unknown` with why where it is known (`StrategyRow.cloud_usd_unknown`)."""
    return (why or "unknown") if v is None else usd(v)


def _si(v: float | None) -> str:
    if v is None:
        return "–"
    for unit, scale in (("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(v) >= scale:
            return f"{v / scale:.2f} {unit}"
    return f"{v:.0f}"


# ---------------------------------------------------------------- plots


def pareto_front(points: list[tuple[float, float]]) -> list[int]:
    """Indices of the points no other point beats: lower x (cost, exposure) and higher y (completion)."""
    front = []
    for i, (x, y) in enumerate(points):
        dominated = any(ox <= x and oy >= y and (ox < x or oy > y)
                        for j, (ox, oy) in enumerate(points) if j != i)
        if not dominated:
            front.append(i)
    return sorted(front, key=lambda i: points[i][0])


def nice_ticks(hi: float, most: int = 5) -> list[float]:
    """Round tick values (1, 2, 2.5 or 5 × 10ⁿ apart) from 0 to the first tick at or above `hi`."""
    hi = hi if hi > 0 else 1.0
    step = 10 ** math.floor(math.log10(hi / most))
    step *= next(m for m in (1, 2, 2.5, 5, 10) if hi / (step * m) <= most)
    return [i * step for i in range(math.ceil(hi / step - 1e-9) + 1)]


def scatter(rows: list[StrategyRow], x_of: Callable[[StrategyRow], float | None], x_label: str,
            x_format: Callable[[float], str], plot_id: str, x_max: float | None = None) -> str:
    """Completion (y) against a cost (x); the Pareto front is a dashed step line through ringed points."""
    data = [(r, x, r.completion) for r in rows if (x := x_of(r)) is not None and r.completion is not None]
    if not data:
        return f'<p class="notes" id="{plot_id}">no {escape(x_label)} figures to plot</p>'
    xs = [x for _, x, _ in data]
    x_ticks = nice_ticks(x_max or max(xs))
    x_hi = x_ticks[-1]
    sx = lambda v: PAD_L + (W - PAD_L - PAD_R) * v / x_hi  # noqa: E731
    sy = lambda v: H - PAD_B - (H - PAD_T - PAD_B) * v  # noqa: E731
    out = [f'<svg id="{plot_id}" class="plot" xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" role="img" aria-label="completion vs {escape(x_label)}">',
           f'<rect x="{PAD_L}" y="{PAD_T}" width="{W - PAD_L - PAD_R}" height="{H - PAD_T - PAD_B}" '
           'fill="#fbfcfd" stroke="#c7ced9"/>']
    for t in nice_ticks(1.0):
        out.append(f'<line x1="{PAD_L}" x2="{W - PAD_R}" y1="{sy(t):.1f}" y2="{sy(t):.1f}" stroke="#eceff4"/>'
                   f'<text x="{PAD_L - 6}" y="{sy(t) + 4:.1f}" font-size="11" text-anchor="end">'
                   f"{t:.0%}</text>")
    for t in x_ticks:
        out.append(f'<text x="{sx(t):.1f}" y="{H - PAD_B + 16}" font-size="11" text-anchor="middle">'
                   f'{escape(x_format(t))}</text>')
    out.append(f'<text x="{(PAD_L + W - PAD_R) / 2}" y="{H - 8}" font-size="12" text-anchor="middle">'
               f'{escape(x_label)}</text>'
               f'<text transform="translate(14 {(PAD_T + H - PAD_B) / 2}) rotate(-90)" font-size="12" '
               'text-anchor="middle">completion</text>')
    front = pareto_front([(x, y) for _, x, y in data])
    if len(front) > 1:
        path, last_y = [], None
        for i in front:
            _, x, y = data[i]
            if last_y is not None:
                path.append(f"{sx(x):.1f},{sy(last_y):.1f}")
            path.append(f"{sx(x):.1f},{sy(y):.1f}")
            last_y = y
        out.append(f'<polyline class="pareto" points="{" ".join(path)}" fill="none" stroke="#333" '
                   'stroke-dasharray="5 4" stroke-width="1.5"/>')
    # points drawn at the same spot share one label ("a, b +2"); labels sit right of their point (left
    # of it in the right half) and step away from labels already placed, upward in the lower half
    spots: dict[tuple[int, int], list[str]] = {}
    for r, x, y in data:
        spots.setdefault((round(sx(x)), round(sy(y))), []).append(r.label)
    taken: list[tuple[float, float, float]] = []  # label boxes already placed: left, right, baseline
    for (cx, cy), names in spots.items() if len(data) <= MAX_LABELLED else ():
        text = ", ".join(names[:2]) + (f" +{len(names) - 2}" if len(names) > 2 else "")
        right = cx < PAD_L + 0.6 * (W - PAD_L - PAD_R)
        lx, ly, step = (cx + 12 if right else cx - 12), cy + 4, (-12 if cy > H / 2 else 12)
        left_edge, right_edge = (lx, lx + 6.5 * len(text)) if right else (lx - 6.5 * len(text), lx)
        while any(abs(ly - ty) < 12 and left_edge < tr and tl < right_edge for tl, tr, ty in taken):
            ly += step
        taken.append((left_edge, right_edge, ly))
        out.append(f'<text class="label" x="{lx:.1f}" y="{ly:.1f}" font-size="11" '
                   f'text-anchor="{"start" if right else "end"}">{escape(text)}</text>')
    for i, (r, x, y) in enumerate(data):
        colour = PALETTE[rows.index(r) % len(PALETTE)]
        cx, cy = sx(x), sy(y)
        ring = (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="10" fill="none" stroke="#333" stroke-width="1.5"/>'
                if i in front else "")
        out.append(f'<g class="point{" front" if i in front else ""}">{ring}'
                   f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="6" fill="{colour}" fill-opacity="0.85">'
                   f'<title>{escape(r.label)}: completion {_pct(r.completion)}, {escape(x_label)} '
                   f"{escape(x_format(x))}</title></circle></g>")
    out.append("</svg>")
    return "".join(out)


def _heat_colour(v: float) -> str:
    """White (nothing leaked) to deep red (everything leaked)."""
    v = min(max(v, 0.0), 1.0)
    g = round(255 - 200 * v)
    return f"rgb(255,{g},{g})"


def heatmap(rows: list[StrategyRow], dimensions: list[str], plot_id: str = "heatmap") -> str:
    """Exposure per dimension (columns) × strategy (rows), each cell labelled with its value."""
    if not dimensions or not any(r.by_dimension for r in rows):
        return f'<p class="notes" id="{plot_id}">no exposure per dimension to draw</p>'
    cell_w, cell_h, left, top = 78, 26, 12 + 7 * max(len(r.label) for r in rows), 70
    width, height = left + cell_w * len(dimensions) + 70, top + cell_h * len(rows) + 10
    out = [f'<svg id="{plot_id}" class="plot" xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="exposure heat map">']
    for j, dim in enumerate(dimensions):
        x = left + cell_w * j + cell_w / 2
        out.append(f'<text transform="translate({x:.0f} {top - 8}) rotate(-30)" font-size="11">'
                   f"{escape(dim)}</text>")
    for i, r in enumerate(rows):
        y = top + cell_h * i
        out.append(f'<text x="{left - 6}" y="{y + cell_h / 2 + 4:.0f}" font-size="11" text-anchor="end">'
                   f'{escape(r.label)}</text>')
        for j, dim in enumerate(dimensions):
            v = r.by_dimension.get(dim)
            x = left + cell_w * j
            fill = "#f0f0f0" if v is None else _heat_colour(v)
            text = "n/a" if v is None else f"{v:.2f}"
            ink = "#fff" if v is not None and v > 0.6 else "#222"
            out.append(f'<g class="cell"><rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" '
                       f'fill="{fill}" stroke="#e3e6ec"><title>{escape(r.label)} · {escape(dim)}: {text}</title></rect>'
                       f'<text x="{x + cell_w / 2 - 1:.0f}" y="{y + cell_h / 2 + 3:.0f}" font-size="11" '
                       f'text-anchor="middle" fill="{ink}">{text}</text></g>')
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------- tables


def _cell(text: str, sort_value=None, left: bool = False) -> str:
    v = text if sort_value is None else sort_value
    return f'<td{" class=l" if left else ""} data-v="{escape(str(v))}">{escape(text)}</td>'


def strategy_table(summary: Summary) -> str:
    runs = summary.has_completion
    models = [m for m in ("edge_model", "cloud_model") if len({getattr(r, m) for r in summary.rows}) > 1]
    head = ["configuration"] + [m.replace("_", " ") for m in models] + ["tasks", "episodes"]
    cost = summary.has_cost
    if runs:
        head += ["k", "failed", "completion", "Pass^k", "Pass@k"]
    if cost:
        head += ["cloud calls", "cloud input tok", "cached tok", "output tok", "cloud USD", "USD/episode"]
    if runs:
        head += ["edge FLOPs"]
    head += ["exposure", "privacy", "leaked units (grade ≥ 0.7)"]
    out = ['<div class="scroll"><table id="strategies" class="sortable"><thead><tr>']
    out += [f'<th{" class=l" if i <= len(models) else ""}>{escape(h)}</th>' for i, h in enumerate(head)]
    out.append("</tr></thead><tbody>")
    for r in summary.rows:
        cells = [_cell(r.label, left=True), *[_cell(getattr(r, m) or "–", left=True) for m in models],
                 _cell(_int(r.tasks), r.tasks), _cell(_int(r.episodes), r.episodes)]
        if runs:
            cells += [_cell(_int(r.k), r.k), _cell(_int(r.failed), r.failed),
                      _cell(_pct(r.completion), r.completion), _cell(_pct(r.pass_hat_k), r.pass_hat_k),
                      _cell(_pct(r.pass_at_k), r.pass_at_k)]
        if cost:
            cells += [_cell(_int(r.cloud_calls, "unknown"), r.cloud_calls),
                      _cell(_int(r.cloud_input_tokens, "unknown"), r.cloud_input_tokens),
                      _cell(_int(r.cloud_cached_tokens, "unknown"), r.cloud_cached_tokens),
                      _cell(_int(r.cloud_output_tokens, "unknown"), r.cloud_output_tokens),
                      _cell(_usd(r.cloud_usd, r.cloud_usd_unknown), r.cloud_usd),
                      _cell(_usd(r.usd_per_episode), r.usd_per_episode)]
        if runs:
            cells += [_cell(_si(r.edge_flops), r.edge_flops)]
        privacy = None if r.exposure is None else 1 - r.exposure
        cells += [_cell("–" if r.exposure is None else f"{r.exposure:.3f}", r.exposure),
                  _cell("–" if privacy is None else f"{privacy:.3f}", privacy),
                  _cell(_int(r.leaked_units), r.leaked_units)]
        out.append(f"<tr>{''.join(cells)}</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def dimension_table(summary: Summary) -> str:
    if not summary.dimensions:
        return ""
    head = "".join(f"<th>{escape(d)}</th>" for d in summary.dimensions)
    body = "".join(
        "<tr>" + _cell(r.label, left=True) + "".join(
            _cell("–" if r.by_dimension.get(d) is None else f"{r.by_dimension[d]:.3f}", r.by_dimension.get(d))
            for d in summary.dimensions) + "</tr>" for r in summary.rows)
    return (f'<h2>Exposure by dimension</h2><div class="scroll"><table id="dimensions" class="sortable"><thead>'
            f'<tr><th class=l>configuration</th>{head}</tr></thead><tbody>{body}</tbody></table></div>')


def _evidence_html(evidence: Evidence) -> str:
    parts = ["…" if evidence.truncated_left else ""]
    for text, kind in evidence.pieces:
        parts.append(escape(text) if kind == "text" else f'<mark class="{kind}">{escape(text)}</mark>')
    parts.append("…" if evidence.truncated_right else "")
    return f'<pre class="ev">{"".join(parts)}</pre>'


def _episode_html(ep: EpisodeView) -> str:
    facts = [escape(ep.label)]
    if ep.completion is not None:
        facts.append(f"completion {_pct(ep.completion)}")
    if ep.status:
        facts.append(f"status {escape(ep.status)}")
    if ep.exposure is not None:
        facts.append(f"exposure {ep.exposure:.3f}")
    if ep.calls_without_content and ep.calls:  # both from the sessions table
        facts.append(f"{ep.calls_without_content} of {plural(ep.calls, 'call')} without prompt content")
    partial = len(ep.leaks) - ep.leaked
    facts.append(plural(ep.leaked, "leaked unit") + (f", {partial} more in part (grade < 0.7)" if partial else ""))
    out = [f'<details class="ep"><summary>{escape(ep.episode_id)} <span class="facts">{" · ".join(facts)}'
           "</span></summary>"]
    if ep.leaks:
        out.append('<div class="scroll"><table class="leaks"><thead><tr><th class=l>unit</th><th class=l>dimension</th>'
                   '<th>grade</th>'
                   '<th title="index of the first cloud call that carried it">first call</th>'
                   '<th>message</th><th class=l>origin</th><th class=l>detector</th>'
                   '<th class=l>payload</th><th class=l>evidence</th></tr></thead><tbody>')
        for leak in ep.leaks:
            out.append(f"<tr><td class=l>{escape(leak.unit_id)}</td><td class=l>{escape(leak.dimension)}</td>"
                       f"<td>{leak.grade:.1f}</td><td>{'–' if leak.step is None else leak.step}</td>"
                       f"<td>{'–' if leak.message_index is None else leak.message_index}</td>"
                       f"<td class=l>{escape(leak.origin or '–')}</td>"
                       f"<td class=l>{escape(leak.detector or '–')}</td>"
                       f"<td class=l>{escape(leak.payload_id)}</td>"
                       f'<td class="l ev"><mark class="hit">{escape(leak.shown)}</mark></td></tr>')
            if leak.evidence is not None:
                out.append(f'<tr><td colspan="9" class=l>{_evidence_html(leak.evidence)}</td></tr>')
        out.append("</tbody></table></div>")
    out.append("</details>")
    return "".join(out)


def drilldown(summary: Summary) -> str:
    out = []
    for task_id, episodes in summary.tasks.items():
        # a unit two episodes leaked is one leaked unit of the task (each episode's line counts its own)
        leaks = len({leak.unit_id for e in episodes for leak in e.leaks if metrics.leaked(leak.grade)})
        worst = max((e.exposure for e in episodes if e.exposure is not None), default=None)
        worst_text = "" if worst is None else f", highest exposure {worst:.3f}"
        out.append(f'<details class="task"><summary>{escape(task_id)} — {plural(len(episodes), "episode")}, '
                   f'{plural(leaks, "leaked unit")}{worst_text}</summary>')
        out += [_episode_html(e) for e in episodes]
        out.append("</details>")
    return "".join(out) or "<p>no episodes</p>"


# ---------------------------------------------------------------- page


def render(summary: Summary) -> str:
    """The whole report as one HTML string."""
    rows = summary.rows
    plots = []
    if summary.has_completion:
        cost = scatter(rows, lambda r: r.usd_per_episode, "cloud USD per episode", _usd_short, "plot-usd")
        exposure = scatter(rows, lambda r: r.exposure, "exposure", lambda v: f"{v:.2f}", "plot-exposure", 1.0)
        plots.append(_legend(rows))
        plots.append(f"<figure>{cost}"
                     "<figcaption>Completion against cloud cost per episode. Ringed points and the dashed "
                     "line are the Pareto front: nothing is both cheaper and more complete."
                     "</figcaption></figure>")
        plots.append(f"<figure>{exposure}"
                     "<figcaption>Completion against exposure (weighted share of sensitive units that "
                     "reached the cloud). Pareto front as above: nothing both leaks less and completes more."
                     "</figcaption>"
                     "</figure>")
    if summary.has_completion or not summary.groups:
        heat, scope = heatmap(rows, summary.dimensions), "mean over episodes of "
    else:  # an audit: where (which episode or task) the exposure is
        shown = sorted(summary.groups, key=lambda r: -(r.exposure or 0.0))[:HEAT_ROWS]
        heat = heatmap(shown, summary.dimensions)
        scope = f"the {len(shown)} most exposed of {len(summary.groups)} episodes/tasks; "
    plots.append(f"<figure>{heat}<figcaption>Exposure per dimension: {scope}Σ grade·weight / Σ weight of that "
                 "dimension's units.</figcaption></figure>")
    values = ('<p class="notes"><b>Values are shown in clear text</b> (--show-values): '
              "keep this file private.</p>"
              if summary.show_values else
              '<p class="masked">Sensitive values are masked (first and last fifth of the characters). '
              "Use --show-values to see them.</p>")
    notes = "".join(f'<p class="notes">{escape(n)}</p>' for n in summary.notes)
    used = {"edge": {r.edge_model for r in rows if r.edge_model},
            "cloud": {r.cloud_model for r in rows if r.cloud_model}}
    models = " · ".join(f"{side}: {escape(', '.join(sorted(names)))}" for side, names in used.items() if names)
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>ec2audit report</title><style>{CSS}</style></head><body>"
        f"<header><h1>ec2audit report</h1><p>{escape(', '.join(summary.sources))} · generated {generated} "
        f"by ec2audit {__version__}</p><p>{models}</p></header><main>{notes}"
        f'<section><h2>Trade-offs</h2><div class="plots">{"".join(plots)}</div></section>'
        f"<section><h2>Strategies</h2>{strategy_table(summary)}{dimension_table(summary)}</section>"
        f"<section><h2>Per task: what reached the cloud</h2>{values}{drilldown(summary)}</section>"
        f"</main><script>{SCRIPT}</script></body></html>"
    )


def _legend(rows: list[StrategyRow]) -> str:
    items = "".join(f'<span><i style="background:{PALETTE[i % len(PALETTE)]}"></i>{escape(r.label)}</span>'
                    for i, r in enumerate(rows))
    return f'<div class="legend" style="flex-basis:100%">{items}</div>'


def _usd_short(v: float) -> str:
    return usd(v) if v < 1 else f"${v:,.2f}"


def write_report(summary: Summary, path: str | Path) -> Path:
    """Write the report private (0600): even masked, the context around evidence is payload text."""
    path = Path(path)
    with open_private(path, "w", encoding="utf-8") as out:
        out.write(render(summary))
    return path
