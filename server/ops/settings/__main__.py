"""`python -m server.ops.settings`: the settings tables of server/README.md.

`--markdown` prints them, `--write` puts them between their markers in the README, and
`--check` exits 1 when the README is out of step with the declarations (what the test
suite asserts too).
"""

from __future__ import annotations

import argparse
import sys

from server.ops.config import SECTIONS
from server.ops.settings.readme import README, begin_marker, end_marker, table, with_tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.ops.settings", description=__doc__)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--markdown", action="store_true", help="print the tables")
    mode.add_argument("--write", action="store_true", help=f"rewrite the tables in {README}")
    mode.add_argument("--check", action="store_true", help="exit 1 if the README is stale")
    args = parser.parse_args(argv)
    if args.markdown:
        for section in SECTIONS:
            print(f"{begin_marker(section)}\n{table(section)}{end_marker(section)}\n")
        return 0
    current = README.read_text(encoding="utf-8")
    wanted = with_tables(current, SECTIONS)
    if args.check:
        if wanted != current:
            print(f"{README} is out of step with server/ops/config.py: run {parser.prog} --write")
            return 1
        return 0
    if wanted != current:
        README.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
