"""The Glass Pearl Game family (docs/rules/pearl.md): five games on one grooved lattice, built from
two shared primitives, slide-push and push-in (push.py). Importing the package registers them."""
from . import five  # noqa: F401  (registers pearl-five)
from . import yard  # noqa: F401  (registers pearl-yard)
from . import maze  # noqa: F401  (registers pearl-maze)
from . import survival  # noqa: F401  (registers pearl-survival)
from . import war  # noqa: F401  (registers pearl-war)
