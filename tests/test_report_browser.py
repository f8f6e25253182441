"""The HTML report rendered in real headless Chromium (Debian's, driven by Playwright; no download).

Checks what a reader sees: the plots drew (SVG with non-zero size, one point per strategy, a Pareto
front), the strategy table holds the run's numbers, the drill-down opens on highlighted evidence, and
the page logs no console error. A screenshot is kept under tests/artifacts/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import sync_playwright
from test_report_cli import STRATEGIES, write_run_dir

from ec2audit.cli import main
from ec2audit.console import usd

pytestmark = pytest.mark.chromium

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).exists(), "Debian chromium is missing: run `make setup`"
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def _open(browser, html: Path):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: problems.append(f"network: {r.url}") if not r.url.startswith("file:") else None)
    page.goto(html.as_uri())
    page.wait_for_load_state("load")
    return page, problems


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def test_run_report_draws_plots_and_tables(browser, tmp_path):
    run_dir = write_run_dir(tmp_path / "run")
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", str(run_dir), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["label"]: r for r in json.loads(result.output)["strategies"]}
    page, problems = _open(browser, out)

    for plot in ("#plot-usd", "#plot-exposure", "#heatmap"):
        box = _box(page, plot)
        assert box["width"] > 100 and box["height"] > 100, plot
    priced = sum(1 for r in rows.values() if r["usd_per_episode"] is not None)
    assert page.locator("#plot-usd g.point").count() == priced == len(STRATEGIES) - 1
    assert page.locator("#plot-exposure g.point").count() == len(STRATEGIES)
    assert page.locator("#plot-exposure g.point.front").count() >= 1
    assert _box(page, "#plot-exposure g.point circle")["width"] > 0
    cells = page.locator("#heatmap g.cell rect")
    assert cells.count() == len(STRATEGIES) * len(json.loads(result.output)["dimensions"])
    assert _box(page, "#heatmap g.cell rect")["width"] > 0

    table = page.locator("#strategies tbody tr")
    assert table.count() == len(STRATEGIES)
    headers = page.locator("#strategies thead th").all_inner_texts()
    for i in range(table.count()):
        texts = table.nth(i).locator("td").all_inner_texts()
        row = rows[texts[0]]
        shown = dict(zip(headers, texts, strict=True))
        assert shown["completion"] == f"{100 * row['completion']:.1f}%"
        assert shown["Pass^k"] == f"{100 * row['pass_hat_k']:.1f}%"
        assert shown["cloud input tok"] == f"{row['cloud_input_tokens']:,}"
        assert shown["exposure"] == f"{row['exposure']:.3f}"
        # an unknown cost says why, in `run`'s words (`unknown (4 episodes unpriced)`), as report.json does
        assert shown["cloud USD"] == (row["cloud_usd_unknown"] if row["cloud_usd"] is None else usd(row["cloud_usd"]))
        assert row["cloud_usd"] is not None or shown["cloud USD"].startswith("unknown (")

    page.locator("#strategies thead th", has_text="completion").click()
    first = page.locator("#strategies tbody tr").first.locator("td").first.inner_text()
    assert rows[first]["completion"] == min(r["completion"] for r in rows.values())

    task = page.locator("details.task").first
    task.locator("summary").first.click()
    episode = task.locator("details.ep").filter(has=page.locator("mark.hit")).first
    assert not episode.locator("mark.hit").first.is_visible()
    episode.locator("summary").click()
    assert episode.locator("mark.hit").first.is_visible()
    assert task.locator("pre.ev").count() > 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-run.png"), full_page=True)
    assert problems == []


def test_audit_report_renders_without_completion(browser, tmp_path):
    run_dir = write_run_dir(tmp_path / "run", seed=8)
    out = tmp_path / "audit.html"
    result = CliRunner().invoke(main, ["report", str(run_dir / "findings.parquet"), "--units",
                                       str(run_dir / "units.jsonl"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page, problems = _open(browser, out)
    assert page.locator("#plot-usd").count() == 0
    box = _box(page, "#heatmap")
    assert box["width"] > 100 and box["height"] > 20
    assert "completion" not in page.locator("#strategies thead").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-audit.png"))
    assert problems == []
