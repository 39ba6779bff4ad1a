"""Routes of the HTTP API, mounted under /api/."""

from django.urls import URLPattern, URLResolver, path, re_path
from drf_spectacular.views import SpectacularAPIView

from lobby import apis, replay_apis
from lobby.openapi import ContractGenerator

urlpatterns: list[URLPattern | URLResolver] = [
    path("schema/", SpectacularAPIView.as_view(generator_class=ContractGenerator), name="schema"),
    path("games/", apis.GameListApi.as_view(), name="games"),
    path("rooms/", apis.RoomCreateApi.as_view(), name="room-create"),
    path("rooms/<room:code>/", apis.RoomDetailApi.as_view(), name="room-detail"),
    path("rooms/<room:code>/seats/", apis.SeatCreateApi.as_view(), name="seat-create"),
    path("rooms/<room:code>/seats/<int:seat>/", apis.SeatDetailApi.as_view(), name="seat-detail"),
    path("rooms/<room:code>/start/", apis.MatchStartApi.as_view(), name="match-start"),
    path("rooms/<room:code>/rematch/", apis.MatchRematchApi.as_view(), name="match-rematch"),
    path("rooms/<room:code>/matches/<int:number>/", apis.MatchRecordApi.as_view(), name="match-record"),
    path(
        "rooms/<room:code>/matches/<int:number>/hands/<int:hand>/positions/",
        replay_apis.HandPositionsApi.as_view(),
        name="hand-positions",
    ),
    path(
        "rooms/<room:code>/matches/<int:number>/review/",
        replay_apis.MatchReviewApi.as_view(),
        name="match-review",
    ),
    # Any other path under /api/, with any method: a 404 problem, not the site's HTML page.
    re_path(r"^(?P<path>.*)$", apis.api_not_found, name="api-not-found"),
]
