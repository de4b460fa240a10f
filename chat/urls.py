"""Game messages (namespace "chat")."""

from django.urls import path

from . import views

app_name = "chat"

urlpatterns = [
    path("games/<int:game_id>/messages/", views.message_create, name="message_create"),
]
