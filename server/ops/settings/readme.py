"""The settings tables of server/README.md, made from the declarations.

The tables used to be written by hand and fell behind the flags; now each section's table
sits between two marker comments and is rewritten from its `Setting` records
(`python -m server.ops.settings --write`). A test compares the README with what would be
written, so a declaration changed without the README fails the suite.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from server.ops.settings import Section

#: The README holding the tables.
README = Path(__file__).resolve().parents[2] / "README.md"


def begin_marker(section: Section) -> str:
    return (
        f"<!-- settings:{section.key} begin: made by `python -m server.ops.settings --write` "
        "from server/ops/config.py; edit the declarations there -->"
    )


def end_marker(section: Section) -> str:
    return f"<!-- settings:{section.key} end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table(section: Section) -> str:
    """The section's table in markdown, one row per setting, ending with a newline."""
    rows = ["| flag | env | default | values | meaning |", "|---|---|---|---|---|"]
    for setting in section.settings:
        cells = (
            f"`{setting.flag}`",
            f"`{setting.env}`",
            setting.shown_default,
            setting.values,
            setting.help,
        )
        rows.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    return "\n".join(rows) + "\n"


def with_tables(text: str, sections: Sequence[Section]) -> str:
    """`text` with the table between each section's markers made anew (ValueError when a
    section's markers are missing: they are placed by hand, once)."""
    for section in sections:
        begin, end = begin_marker(section), end_marker(section)
        start = text.find(begin)
        stop = text.find(end, start + 1)
        if start < 0 or stop < 0:
            raise ValueError(f"no {begin!r} … {end!r} in the README")
        head = text[: start + len(begin)]
        text = head + "\n" + table(section) + text[stop:]
    return text
