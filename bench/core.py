"""Time the rules core alone: validating and scoring hands, as ``canasta.score_match`` does.

Run: python bench/core.py   (about ten seconds; ``--quick`` for a rougher figure in two)

Each figure is the median over several ``timeit`` repeats of the time one call takes, so a
moment when another process holds the CPU moves it little. It is given twice: as wall time,
what a caller waits on an idle machine, and as this process's CPU time, which other processes
on a busy machine disturb much less. The core keeps nothing between calls, so every call reads,
checks and scores its hands afresh. The hands are what players enter at the table: melded
points, points left in hand, a canasta or two, red threes, who went out.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
import timeit

from scorepad import canasta

CLASSIC_HAND = {
    "entries": [
        {"melded_points": 420, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 1, "went_out": True},
        {"melded_points": 180, "hand_points": 65, "red_threes": 1},
    ]
}
# Both sides score a little, so a hundred of them stay under the classic target of 5000.
SMALL_HAND = {"entries": [{"melded_points": 50, "hand_points": 45}, {"melded_points": 50, "hand_points": 40}]}
THEY_WENT_OUT = {
    "entries": [
        {"melded_points": 150, "hand_points": 85, "red_threes": 1},
        {"melded_points": 390, "canastas": {"natural": 1}, "red_threes": 1, "went_out": True, "concealed": False},
    ]
}
SAMBA_HAND = {
    "entries": [
        {"melded_points": 600, "canastas": {"natural": 1, "sequence": 1}, "red_threes": 2, "went_out": True},
        {"melded_points": 300, "hand_points": 80, "canastas": {"mixed": 1}, "red_threes": 1},
    ]
}
AMERICAN_HAND = {
    "entries": [
        {"melded_points": 700, "canastas": {"natural": 1, "sevens": 1}, "red_threes": 1, "went_out": True},
        {"melded_points": 200, "hand_points": 90, "canastas": {"mixed": 1}, "red_threes": 1},
    ]
}
# A long match of varied hands: a big hand each way, then small ones, under a high target.
VARIED_MATCH = [CLASSIC_HAND, THEY_WENT_OUT, SMALL_HAND, SMALL_HAND, SMALL_HAND] * 20
VARIED_OPTIONS = {"target": 100_000}


def median_us(action, number: int, repeat: int, timer=time.perf_counter) -> float:
    """Median time of one call of ``action`` in microseconds, over ``repeat`` timeit runs."""
    runs = timeit.Timer(action, timer=timer).repeat(repeat=repeat, number=number)
    return statistics.median(runs) / number * 1e6


def cases() -> list[tuple[str, object, int]]:
    """(what, action, calls per repeat); each action validates and scores, then reads totals."""
    return [
        ("one classic hand (validate + score)", lambda: canasta.score_match("classic", [CLASSIC_HAND]).totals, 2000),
        (
            "100-hand classic match (small hands)",
            lambda: canasta.score_match("classic", [SMALL_HAND] * 100).totals,
            20,
        ),
        (
            "100-hand classic match (varied hands, target 100000)",
            lambda: canasta.score_match("classic", VARIED_MATCH, VARIED_OPTIONS).totals,
            20,
        ),
        ("one Samba hand (validate + score)", lambda: canasta.score_match("samba", [SAMBA_HAND]).totals, 2000),
        (
            "one American hand (validate + score)",
            lambda: canasta.score_match("american", [AMERICAN_HAND]).totals,
            2000,
        ),
    ]


def main(argv: list[str]) -> None:
    repeat = 5 if "--quick" in argv else 15
    scale = 0.2 if "--quick" in argv else 1.0
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    print(f"median of {repeat} timeit repeats, microseconds per call")
    print()
    print("| what | wall µs | CPU µs |")
    print("|---|---:|---:|")
    for name, action, number in cases():
        calls = max(1, int(number * scale))
        action()  # warm up
        wall = median_us(action, calls, repeat)
        cpu = median_us(action, calls, repeat, timer=time.process_time)
        print(f"| {name} | {wall:,.1f} | {cpu:,.1f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
