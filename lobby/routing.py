"""WebSocket routes."""

from django.urls import path

from lobby.consumers import RoomConsumer

websocket_urlpatterns = [
    path("ws/rooms/<room:code>/", RoomConsumer.as_asgi()),
]
