"""``python -m mechbench`` runs the command line.

``python -m`` puts the current folder first on ``sys.path``; it is taken off before anything else is imported, so
a module lying in the folder a user runs from (a downloaded dataset copy, say) is never imported in place of one
mechbench needs. The ``mechbench`` command never adds it.
"""

import os
import sys

if sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.getcwd():
    del sys.path[0]

from mechbench.cli import main

main()
