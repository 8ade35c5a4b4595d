"""``python -m entropy3d.cli`` runs the command line."""

import sys

from entropy3d.cli import main

sys.exit(main())
