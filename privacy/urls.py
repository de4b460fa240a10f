"""The player's own data: export and account deletion (namespace "privacy")."""

from django.urls import path

from . import views

app_name = "privacy"

urlpatterns = [
    path("export/", views.account_export, name="export"),
    path("delete/", views.account_delete, name="delete"),
]
