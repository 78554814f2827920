"""What reading a file gives the analysis: Python text, and for notebooks where each line came from."""

from __future__ import annotations

from dataclasses import dataclass, field

from tfadvisor.model import SkippedCell


class SourceError(Exception):
    """A file that cannot be analysed; the message is the one-line reason shown to the user."""


@dataclass
class Source:
    path: str
    text: str
    encoding: str = "utf-8"
    notebook: bool = False
    # For notebooks: for each line of ``text`` (1-based index - 1), (cell index, line in cell),
    # both 0-based; the cell index counts every cell of the notebook, markdown included.
    cell_map: list[tuple[int, int]] = field(default_factory=list)
    skipped_cells: list[SkippedCell] = field(default_factory=list)

    def locate(self, line: int) -> tuple[int, int] | None:
        """(cell, line in cell), both 1-based, for a line of a notebook's joined text."""
        if not self.notebook or not 1 <= line <= len(self.cell_map):
            return None
        cell, cell_line = self.cell_map[line - 1]
        return cell + 1, cell_line + 1
