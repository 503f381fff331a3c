"""SFT data selection and CISPO reinforcement learning through the context1 harness (SPEC §5). Not built yet."""

__all__: list[str] = []
