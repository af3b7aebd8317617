"""Collects the oracles' measured errors and prints them at the end of the run."""

from __future__ import annotations

from collections.abc import Callable

import pytest

FIGURES: list[str] = []


@pytest.fixture
def figure() -> Callable[[str], None]:
    """Record one measured figure (printed in the terminal summary)."""
    return FIGURES.append


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if FIGURES:
        terminalreporter.section("physics oracle figures")
        for line in FIGURES:
            terminalreporter.write_line(line)
