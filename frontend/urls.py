"""Routes of the pages: `/`, the room link `/r/<code>` (any letter case), a match's replay
`/r/<code>/replay/<n>`, the table screen
`/r/<code>/tv`, the score sheets, and the installable app's manifest, service worker and
offline page (frontend/app_shell.py)."""

from django.urls import URLPattern, URLResolver, path, re_path

from frontend import app_shell, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("manifest.webmanifest", app_shell.manifest, name="manifest"),
    path("sw.js", app_shell.service_worker, name="service-worker"),
    path("offline/", app_shell.offline, name="offline"),
    path("r/<room:code>", views.room, name="room"),
    path("r/<room:code>/", views.room),
    path("r/<room:code>/tv", views.tv, name="tv"),
    path("r/<room:code>/replay", views.replay_current, name="replay-current"),
    path("r/<room:code>/replay/<int:number>", views.replay, name="replay"),
    path("r/<room:code>/replay/<int:number>/", views.replay),
    re_path(r"^r(?:/(?P<rest>.*))?$", views.room_missing),
    path("sheets/", views.sheets, name="sheets"),
    path("sheets/<slug:kind>/", views.sheet, name="sheet"),
]
