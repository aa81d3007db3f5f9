"""BeamDeflection: the midspan deflection of a simply supported beam, from a text description (a template
benchmark: copy this folder into ``src/mechbench/benchmarks/`` and every part of mechbench picks it up)."""
