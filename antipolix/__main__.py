"""``python -m antipolix``: the command line."""

import sys

from antipolix.cli import main

sys.exit(main())
