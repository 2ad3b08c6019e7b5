"""Server tests: engines think briefly and Celery tasks run in-process (eagerly)."""
import pytest


@pytest.fixture(autouse=True)
def _fast_server(settings):
    """Engines think for a twentieth of their level's time in tests; tasks run in-process;
    passwords hash cheaply (persona set-up would otherwise dominate the run time)."""
    import ai_workers.tasks  # noqa: F401  (registers the worker tasks, which then run in-process)
    import matches.tasks  # noqa: F401  (and the app's own, such as pairing a tournament's next round)
    from pearlsite.celery import app

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AI_TIME_SCALE = 0.05
    settings.ANALYSIS_SECONDS_PER_PLY = 0.02
    # Long polls and event streams answer at once unless a test asks for waiting.
    settings.EVENTS_MAX_WAIT_SECONDS = 0
    settings.EVENT_STREAM_SECONDS = 0
    # With the CELERY namespace, app.conf keeps the Django-style key name.
    eager = app.conf.CELERY_TASK_ALWAYS_EAGER
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    yield
    app.conf.CELERY_TASK_ALWAYS_EAGER = eager
