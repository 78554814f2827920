"""Finding and reading the code to analyse: Python files and Jupyter notebooks."""

from tfadvisor.sources.discover import discover
from tfadvisor.sources.reading import Source, SourceError, read_source

__all__ = ["Source", "SourceError", "discover", "read_source"]
