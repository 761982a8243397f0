"""The Dask driver against `crease batch`: the same report, byte for byte, and no trace lost."""

import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
DRIVER = HERE.parent
REPOSITORY = DRIVER.parent.parent
TRACES = sorted(
    str(path)
    for path in (REPOSITORY / "Traces").glob("*.jsonl")
    if not path.name.endswith(".cues.jsonl")
)


@pytest.fixture(scope="module")
def crease_path():
    """The crease the tests run, on PATH for the workers: CREASE, or the debug build."""
    executable = pathlib.Path(os.environ.get("CREASE", REPOSITORY / ".build/debug/crease"))
    assert executable.exists(), f"build crease first: {executable}"
    return executable


def run_driver(crease_path, directory, traces, workers=2, options=()):
    environment = dict(os.environ, PATH=f"{crease_path.parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(
        [sys.executable, "-m", "crease_fleet", "--local", str(workers), "-d", str(directory), *options, *traces],
        cwd=DRIVER, env=environment, capture_output=True, text=True, timeout=600,
    )


def run_batch(crease_path, directory, traces, options=()):
    return subprocess.run(
        [str(crease_path), "batch", "-d", str(directory), *options, *traces], capture_output=True, text=True,
        timeout=600,
    )


def test_batch_options_pass_through_the_driver(crease_path, tmp_path):
    """-c and -f reach every replay: the same cue files, summaries and report as batch's."""
    config = tmp_path / "slow-debounce.json"
    config.write_text('{"hinge": {"statusDebounceMs": 80}}\n')
    options = ("-c", str(config), "-f", "text")
    traces = [str(REPOSITORY / "Traces" / name) for name in ("open-close.jsonl", "wobble.jsonl")]
    batch = run_batch(crease_path, tmp_path / "batch", traces, options)
    dask = run_driver(crease_path, tmp_path / "dask", traces, options=options)
    assert dask.returncode == batch.returncode == 0, dask.stderr
    files = sorted(path.name for path in (tmp_path / "batch").iterdir())
    assert files == sorted(path.name for path in (tmp_path / "dask").iterdir())
    assert "1-open-close.cues.txt" in files
    for name in files:
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "batch" / name).read_bytes(), name
    # The configuration is the one given, not the defaults.
    assert '"statusDebounceMs":80' in (tmp_path / "dask" / "report.json").read_text().replace(" ", "")


def test_local_cluster_report_equals_batch(crease_path, tmp_path):
    batch = run_batch(crease_path, tmp_path / "batch", TRACES)
    dask = run_driver(crease_path, tmp_path / "dask", TRACES)
    assert dask.returncode == batch.returncode == 65, dask.stderr  # bad-lines.jsonl has bad lines
    for name in ("report.json", "report.txt"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "batch" / name).read_bytes(), name
    for summary in (tmp_path / "batch").glob("*.summary.json"):
        assert (tmp_path / "dask" / summary.name).read_bytes() == summary.read_bytes(), summary.name


def test_a_failing_trace_is_retried_then_reported(crease_path, tmp_path):
    traces = [TRACES[0], "/nonexistent/missing.jsonl", TRACES[-1]]
    batch = run_batch(crease_path, tmp_path / "batch", traces)
    dask = run_driver(crease_path, tmp_path / "dask", traces)
    assert dask.returncode == batch.returncode == 66
    assert "missing.jsonl" in dask.stderr
    assert (tmp_path / "dask" / "report.json").read_bytes() == (tmp_path / "batch" / "report.json").read_bytes()
    assert "1 failed" in (tmp_path / "dask" / "report.txt").read_text()


def test_the_quickstart_runs_from_any_directory_with_the_checkouts_crease(crease_path, tmp_path):
    # As pasted after `make demo`: no crease on PATH, the driver run by its path from elsewhere.
    environment = {key: value for key, value in os.environ.items() if key != "CREASE"}
    environment["PATH"] = os.pathsep.join(
        entry for entry in environment["PATH"].split(os.pathsep) if not (pathlib.Path(entry) / "crease").exists())
    run = subprocess.run(
        [sys.executable, str(DRIVER / "crease-fleet"), "--local", "1", "-d", str(tmp_path / "out"),
         str(REPOSITORY / "Traces" / "open-close.jsonl"), str(tmp_path / "nosuch.jsonl")],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 66, run.stderr
    assert (tmp_path / "out" / "report.txt").exists()
    # The missing trace is named once, with the system's reason.
    assert f"crease_fleet: {tmp_path / 'nosuch.jsonl'}: No such file or directory" in run.stderr
    assert "Traceback" not in run.stderr


def test_no_crease_is_a_clear_message(tmp_path):
    run = subprocess.run(
        [sys.executable, str(DRIVER / "crease-fleet"), "--local", "1", "--crease", "/nonexistent/crease",
         "-d", str(tmp_path / "out"), TRACES[0]],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 69
    assert "'/nonexistent/crease' is not a command" in run.stderr and "--crease PATH" in run.stderr
    assert "Traceback" not in run.stderr
