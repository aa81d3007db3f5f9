"""StructuralEval: a drawing of a structure → FrameCalc JSON → the solver decides."""
