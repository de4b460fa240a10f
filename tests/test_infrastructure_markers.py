"""The `services` marker skips locally and fails under CI=true (checked in a nested pytest run)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = "tests/test_infrastructure.py::test_database_is_postgresql"


def run_pytest(**env):
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "CI", "PYTEST_XDIST_WORKER", "MAATASITE_TEST_RUN"}
    }
    return subprocess.run(
        [sys.executable, "-m", "pytest", NODE, "-p", "no:cacheprovider", "-q"],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_services_tests_skip_without_services_and_say_why():
    result = run_pytest()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 skipped" in result.stdout
    assert "SKIPPED 1 test(s): needs real services: DATABASE_URL does not point at PostgreSQL" in result.stdout


def test_services_tests_fail_under_ci_without_services():
    result = run_pytest(CI="true")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 error" in result.stdout
    assert "CI=true: missing services or browsers are failures" in result.stdout
