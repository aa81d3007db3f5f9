"""mechbench's own simulations for generated SeeSim sets: plane-stress finite elements and lattice-Boltzmann flow."""
