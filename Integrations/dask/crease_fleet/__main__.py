"""crease_fleet: replay many traces on a Dask cluster and write the fleet report.

    Integrations/dask/crease-fleet --local 2 -d out Traces/*.jsonl       (from anywhere)
    python3 -m crease_fleet --scheduler tcp://scheduler:8786 -d /shared/out /shared/traces/*.jsonl
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from . import CUE_EXTENSIONS, ReplayOptions, check_workers, find_crease, run_fleet, ship_code, worst_status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="crease-fleet",
        description="Replay traces on a Dask cluster (one crease replay per trace on the workers), "
        "writing each trace's cues and summary into DIR, then merge the summaries with crease report into "
        "DIR/report.json and DIR/report.txt, as crease batch does on one machine.",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running scheduler, such as tcp://host:8786")
    where.add_argument("--local", metavar="N", type=int, help="start a LocalCluster of N worker processes")
    parser.add_argument(
        "-d", "--directory", metavar="DIR", required=True, help="where the cues, the summaries and the report go")
    parser.add_argument(
        "-c", "--config", metavar="FILE",
        help="a JSON configuration file for every replay, as crease batch -c (a path every worker can open)")
    parser.add_argument(
        "-f", "--format", choices=sorted(CUE_EXTENSIONS), default="jsonl",
        help="the cue files' format, as crease batch -f (default jsonl)")
    parser.add_argument(
        "--crease",
        help="the crease command on the workers (default: with --local, $CREASE, crease on PATH or this checkout's "
        "build; with --scheduler, crease on each worker's PATH)")
    parser.add_argument("traces", nargs="+", metavar="TRACE", help="trace paths every worker can open, as given")
    arguments = parser.parse_args(argv)
    if arguments.local is not None and arguments.local < 1:
        parser.error("--local needs at least 1 worker")
    # On a cluster the workers find crease on their own PATH; this machine's need not exist.
    crease = find_crease(arguments.crease) if arguments.local is not None else (arguments.crease or "crease")
    if crease is None:
        where = f"'{arguments.crease}' is not a command" if arguments.crease else "crease is not on PATH nor built here"
        print(
            f"crease_fleet: {where}. Build it with 'make demo' in the repository (or put it on PATH with "
            "'make install PREFIX=$HOME/.local'), or give its path with --crease PATH.",
            file=sys.stderr,
        )
        return 69  # EX_UNAVAILABLE

    from distributed import Client, LocalCluster

    # Paths go to the workers as given, and name the traces in the report as in `crease batch`:
    # on a real cluster give paths every worker can open (absolute, on a shared filesystem).
    traces = arguments.traces
    if arguments.local is not None:
        # A failed replay is reported once, below: the workers' own tracebacks of it are noise.
        cluster = LocalCluster(
            n_workers=arguments.local, threads_per_worker=1, processes=True, dashboard_address=None,
            silence_logs=logging.CRITICAL)
        client = Client(cluster)
    else:
        cluster = None
        client = Client(arguments.scheduler)
    try:
        ship_code(client)
        problem = check_workers(client, crease)
        if problem is not None:
            print(f"crease_fleet: {problem}. Every worker needs the same crease (make install on each, "
                  "or --crease PATH).", file=sys.stderr)
            return 69  # EX_UNAVAILABLE
        options = ReplayOptions(config=arguments.config, cue_format=arguments.format)
        outcomes = run_fleet(client, traces, arguments.directory, crease, options)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    failed = [o for o in outcomes if o.error is not None]
    for outcome in failed:
        # crease's own message names the file already ("T: No such file or directory").
        named = outcome.error.startswith(f"{outcome.trace}: ")
        print(f"crease_fleet: {outcome.error if named else f'{outcome.trace}: {outcome.error}'}", file=sys.stderr)
    print(
        f"crease_fleet: {len(outcomes)} trace(s) replayed, {len(failed)} failed; "
        f"report in {os.path.join(arguments.directory, 'report.txt')}",
        file=sys.stderr,
    )
    return worst_status(outcomes)


if __name__ == "__main__":
    sys.exit(main())
