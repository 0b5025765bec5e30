"""What the benchmarks share: building the release binary and timing a child process."""
import os, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def release_subweave():
    """Builds the release `subweave` and returns its path."""
    subprocess.run(["swift", "build", "-c", "release", "--product", "subweave"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    binpath = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    return os.path.join(binpath, "subweave")


def run(cmd, stdout=subprocess.DEVNULL, **kw):
    """Runs cmd; returns (wall seconds, peak RSS in MiB) of that process alone (wait4)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, **kw)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd[:4])} … failed:\n{err[-2000:]}")
    return wall, usage.ru_maxrss / 1024
