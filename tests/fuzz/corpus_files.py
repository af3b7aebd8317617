"""The kept fuzz corpus: small frames that once were interesting, replayed on every run.

A file is one frame: `.bin` is sent as a binary frame, `.txt` as a text frame (UTF-8).
Its name starts with the outcome the decoder must give, then `--` and what it is:
`bad_frame--truncated_map.bin`, `bad_message--uint64_id.bin`, `valid--shot_at_max_speed.bin`,
`too_big--chat_4097_bytes.bin`. Add a frame by writing such a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"
OUTCOMES = ("bad_frame", "bad_message", "valid", "too_big")


@dataclass(frozen=True)
class CorpusFrame:
    path: Path
    data: bytes | str
    expect: str


def corpus_frames() -> list[CorpusFrame]:
    out = []
    for path in sorted(CORPUS.iterdir()):
        expect = path.name.split("--", 1)[0]
        if expect not in OUTCOMES or path.suffix not in (".bin", ".txt"):
            raise ValueError(f"corpus file with an unknown outcome or type: {path.name}")
        raw = path.read_bytes()
        data: bytes | str = raw.decode() if path.suffix == ".txt" else raw
        out.append(CorpusFrame(path, data, expect))
    return out
