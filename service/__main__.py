"""`python -m service` runs the `survive-us` command line."""

from service.cli import main

raise SystemExit(main())
