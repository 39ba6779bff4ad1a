"""URL routes: the HTTP API under /api/ and the pages."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
