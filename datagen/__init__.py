"""Verified multi-hop task generation from an indexed corpus (SPEC §4). Not built yet."""

__all__: list[str] = []
