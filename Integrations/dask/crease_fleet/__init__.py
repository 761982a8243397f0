"""Crease's fleet map and reduce on a Dask cluster.

The map runs one `crease replay --summary-json -` per trace on the workers (crease on each
worker's PATH, the traces on a filesystem the workers share); the reduce is `crease report`
over the gathered summaries, run here. The result is the same report.json and report.txt that
`crease batch` writes for the same traces, byte for byte.

A trace whose replay fails (it cannot be opened, or crease fails) is retried once by Dask, then
reported as failed in the report, never lost.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

# Exit statuses of crease (SPEC 6), and how bad each is: the driver exits with the worst, as
# `crease batch` does.
SEVERITY = {0: 0, 65: 1, 66: 2, 78: 3, 74: 4, 64: 5, 1: 6}


class ReplayFailed(Exception):
    """A trace's replay ended without a summary: crease's exit status and its last message."""

    def __str__(self) -> str:
        return self.message

    def __init__(self, status: int, message: str):
        super().__init__(status, message)  # both in args, so the exception pickles back whole
        self.status = status
        self.message = message


def replay(trace: str, crease: str = "crease") -> tuple[int, str]:
    """Replays one trace on a worker; returns crease's exit status and the summary JSON.

    Bad lines (exit 65) still give a summary. Without one, raises ReplayFailed, so that Dask
    retries the task.
    """
    executable = shutil.which(crease) or crease
    # One thread per replay: the workers already run one replay per core.
    run = subprocess.run(
        [executable, "replay", trace, "--threads", "1", "-o", os.devnull, "--summary-json", "-"],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.stdout.strip():
        return run.returncode, run.stdout
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    message = lines[-1] if lines else f"crease exited with status {run.returncode}"
    raise ReplayFailed(run.returncode, message.removeprefix("crease: "))


def find_crease(given: str | None) -> str | None:
    """The crease to run: `given` (--crease), else $CREASE, else crease on PATH, else the one
    built in this checkout (`make demo` builds .build/release/crease); an absolute path, so
    local workers find it too, or None."""
    checkout = pathlib.Path(__file__).resolve().parents[3] / ".build"
    candidates = [given] if given else [
        os.environ.get("CREASE"), shutil.which("crease"), checkout / "release" / "crease", checkout / "debug" / "crease",
    ]
    for candidate in candidates:
        if not candidate:
            continue
        found = shutil.which(str(candidate))
        if found:
            return os.path.abspath(found)
    return None


@dataclasses.dataclass
class Outcome:
    """What became of one trace."""

    trace: str
    status: int
    summary: str | None = None
    error: str | None = None


def failed_report(trace: str, error: str) -> dict:
    """A report holding one failed trace (Schemas/report.schema.json), for `crease report`."""
    zeros = {"lines": 0, "processed": 0, "rejected": 0, "late": 0, "blank": 0}
    gaps = {"cameraSwitch": 0, "reportedDrop": 0, "unexplained": 0}
    row = {
        "name": trace, "bytes": None, "digest": None, "error": error, **zeros, "end": "", "overBound": 0,
        "gaps": gaps, "stalls": 0, "staleFrames": 0, "closest": None,
    }
    # No summary, so no provenance: it merges with reports of any configuration.
    return {
        "version": 2, "crease": None, "configuration": None, "traceCount": 1, "failed": 1, "total": zeros,
        "cues": [], "violations": [], "gaps": gaps, "stalls": 0, "staleFrames": 0, "closestToBound": [],
        "traces": [row],
    }


def output_names(traces: list[str]) -> list[str]:
    """Per trace, the file stem `crease batch` uses: its place, zero-padded, and its name."""
    width = len(str(len(traces)))
    names = []
    for index, trace in enumerate(traces, start=1):
        file = trace.rsplit("/", 1)[-1]
        stem = file.rsplit(".", 1)[0] if "." in file else file
        names.append(f"{index:0{width}d}-{stem or file}")
    return names


def run_fleet(client, traces: list[str], directory: str, crease: str = "crease") -> list[Outcome]:
    """Maps the traces over `client`'s workers, then writes each summary and the report to
    `directory`. Returns what became of each trace, in order."""
    from distributed import wait

    futures = [
        client.submit(replay, trace, crease, key=f"crease-replay-{index}", retries=1, pure=False)
        for index, trace in enumerate(traces)
    ]
    wait(futures)
    outcomes = []
    for trace, future in zip(traces, futures):
        if future.status == "finished":
            status, summary = future.result()
            outcomes.append(Outcome(trace, status, summary=summary))
        else:
            error = future.exception()
            status = error.status if isinstance(error, ReplayFailed) else 1
            message = error.message if isinstance(error, ReplayFailed) else str(error)
            outcomes.append(Outcome(trace, status, error=message))
    write_report(outcomes, directory, crease)
    return outcomes


def write_report(outcomes: list[Outcome], directory: str, crease: str = "crease") -> None:
    """The reduce step, here: the summaries into `directory`, then `crease report` on them."""
    os.makedirs(directory, exist_ok=True)
    inputs = []
    with tempfile.TemporaryDirectory() as scratch:
        for name, outcome in zip(output_names([o.trace for o in outcomes]), outcomes):
            if outcome.summary is not None:
                path = os.path.join(directory, f"{name}.summary.json")
                with open(path, "w", encoding="utf-8") as file:
                    file.write(outcome.summary)
            else:
                path = os.path.join(scratch, f"{name}.failed.json")
                with open(path, "w", encoding="utf-8") as file:
                    json.dump(failed_report(outcome.trace, outcome.error or "failed"), file)
            inputs.append(path)
        executable = shutil.which(crease) or crease
        for form, file in (("json", "report.json"), ("text", "report.txt")):
            subprocess.run(
                [executable, "report", "-f", form, "-o", os.path.join(directory, file), *inputs], check=True
            )


def worst_status(outcomes: list[Outcome]) -> int:
    """The exit status of the worst outcome."""
    return max((o.status for o in outcomes), key=lambda status: SEVERITY.get(status, 6), default=0)
