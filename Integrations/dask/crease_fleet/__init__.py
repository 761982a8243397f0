"""Crease's fleet map and reduce on a Dask cluster.

The map runs one `crease replay --summary-json -` per trace on the workers, each writing its
trace's summary into the output directory; the reduce is a tree of `crease report` merges, also
on the workers, so the client receives one report, never every summary. The result is the same
summaries, report.json and report.txt that `crease batch` writes for the same traces, byte for
byte: `crease report` merges associatively and in a canonical order.

The workers need nothing but `crease` (on their PATH, or `--crease PATH`) and a filesystem they
share with each other for the traces and the output directory: the driver uploads this package
to them (`Client.upload_file`), so it need not be installed there. A worker that dies
mid-run loses no trace: Dask runs its tasks again elsewhere, and each trace's summary is written
whole, by whichever run finishes, under a name of its own.

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
import zipfile

# Exit statuses of crease (SPEC 6), and how bad each is: the driver exits with the worst, as
# `crease batch` does.
SEVERITY = {0: 0, 65: 1, 66: 2, 78: 3, 74: 4, 64: 5, 1: 6}
# How many reports one merge task takes: a tree of merges, each small, none on the client.
FAN_IN = 16


class ReplayFailed(Exception):
    """A trace's replay ended without a summary: crease's exit status and its last message."""

    def __str__(self) -> str:
        return self.message

    def __init__(self, status: int, message: str):
        super().__init__(status, message)  # both in args, so the exception pickles back whole
        self.status = status
        self.message = message


@dataclasses.dataclass(frozen=True)
class ReplayOptions:
    """The replay options `crease batch` takes, passed to every worker's replay: a configuration
    file (a path every worker can open) and the cues' format."""

    config: str | None = None
    cue_format: str = "jsonl"

    def arguments(self) -> list[str]:
        return (["-c", self.config] if self.config else []) + ["-f", self.cue_format]


# Each cue format's file extension, as `crease batch` names its cue files.
CUE_EXTENSIONS = {"jsonl": "cues.jsonl", "text": "cues.txt", "chrome": "cues.json"}


