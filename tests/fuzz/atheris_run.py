"""Run one atheris fuzz target (see `atheris_targets.py` and README.md).

    python -m tests.fuzz.atheris_run TARGET [--runs N | --seconds S] [--corpus DIR]
    python -m tests.fuzz.atheris_run TARGET --reproduce crash-0123abcd...

Targets: decoder, trajectory, referee, table. The `protocol` and `server` packages (and
`msgpack`, see INSTRUMENTED) are instrumented as they are imported, so libFuzzer sees
which branches an input reached.

Nothing is written into the repository: new interesting inputs go to `--corpus` (default:
a new temporary directory), a crashing input to `--artifacts` (default: beside it), and
both paths are printed first. The kept corpus (`tests/fuzz/corpus/`) and the target's
own seeds are read, never written. The exit status is 0 when the runs end without a
finding, and libFuzzer's (non-zero) when an input crashed: its path and bytes are printed.

Any argument starting with `-` that is not one of ours goes to libFuzzer unchanged
(`-jobs=2`, `-only_ascii=1`, …).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Final

CORPUS: Final = Path(__file__).resolve().parent / "corpus"
TARGET_NAMES: Final = ("decoder", "trajectory", "referee", "table")
#: Packages instrumented for coverage (every module of them the targets import). `msgpack`
#: for its pure-Python reader, which the decoder target runs as a guide (the decoder is
#: compiled, so its own branches are invisible).
INSTRUMENTED: Final = ["protocol", "server", "msgpack"]
#: A single input taking longer than this is a finding (libFuzzer's `-timeout`, seconds).
INPUT_TIMEOUT: Final = 30


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tests.fuzz.atheris_run",
        description="Run one coverage-guided fuzz target with atheris (libFuzzer).",
    )
    parser.add_argument("target", choices=TARGET_NAMES)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--runs", type=int, help="stop after this many inputs")
    budget.add_argument("--seconds", type=int, help="stop after this many seconds")
    parser.add_argument(
        "--corpus", type=Path, help="where new interesting inputs go (default: a temporary dir)"
    )
    parser.add_argument(
        "--artifacts", type=Path, help="where a crashing input is written (default: temporary)"
    )
    parser.add_argument("--seed", type=int, help="libFuzzer's random seed (default: random)")
    parser.add_argument(
        "--reproduce",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="run the target once on each file, without the fuzzer, and print any traceback",
    )
    return parser


def _write_inputs(folder: Path, inputs: dict[str, bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in inputs.items():
        (folder / name).write_bytes(data)


def _dictionary_line(word: bytes) -> str:
    return '"' + "".join(f"\\x{byte:02x}" for byte in word) + '"'


def reproduce(target: str, files: list[Path]) -> int:
    """Each file through the target, uninstrumented: 0 when none of them fails."""
    from tests.fuzz.atheris_targets import TARGETS

    failed = 0
    for path in files:
        try:
            TARGETS[target].test_one_input(path.read_bytes())
        except Exception:
            failed += 1
            print(f"FAILED {path}", flush=True)
            traceback.print_exc()
        else:
            print(f"ok     {path}", flush=True)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    args, libfuzzer_flags = _parser().parse_known_args(argv)
    unknown = [flag for flag in libfuzzer_flags if not flag.startswith("-")]
    if unknown:
        _parser().error(f"unrecognised arguments: {' '.join(unknown)}")
    if args.reproduce:
        return reproduce(args.target, args.reproduce)

    try:
        import atheris
    except ImportError as exc:
        print(
            f"atheris cannot be imported ({exc}); its wheels exist for CPython 3.11-3.13 on "
            "Linux x86_64, where `pip install -e .[dev]` installs it",
            file=sys.stderr,
        )
        return 2

    # Instrument before anything imports the code under test, or it runs uninstrumented.
    with atheris.instrument_imports(include=INSTRUMENTED):
        from tests.fuzz.atheris_targets import TARGETS
    assert set(TARGETS) == set(TARGET_NAMES)
    target = TARGETS[args.target]

    work = Path(tempfile.mkdtemp(prefix=f"ninepool-atheris-{args.target}-"))
    corpus: Path = args.corpus or work / "corpus"
    artifacts: Path = args.artifacts or work / "crashes"
    corpus.mkdir(parents=True, exist_ok=True)
    artifacts.mkdir(parents=True, exist_ok=True)
    seeds = work / "seeds"
    _write_inputs(seeds, target.seeds())
    flags = [
        f"-max_len={target.max_len}",
        f"-artifact_prefix={artifacts}/",
        f"-timeout={INPUT_TIMEOUT}",
        "-print_final_stats=1",
    ]
    words = target.dictionary()
    if words:
        dictionary = work / "words.dict"
        dictionary.write_text("".join(_dictionary_line(w) + "\n" for w in words))
        flags.append(f"-dict={dictionary}")
    if args.runs is not None:
        flags.append(f"-runs={args.runs}")
    if args.seconds is not None:
        flags.append(f"-max_total_time={args.seconds}")
    if args.seed is not None:
        flags.append(f"-seed={args.seed}")
    print(
        f"atheris target {args.target} ({target.about}): new inputs -> {corpus}, "
        f"crashes -> {artifacts}/, seeds from {CORPUS} and {seeds}",
        flush=True,
    )
    argv_for_libfuzzer = [sys.argv[0], *flags, *libfuzzer_flags, str(corpus), str(seeds)]
    argv_for_libfuzzer.append(str(CORPUS))
    atheris.Setup(argv_for_libfuzzer, target.test_one_input)
    atheris.Fuzz()  # exits the process: 0 when the runs end, non-zero on a finding
    return 0


if __name__ == "__main__":
    sys.exit(main())
