"""magicount from Python: exact counts of magic squares, stars, circles,
completions and figures, the same results as the ``magicount`` command's
``--json``.

>>> import magicount
>>> magicount.count("star", n=8)["counts"]["unique"]
112
>>> first = next(magicount.solutions("circle", n=8))

A search's spec is the JSON ``problem`` of its result (docs/json.md): the
family's name, then its fields as keyword arguments (``n=12``,
``order=4, kind="pandiagonal"``, ``figure={...}`` or ``builtin="hexagon-3"``).
The run options are those the CLI shares (``RUN_OPTIONS``, from the
engine's options table): ``threads``, ``split_depth``, ``split_nodes``,
``adaptive``, ``limit``, ``shard``, ``checkpoint``, ``checkpoint_interval``,
``dedup``, ``dedup_memory`` (MiB); None means the default.  Searches
release the GIL; Ctrl-C raises KeyboardInterrupt
within a second, and a run with a checkpoint resumes from it when called
again.  A bad argument raises ValueError with the CLI's message.
"""
from __future__ import annotations

import json as _json
import os as _os
from typing import Any, Dict, Iterator, List, Optional

from . import _core

__all__ = ["count", "solutions", "Result", "Solution", "FAMILIES", "RUN_OPTIONS", "__version__"]

_info = _core.build_info()
__version__: str = _info["version"]

#: The families, as the engine's registry names them (count's first argument).
FAMILIES = tuple(_core.family_names())

#: The run options, from the engine's one options table (magic/run_options.hpp):
#: the CLI's common options, with _ for -.
RUN_OPTIONS = tuple(_core.run_option_names())


def _graph_json(g: Any) -> Dict[str, Any]:
    """A networkx.Graph (anything with ``nodes`` and ``edges`` views) as the
    graph family's JSON: vertices named by their keys, coordinates from a
    ``pos`` attribute on every node.  networkx itself is not imported."""
    if hasattr(g, "is_directed") and g.is_directed():
        raise ValueError("a graph labelling needs an undirected graph, got a directed one")

    def name(v: Any) -> Any:
        return v if isinstance(v, (int, str)) and not isinstance(v, bool) else str(v)

    nodes = list(g.nodes(data=True))
    placed = bool(nodes) and all(isinstance(d, dict) and "pos" in d for _, d in nodes)
    vertices = [{"name": name(v), "x": float(d["pos"][0]), "y": float(d["pos"][1])} if placed else name(v)
                for v, d in nodes]
    return {"vertices": vertices, "edges": [[name(u), name(v)] for u, v in g.edges()]}


def _split(family: str, kwargs: Dict[str, Any]):
    if not isinstance(family, str) or not family:
        raise ValueError(f"the family is a name such as 'star' or 'square', got {family!r}")
    # A run option given as None takes its default; it is never a spec field.
    options = {k: v for k, v in ((k, kwargs.pop(k)) for k in RUN_OPTIONS if k in kwargs) if v is not None}
    if "checkpoint" in options:
        path = options["checkpoint"]
        if not isinstance(path, (str, bytes, _os.PathLike)):
            raise ValueError(f"checkpoint must be a path, got {path!r}")
        options["checkpoint"] = _os.fsdecode(path)  # a pathlib.Path or bytes too
    graph = kwargs.get("graph")
    if graph is not None and not isinstance(graph, (str, dict)) and hasattr(graph, "nodes") and hasattr(graph, "edges"):
        kwargs["graph"] = _graph_json(graph)  # a networkx.Graph
    spec = {"name": family, **kwargs}
    return spec, options


class Result(dict):
    """A search's result: the dict ``--json`` writes (``problem``,
    ``counts``, ``digest``, ``exhaustive``, ``run`` and, when listed,
    ``solutions``), with a picture for Jupyter."""

    @property
    def unique(self) -> int:
        return self["counts"]["unique"]

    @property
    def total(self) -> Optional[int]:
        return self["counts"].get("total")

    @property
    def digest(self) -> str:
        return self["digest"]

    def to_json(self, **kwargs: Any) -> str:
        """The result as JSON text (``magicount verify`` reads it)."""
        return _json.dumps(dict(self), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> "Result":
        """A result read back from JSON text, such as a ``--json`` file."""
        data = _json.loads(text)
        if not isinstance(data, dict) or "problem" not in data or "counts" not in data:
            raise ValueError("not a magicount result: no 'problem' and 'counts'")
        return cls(data)

    def _repr_svg_(self) -> str:
        return _core.render_svg(self["problem"], list(self.get("solutions", []))[:4])

    def __repr__(self) -> str:
        c = self["counts"]
        total = f", total={c['total']}" if "total" in c else ""
        return f"Result({self['problem'].get('name')}: unique={c['unique']}{total}, digest={self['digest']})"


class Solution:
    """One solution as the result lists it (``value``), with its problem,
    so that Jupyter can draw it."""

    __slots__ = ("problem", "value")

    def __init__(self, problem: Dict[str, Any], value: Any) -> None:
        self.problem = problem
        self.value = value

    def _repr_svg_(self) -> str:
        return _core.render_svg(self.problem, [self.value])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Solution) and self.value == other.value and self.problem == other.problem

    def __repr__(self) -> str:
        return f"Solution({self.value!r})"


def count(family: str, **kwargs: Any) -> Result:
    """Counts the arrangements of one problem; the result as ``--json``
    writes it.  ``count("star", n=12, threads=2)["counts"]["unique"]`` is
    396930."""
    spec, options = _split(family, dict(kwargs))
    return Result(_core.run(spec, options))


def solutions(family: str, **kwargs: Any) -> Iterator[Solution]:
    """Every solution of one problem, in the order ``--solutions all`` lists
    them, as the search finds them.  They pass through a bounded queue, so
    memory stays flat however many there are; leaving the loop early stops
    the search (saving its checkpoint, if it has one).

    All cores by default, as ``count``: the solutions come out in task
    order, and the tasks that finish ahead of their turn keep at most
    16 MiB of solutions in memory; the rest wait in an unlinked file in
    $TMPDIR until then."""
    spec, options = _split(family, dict(kwargs))
    stream = _core.Stream(spec, options)
    problem = stream.problem

    def generate() -> Iterator[Solution]:
        try:
            while True:
                batch = stream.next_batch(256)
                if not batch:
                    return
                for value in batch:
                    yield Solution(problem, value)
        finally:
            stream.close()

    return generate()
