"""Keras training in a `run`: observed (``observe``), measured (``trials``, ``pipeline``, ``measure``), reported (``session``)."""
