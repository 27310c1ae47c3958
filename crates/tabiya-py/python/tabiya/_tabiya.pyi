"""Type stubs of the Rust extension (crates/tabiya-py/src); see the docstrings there and in
tabiya/__init__.py."""

import os
from typing import Any, Dict, Iterator, List, Optional, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

PathLike = Union[str, "os.PathLike[str]"]

class TabiyaError(Exception):
    file: Optional[str]
    offset: Optional[int]
    number: Optional[int]
    unit: Optional[str]
    code: str

class Diagnostic(TypedDict):
    severity: str
    code: str
    message: str
    file: Optional[str]
    offset: Optional[int]
    unit: Optional[str]
    number: Optional[int]

class MoveNode(TypedDict):
    uci: str
    san: str
    nags: List[int]
    comments: List[Any]
    variations: List["Line"]

class Line(TypedDict):
    comments: List[Any]
    moves: List[MoveNode]

class Game:
    @property
    def tags(self) -> Dict[str, str]: ...
    @property
    def raw_tags(self) -> List[Tuple[bytes, bytes]]: ...
    def tag(self, name: str, raw: bool = False) -> Optional[Union[str, bytes]]: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def san(self) -> List[str]: ...
    @property
    def result(self) -> str: ...
    @property
    def start_fen(self) -> Optional[str]: ...
    @property
    def chess960(self) -> bool: ...
    @property
    def ply_count(self) -> int: ...
    @property
    def warnings(self) -> List[Diagnostic]: ...
    def tree(self, raw: bool = False) -> Line: ...
    def to_python_chess(self) -> Any: ...
    def pgn(self) -> str: ...

class GameReader(Iterator[Game]):
    def __iter__(self) -> "GameReader": ...
    def __next__(self) -> Game: ...
    @property
    def errors(self) -> List[Diagnostic]: ...
    @property
    def warnings(self) -> List[Diagnostic]: ...

class PositionReader(Iterator[Dict[str, npt.NDArray[Any]]]):
    def __iter__(self) -> "PositionReader": ...
    def __next__(self) -> Dict[str, npt.NDArray[Any]]: ...

class Book:
    def __init__(self, path: PathLike) -> None: ...
    @property
    def format(self) -> str: ...
    @property
    def path(self) -> str: ...
    def probe_json(self, fen: str) -> str: ...
    def info_json(self) -> str: ...
    def verify_json(self) -> str: ...

def read_games(source: Any, *, on_error: str = "raise") -> GameReader: ...
def write_games(path: PathLike, games: Any, *, force: bool = False) -> int: ...
def positions(
    source: Any,
    *,
    layout: str = "bitboards",
    batch_size: int = 65536,
    max_ply: Optional[int] = None,
    on_error: str = "raise",
    tree_keys: bool = False,
) -> PositionReader: ...
def book_counts(
    source: Any,
    *,
    shard: int = 0,
    max_ply: int = 1024,
    min_elo: int = 0,
    min_white_elo: int = 0,
    min_black_elo: int = 0,
    min_strong_elo: int = 0,
) -> Dict[str, Any]: ...
class PolyglotCountsWriter:
    def __init__(
        self,
        path: PathLike,
        *,
        min_games: int = 3,
        min_score: float = 0.0,
        only: Optional[str] = None,
        uniform: bool = False,
        force: bool = False,
    ) -> None: ...
    def add(
        self,
        key: npt.NDArray[np.uint64],
        raw_move: npt.NDArray[np.uint16],
        black: npt.NDArray[np.bool_],
        games: npt.NDArray[np.uint32],
        wins: npt.NDArray[np.uint32],
        losses: npt.NDArray[np.uint32],
    ) -> None: ...
    def finish(self) -> int: ...

def tree_counts(
    path: PathLike, *, shard: int = 0, max_ply: Optional[int] = None, memory: int = 1 << 30
) -> Dict[str, Any]: ...
class TreeCountsWriter:
    def __init__(self, path: PathLike, *, force: bool = False) -> None: ...
    def add_shard(
        self, shard: int, table: bytes, table_offsets: npt.NDArray[np.uint64], sources: List[Tuple[str, int]]
    ) -> None: ...
    def add(
        self,
        key: bytes,
        code: npt.NDArray[np.uint16],
        first_played: npt.NDArray[np.uint64],
        sums: List[npt.NDArray[np.uint64]],
        first_year: npt.NDArray[np.uint16],
        last_year: npt.NDArray[np.uint16],
        top_len: npt.NDArray[np.uint8],
        top_rating: npt.NDArray[np.uint16],
        top_game: npt.NDArray[np.uint64],
    ) -> None: ...
    def finish(self, shards: int) -> int: ...

def wthor_games(path: PathLike, *, names: Optional[PathLike] = None) -> Dict[str, Any]: ...
def wthor_positions(path: PathLike, *, plies: Optional[int] = None, empties: Optional[int] = None) -> Dict[str, Any]: ...
def solve(black: int, white: int, black_to_move: bool = True) -> Tuple[int, List[str]]: ...
def shogi_convert(
    inputs: List[PathLike], output: PathLike, *, to: Optional[str] = None, write: bool = True, force: bool = False
) -> Tuple[List[Tuple[str, bytes]], List[Diagnostic], str]: ...
