"""The HTML reports (`--html FILE` of report, compare and sweep) as a person sees them: each
page opened offline in headless Chromium, with no console error, a chart per cue kind, and
tables whose numbers are the JSON's. Screenshots go to .build/html/ to be looked at."""
import decimal
import json
import os
import pathlib
import subprocess

import pytest

import browser

ROOT = pathlib.Path(__file__).resolve().parents[2]
CREASE = os.environ.get("CREASE", str(ROOT / ".build" / "debug" / "crease"))
TRACES = [str(ROOT / "Traces" / f"{name}.jsonl") for name in ("open-close", "every-kind", "synth-day", "wobble")]
SCREENSHOTS = ROOT / ".build" / "html"

pytestmark = pytest.mark.skipif(not browser.available(), reason="no Chromium and chromium-driver")


def crease(*arguments, ok=(0,)):
    run = subprocess.run([CREASE, *map(str, arguments)], capture_output=True, text=True)
    assert run.returncode in ok, run.stderr
    return run.stdout


def ms(nanoseconds):
    """Milliseconds with three decimals, rounded half away from zero, as crease writes them."""
    value = decimal.Decimal(nanoseconds) / decimal.Decimal(1_000_000)
    return str(value.quantize(decimal.Decimal("0.001"), rounding=decimal.ROUND_HALF_UP))


@pytest.fixture(scope="module")
def chromium():
    driver = browser.chromium()
    yield driver
    driver.quit()


