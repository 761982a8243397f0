"""The Chrome export as the Perfetto UI shows it (SPEC 3): merged traces opened in the real UI,
checked with Perfetto's SQL. Needs Chromium and chromium-driver; `make browser-test` says so
when they are missing."""
import os
import pathlib
import subprocess

import pytest

import browser
import perfetto_ui

ROOT = pathlib.Path(__file__).resolve().parents[2]
CREASE = os.environ.get("CREASE", str(ROOT / ".build" / "debug" / "crease"))
MERGED = ["open-close", "dropped-frames", "every-kind"]

# Each slice's process, whether it lies on a thread's track or on a process's async track.
SLICE_PROCESS = """
  from slice s
  left join thread_track tt on s.track_id = tt.id
  left join thread th using (utid)
  left join process_track pt on s.track_id = pt.id
  left join process p on p.upid = coalesce(th.upid, pt.upid)
"""

pytestmark = pytest.mark.skipif(not browser.available(), reason="no Chromium and chromium-driver")


@pytest.fixture(scope="module")
def ui(tmp_path_factory):
    export = tmp_path_factory.mktemp("perfetto") / "merged.json"
    traces = [str(ROOT / "Traces" / f"{name}.jsonl") for name in MERGED]
    with export.open("wb") as output:
        subprocess.run([CREASE, "replay", "-f", "chrome", *traces], stdout=output, check=True)
    with perfetto_ui.opened(export) as opened:
        yield opened


def test_every_slice_ends(ui):
    assert ui.query("select count(*) from slice where dur = -1") == [[0]]


def test_a_process_per_trace(ui):
    names = [row[0] for row in ui.query("select name from process where name is not null order by pid")]
    assert [name.split("/")[-1] for name in names] == [f"{name}.jsonl" for name in MERGED]


def test_every_slice_and_counter_inside_its_process(ui):
    assert ui.query(f"select count(*) {SLICE_PROCESS} where p.upid is null") == [[0]]
    orphans = """select count(*) from counter c
                 left join process_counter_track t on c.track_id = t.id where t.upid is null"""
    assert ui.query(orphans) == [[0]]
    # No track holds the slices of two traces.
    shared = f"select s.track_id {SLICE_PROCESS} group by s.track_id having count(distinct p.upid) > 1"
    assert ui.query(shared) == []


def tracks(ui):
    """Per trace file name, the names of the tracks its slices and counters are on."""
    rows = ui.query(f"select distinct p.name, coalesce(th.name, pt.name) {SLICE_PROCESS}")
    rows += ui.query("""select distinct p.name, t.name from counter c
                        join process_counter_track t on c.track_id = t.id join process p using (upid)""")
    result = {}
    for process, track in rows:
        result.setdefault(process.split("/")[-1], set()).add(track)
    return result


def test_the_expected_tracks_per_trace(ui):
    found = tracks(ui)
    hinge = found["open-close.jsonl"]
    assert {"hinge status", "cues", "hinge angle degrees", "latency"} <= hinge
    assert "frame gaps" not in hinge and not any(track.startswith("frames") for track in hinge)
    camera = found["dropped-frames.jsonl"]
    assert {"cues", "frame gaps", "frames video", "latency"} <= camera
    assert "hinge status" not in camera and "hinge angle degrees" not in camera
    # every-kind's masks are on the stream "video", which dropped-frames also has: a camera cue
    # goes to the trace of its stream's latest frame.
    assert any(track.startswith("preview mask") for tracks in found.values() for track in tracks)


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    export = tmp_path_factory.mktemp("perfetto") / "open-close.json"
    with export.open("wb") as output:
        subprocess.run([CREASE, "replay", "-f", "chrome", str(ROOT / "Traces" / "open-close.jsonl")],
                       stdout=output, check=True)
    with perfetto_ui.opened(export) as opened:
        yield opened


def test_status_slices_follow_the_commits(single):
    rows = single.query("""select s.name, s.ts, s.dur from slice s join thread_track tt on s.track_id = tt.id
                           join thread using (utid) where thread.name = 'hinge status' order by s.ts""")
    assert [name for name, _, _ in rows] == ["closed", "partiallyOpen", "fullyOpen", "partiallyOpen", "closed"]
    # Each slice ends where the next begins: the status is one slice at a time, never a staircase.
    for (_, ts, dur), (_, next_ts, _) in zip(rows, rows[1:]):
        assert dur > 0 and ts + dur == next_ts
    assert rows[-1][2] > 0


def test_latency_slices_on_one_track_per_process(single):
    """Every cue that waited is a `latency` slice on the process's one `latency` track, its
    kind an argument: slices named by kind made a track per kind, read as the cues."""
    tracks = single.query("""select distinct t.name from slice s join process_track t on s.track_id = t.id""")
    assert tracks == [["latency"]]
    rows = single.query("""select extract_arg(s.arg_set_id, 'args.cue'), count(*)
                           from slice s join process_track t on s.track_id = t.id group by 1 order by 1""")
    kinds = dict(rows)
    assert kinds["hinge.status"] == 4 and "regions.changed" in kinds
    assert single.query("select count(*) from slice where name != 'latency' and category = 'latency'") == [[0]]


def test_frames_as_instants_on_their_stream(ui):
    """Each frame of dropped-frames.jsonl is an instant on its stream's `frames video` track,
    with its pts; the gaps lie between frames."""
    frames = sum(1 for line in (ROOT / "Traces" / "dropped-frames.jsonl").read_text().splitlines()
                 if '"kind":"frame"' in line)
    rows = ui.query("""select p.name, th.name, count(*), min(extract_arg(s.arg_set_id, 'args.ptsNs'))
                       from slice s join thread_track tt on s.track_id = tt.id join thread th using (utid)
                       join process p on p.upid = th.upid where s.name = 'frame' group by 1, 2""")
    dropped = [row for row in rows if row[0].endswith("dropped-frames.jsonl")]
    assert [row[1:3] for row in dropped] == [["frames video", frames]]
    assert dropped[0][3] is not None
