"""The webhooks app's paths under /api/v1/ (URL names in the "api" namespace)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("webhooks/", apis.EndpointsView.as_view(), name="webhooks"),
    path("webhooks/<int:endpoint_id>/", apis.EndpointView.as_view(), name="webhook"),
    path("webhooks/<int:endpoint_id>/secret/", apis.EndpointSecretView.as_view(), name="webhook_secret"),
    path("webhooks/<int:endpoint_id>/deliveries/", apis.EndpointDeliveriesView.as_view(), name="webhook_deliveries"),
]
