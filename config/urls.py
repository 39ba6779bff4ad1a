"""URL routes: the HTTP API under /api/ (lobby), the OpenAPI schema, and the pages (frontend)."""

from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("api/", include("lobby.urls")),
    path("", include("frontend.urls")),
]
