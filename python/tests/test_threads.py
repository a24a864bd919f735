"""The GIL released while the kernels work, Ctrl-C interrupting a long call, and the docstrings'
examples."""

import doctest
import os
import subprocess
import sys
import textwrap
import threading
import time

import mpi_lcs
from conftest import random_bytes


def test_other_threads_run_while_a_call_works(rng):
    text = random_bytes(rng, 8 << 20)
    patterns = [random_bytes(rng, 24) for _ in range(32)]
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    started = time.perf_counter()
    # At k = 3 patterns of 24 bytes are too short for the sieve: the lanes scan every byte.
    mpi_lcs.search(patterns, text, 3)
    took = time.perf_counter() - started
    done.set()
    counter.join()
    # Holding the GIL, the counter would not have run at all during the call.
    assert took > 0.05 and len(ticks) >= took * 200 * 0.3, (took, len(ticks))


def test_ctrl_c_interrupts_a_long_call():
    """A child process interrupts itself a quarter of a second into a call of many seconds."""
    script = textwrap.dedent("""
        import os, signal, threading, time, random
        import mpi_lcs
        rng = random.Random(3)
        seqs = [bytes(rng.choice(b"ACGT") for _ in range(2000)) for _ in range(600)]
        threading.Timer(0.25, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        started = time.perf_counter()
        try:
            mpi_lcs.cdist(seqs, seqs)
            print("finished", time.perf_counter() - started)
        except KeyboardInterrupt:
            print("interrupted", time.perf_counter() - started)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env=os.environ)
    assert done.returncode == 0, done.stderr
    word, seconds = done.stdout.split()
    assert word == "interrupted" and float(seconds) < 1.5, done.stdout


def test_the_docstrings_examples_run():
    for f in (mpi_lcs.align, mpi_lcs.distance, mpi_lcs.lcs_length, mpi_lcs.cdist,
              mpi_lcs.search):
        test = doctest.DocTestParser().get_doctest(f.__doc__, {"mpi_lcs": mpi_lcs},
                                                   f.__name__, None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(test)
        assert runner.tries >= 1 and runner.failures == 0, f.__name__
