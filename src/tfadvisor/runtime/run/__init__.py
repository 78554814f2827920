"""`run`: the user's program observed once in this process, then its sampled calls replayed and
projected onto the run (``analysis.RunAnalysis``; ``tfadvisor/measure.py`` is the entry point)."""
