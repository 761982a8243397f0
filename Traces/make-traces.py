#!/usr/bin/env python3
"""Writes the shaped sample traces in Traces/ whose expected cues sit beside them.
Deterministic: rerunning (from the repository root) gives the same bytes.

open-close: closed at rest, opened to flat with an eased hand movement, held, closed again.
wobble: resting near the 135/145 `flat` boundary with sensor noise, then one real crossing
below it.
fold-while-recording: the default front camera records on the outer display; the phone is
opened mid-recording and the app moves to the inner display, so the virtual front camera
switches constituents with a gap in pts and no drop reason; the direction coordinator's update
arrives after the first inner frame.
flip-around: the rear wide camera records facing away; the phone is turned around, and the
coordinator reports that it now faces the person.
dropped-frames: a 30 fps stream with ordinary drops that carry reasons.
Hinge samples come at about 60 Hz with jitter; statuses follow the angle, with an occasional
`unknown` as UIKit may report. Frames arrive 1 to 4 ms after their pts.
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


FRAME = 33_333_333


def frame(rng, index, camera, stream="video"):
    pts = index * FRAME
    return {"t": pts + rng.randint(1_000_000, 4_000_000), "kind": "frame", "stream": stream, "pts": pts, "camera": camera}


def finish(lines, end):
    header, events = lines[0], lines[1:]
    events.sort(key=lambda line: line["t"])
    return [header] + events + [{"t": end, "kind": "end"}]


def fold_while_recording():
    rng = random.Random(3)
    lines = [{"kind": "header", "format": "crease-trace", "version": 1, "streams": {"video": {"fps": 30}}}]
    lines += [
        {"t": 0, "kind": "app", "state": "foreground"},
        {"t": 0, "kind": "session", "running": True, "previewVisible": True},
        {"t": 0, "kind": "display", "display": "outer", "fullScreen": True},
        {"t": 0, "kind": "direction", "toward": ["outerFront"], "away": ["innerFront", "backWide"]},
        {"t": 0, "kind": "input", "stream": "video", "camera": "virtualFront"},
    ]
    for t, angle, status in samples(rng, 2500, lambda t: 0.5 if t < 800 else min(178, 0.5 + 0.3 * (t - 800))):
        lines.append({"t": t, "kind": "hinge", "angle": max(angle, 0.0), "status": status if angle > 3 else "closed"})
    lines += [frame(rng, i, "outerFront") for i in range(1, 30)]
    lines.append({"t": 1_000_000_000, "kind": "display", "display": "inner", "fullScreen": True})
    lines += [frame(rng, i, "innerFront") for i in range(38, 75)]
    lines.append({"t": 38 * FRAME + 20_000_000, "kind": "direction", "toward": ["innerFront"], "away": ["outerFront", "backWide"]})
    return finish(lines, 2_600_000_000)


def flip_around():
    rng = random.Random(4)
    lines = [{"kind": "header", "format": "crease-trace", "version": 1, "streams": {"video": {"fps": 30}}}]
    lines += [
        {"t": 0, "kind": "direction", "toward": ["outerFront"], "away": ["innerFront", "backWide"]},
        {"t": 0, "kind": "input", "stream": "video", "camera": "backWide"},
    ]
    lines += [frame(rng, i, "backWide") for i in range(1, 61)]
    lines.append({"t": 1_250_000_000, "kind": "mark", "label": "phone turned around"})
    lines.append({"t": 1_400_000_000, "kind": "direction", "toward": ["backWide"], "away": ["outerFront", "innerFront"]})
    return finish(lines, 2_100_000_000)


def dropped_frames():
    rng = random.Random(5)
    lines = [{"kind": "header", "format": "crease-trace", "version": 1, "streams": {"video": {"fps": 30}}}]
    lines.append({"t": 0, "kind": "input", "stream": "video", "camera": "backWide"})
    dropped = {20: "frameWasLate", 45: "outOfBuffers", 46: "outOfBuffers", 47: "frameWasLate", 70: "discontinuity"}
    for i in range(1, 91):
        if i in dropped:
            lines.append({"t": i * FRAME + 5_000_000, "kind": "drop", "stream": "video", "pts": i * FRAME, "reason": dropped[i]})
        else:
            lines.append(frame(rng, i, "backWide"))
    return finish(lines, 3_100_000_000)


if __name__ == "__main__":
    write("Traces/open-close.jsonl", open_close())
    write("Traces/wobble.jsonl", wobble())
    write("Traces/fold-while-recording.jsonl", fold_while_recording())
    write("Traces/flip-around.jsonl", flip_around())
    write("Traces/dropped-frames.jsonl", dropped_frames())
