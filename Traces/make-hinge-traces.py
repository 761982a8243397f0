#!/usr/bin/env python3
"""Writes Traces/open-close.jsonl and Traces/wobble.jsonl, the hand-shaped hinge traces whose
expected cues sit beside them. Deterministic: rerunning gives the same bytes.

open-close: closed at rest, opened to flat with an eased hand movement, held, closed again.
wobble: resting near the 135/145 `flat` boundary with sensor noise, then one real crossing
below it.
Hinge samples come at about 60 Hz with jitter; statuses follow the angle, with an occasional
`unknown` as UIKit may report.
"""
import json
import math
import random


def status_for(angle):
    if angle < 3:
        return "closed"
    if angle > 170:
        return "fullyOpen"
    return "partiallyOpen"


def write(path, lines):
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")


def ease(x):
    return 0.5 - 0.5 * math.cos(math.pi * min(max(x, 0), 1))


def samples(rng, duration_ms, angle_at):
    t = 0.0
    while t <= duration_ms:
        angle = round(angle_at(t) + rng.gauss(0, 0.3), 2)
        status = "unknown" if rng.random() < 0.01 else status_for(angle)
        yield int(t * 1_000_000), angle, status
        t += 1000 / 60 + rng.uniform(-4, 4)


def open_close():
    rng = random.Random(1)

    def angle_at(t):
        if t < 500:
            return 0.5
        if t < 1300:
            return 0.5 + 177.5 * ease((t - 500) / 800)
        if t < 2300:
            return 178
        if t < 3000:
            return 178 - 177.5 * ease((t - 2300) / 700)
        return 0.5

    lines = [{"kind": "header", "format": "crease-trace", "version": 1, "device": "iPhone Duo", "os": "27.1"}]
    for t, angle, status in samples(rng, 3600, angle_at):
        lines.append({"t": t, "kind": "hinge", "angle": max(angle, 0.0), "status": status})
    lines.insert(32, {"t": 500_000_000, "kind": "mark", "label": "hand starts opening"})
    lines.sort(key=lambda line: line.get("t", -1))
    lines.append({"t": 3_700_000_000, "kind": "end"})
    return lines


def wobble():
    rng = random.Random(2)

    def angle_at(t):
        if t < 3000:
            return 140 + 3 * math.sin(t / 700)
        return 140 - 20 * ease((t - 3000) / 400)

    lines = [{"kind": "header", "format": "crease-trace", "version": 1}]
    for t, angle, status in samples(rng, 3800, angle_at):
        lines.append({"t": t, "kind": "hinge", "angle": angle, "status": status})
    lines.append({"t": 3_900_000_000, "kind": "end"})
    return lines


if __name__ == "__main__":
    write("Traces/open-close.jsonl", open_close())
    write("Traces/wobble.jsonl", wobble())
