"""``python -m convexkern``: the same command line as the ``convexkern`` script."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
