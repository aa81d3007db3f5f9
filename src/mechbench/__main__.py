"""``python -m mechbench`` runs the command line.

``python -m`` puts the current folder first on ``sys.path``; it is taken off before anything else is imported, so
a module lying in the folder a user runs from (a downloaded dataset copy, say) is never imported in place of one
mechbench needs. The ``mechbench`` command never adds it.
"""

from mechbench import forget_current_folder

forget_current_folder()

from mechbench.cli import main  # noqa: E402  # only once the current folder is off sys.path

main()
