"""Routes of the pages: `/`, the room link `/r/<code>` (any letter case), a match's replay
`/r/<code>/replay/<n>`, the table screen
`/r/<code>/tv`, and the score sheets."""

from django.urls import URLPattern, URLResolver, path, re_path

from frontend import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
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
