"""The ASGI service's URLconf: the waiting endpoints as async views (an idle client costs a
coroutine and a socket), then every other path as in pearlsite/urls.py."""
from django.urls import path

from matches.apis import streams
from pearlsite import urls
from web.views import live

urlpatterns = [
    path("api/v1/events/", streams.event_list, name="events-async"),
    path("api/v1/events/stream/", streams.event_stream, name="event-stream-async"),
    path("matches/<id:pk>/live/", live.match_live, name="match-live-async"),
    path("matches/<id:pk>/live/stream/", live.match_live_stream, name="match-live-stream"),
    *urls.urlpatterns,
]
handler404 = urls.handler404
handler500 = urls.handler500
