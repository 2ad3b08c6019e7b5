"""The event scan starts at the newest event: a new install mails nothing about the past."""
from django.db import migrations


def start_cursor(apps, schema_editor):
    Event = apps.get_model("matches", "Event")
    ScanCursor = apps.get_model("notifications", "ScanCursor")
    newest = Event.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    ScanCursor.objects.update_or_create(name="events", defaults={"position": newest})


class Migration(migrations.Migration):
    dependencies = [("notifications", "0001_initial"), ("matches", "0011_list_indexes")]
    operations = [migrations.RunPython(start_cursor, migrations.RunPython.noop)]
