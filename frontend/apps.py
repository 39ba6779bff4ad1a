"""The pages' app: at start, the translation catalogs older than their source are compiled."""

from __future__ import annotations

import logging
from pathlib import Path

from django.apps import AppConfig
from django.conf import settings

from config.catalogs import compile_stale

log = logging.getLogger(__name__)


class FrontendConfig(AppConfig):
    name = "frontend"

    def ready(self) -> None:
        """Compile `locale/*/LC_MESSAGES/*.po` before any page is translated: a fresh clone
        has only the sources (config/catalogs.py says why). A read-only tree (an image built
        with them compiled) is left as it is."""
        for directory in settings.LOCALE_PATHS:
            try:
                compile_stale(Path(directory))
            except OSError as exc:
                log.warning("translation catalogs in %s not compiled: %s", directory, exc)
