"""`manage.py analyse_finished`: queue engine analyses of finished matches that have none.

They run on the `analysis-system` queue (give it its own workers, or let the analysis workers take
it): background analysis never queues in front of engine replies or analyses people asked for.
"""
from django.core.management.base import BaseCommand

from matches.services import analysis


class Command(BaseCommand):
    help = "Queue system analyses of finished matches (perfect-information games) that have none."

    def add_arguments(self, parser):
        parser.add_argument("--level", default="easy")
        parser.add_argument("--limit", type=int, default=100)

    def handle(self, *args, level: str, limit: int, **options):
        ids = analysis.analysis_queue_finished(level=level, limit=limit)
        self.stdout.write(f"queued {len(ids)} analyses on analysis-system")
