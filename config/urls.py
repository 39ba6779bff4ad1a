"""URL routes: the HTTP API under /api/ (lobby), the OpenAPI schema, the pages (frontend), and
/healthz for the load balancer and the container checks."""

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, include, path
from django.views.decorators.cache import cache_control
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

from config.catalogs import catalogs_changed


def healthz(request: HttpRequest) -> HttpResponse:
    """The process serves HTTP: no database or Redis call, so a check every two seconds from
    each balancer costs nothing, and a slow store does not take every process out at once."""
    return HttpResponse(b"ok\n", content_type="text/plain")


urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", healthz),
    path("api/", include("lobby.urls")),
    # POST language=<code>: the switcher's cookie, for a page without scripts.
    path("i18n/", include("django.conf.urls.i18n")),
    # The browser code's messages in the page's language. The page asks with `?lang=`, so a
    # cache keeps one catalog per language; each load revalidates (a 304 when unchanged).
    path(
        "jsi18n/",
        cache_control(no_cache=True)(last_modified(catalogs_changed)(JavaScriptCatalog.as_view())),
        name="javascript-catalog",
    ),
    path("", include("frontend.urls")),
]

#: A wrong link gets a page that says so and leads home (JSON under /api/).
handler404 = "frontend.views.not_found"
