from django import forms
from django.utils.translation import gettext_lazy as _

from .models import URL_MAX_LENGTH, WebhookEvent


class EndpointForm(forms.Form):
    url = forms.CharField(
        label=_("Address (https://)"),
        max_length=URL_MAX_LENGTH,
        widget=forms.URLInput(attrs={"placeholder": "https://example.com/hooks/maatasite", "dir": "ltr"}),
    )
    events = forms.MultipleChoiceField(
        label=_("Events"), choices=WebhookEvent.choices, widget=forms.CheckboxSelectMultiple
    )
