"""Learn the shortcut panels' priors (SeeSim's and OpenSeeSimE's ``shortcut_prior.json``) from a generated SeeSim set
whose seed no shipped set uses: the raw answers (before the generator balances them) and the printed figures.

    python scripts/learn_shortcut_priors.py            # generates seed 7, 20 + 20 simulations, and writes both files

Run it again whenever the SeeSim generator's version changes (the files name the version they were learned on).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from mechbench.benchmarks.openseesime import shortcuts as openseesime_shortcuts
from mechbench.benchmarks.seesim import shortcuts as seesim_shortcuts
from mechbench.benchmarks.seesim.generated_set import write_seesim

PRIOR_SEED = 7
"""No shipped set uses it (the bundled sets use 2026)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20, help="simulations per domain")
    parser.add_argument("--seed", type=int, default=PRIOR_SEED)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / f"seed-{args.seed}"
        write_seesim(root, args.n, args.seed, "mechbench", warn=print)
        for module in (seesim_shortcuts, openseesime_shortcuts):
            prior = module.learn_prior(root)
            prior["source"] = f"{prior['source']}, {args.n} simulations per domain (scripts/learn_shortcut_priors.py)"
            module.PRIOR_FILE.write_text(json.dumps(prior, indent=1, sort_keys=True) + "\n")
            print(f"wrote {module.PRIOR_FILE}")


if __name__ == "__main__":
    main()
