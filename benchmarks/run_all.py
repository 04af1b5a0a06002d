"""Run every ``benchmarks/bench_*.py`` in turn (each prints its table via ``_bench`` and exits non-zero when it
misses a target), then say which missed; exit non-zero if any did."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    """``run_all.py [NAME ...]`` runs the benchmarks whose file name contains one of the NAMEs (all by default)."""
    wanted = sys.argv[1:] if argv is None else argv
    scripts = [s for s in sorted(HERE.glob("bench_*.py")) if not wanted or any(w in s.name for w in wanted)]
    if not scripts:
        print(f"no benchmark matches {' '.join(wanted)}", file=sys.stderr)
        return 2
    missed = []
    for script in scripts:
        print(f"\n=== {script.name}", flush=True)
        result = subprocess.run([sys.executable, str(script)], cwd=HERE.parent)
        if result.returncode:
            missed.append(f"{script.name} (exit code {result.returncode})")
    print()
    if missed:
        print("missed a target or failed: " + ", ".join(missed), file=sys.stderr)
        return 1
    print(f"all {len(scripts)} benchmarks met their targets")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
