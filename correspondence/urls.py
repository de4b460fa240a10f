from django.urls import path

from . import views

app_name = "correspondence"

urlpatterns = [
    path("open/<str:token>/", views.game_open, name="open"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("settings/", views.mail_settings, name="settings"),
    path("calendar/<str:secret>.ics", views.calendar_feed, name="calendar"),
    path("inbound/", views.inbound_mail, name="inbound"),
    path("webhooks/bounces/", views.bounce_webhook, name="bounce_webhook"),
]
