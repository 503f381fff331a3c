"""Wombat: an invented HTTP client, the fixture of tests/datagen/test_datagen_doc_source.py."""

from .client import Client as Client
