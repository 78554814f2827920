"""Run one corpus function's driver as a plain program, for ``tfadvisor run`` to observe.

    cd benchmarks/corpus && tfadvisor run --project mlproj measure_one.py -- mlproj/losses.py::focal_loss

The project is imported as it is on disk (no variant): ``run`` sees the real program's calls.
No functions are defined here, so that nothing but ``mlproj`` is observed.
"""

import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

from corpus.drivers._plain import run_driver  # noqa: E402

if len(sys.argv) != 2:
    sys.exit("usage: measure_one.py ID")
run_driver(sys.argv[1])
