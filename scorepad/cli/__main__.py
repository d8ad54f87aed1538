"""``python -m scorepad.cli``: the ``scorepad`` command, as the console script runs it."""

import sys

from . import main

sys.exit(main())
