"""Language tests: the server fixtures of the API and page tests."""
from tests.matches.conftest import _fast_server  # noqa: F401  (autouse: engines reply in-process)
from tests.web.conftest import login  # noqa: F401
