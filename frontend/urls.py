"""Routes of the pages: `/`, the room link `/r/<code>` of SPEC §7, and the score sheets."""

from django.urls import URLPattern, URLResolver, path, re_path

from frontend import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    re_path(r"^r/(?P<code>[A-Za-z0-9_-]{4,64})/?$", views.room, name="room"),
    path("sheets/", views.sheets, name="sheets"),
    path("sheets/<slug:kind>/", views.sheet, name="sheet"),
]
