from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        # Registers the OpenAPI description of the Bearer token authentication, and the proxy
        # settings check (warns on runserver, migrate and `manage.py check`); personal_data
        # imports the models, hence here.
        from . import authentication, client_address, personal_data  # noqa: F401

        personal_data.register()  # the API's tokens in the account export and erasure
