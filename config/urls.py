"""URL routes: the HTTP API under /api/ (lobby), the OpenAPI schema, the pages (frontend), and
/healthz for the load balancer and the container checks."""

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, include, path


def healthz(request: HttpRequest) -> HttpResponse:
    """The process serves HTTP: no database or Redis call, so a check every two seconds from
    each balancer costs nothing, and a slow store does not take every process out at once."""
    return HttpResponse(b"ok\n", content_type="text/plain")


urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", healthz),
    path("api/", include("lobby.urls")),
    path("", include("frontend.urls")),
]

#: A wrong link gets a page that says so and leads home (JSON under /api/).
handler404 = "frontend.views.not_found"
