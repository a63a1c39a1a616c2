"""Write the bundled sample checkpoints: ``python -m tools.make_samples sample_checkpoints``.

Deterministic: every run writes the same bytes.  The samples come from
``tools.generate.sample_files``; edit the generator, not the files.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tools.generate import sample_files


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        print("usage: python -m tools.make_samples [OUTPUT_DIR]", file=sys.stderr)
        return 2
    out = Path(argv[0] if argv else "sample_checkpoints")
    out.mkdir(parents=True, exist_ok=True)
    files = sample_files()
    changed = 0
    for name, data in files.items():
        path = out / name
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            changed += 1
    print(
        f"{len(files)} sample files in {out} ({changed} written, {len(files) - changed} unchanged)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
