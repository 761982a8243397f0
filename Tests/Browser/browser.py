"""Debian's headless Chromium, driven by selenium through chromium-driver, for the tests that
look at what a person would see: the Perfetto UI and the HTML reports."""
import pathlib
import shutil

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def available() -> bool:
    """Whether this machine has the browser and its driver."""
    return pathlib.Path(CHROMIUM).exists() and pathlib.Path(CHROMEDRIVER).exists()


def chromium(width: int = 1200, height: int = 1600):
    """A headless Chromium whose console messages `get_log("browser")` returns."""
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.binary_location = CHROMIUM
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
