#!/usr/bin/env python3
"""Checks that every Swift file builds on Darwin as on Linux, as far as that can be told here.

Nothing on this project's Linux machines can build for macOS or iOS, so the portable surface is
kept small and checked by reading the sources (SPEC 8): a Linux-only module or call must sit in a
branch that only Linux compiles (`#if canImport(Glibc)` or `#if os(Linux)`), with the Darwin
equivalent in its other branch; the core and the recording library import no Foundation and no
C library at all. Prints each violation as FILE:LINE: message and exits 1 if there is one.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ["Sources", "Tests", "Benchmarks", "Fuzz", "Examples"]
# Calls and names that exist on Linux and not on Darwin.
LINUX_ONLY = re.compile(
    r"\b(Glibc\.\w+|epoll_\w+|pipe2|accept4|SOCK_CLOEXEC|SOCK_NONBLOCK|O_TMPFILE|prctl|"
    r"sched_getaffinity|MSG_NOSIGNAL|get_nprocs|mallinfo2?|__errno_location|program_invocation_name|"
    r"inotify_\w+|eventfd|signalfd|timerfd_\w+|clock_nanosleep|TIMER_ABSTIME|__sigaction_handler)\b|\bpthread_t\(\)"
)
LINUX_BRANCH = re.compile(r"canImport\(Glibc\)|os\(Linux\)|canImport\(Musl\)")
CORE_FORBIDDEN = re.compile(r"^\s*import\s+(Foundation|Glibc|Darwin|CJSONC)\b")
CORE_TARGETS = ("Sources/Crease/", "Sources/CreaseRecording/")


def violations(path: pathlib.Path):
    relative = path.relative_to(ROOT).as_posix()
    # The condition of each enclosing `#if` branch, innermost last.
    branches: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#if "):
            branches.append(stripped[4:])
            continue
        if stripped.startswith("#elseif "):
            branches[-1] = stripped[8:]
            continue
        if stripped == "#else":
            branches[-1] = "!(" + branches[-1] + ")"
            continue
        if stripped == "#endif":
            branches.pop()
            continue
        code = line.split("//", 1)[0]
        on_linux_only = any(LINUX_BRANCH.search(b) and not b.startswith("!") for b in branches)
        if relative.startswith(CORE_TARGETS) and CORE_FORBIDDEN.match(code):
            yield f"{relative}:{number}: the core and CreaseRecording import no Foundation or C library"
        if re.match(r"^\s*import\s+Glibc\b", code) and not on_linux_only:
            yield f"{relative}:{number}: 'import Glibc' outside '#if canImport(Glibc)'"
        match = LINUX_ONLY.search(code)
        if match and not on_linux_only:
            yield f"{relative}:{number}: '{match.group(0)}' is Linux-only; put it in a '#if canImport(Glibc)' branch"


def main() -> int:
    found = [v for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.swift"))
             if ".build" not in path.parts and ".venv" not in path.parts for v in violations(path)]
    for violation in found:
        print(violation)
    checked = sum(1 for folder in FOLDERS for p in (ROOT / folder).rglob("*.swift") if ".build" not in p.parts)
    print(f"portability: {checked} Swift files, {len(found)} problem(s)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