def replay(
    trace: str, crease: str = "crease", summary_path: str | None = None, cues_path: str | None = None,
    options: ReplayOptions = ReplayOptions(),
) -> tuple[int, str]:
    """Replays one trace on a worker; returns crease's exit status and the summary JSON, which
    it also writes to `summary_path` (replacing it whole) when given, with the cues in
    `cues_path` when given.

    Bad lines (exit 65) still give a summary. Without one, raises ReplayFailed, so that Dask
    retries the task.
    """
    executable = shutil.which(crease) or crease
    cues_partial = f"{cues_path}.{os.getpid()}.partial" if cues_path else None
    # One thread per replay: the workers already run one replay per core.
    run = subprocess.run(
        [executable, "replay", trace, "--threads", "1", *options.arguments(), "-o", cues_partial or os.devnull,
         "--summary-json", "-"],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.stdout.strip():
        # Each file written beside, then renamed: a run killed halfway leaves no partial file, and
        # a second run of the task (after a lost worker) replaces the first with the same bytes.
        if cues_partial is not None:
            os.replace(cues_partial, cues_path)
        if summary_path is not None:
            partial = f"{summary_path}.{os.getpid()}.partial"
            with open(partial, "w", encoding="utf-8") as file:
                file.write(run.stdout)
            os.replace(partial, summary_path)
        return run.returncode, run.stdout
    if cues_partial is not None and os.path.exists(cues_partial):
        os.remove(cues_partial)
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    message = lines[-1] if lines else f"crease exited with status {run.returncode}"
    raise ReplayFailed(run.returncode, message.removeprefix("crease: "))


@dataclasses.dataclass
class Part:
    """Some traces' share of the reduce: each trace's exit status and error (None when it
    replayed), in order, and their report as JSON, as `crease report` reads it."""

    outcomes: list[tuple[int, str | None]]
    report: str
    text: str | None = None


def leaf(trace: str, crease: str, summary_path: str, cues_path: str, options: ReplayOptions) -> Part:
    """One trace's part: its summary, or a report of one failed row."""
    try:
        status, summary = replay(trace, crease, summary_path, cues_path, options)
        return Part([(status, None)], summary)
    except ReplayFailed as error:
        return Part([(error.status, error.message)], json.dumps(failed_report(trace, error.message)))


def merge(parts: list[Part], crease: str, render_text: bool = False) -> Part:
    """The parts merged by `crease report` on a worker; the root renders the text report too."""
    executable = shutil.which(crease) or crease
    with tempfile.TemporaryDirectory() as scratch:
        inputs = []
        for index, part in enumerate(parts):
            path = os.path.join(scratch, f"{index}.json")
            with open(path, "w", encoding="utf-8") as file:
                file.write(part.report)
            inputs.append(path)

        def report(form: str) -> str:
            return subprocess.run(
                [executable, "report", "-f", form, *inputs], capture_output=True, text=True, check=True).stdout

        return Part(
            [outcome for part in parts for outcome in part.outcomes], report("json"),
            report("text") if render_text else None)


def crease_version(crease: str = "crease") -> str:
    """`crease --version` where this runs (a worker, through `client.run`), or why it cannot run."""
    executable = shutil.which(crease)
    if executable is None:
        return f"error: '{crease}' is not a command here (PATH={os.environ.get('PATH', '')})"
    run = subprocess.run([executable, "--version"], capture_output=True, text=True, check=False)
    return run.stdout.strip() if run.returncode == 0 else f"error: '{executable} --version' failed"


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


def ship_code(client) -> None:
    """Sends this package to the workers, and to any that join later (`Client.upload_file`, a
    zip they put on their `sys.path`): the workers need not have it installed."""
    package = pathlib.Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as scratch:
        archive = pathlib.Path(scratch) / "crease_fleet.zip"
        with zipfile.ZipFile(archive, "w") as zipped:
            for source in sorted(package.glob("*.py")):
                zipped.write(source, f"crease_fleet/{source.name}")
        client.upload_file(str(archive), load=True)


def check_workers(client, crease: str) -> str | None:
    """Whether every worker can run `crease` and has the same version as the others (and as
    this machine's, when it has one): None, or a message naming each worker that cannot."""
    versions = client.run(crease_version, crease)
    if not versions:
        return "no worker is connected to the scheduler"
    broken = {worker: answer for worker, answer in versions.items() if answer.startswith("error: ")}
    if broken:
        return "; ".join(f"worker {worker}: {answer.removeprefix('error: ')}" for worker, answer in sorted(broken.items()))
    local = crease_version(crease)
    expected = local if not local.startswith("error: ") else next(iter(sorted(versions.values())))
    different = {worker: version for worker, version in versions.items() if version != expected}
    if different:
        return "; ".join(
            f"worker {worker} runs crease {version}, not {expected}" for worker, version in sorted(different.items()))
    return None


def run_fleet(
    client, traces: list[str], directory: str, crease: str = "crease", options: ReplayOptions = ReplayOptions(),
) -> list[Outcome]:
    """Maps the traces over `client`'s workers, each writing its cues and summary into
    `directory` (which they must share) as `crease batch` names them, reduces them there by a tree
    of merges, and writes the report. Returns what became of each trace, in order."""
    from distributed import wait

    os.makedirs(directory, exist_ok=True)
    directory = os.path.abspath(directory)
    names = output_names(traces)
    level = [
        client.submit(
            leaf, trace, crease, os.path.join(directory, f"{name}.summary.json"),
            os.path.join(directory, f"{name}.{CUE_EXTENSIONS[options.cue_format]}"), options,
            key=f"crease-replay-{index}", retries=1, pure=False)
        for index, (trace, name) in enumerate(zip(traces, names))
    ]
    depth = 0
    # Merges of FAN_IN parts at a time, level by level, until one is left: the root renders the
    # text too. A single trace still goes through one merge, as `crease report` of its summary.
    while True:
        groups = [level[start:start + FAN_IN] for start in range(0, len(level), FAN_IN)]
        root = len(groups) == 1
        level = [
            client.submit(merge, group, crease, root, key=f"crease-merge-{depth}-{index}", retries=1, pure=False)
            for index, group in enumerate(groups)
        ]
        depth += 1
        if root:
            break
    wait(level)
    root = level[0].result()
    with open(os.path.join(directory, "report.json"), "w", encoding="utf-8") as file:
        file.write(root.report)
    with open(os.path.join(directory, "report.txt"), "w", encoding="utf-8") as file:
        file.write(root.text or "")
    return [Outcome(trace, status, error=error) for trace, (status, error) in zip(traces, root.outcomes)]


def worst_status(outcomes: list[Outcome]) -> int:
    """The exit status of the worst outcome."""
    return max((o.status for o in outcomes), key=lambda status: SEVERITY.get(status, 6), default=0)
