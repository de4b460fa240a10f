from django.urls import path

from . import views

app_name = "webhooks"

urlpatterns = [
    path("", views.webhook_settings, name="settings"),
    path("<int:endpoint_id>/log/", views.webhook_log, name="log"),
]
