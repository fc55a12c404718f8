"""Tap latency: from a tap's last byte on the pseudo-terminal to the app's callback.

    .venv/bin/python benchmarks/bench_taps.py [--taps 300]

For each protocol, an emulator on a real pseudo-terminal sends taps and the
time from writing the last byte of the tap (the line's end, or the last byte
of the PN532's answer naming the card) to `on_tap` being called on the
reader's thread is measured. Prints p50 and p99 in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.emulate import LineReaderEmulator
from hardware.line import LineProtocol
from hardware.reader import CardReader


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def measure(device: Any, protocol: Any, taps: int, send: Callable[[Any, int], float | None],
            after: Callable[[Any], None] = lambda device: None) -> list[float]:
    """Tap `taps` cards through `device`; `send` returns when the tap's last byte went out."""
    got = threading.Event()
    arrived: list[float] = []

    def on_tap(event: Any) -> None:
        arrived.append(time.perf_counter())
        got.set()

    latencies = []
    connected = threading.Event()
    with device, CardReader(device.url, protocol, on_tap, lambda s: connected.set(), retap_window=0):
        connected.wait(5)
        time.sleep(0.3)  # past the line reader's settling time after opening
        for k in range(taps):
            got.clear()
            sent = send(device, k)
            if got.wait(2):
                last_byte = sent if sent is not None else device.last_card_response_at
                latencies.append(arrived[-1] - last_byte)
            after(device)
            time.sleep(0.02)
    return latencies


def line_tap(device: Any, k: int) -> float:
    uid = f"{k:08X}"
    device.write(f"Card UID: {' '.join(uid[i:i + 2] for i in range(0, 8, 2))}\r".encode())
    sent = time.perf_counter()
    device.write(b"\n")  # the last byte
    return sent


def pn532_tap(device: Any, k: int) -> None:
    device.place(f"{k:08X}")  # the emulator notes when its answer naming the card went out
    return None


def measure_line(taps: int) -> list[float]:
    return measure(LineReaderEmulator(), LineProtocol(), taps, line_tap)


def measure_pn532(taps: int) -> list[float]:
    from hardware.pn532 import PN532Protocol
    from hardware.pn532_emulator import PN532Emulator

    return measure(PN532Emulator(), PN532Protocol(), taps, pn532_tap, after=lambda device: device.remove())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {}
    for name, measure in (("line", measure_line), ("pn532", measure_pn532)):
        values = measure(args.taps)
        report[name] = {"taps": len(values), "p50_ms": round(statistics.median(values) * 1000, 3),
                        "p99_ms": round(percentile(values, 0.99) * 1000, 3)}
    if args.json:
        print(json.dumps(report))
    else:
        for name, r in report.items():
            print(f"{name:6} {r['taps']} taps: p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms (last byte -> callback)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
