"""The publisher of room events (`lobby.publisher.Publisher`) against the installed channels_redis.

It publishes from the committing thread on the channel the pub/sub layer's `group_send`
uses, so a subscriber made through the layer's public API must receive each event exactly
once, with one Redis host or with several (the layer then subscribes a group on one of them).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings as django_settings

from lobby.embedded_redis import ensure_running
from lobby.hub import room_group
from lobby.publisher import Publisher


@pytest.fixture
def second_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Another Redis server, on a unix socket of its own."""
    var_dir = Path(tmp_path_factory.mktemp("r"))
    url = ensure_running(var_dir)
    yield url
    client = redis.Redis(unix_socket_path=url.removeprefix("unix://"))
    with contextlib.suppress(redis.ConnectionError):  # the server closes it as it stops
        client.shutdown(nosave=True)


def layer_config(hosts: list[Any]) -> dict[str, Any]:
    config = copy.deepcopy(django_settings.CHANNEL_LAYERS)
    config["default"]["CONFIG"]["hosts"] = hosts
    config["default"]["CONFIG"]["prefix"] = f"pub{uuid.uuid4().hex[:8]}"
    return config


async def received_once(layer: RedisPubSubChannelLayer, publisher: Publisher, codes: list[str]) -> None:
    channels = {}
    for code in codes:
        channels[code] = await layer.new_channel()
        await layer.group_add(room_group(code), channels[code])
    for code in codes:
        event = {"type": "lobby.chat", "code": code, "chat": {"text": code}}
        await asyncio.to_thread(publisher.publish, code, event)
        assert await asyncio.wait_for(layer.receive(channels[code]), 5) == event
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(layer.receive(channels[code]), 0.2)
    await layer.flush()


async def test_one_host_gets_each_event_once(settings: Any) -> None:
    settings.CHANNEL_LAYERS = layer_config(copy.deepcopy(django_settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]))
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer = RedisPubSubChannelLayer(**config)
    await received_once(layer, Publisher(layer), [f"one{n}" for n in range(3)])


async def test_each_event_reaches_the_host_the_layer_chose_for_its_group_once(settings: Any, second_redis: str) -> None:
    hosts = [*copy.deepcopy(django_settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]), {"address": second_redis}]
    settings.CHANNEL_LAYERS = layer_config(hosts)
    layer = RedisPubSubChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    # Enough groups that both hosts hold some, whatever hash the layer uses.
    await received_once(layer, Publisher(layer), [f"two{n}" for n in range(12)])