def opened(chromium, page: pathlib.Path, screenshot: str):
    """Loads `page`, takes its screenshot, and checks it made no request and logged no error."""
    chromium.get_log("browser")  # whatever an earlier page left
    chromium.get(page.as_uri())
    assert chromium.execute_script("return document.readyState") == "complete"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    height = chromium.execute_script("return document.documentElement.scrollHeight")
    chromium.set_window_size(1200, min(height + 40, 6000))
    chromium.save_screenshot(str(SCREENSHOTS / screenshot))
    errors = [entry for entry in chromium.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors
    # Self-contained: nothing to fetch, nothing to run.
    assert chromium.execute_script("return document.querySelectorAll('script, link, img, iframe, object').length") == 0
    resources = chromium.execute_script("return performance.getEntriesByType('resource').length")
    assert resources == 0


def table(chromium, identifier):
    return chromium.execute_script(
        f"return [...document.querySelectorAll('#{identifier} tbody tr')]"
        ".map(row => [...row.cells].map(cell => cell.textContent))")


def charts(chromium, kind):
    """Each chart of `kind` as [cue, lines drawn, bound label or null, point count]."""
    return chromium.execute_script(
        f"return [...document.querySelectorAll('figure.{kind}')].map(figure => ["
        "figure.dataset.cue, figure.querySelectorAll('path.series').length,"
        "figure.querySelector('.bound-label') ? figure.querySelector('.bound-label').textContent : null,"
        "figure.querySelectorAll('circle').length,"
        "figure.querySelector('svg').getBoundingClientRect().width])")


def test_report_page(chromium, tmp_path):
    crease("batch", "-d", tmp_path / "fleet", *TRACES, ok=(0, 65))
    report = json.loads((tmp_path / "fleet" / "report.json").read_text())
    crease("report", *sorted((tmp_path / "fleet").glob("*.summary.json")), "--html", tmp_path / "report.html")
    opened(chromium, tmp_path / "report.html", "report.png")
    shown = charts(chromium, "latency")
    # Kinds whose every latency is 0 get one line together, not an empty chart each.
    assert [chart[0] for chart in shown] == [kind["cue"] for kind in report["cues"] if kind["maxNs"] > 0]
    instant = chromium.find_element("css selector", "p.instant").text
    assert all(kind["cue"] in instant for kind in report["cues"] if kind["maxNs"] == 0)
    assert all(chart[1] == 1 and chart[4] > 300 for chart in shown), "one visible curve per chart"
    bounds = {chart[0]: chart[2] for chart in shown}
    assert bounds["hinge.status"] == "bound 150 ms" and bounds["camera.mask"] == "bound 500 ms"
    # The traces are 30 fps: their stalls were judged against 3 frames at that rate.
    assert bounds["camera.stall"] == "bound 100 ms by stream rate" and bounds["camera.gap"] is None
    rows = table(chromium, "kinds")
    expected = [
        [kind["cue"], kind["stage"], str(kind["traces"]), str(kind["count"])]
        + [ms(kind[key]) for key in ("p50Ns", "p90Ns", "p99Ns", "maxNs")] + [str(kind["overBound"])]
        for kind in report["cues"]
    ]
    assert rows == expected
    closest = table(chromium, "closest")
    assert [row[0] for row in closest] == [entry["trace"] for entry in report["closestToBound"]]


def test_compare_page(chromium, tmp_path):
    fast = tmp_path / "fast.json"
    fast.write_text('{"hinge": {"statusDebounceMs": 30, "statusMaxWaitMs": 100}}')
    crease("replay", TRACES[0], "-o", "/dev/null", "--summary-json", tmp_path / "base.json")
    crease("replay", TRACES[0], "-c", fast, "-o", "/dev/null", "--summary-json", tmp_path / "new.json")
    comparison = json.loads(crease("compare", tmp_path / "new.json", tmp_path / "base.json", "-f", "json", ok=(1,)))
    crease("compare", tmp_path / "new.json", tmp_path / "base.json", "--html", tmp_path / "compare.html", ok=(1,))
    opened(chromium, tmp_path / "compare.html", "compare.png")
    rows = table(chromium, "comparison")
    assert [row[0:2] for row in rows] == [[cue["cue"], cue["verdict"]] for cue in comparison["cues"]]
    classes = chromium.execute_script("return [...document.querySelectorAll('#comparison tbody tr')].map(r => r.className)")
    assert classes == [cue["verdict"] for cue in comparison["cues"]]
    for row, cue in zip(rows, comparison["cues"]):
        assert row[2:4] == [str(cue["base"]["count"]), str(cue["new"]["count"])]
        assert [row[5], row[6]] == [ms(cue["base"]["p50Ns"]), ms(cue["new"]["p50Ns"])]
    shown = charts(chromium, "latency")
    # The kinds that failed the gate first, marked; then the rest that have a latency.
    failed = [cue["cue"] for cue in comparison["cues"] if cue["verdict"] not in ("unchanged", "improved")]
    assert failed and [chart[0] for chart in shown][:len(failed)] == failed
    marked = chromium.execute_script("return [...document.querySelectorAll('figure.regressed')].map(f => f.dataset.cue)")
    assert marked == failed
    assert all(chart[1] == 2 for chart in shown), "base and new drawn over each other"
    assert "Regressed past 5.0 %" in chromium.find_element("css selector", "p.verdict").text
    # The base's bound beside the new one where the configuration moved it: compare's first
    # file is the base, here the run with a 100 ms maximum wait; the new one has 150 ms.
    labels = chromium.execute_script(
        "return [...document.querySelectorAll('figure[data-cue=\"hinge.status\"] .bound-label')].map(t => t.textContent)")
    assert labels == ["bound 150 ms", "base bound 100 ms"]
    # The page keeps inside 1,400 px: the table's headers and names wrap.
    chromium.set_window_size(1400, 900)
    assert chromium.execute_script("return document.documentElement.scrollWidth") <= 1400


def test_sweep_page(chromium, tmp_path):
    arguments = [*TRACES[:2], "--set", "hinge.statusDebounceMs=20,50", "--set", "hinge.settleMs=150,300,450"]
    sweep = json.loads(crease("sweep", *arguments, "-f", "json"))
    crease("sweep", *arguments, "--html", tmp_path / "sweep.html")
    opened(chromium, tmp_path / "sweep.html", "sweep.png")
    settings = sweep["settings"]
    assert len(settings) == 6
    rows = table(chromium, "sweep")
    expected = [
        [setting["setting"], cue["cue"], str(cue["count"])] + [ms(cue[key]) for key in ("p50Ns", "p90Ns", "p99Ns", "maxNs")]
        for setting in settings for cue in setting["cues"]
    ]
    assert rows == expected
    tradeoffs = {chart[0]: chart for chart in charts(chromium, "tradeoff")}
    # The debounce moves hinge.status's latency, the settle time hinge.settled's: a point per setting.
    assert tradeoffs["hinge.status"][3] == 6 and tradeoffs["hinge.settled"][3] == 6
    # Instant cues change with nothing swept: no trade-off to draw.
    assert "camera.direction" not in tradeoffs
    distributions = charts(chromium, "latency")
    kinds = sorted({cue["cue"] for setting in settings for cue in setting["cues"] if cue["maxNs"] > 0})
    assert [chart[0] for chart in distributions] == kinds
    assert all(chart[1] == 6 for chart in distributions if chart[0] == "hinge.status")


def test_sweep_of_many_settings(chromium, tmp_path):
    """Ten settings: ten colours, whole-number count ticks, every point inside its frame, the
    settings' bound drawn."""
    values = ",".join(str(value) for value in range(20, 120, 10))
    arguments = [TRACES[0], "--set", f"hinge.statusDebounceMs={values}"]
    crease("sweep", *arguments, "--html", tmp_path / "sweep.html")
    opened(chromium, tmp_path / "sweep.html", "sweep-many.png")
    colours = chromium.execute_script(
        "return [...document.querySelectorAll('figure.latency[data-cue=\"hinge.status\"] path.series')]"
        ".map(p => getComputedStyle(p).stroke)")
    assert len(colours) == 10 and len(set(colours)) == 10, colours
    ticks = chromium.execute_script(
        "return [...document.querySelectorAll('figure.tradeoff[data-cue=\"hinge.status\"] text.tick')]"
        ".map(t => t.textContent)")
    assert ticks and all("." not in tick for tick in ticks), ticks
    inside = chromium.execute_script("""
        return [...document.querySelectorAll('figure.tradeoff svg')].every(svg => {
          const frame = svg.getBoundingClientRect();
          return [...svg.querySelectorAll('circle, text.point')].every(element => {
            const box = element.getBoundingClientRect();
            return box.left >= frame.left && box.right <= frame.right && box.top >= frame.top && box.bottom <= frame.bottom;
          });
        })""")
    assert inside, "every point and its label inside the chart"
    bounds = chromium.execute_script(
        "return [...document.querySelectorAll('figure.latency[data-cue=\"hinge.status\"] .bound-label')]"
        ".map(t => t.textContent)")
    # The debounce leaves the bound (the maximum wait) where it is: one line, every setting named.
    assert bounds == ["bound 150 ms (20, 30, 40, 50, 60, 70, 80, 90, 100, 110)"], bounds
