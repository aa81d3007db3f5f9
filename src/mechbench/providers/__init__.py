"""Built-in Inspect models (provider name ``mechbench``): baselines that need no API key."""

from inspect_ai.model import ModelAPI, modelapi


@modelapi(name="mechbench")
def mechbench_provider() -> type[ModelAPI]:
    """Register the provider lazily, as Inspect's own providers do."""
    from mechbench.providers.model import MechbenchModel

    return MechbenchModel


__all__ = ["mechbench_provider"]
