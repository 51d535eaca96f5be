# SPDX-License-Identifier: Apache-2.0
"""attractor.hil.run: attractor-hil from Python, the per-tick records as arrays, and no QEMU
left behind on any way out. The runs in QEMU skip without the fw-m4f image (as the hil.* CTest
tests do)."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import attractor
import attractor.hil

POLL = 0.05  # [s] between looks for an event (a process started or gone)
GUARD_POLLS = 1200  # 60 s: a deadlock guard only; each event comes in well under a second


def runner_env():
    # attractor-hil has its own sanitizer runtime linked in: not the one preloaded into python3.
    return {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}


@pytest.fixture(scope="module")
def skate_elf():
    try:
        attractor.hil.runner_path()
        return attractor.hil.image("skate", "mps2-an386")
    except attractor.hil.ImageMissing as e:
        pytest.skip(str(e))


def children(pid):
    """The live (not zombie) processes whose parent is pid."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(d))
    return out


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("call, error, words", [
    (dict(plant="bicycle"), attractor.UsageError, "not on the HIL link"),
    (dict(plant="skate", csv="x.csv"), attractor.UsageError, "--csv is not an option of attractor.hil.run"),
    (dict(plant="skate", record="x.rec"), attractor.UsageError, "--record is not an option of attractor.hil.run"),
    (dict(plant="skate", board="mps2-an386,dumpdtb=x"), attractor.UsageError, "board name"),
    (dict(plant="skate", elf="a.elf", serial="/dev/null"), attractor.UsageError, "not both"),
    (dict(plant="skate", timeout=-1), attractor.UsageError, "timeout"),
])
def test_a_malformed_call_is_refused_before_anything_starts(call, error, words):
    with pytest.raises(error) as e:
        attractor.hil.run(**call)
    assert words in str(e.value)


def test_a_missing_image_says_how_to_build_it(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTRACTOR_FIRMWARE_DIR", str(tmp_path))
    with pytest.raises(attractor.hil.ImageMissing) as e:
        attractor.hil.image("wheel-pendulum", "netduinoplus2")
    assert "wheel-pendulum-hil.netduinoplus2" in str(e.value) and "fw-m4f" in str(e.value)


def test_the_runners_refusal_is_its_exception(tmp_path):
    try:
        attractor.hil.runner_path()
    except attractor.hil.ImageMissing as e:
        pytest.skip(str(e))
    with pytest.raises(attractor.UsageError) as e:  # exit 2: no such serial device, nothing started
        attractor.hil.run("skate", serial=str(tmp_path / "no-such-tty"), env=runner_env())
    assert e.value.code == 2 and "no-such-tty" in str(e.value)
    with pytest.raises(attractor.InvalidInputError) as e:  # exit 5
        attractor.hil.run("skate", elf=str(tmp_path / "x.elf"), ticks=0, env=runner_env())
    assert e.value.code == 5


def test_a_run_in_qemu_returns_its_records(skate_elf):
    r = attractor.hil.run("skate", "mps2-an386", ticks=200, noise=0.001, seed=3, env=runner_env())
    assert r.ok and r.code == 0 and r.summary["ticks"] == 200, r.summary
    assert r.columns[:2] == ["tick", "fault"] and "gamma3" in r.columns and "torque" in r.columns
    assert np.array_equal(r.records["tick"], np.arange(1, 201)) and r.records["mode"].dtype.kind == "U"
    # The summary's min Gamma3 is the records' (printed with 6 decimals).
    assert abs(r.records["gamma3"].min() - r.summary["min_gamma3"]) < 1e-6
    assert r.summary["controller"] == "running" and "UPRIGHT" in r.summary["outcome"]


def watch_runner(seen, act=None):
    """A thread noting the runner (our child) and its QEMU (the runner's child) once QEMU runs,
    then doing `act`."""
    def watch():
        for _ in range(GUARD_POLLS):
            for runner in children(os.getpid()):
                qemu = children(runner)
                if qemu:
                    seen.update(runner=runner, qemu=qemu[0])
                    if act:
                        act()
                    return
            if seen.get("done"):
                return
            time.sleep(POLL)
    t = threading.Thread(target=watch)
    t.start()
    return t


def gone(*pids):
    for _ in range(GUARD_POLLS):  # the runner is reaped by run(); QEMU is ended with it
        if not any(alive(p) for p in pids):
            return True
        time.sleep(POLL)
    return False


def test_keyboard_interrupt_leaves_no_runner_and_no_qemu(skate_elf):
    seen = {}
    # Python's own SIGINT handler, even where the suite was started with SIGINT ignored (a
    # background job); timeout=120 is a deadlock guard only (QEMU starts in about a second).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    watcher = watch_runner(seen, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        with pytest.raises(KeyboardInterrupt):
            attractor.hil.run("skate", "mps2-an386", ticks=10**7, timeout=120, env=runner_env())
    finally:
        seen["done"] = True
        watcher.join()
        signal.signal(signal.SIGINT, previous)
    assert seen.get("qemu"), "QEMU never started"
    assert gone(seen["runner"], seen["qemu"])


def test_the_calls_timeout_stops_runner_and_qemu(skate_elf):
    # The call's timeout is the feature under test: 10^7 ticks take hours, so it always runs out.
    seen = {}
    watcher = watch_runner(seen)
    try:
        with pytest.raises(attractor.HilTimeoutError):
            attractor.hil.run("skate", "mps2-an386", ticks=10**7, timeout=5, env=runner_env())
    finally:
        seen["done"] = True
        watcher.join()
    assert children(os.getpid()) == []
    if seen.get("qemu"):
        assert gone(seen["runner"], seen["qemu"])
