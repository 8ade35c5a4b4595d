"""``python -m entropy3d`` runs the command line."""

import sys

from entropy3d.console import main

sys.exit(main())
