from django.apps import AppConfig
from django.urls import register_converter

from games.converters import IdConverter  # a plain class: importing it loads no models


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Before any URL module is imported (they load after every app is ready): <id:...> in games and leagues.
        register_converter(IdConverter, "id")
