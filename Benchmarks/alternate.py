#!/usr/bin/env python3
"""Times shell commands alternated run by run, so that each sees the same load on a shared machine.

    python3 Benchmarks/alternate.py RUNS 'COMMAND' 'COMMAND' ...

Runs each command RUNS times, in turn (first, second, ..., first, second, ...), its output
discarded, and prints each one's median wall time, its ratio to the first command's median, and
its fastest run. Compare two builds (the same command with each binary) or a job against its floor
(`cat` of the same files first).
"""
import statistics, subprocess, sys, time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs, commands = int(sys.argv[1]), sys.argv[2:]
    walls = {command: [] for command in commands}
    for _ in range(runs):
        for command in commands:
            start = time.perf_counter()
            subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            walls[command].append(time.perf_counter() - start)
    base = statistics.median(walls[commands[0]])
    for command in commands:
        median = statistics.median(walls[command])
        print(f"{median:.4f} s  x{median / base:.2f}  fastest {min(walls[command]):.4f} s  {command}")


if __name__ == "__main__":
    main()
