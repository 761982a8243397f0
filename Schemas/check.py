#!/usr/bin/env python3
"""Validates Crease's files against the JSON Schemas beside this script.

Usage: check.py CREASE_EXECUTABLE

Every bundled trace line, every expected cue line, the sample configuration and scenarios, the
built-in scenarios as files, and the summaries and fleet report of real replays must pass their
schema; a few wrong documents must fail it.
Exits 1 and lists every failure otherwise. Needs python3-jsonschema (Debian) or jsonschema (PyPI).
"""

import json
import pathlib
import subprocess
import sys
import tempfile

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "Schemas"
TRACES = ROOT / "Traces"
# Lines this trace holds on purpose to be rejected; its good lines are still checked.
DELIBERATELY_BAD = {"bad-lines.jsonl"}


def validator(name):
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


class Checker:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def accepts(self, schema, document, where):
        errors = sorted(schema.iter_errors(document), key=lambda error: list(error.path))
        if errors:
            self.failures.append(f"{where}: {errors[0].message}")
        else:
            self.passed += 1

    def rejects(self, schema, document, why):
        if schema.is_valid(document):
            self.failures.append(f"accepted a wrong document ({why}): {json.dumps(document)}")
        else:
            self.passed += 1


def json_lines(path):
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.strip():
            yield number, line


def main():
    crease = sys.argv[1]
    trace_line, cue, configuration = validator("trace-line"), validator("cue"), validator("configuration")
    summary, report, scenario = validator("summary"), validator("report"), validator("scenario")
    check = Checker()

    traces = sorted(TRACES.glob("*.jsonl"))
    inputs = [path for path in traces if not path.name.endswith(".cues.jsonl")]
    for path in inputs:
        for number, line in json_lines(path):
            try:
                document = json.loads(line)
            except json.JSONDecodeError:
                continue  # only the deliberately bad trace has lines that are not JSON
            if path.name in DELIBERATELY_BAD and not trace_line.is_valid(document):
                continue
            check.accepts(trace_line, document, f"{path.name}:{number}")
    for path in traces:
        if path.name.endswith(".cues.jsonl"):
            for number, line in json_lines(path):
                check.accepts(cue, json.loads(line), f"{path.name}:{number}")

    check.accepts(configuration, json.loads((ROOT / "Examples/configuration.json").read_text()),
                  "Examples/configuration.json")

    for path in sorted((ROOT / "Examples/Scenarios").glob("*.json")):
        check.accepts(scenario, json.loads(path.read_text()), str(path.relative_to(ROOT)))
    exported = subprocess.run([crease, "scenarios", "--json"], capture_output=True, text=True, check=True)
    for document in json.loads(exported.stdout):
        check.accepts(scenario, document, f"scenarios --json: {document['name']}")

    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        for path in inputs:
            target = folder / (path.stem + ".summary.json")
            subprocess.run([crease, "replay", str(path), "-o", "/dev/null", "--summary-json", str(target)],
                           stderr=subprocess.DEVNULL, check=False)
            document = json.loads(target.read_text())
            check.accepts(summary, document, f"summary of {path.name}")
            check.accepts(configuration, document["configuration"]["file"], f"configuration in {path.name}'s summary")
        summaries = sorted(folder.glob("*.json"))
        merged = subprocess.run([crease, "report", "-f", "json", *map(str, summaries)],
                                capture_output=True, text=True, check=True)
        check.accepts(report, json.loads(merged.stdout), "report of the bundled traces")
        timed = subprocess.run([crease, "replay", str(TRACES / "open-close.jsonl"), "-o", "/dev/null", "--timing",
                                "--summary-json", "-"], capture_output=True, text=True, check=True)
        check.accepts(summary, json.loads(timed.stdout), "summary with --timing")
        # A second configuration: report --mixed keeps the two apart, each a report.
        other = folder / "other"
        other.mkdir()
        config = folder / "debounce.json"
        config.write_text('{"hinge": {"statusDebounceMs": 30}}')
        subprocess.run([crease, "replay", str(inputs[0]), "-c", str(config), "-o", "/dev/null",
                        "--summary-json", str(other / "a.json")], stderr=subprocess.DEVNULL, check=False)
        mixed = subprocess.run([crease, "report", "--mixed", "-f", "json", str(summaries[0]), str(other / "a.json")],
                               capture_output=True, text=True, check=True)
        parts = json.loads(mixed.stdout)["reports"]
        for index, part in enumerate(parts):
            check.accepts(report, part, f"report {index} of report --mixed")
        if len(parts) != 2:
            check.failures.append(f"report --mixed of two configurations gave {len(parts)} reports")

    check.rejects(trace_line, {"t": -1, "kind": "mark", "label": "x"}, "negative t")
    check.rejects(trace_line, {"t": 0, "kind": "hinge", "angle": 10, "status": "clsed"}, "unknown status")
    check.rejects(trace_line, {"t": 0, "kind": "frame"}, "frame without pts")
    check.rejects(trace_line, {"kind": "mark", "label": "x"}, "event without t")
    check.rejects(cue, {"t": 1, "since": 0, "cue": "hinge.status", "from": "closed"}, "missing field")
    check.rejects(cue, {"t": 1, "since": 0, "cue": "mark", "label": "x", "extra": 1}, "extra field")
    check.rejects(configuration, {"hinge": {"settleMS": 10}}, "misspelt key")
    check.rejects(configuration, {"camera": {"gapFactor": 1}}, "gapFactor not above 1")
    check.rejects(scenario, {"name": "x", "segments": [{"model": "wobble", "hinge": {}}]}, "model with tracks")
    check.rejects(scenario, {"name": "x", "segments": [{"hinge": {"moves": [{"rest": 1, "open": 90}]}}]},
                  "a move of two kinds")
    check.rejects(scenario, {"name": "x", "segments": [{"camera": {"camera": "frontt"}}]}, "unknown camera")
    check.rejects(summary, {"version": 2}, "summary missing its sections")
    check.rejects(report, {"version": 2, "traceCount": 3}, "report missing its sections")

    for failure in check.failures:
        print(f"schema check: {failure}", file=sys.stderr)
    print(f"schema check: {check.passed} documents as expected, {len(check.failures)} failures")
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
