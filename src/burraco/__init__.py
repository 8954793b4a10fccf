"""Burraco: the rules engine, bots, records and tools."""

__version__ = "0.1.0"
