"""The privacy app's paths under /api/v1/ (URL names in the "api" namespace)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("account/export/", apis.AccountExportView.as_view(), name="account_export"),
    path("account/delete/", apis.AccountDeleteView.as_view(), name="account_delete"),
]
