"""The driver as a cluster runs it: a scheduler and workers started on their own with the `dask`
command, on 127.0.0.1 only, in a directory where the driver's code cannot be imported. Every
process the tests start is stopped by them, within bounded time."""

import contextlib
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

HERE = pathlib.Path(__file__).resolve().parent
DRIVER = HERE.parent
REPOSITORY = DRIVER.parent.parent
TRACES = sorted(
    str(path) for path in (REPOSITORY / "Traces").glob("*.jsonl") if not path.name.endswith(".cues.jsonl"))
DASK = pathlib.Path(sys.executable).with_name("dask")
CREASE = pathlib.Path(os.environ.get("CREASE", REPOSITORY / ".build/debug/crease"))


def stop(process, timeout=10):
    """Ends `process`: SIGTERM, then SIGKILL after `timeout` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)


def wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s")
        time.sleep(0.1)


class Cluster:
    """A scheduler and workers, each its own `dask` process; `paths` gives each worker's PATH
    (None: the test's own, without crease)."""

    def __init__(self, directory, paths):
        self.directory = directory
        self.processes = []
        scheduler_file = directory / "scheduler.json"
        # The workers run elsewhere: nothing of the driver's can be imported there.
        workplace = directory / "workers"
        workplace.mkdir()
        self.scheduler = self.start(
            [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(scheduler_file)], workplace, os.environ["PATH"])
        wait_until(scheduler_file.exists, 60, "the scheduler starts")
        import json
        wait_until(lambda: json.loads(scheduler_file.read_text() or "{}").get("address"), 60, "the scheduler writes its address")
        self.address = json.loads(scheduler_file.read_text())["address"]
        self.workers = [
            self.start(
                [str(DASK), "worker", self.address, "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                 "--no-dashboard", "--name", f"worker-{index}"], workplace, path)
            for index, path in enumerate(paths)
        ]
        from distributed import Client
        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(len(paths), timeout=60)

    def start(self, command, directory, path):
        environment = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "CREASE")}
        environment["PATH"] = path
        process = subprocess.Popen(command, cwd=directory, env=environment, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        self.processes.append(process)
        return process

    def close(self):
        for process in reversed(self.processes):
            stop(process)


@contextlib.contextmanager
def cluster(directory, paths):
    started = Cluster(directory, paths)
    try:
        yield started
    finally:
        started.close()


def path_with(directory):
    return f"{directory}{os.pathsep}{os.environ['PATH']}"


def path_without_crease():
    return os.pathsep.join(
        entry for entry in os.environ["PATH"].split(os.pathsep) if not (pathlib.Path(entry) / "crease").exists())


def driver(address, directory, traces, crease="crease"):
    environment = {key: value for key, value in os.environ.items() if key != "CREASE"}
    environment["PATH"] = path_without_crease()
    return subprocess.Popen(
        [sys.executable, "-m", "crease_fleet", "--scheduler", address, "--crease", crease, "-d", str(directory),
         *traces],
        cwd=DRIVER, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def batch(directory, traces):
    return subprocess.run([str(CREASE), "batch", "-d", str(directory), *traces], capture_output=True, timeout=600)


def same_files(left, right):
    for name in ("report.json", "report.txt"):
        assert (left / name).read_bytes() == (right / name).read_bytes(), name
    summaries = sorted(path.name for path in right.glob("*.summary.json"))
    assert sorted(path.name for path in left.glob("*.summary.json")) == summaries
    for name in summaries:
        assert (left / name).read_bytes() == (right / name).read_bytes(), name


def test_workers_started_on_their_own_give_the_batch_report(tmp_path):
    with cluster(tmp_path, [path_with(CREASE.parent)] * 2) as started:
        run = driver(started.address, tmp_path / "dask", TRACES)
        _, error = run.communicate(timeout=600)
    assert run.returncode == 65, error  # bad-lines.jsonl has bad lines, as in batch
    assert "Traceback" not in error
    batch(tmp_path / "batch", TRACES)
    same_files(tmp_path / "dask", tmp_path / "batch")


def test_a_worker_killed_mid_run_changes_nothing(tmp_path):
    # A crease that takes half a second a replay, so the kill lands while tasks run.
    slow = tmp_path / "slow"
    slow.mkdir()
    wrapper = slow / "crease"
    wrapper.write_text(f'#!/bin/sh\nsleep 0.5\nexec "{CREASE}" "$@"\n')
    wrapper.chmod(0o755)
    with cluster(tmp_path, [path_with(slow)] * 2) as started:
        run = driver(started.address, tmp_path / "dask", TRACES)
        wait_until(lambda: len(list((tmp_path / "dask").glob("*.summary.json"))) >= 2, 120, "two summaries")
        started.workers[0].send_signal(signal.SIGKILL)
        _, error = run.communicate(timeout=600)
    assert run.returncode == 65, error
    batch(tmp_path / "batch", TRACES)
    same_files(tmp_path / "dask", tmp_path / "batch")
    assert not list((tmp_path / "dask").glob("*.partial")), "a killed replay left a partial summary"


def test_a_worker_without_crease_is_named(tmp_path):
    with cluster(tmp_path, [path_with(CREASE.parent), path_without_crease()]) as started:
        run = driver(started.address, tmp_path / "dask", TRACES[:2])
        _, error = run.communicate(timeout=120)
    assert run.returncode == 69, error
    assert "'crease' is not a command here" in error and "worker tcp://127.0.0.1:" in error
    assert "Traceback" not in error
    assert not (tmp_path / "dask" / "report.json").exists()
