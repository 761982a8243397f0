"""`crease plot` as a person sees it: the SVG opened in headless Chromium and rendered, its
pixels read back, so what is asserted is what is drawn: the axis over the whole trace in the
replay's seconds, the frame row with its hole, the gap in red, the latency lane's bound line.
Screenshots go to .build/html/ to be looked at."""
import os
import pathlib
import subprocess

import pytest

import browser

ROOT = pathlib.Path(__file__).resolve().parents[2]
CREASE = os.environ.get("CREASE", str(ROOT / ".build" / "debug" / "crease"))
SCREENSHOTS = ROOT / ".build" / "html"

pytestmark = pytest.mark.skipif(not browser.available(), reason="no Chromium and chromium-driver")

# The SVG drawn onto a canvas from a same-origin blob, so its pixels can be read.
RENDERED_PIXELS = """
const done = arguments[arguments.length - 1];
const points = arguments[0];
const source = new XMLSerializer().serializeToString(document.documentElement);
const url = URL.createObjectURL(new Blob([source], {type: 'image/svg+xml'}));
const image = new Image();
image.onload = () => {
  const canvas = document.createElementNS('http://www.w3.org/1999/xhtml', 'canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  done(points.map(([x, y]) => Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3))));
};
image.onerror = () => done(null);
image.src = url;
"""


def crease(*arguments):
    run = subprocess.run([CREASE, *map(str, arguments)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.fixture(scope="module")
def chromium():
    driver = browser.chromium(1200, 700)
    yield driver
    driver.quit()


def opened(chromium, svg: pathlib.Path, screenshot: str):
    chromium.get_log("browser")
    chromium.get(svg.as_uri())
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    chromium.save_screenshot(str(SCREENSHOTS / screenshot))
    errors = [entry for entry in chromium.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors


def pixels(chromium, points):
    chromium.set_script_timeout(20)
    colours = chromium.execute_async_script(RENDERED_PIXELS, points)
    assert colours is not None, "the SVG did not render as an image"
    return colours


def dark(colour):
    return sum(colour) < 3 * 120


def test_imported_recording(chromium, tmp_path):
    """A phone's slow-motion recording (no hinge): drawn whole on the replay's clock, a tick per
    frame with the 325 ms hole empty, the gap red over the same seconds the text output gives."""
    trace = tmp_path / "android.jsonl"
    crease("import", ROOT / "Traces" / "real" / "sample_android_slow_motion.mp4", "-o", trace)
    svg = tmp_path / "android.svg"
    crease("plot", trace, "-o", svg)
    opened(chromium, svg, "plot-imported.png")

    ticks = chromium.execute_script(
        "return [...document.querySelectorAll('text')].filter(t => / s$/.test(t.textContent))"
        ".map(t => [t.textContent, t.getBBox().x + t.getBBox().width / 2])")
    labels = [label for label, _ in ticks]
    assert labels[0] == "0.00 s" and labels[-1] == "0.45 s", labels
    seconds_to_x = (ticks[-1][1] - ticks[0][1]) / 0.45
    x_of = lambda seconds: ticks[0][1] + seconds * seconds_to_x

    row = chromium.execute_script(
        "const r = document.querySelector('path.frames').getBBox(); return [r.x, r.y, r.width, r.height]")
    assert row[2] > 1070, "the frames span the whole axis: the trace runs from its first frame to its last"
    middle = round(row[1] + row[3] / 2)
    text = crease("replay", trace, "-f", "text")
    assert "0.392011111  camera.gap" in text
    frames = [round(x_of(float(line.split('"t":')[1].split(",")[0]) / 1e9))
              for line in trace.read_text().splitlines() if '"kind":"frame"' in line]
    hole = range(frames[0] + 3, frames[1] - 3, 25)
    # A tick is a pixel column wide: the darkest of the columns around where it lands.
    around = [[x + offset, middle] for x in frames for offset in (-1, 0, 1)]
    seen = pixels(chromium, around + [[x, middle] for x in hole])
    ticks_seen = [min(seen[3 * index:3 * index + 3], key=sum) for index in range(len(frames))]
    assert all(dark(colour) for colour in ticks_seen), ticks_seen
    assert not any(dark(colour) for colour in seen[len(around):]), "the hole is empty"

    gap = chromium.execute_script(
        "const g = [...document.querySelectorAll('rect')].find(r => r.getAttribute('fill') === '#dc2626'"
        " && r.querySelector('title')); const b = g.getBBox(); return [b.x, b.x + b.width, b.y + b.height / 2]")
    assert abs(gap[1] - x_of(0.392011111)) < 1.5, "the gap ends when the replay reports it"
    (red,) = pixels(chromium, [[round((gap[0] + gap[1]) / 2), round(gap[2])]])
    assert red[0] > 200 and red[1] < 80 and red[2] < 80, red


def test_latency_lane_bound(chromium, tmp_path):
    """The latency lane's dashed bound line runs across the plot, its scale says 100 % there."""
    svg = tmp_path / "open-close.svg"
    crease("plot", ROOT / "Traces" / "open-close.jsonl", "-o", svg)
    opened(chromium, svg, "plot-open-close.png")
    bound = chromium.execute_script(
        "const l = [...document.querySelectorAll('line')].find(l => l.getAttribute('stroke-dasharray') === '4 3');"
        " const b = l.getBBox(); return [b.x, b.width, b.y]")
    assert bound[1] > 1080
    label = chromium.execute_script(
        "const t = [...document.querySelectorAll('text.latency-scale')].find(t => t.textContent === '100 %');"
        " const b = t.getBBox(); return b.y + b.height / 2")
    assert abs(label - bound[2]) < 4, "the scale's 100 % sits on the bound line"
    (line,) = pixels(chromium, [[round(bound[0] + 2), round(bound[2])]])
    assert sum(line) < 3 * 200, f"the bound line is drawn: {line}"
