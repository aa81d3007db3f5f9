"""The benchmark protocols mechbench runs: StructuralEval, SeeSim and SPhyR."""
