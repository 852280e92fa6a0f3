"""What a resident Prefect server saves: `gazette run` with nothing new, `gazette run`
with one changed decree and `gazette rerun` of one decree, with `gazette serve` running
and without it (Prefect's temporary server, as from a fresh clone).

A project of two sample decrees (the text-layer PDF and text dump 004) is processed
once; then each command runs ``--repeat`` times in each set-up and the median wall time
is printed (before each changed-decree run, a line is added to text dump 004). A run
with nothing new starts no flow, so no server either way. The re-run through the
server includes the flow-run process that `gazette serve` starts for it. Last, the
project is served with a tick every 2 s over its unchanged inbox: the ticks seen in the
catalog over 20 s and serve's CPU seconds per tick (its polling of the server for runs
included). Usage::

    .venv/bin/python bench/operations_bench.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAZETTE = Path(sys.executable).parent / "gazette"
SAMPLES = ("textlayer_protocol_brazil_sweden_pt_en.pdf", "004_5572047d3d386aa9.txt")
DOC = "004_5572047d3d386aa9"


def clean_env() -> dict[str, str]:
    """This environment without Prefect settings: each `gazette` finds its own server."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}


def gazette(*args: str, cwd: Path) -> float:
    """Run `gazette` to its end; its wall time in seconds (exit status must be 0)."""
    started = time.monotonic()
    done = subprocess.run([str(GAZETTE), *args], cwd=cwd, env=clean_env(), capture_output=True,
                          text=True, check=False)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(f"gazette {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return seconds


def median_of(repeat: int, *args: str, cwd: Path) -> float:
    return statistics.median(gazette(*args, cwd=cwd) for _ in range(repeat))


def changed_runs(repeat: int, cwd: Path) -> float:
    """Median of ``gazette run`` after a line is added to decree 004 each time."""
    times = []
    for _ in range(repeat):
        with (cwd / "raw" / SAMPLES[1]).open("a", encoding="utf-8") as decree:
            decree.write(f"\nNota {time.monotonic_ns()}.\n")
        times.append(gazette("run", cwd=cwd))
    return statistics.median(times)


def timings(repeat: int, root: Path) -> dict[str, float]:
    return {"run, nothing new": median_of(repeat, "run", cwd=root),
            "run, one decree changed": changed_runs(repeat, root),
            "rerun of one decree": median_of(repeat, "rerun", DOC, cwd=root)}


def serving(root: Path, interval: int = 86400) -> subprocess.Popen[bytes]:
    """`gazette serve` of ``root``, once its note says where its server listens."""
    from flows.server import free_port, resident_api

    process = subprocess.Popen(
        [str(GAZETTE), "serve", "--port", str(free_port()), "--interval", str(interval)],
        cwd=root, env=clean_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while resident_api(root / ".gazette") is None:
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("gazette serve did not come up")
        time.sleep(0.5)
    return process


def idle_ticks(root: Path, seconds: float = 20.0) -> tuple[int, float]:
    """Serve ``root`` (nothing new in it) ticking every 2 s: the idle ticks seen in
    ``seconds`` and serve's CPU seconds per tick, from its second idle tick on."""
    from pipeline.config import Settings
    from pipeline.project.catalog import Catalog

    catalog = Catalog(Settings.for_root(root))

    def last_tick() -> str:
        return str(catalog.runs(limit=1)[0][2])

    seen = last_tick()
    server = serving(root, interval=2)
    try:
        for _ in range(2):  # the first tick comes with serve's start-up: measure after
            while last_tick() == seen:
                time.sleep(0.2)
            seen = last_tick()
        cpu, ticks = _cpu_seconds(server.pid), 0
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            time.sleep(0.2)
            if (now := last_tick()) != seen:
                seen, ticks = now, ticks + 1
        cpu = _cpu_seconds(server.pid) - cpu
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=120)
    return ticks, cpu / max(ticks, 1)


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, help="unused (run_all passes it)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gazette-ops-") as folder:
        root = Path(folder)
        (root / "raw").mkdir()
        for name in SAMPLES:
            shutil.copy(ROOT / "raw" / "samples" / name, root / "raw" / name)
        gazette("run", cwd=root)
        embedded = timings(args.repeat, root)
        server = serving(root)
        try:
            resident = timings(args.repeat, root)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=120)
        ticks, per_tick = idle_ticks(root)
    print(f"median wall seconds of {args.repeat} ({os.cpu_count()} CPUs, load "
          f"{os.getloadavg()[0]:.2f})")
    print("| command | temporary server (no `gazette serve`) | `gazette serve` running | "
          "ratio |\n|---|---|---|---|")
    for name in embedded:
        print(f"| {name} | {embedded[name]:.1f} | {resident[name]:.1f} | "
              f"{embedded[name] / resident[name]:.1f}× |")
    print(f"\nidle ticks every 2 s: {ticks} in 20 s, {per_tick:.3f} CPU seconds of "
          "`gazette serve` per tick (its polling included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
