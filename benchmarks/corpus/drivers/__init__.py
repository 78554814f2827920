"""Drivers: each calls one ``mlproj`` function as the project's real code would (see ``corpus.index``)."""
