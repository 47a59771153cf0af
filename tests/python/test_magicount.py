"""The Python module against the CLI it shares its engine with.

Run by ctest (label `python`, tests/CMakeLists.txt) with PYTHONPATH at the
build's python/ and MAGIC_BIN at its magicount.  Tests that measure memory
or run millions of solutions are marked slow (MAGIC_SLOW_TESTS=1)."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import magicount

BIN = os.environ["MAGIC_BIN"]
SLOW = os.environ.get("MAGIC_SLOW_TESTS") == "1"


def cli_json(*args):
    out = subprocess.run([BIN, *args, "--json", "-", "-q"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def same_result(a, b):
    """Equal but for the run's timings and the build's identity."""
    for key in ("problem", "counts", "digest", "exhaustive"):
        assert a[key] == b[key], key
    for key in ("nodes", "tasks", "split_depth", "search", "dedup", "shard"):
        assert a["run"][key] == b["run"][key], key


def test_star_12_is_the_published_count():
    # OEIS A200720: 396,930 magic {12/2} stars up to the 24 symmetries.
    r = magicount.count("star", n=12, threads=2)
    assert r["counts"]["unique"] == 396930
    assert r.unique == 396930 and r.total == 396930 * 24


@pytest.mark.parametrize(
    "family, kwargs, args",
    [
        ("star", dict(n=9), ["star", "--n", "9"]),
        ("star", dict(n=8, equal_lines=6), ["star", "--n", "8", "--equal-lines", "6"]),
        ("square", dict(order=4, kind="pandiagonal"), ["square", "--order", "4", "--kind", "pandiagonal"]),
        ("circle", dict(n=12), ["circle", "--n", "12"]),
        ("figure", dict(builtin="hexagon-3"), ["figure", "--builtin", "hexagon-3"]),
        ("complete", dict(grid=[[2, 7, 6], [9, 5, 1], [4, 3, 0]]), ["complete", "--count", "-"]),
        ("graph", dict(builtin="wheel-4", labeling="vertex-magic-total"),
         ["graph", "--builtin", "wheel-4", "--labeling", "vertex-magic-total"]),
    ],
)
def test_count_is_the_clis_json(family, kwargs, args):
    stdin = "[[2,7,6],[9,5,1],[4,3,0]]" if family == "complete" else None
    out = subprocess.run([BIN, *args, "--json", "-", "-q", "-t", "2"], input=stdin, check=True,
                         capture_output=True, text=True).stdout
    same_result(magicount.count(family, threads=2, **kwargs), json.loads(out))


def test_graph_takes_a_name_or_a_networkx_graph():
    # OEIS A145692: 7,092 vertex-magic total labellings of C_10 up to its 20 symmetries.
    r = magicount.count("graph", graph="cycle-10", labeling="vertex-magic-total", threads=2)
    assert r.unique == 7092 and r.total == 7092 * 20
    import networkx as nx

    g = nx.cycle_graph(10)
    got = magicount.count("graph", graph=g, labeling="vertex-magic-total", threads=2)
    assert got.unique == 7092 and got["problem"]["canonical_graph6"] == r["problem"]["canonical_graph6"]
    # Node keys of any kind, and the layout's coordinates, reach the picture.
    p = nx.path_graph(["a", "b", "c", "d"])
    for i, v in enumerate(p.nodes):
        p.nodes[v]["pos"] = (i, 0.5 * (i % 2))
    path = magicount.count("graph", graph=p, labeling="edge-magic-total", threads=2)
    assert path.unique == 28  # OEIS A237426 (P_3)
    assert all("x" in v for v in path["problem"]["graph"]["vertices"])
    with pytest.raises(ValueError):
        magicount.count("graph", graph=nx.DiGraph([(0, 1)]), labeling="edge-magic-total")


def test_every_run_option_reaches_the_engine(tmp_path):
    whole = magicount.count("star", n=10, threads=2)
    # split_depth and threads: the same digest (the contract); the depth is echoed.
    for threads in (1, 2):
        for depth in (1, 3):
            r = magicount.count("star", n=10, threads=threads, split_depth=depth)
            assert r["digest"] == whole["digest"] and r["run"]["split_depth"] == depth
            assert r["run"]["threads"] == threads
    # shards add up to the whole
    parts = [magicount.count("star", n=10, shard=f"{i}/3") for i in range(3)]
    assert sum(p.unique for p in parts) == whole.unique
    assert [p["run"]["shard"] for p in parts] == ["0/3", "1/3", "2/3"]
    # limit stops early, and says so
    r = magicount.count("star", n=10, limit=5)
    assert r.unique == 5 and r["exhaustive"] is False
    # dedup
    assert magicount.count("star", n=8, dedup="hash-set")["run"]["dedup"] == "hash-set"
    # checkpoint: a journal is written; a second call resumes every task from it
    ck = tmp_path / "c.jsonl"
    first = magicount.count("star", n=9, checkpoint=ck, checkpoint_interval=0)
    assert ck.exists()
    again = magicount.count("star", n=9, checkpoint=str(ck))
    assert again["digest"] == first["digest"]
    assert again["run"]["tasks_resumed"] == again["run"]["tasks"] > 0


def test_solutions_stream_what_the_cli_lists():
    cli = cli_json("circle", "--n", "13", "--solutions", "all")
    got = list(magicount.solutions("circle", n=13))
    assert [s.value for s in got] == cli["solutions"]
    assert all(s.problem == cli["problem"] for s in got)
    squares = [s.value for s in magicount.solutions("square", order=4, threads=2)]
    assert squares == cli_json("square", "--order", "4", "--solutions", "all", "-t", "2")["solutions"]
    assert len(squares) == 880


def test_leaving_the_loop_stops_the_search():
    started = time.monotonic()
    stream = magicount.solutions("square", order=5)  # 275,305,224 of them
    first = [next(stream) for _ in range(1000)]
    stream.close()
    assert len(first) == 1000 and time.monotonic() - started < 30


def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def stream_rss(total):
    """RSS after 10% and after all of `total` order-5 squares streamed."""
    marks = {}
    n = 0
    for _ in magicount.solutions("square", order=5, limit=total):
        n += 1
        if n == total // 10:
            marks["early"] = rss_mib()
    marks["end"] = rss_mib()
    assert n == total
    return marks


def test_streaming_memory_stays_flat():
    marks = stream_rss(1_000_000)
    assert marks["end"] - marks["early"] < 16, marks


@pytest.mark.skipif(not SLOW, reason="ten million solutions: MAGIC_SLOW_TESTS=1")
def test_streaming_ten_million_solutions_in_fixed_memory():
    marks = stream_rss(10_000_000)
    assert marks["end"] - marks["early"] < 16, marks
    assert marks["end"] < 200, marks


INTERRUPTED = textwrap.dedent(
    """
    import json, sys, time, magicount
    print("started", flush=True)
    t = time.monotonic()
    try:
        magicount.count("star", n=13, threads=2, checkpoint=sys.argv[1], checkpoint_interval=0)
        print("finished")
    except KeyboardInterrupt:
        print(json.dumps({"raised_after": time.monotonic() - t}))
    """
)


def test_ctrl_c_raises_keyboardinterrupt_and_the_checkpoint_resumes(tmp_path):
    ck = tmp_path / "ck.jsonl"
    p = subprocess.Popen([sys.executable, "-c", INTERRUPTED, str(ck)], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.0)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    waited = time.monotonic() - sent
    assert p.returncode == 0, out
    assert "raised_after" in out, out
    assert waited < 1.5, waited  # within a second, with the interpreter's exit
    # The journal holds the tasks done; a run with it resumes them and
    # gets the whole count.
    saved = sum(1 for line in ck.read_text().splitlines() if '"task"' in line)
    assert saved > 0
    r = magicount.count("star", n=13, threads=2, checkpoint=ck)
    assert r["run"]["tasks_resumed"] == saved
    assert r.unique == 2_434_692  # OEIS A200720, n = 13


@pytest.mark.parametrize(
    "family, kwargs, args",
    [
        ("star", dict(n=3), ["star", "--n", "3"]),
        ("star", dict(n=30), ["star", "--n", "30"]),
        ("circle", dict(n=200), ["circle", "--n", "200"]),
        ("figure", dict(builtin="nope"), ["figure", "--builtin", "nope"]),
        ("square", dict(order=4, kind="semi", center=3), ["square", "--order", "4", "--kind", "semi", "--center", "3"]),
    ],
)
def test_bad_arguments_raise_valueerror_with_the_clis_message(family, kwargs, args):
    cli = subprocess.run([BIN, *args], capture_output=True, text=True)
    assert cli.returncode == 2
    message = cli.stderr.strip().removeprefix("magicount: error: ")
    with pytest.raises(ValueError) as e:
        magicount.count(family, **kwargs)
    assert str(e.value) == message


@pytest.mark.parametrize(
    "call",
    [
        lambda: magicount.count("star", n=8, bogus=1),
        lambda: magicount.count("nosuch"),
        lambda: magicount.count("star", n=8, threads=-1),
        lambda: magicount.count("star", n=8, split_depth=99),
        lambda: magicount.count("star", n=8, shard="3/2"),
        lambda: magicount.count("star", n=8, dedup="maybe"),
        lambda: magicount.count("star", n=8, limit=-1),
        lambda: magicount.count("star", n=object()),
        lambda: magicount.count("figure", figure={"points": ["a"], "lines": [["a", "b"]], "numbers": "1..2"}),
        lambda: magicount.solutions("star", n=2),
        lambda: magicount.Result.from_json('{"not": "a result"}'),
    ],
)
def test_more_bad_arguments_raise_valueerror(call):
    with pytest.raises(ValueError):
        call()


def test_a_deeply_nested_argument_is_a_valueerror_not_a_crash():
    # Issue 65, row 5: the conversion to JSON recursed without a bound.
    x = 1
    for _ in range(200000):
        x = [x]
    with pytest.raises(ValueError, match="nested deeper"):
        magicount.count("star", n=8, numbers=x)


def test_arguments_as_python_writes_them(tmp_path):
    # Issue 65, row 10: a limit up to 2^64 - 1 as the CLI takes it, None as
    # the default, a checkpoint path as bytes, and dedup_memory in MiB.
    assert magicount.count("star", n=8, limit=2**64 - 1)["counts"]["unique"] == 112
    assert magicount.count("star", n=8, limit=2**63)["counts"]["unique"] == 112
    with pytest.raises(ValueError, match="outside"):
        magicount.count("star", n=8, limit=2**64)
    assert magicount.count("star", n=8, threads=None)["counts"]["unique"] == 112
    ck = os.fsencode(str(tmp_path / "ck"))
    magicount.count("star", n=8, checkpoint=ck)
    assert os.listdir(tmp_path) == ["ck"]
    r = magicount.count("star", n=8, dedup="hash-set", dedup_memory=64)
    assert r["counts"]["unique"] == 112
    with pytest.raises(ValueError):
        magicount.count("star", n=8, dedup_memory=0)


def test_solutions_on_every_core_come_out_in_the_one_thread_order():
    one = [s.value for s in magicount.solutions("star", n=9, threads=1)]
    every = [s.value for s in magicount.solutions("star", n=9)]
    assert every == one and len(one) == 3014


def test_a_checkpoint_that_cannot_be_written_is_an_oserror(tmp_path):
    with pytest.raises(OSError):
        magicount.count("star", n=8, checkpoint=tmp_path / "no" / "such" / "dir" / "c.jsonl")


def test_result_round_trips_through_json(tmp_path):
    r = magicount.count("star", n=7)
    back = magicount.Result.from_json(r.to_json())
    assert back == r and isinstance(back, magicount.Result)
    # and a file the CLI wrote reads as the same result
    path = tmp_path / "r.json"
    subprocess.run([BIN, "star", "--n", "7", "--json", str(path), "-q"], check=True)
    same_result(magicount.Result.from_json(path.read_text()), r)


def test_a_figure_given_as_a_dict_counts_as_the_builtin():
    builtin = magicount.count("figure", builtin="hexagram")
    figure = builtin["problem"]["figure"]
    r = magicount.count("figure", figure=figure)
    assert r["counts"] == builtin["counts"] and r["digest"] == builtin["digest"]
    assert r.unique == 80  # the magic hexagrams with 1..12 (the star family's count)


def test_results_and_solutions_draw_themselves():
    r = magicount.count("star", n=6)
    assert "<svg" in r._repr_svg_()
    s = next(magicount.solutions("circle", n=8))
    assert "<svg" in s._repr_svg_()
    assert "<svg" in next(magicount.solutions("figure", builtin="hexagon-3"))._repr_svg_()


def test_the_version_is_the_clis():
    out = subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout
    assert out.startswith(f"magicount {magicount.__version__} ")


def test_ctrl_c_with_the_default_handler_still_kills():
    # signal.signal(SIGINT, SIG_DFL): the module takes nothing over.
    script = "import signal, magicount; signal.signal(signal.SIGINT, signal.SIG_DFL); print('go', flush=True); " \
             "magicount.count('star', n=13, threads=2); print('finished')"
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "go"
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert p.returncode == -signal.SIGINT, (p.returncode, out)


def test_a_search_releases_the_gil():
    import threading

    done = []
    worker = threading.Thread(target=lambda: done.append(magicount.count("star", n=12, threads=1)))
    started = time.monotonic()
    worker.start()
    ticks = 0
    while worker.is_alive():
        ticks += 1  # Python code runs here only while the search holds no GIL
        time.sleep(0.001)
    assert done and done[0].unique == 396930
    # held, the loop would tick once or twice in the whole run; free, about
    # once a millisecond (a twentieth of that allows for a loaded machine)
    assert ticks > 0.05 * (time.monotonic() - started) / 0.001, ticks
