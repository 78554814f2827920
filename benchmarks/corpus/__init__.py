"""The accuracy benchmark's corpus: a small ML project (``mlproj``) and one driver per function."""
