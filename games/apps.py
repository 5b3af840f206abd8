from django.apps import AppConfig
from django.urls import register_converter


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.converters import IdConverter

        # Before any URL module is imported (they load after every app is ready): <id:...> in games and leagues.
        register_converter(IdConverter, "id")
