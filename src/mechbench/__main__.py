"""``python -m mechbench`` runs the command line."""

from mechbench.cli import main

main()
