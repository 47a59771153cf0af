"""Types of the magicount package (magicount's engine from Python)."""
from os import PathLike
from typing import Any, Dict, Iterator, Literal, Optional, Tuple, Union

__version__: str
RUN_OPTIONS: Tuple[str, ...]

Family = str  # one of FAMILIES, from the engine's registry
FAMILIES: Tuple[str, ...]

class Result(Dict[str, Any]):
    """The dict ``--json`` writes: problem, counts, digest, exhaustive, run
    and, when listed, solutions."""
    @property
    def unique(self) -> int: ...
    @property
    def total(self) -> Optional[int]: ...
    @property
    def digest(self) -> str: ...
    def to_json(self, **kwargs: Any) -> str:
        """The result as JSON text (magicount verify reads it)."""
    @classmethod
    def from_json(cls, text: str) -> "Result":
        """A result read back from JSON text; ValueError if it is not one."""
    def _repr_svg_(self) -> str: ...

class Solution:
    """One solution as a result lists it, with its problem."""
    problem: Dict[str, Any]
    value: Any
    def __init__(self, problem: Dict[str, Any], value: Any) -> None: ...
    def _repr_svg_(self) -> str: ...

def count(
    family: Family,
    *,
    threads: Optional[int] = 0,
    split_depth: int = -1,
    split_nodes: int = 1048576,
    shard: str = "0/1",
    checkpoint: Union[str, bytes, "PathLike[str]", None] = None,
    checkpoint_interval: float = 2.0,
    limit: int = 0,
    dedup: Literal["auto", "hash-set"] = "auto",
    dedup_memory: int = 4096,
    adaptive: bool = True,
    **spec: Any,
) -> Result:
    """Counts one problem: the result as ``magicount <family> --json``
    writes it.  ``spec`` holds the family's fields as the result's
    ``problem`` names them (n=12; order=4, kind="pandiagonal"; builtin=...).
    Raises ValueError for a bad spec or option, KeyboardInterrupt on Ctrl-C
    (after saving the checkpoint, if given)."""

def solutions(
    family: Family,
    *,
    threads: Optional[int] = 0,
    split_depth: int = -1,
    split_nodes: int = 1048576,
    shard: str = "0/1",
    checkpoint: Union[str, bytes, "PathLike[str]", None] = None,
    checkpoint_interval: float = 2.0,
    limit: int = 0,
    dedup: Literal["auto", "hash-set"] = "auto",
    dedup_memory: int = 4096,
    adaptive: bool = True,
    **spec: Any,
) -> Iterator[Solution]:
    """Every solution, in the order ``--solutions all`` lists them, through
    a bounded queue, on all cores by default (tasks that finish ahead of
    their turn keep at most 16 MiB in memory, the rest in a spill file);
    leaving the loop stops the search."""
