"""The suite's scratch files live under one directory of its own in the
temp dir, removed when the session ends (scripts/ctest-clean.sh fails a
suite that leaves files behind; pytest would keep its last three)."""
import os
import shutil
import tempfile


def pytest_configure(config):
    if not config.option.basetemp:
        config.option.basetemp = os.path.join(tempfile.gettempdir(), f"magic-pytest-{os.getpid()}")


def pytest_unconfigure(config):
    shutil.rmtree(config.option.basetemp, ignore_errors=True)
