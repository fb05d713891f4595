"""What a scenario module declares: `SCENARIO = Scenario(...)`, found by the runner in the
`scenarios` package (a new file there is a new scenario)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .case import Case
    from .runner import Harness


@dataclass(frozen=True)
class Scenario:
    """A scenario: its name (for --only and the table), the function that runs one case, its
    case counts in the short and the long run, a few words for --help, and what its cases
    share, made once before the first case (`harness.prepared(prepare)` gives it to them)."""

    name: str
    run: Callable[["Case"], None]
    short: int
    long: int
    summary: str
    prepare: Callable[["Harness"], object] | None = None

    @property
    def count_option(self) -> str:
        """The attribute of the parsed arguments holding its number of cases (--NAME N)."""
        return self.name.replace("-", "_")
